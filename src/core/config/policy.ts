import {
  compileRobotsTxt,
  MAX_FILE_BYTES,
  parseRobotsTxt,
  readerSafeModel,
  serializeRobotsTxt,
  type Group,
  type OtherRecord,
  type RobotsMatcher,
  type RobotsTxtModel,
  type Rule,
} from '../robots/index.ts'
import { usageValue } from './content-usage.ts'
import { contentHash } from './hash.ts'
import { INVALID_HOST, OTHER_HOSTS } from './host.ts'
import { compileSignals, type ResponseSignals } from './signals.ts'
import type { ContentSignal, GuardMode, ResolvedConfig } from './types.ts'
import { ConfigError } from './validate.ts'

/**
 * Everything served and enforced for one host and environment, built once
 * per isolate: the robots.txt text, its version, and the matcher compiled
 * from that very text, so the file crawlers read and the verdicts the guard
 * enforces cannot drift apart (and each verdict's line is a line of the file).
 */
export interface Policy {
  readonly config: ResolvedConfig
  readonly model: RobotsTxtModel
  readonly text: string
  /** Content hash of `text`: the robots.txt version recorded with each judged request. */
  readonly version: string
  /** Strong ETag of the served file. */
  readonly etag: string
  readonly matcher: RobotsMatcher
  /** The headers passed-through responses get (Content-Usage, X-Robots-Tag). */
  readonly signals: ResponseSignals
  /** The guard's mode for a verdict of this group (`'*'`, a lower-case token, or null). */
  modeFor(group: string | null): GuardMode
}

const SIGNAL_NAMES: readonly [keyof ContentSignal, string][] = [
  ['search', 'search'],
  ['aiInput', 'ai-input'],
  ['aiTrain', 'ai-train'],
]

function contentSignal(signal: ContentSignal): string {
  return SIGNAL_NAMES.filter(([key]) => signal[key] !== undefined)
    .map(([key, name]) => `${name}=${signal[key] ? 'yes' : 'no'}`)
    .join(', ')
}

const WHY_NOT_PRODUCTION: Readonly<Record<string, string>> = { [OTHER_HOSTS]: 'a host not listed in `hosts`', [INVALID_HOST]: 'the Host header is no host name' }

const NOT_PRODUCTION_NOTE = (c: ResolvedConfig) =>
  `Not production (${c.env !== 'production' ? `environment ${c.env}` : (WHY_NOT_PRODUCTION[c.host] ?? `preview host ${c.host}`)}): every crawler is\n` +
  'disallowed so this deployment is never indexed. Set `indexable: true`\n' +
  'in robots.config.ts to serve the real rules here.'

/**
 * The robots.txt model a resolved config describes, in the order every
 * reader agrees on (src/core/robots/reader-safe.ts): the config's meaning under
 * RFC 9309, written so that first-match readers such as Python's
 * `urllib.robotparser` read the same verdicts wherever patterns have no
 * wildcards.
 */
export function toRobotsModel(config: ResolvedConfig): RobotsTxtModel {
  if (!config.indexable) {
    return {
      header: NOT_PRODUCTION_NOTE(config),
      groups: [{ userAgents: ['*'], rules: [{ type: 'disallow', pattern: '/' }], other: [] }],
      sitemaps: [],
      other: [],
    }
  }
  const groups: Group[] = config.rules.map((rule) => {
    const other: OtherRecord[] = []
    if (rule.crawlDelay !== undefined) other.push({ key: 'Crawl-delay', value: String(rule.crawlDelay) })
    if (rule.contentSignal !== undefined) other.push({ key: 'Content-Signal', value: contentSignal(rule.contentSignal) })
    // draft-ietf-aipref-attach-05 §3: `Content-Usage: <path> <preferences>`, a rule of the group.
    for (const line of rule.contentUsage) other.push({ key: 'Content-Usage', value: `${line.path} ${usageValue(line.preferences)}` })
    for (const [key, value] of rule.other) other.push({ key, value })
    const rules: Rule[] = [...rule.allow.map((pattern): Rule => ({ type: 'allow', pattern })), ...rule.disallow.map((pattern): Rule => ({ type: 'disallow', pattern }))]
    return { userAgents: [...rule.userAgent], rules, other, ...(rule.comment ? { comment: rule.comment } : {}) }
  })
  return readerSafeModel({
    ...(config.header ? { header: config.header } : {}),
    groups,
    sitemaps: [...config.sitemap],
    other: config.robotsHost ? [{ key: 'Host', value: config.robotsHost }] : [],
  })
}

/** Builds the policy for a resolved config. Throws ConfigError when the file would be too large to be read whole. */
export function buildPolicy(config: ResolvedConfig): Policy {
  const model = toRobotsModel(config)
  const text = serializeRobotsTxt(model)
  const bytes = new TextEncoder().encode(text).length
  if (bytes > MAX_FILE_BYTES) {
    throw new ConfigError([
      {
        path: 'rules',
        message: `the robots.txt would be ${(bytes / 1024).toFixed(0)} KiB; crawlers may ignore everything after 500 KiB (RFC 9309 §2.5).`,
        fix: 'Merge groups and remove redundant rules.',
      },
    ])
  }
  const version = contentHash(text)
  const modes = new Map<string, GuardMode>()
  if (config.indexable) {
    for (const rule of config.rules) {
      if (rule.guard === undefined) continue
      for (const ua of rule.userAgent) modes.set(ua.toLowerCase(), rule.guard)
    }
  }
  return {
    config,
    model,
    text,
    version,
    etag: `"${version}"`,
    matcher: compileRobotsTxt(parseRobotsTxt(text)),
    signals: compileSignals(config),
    modeFor: (group) => (group === null ? config.guard.mode : (modes.get(group) ?? config.guard.mode)),
  }
}
