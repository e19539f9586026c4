import { agents } from '../agents/index.ts'
import { USER_TRIGGERED_FETCHERS } from '../agents/exempt.ts'
import { normalizeEncoding } from '../robots/index.ts'
import { strictest, USAGE_CATEGORIES } from './content-usage.ts'
import type { ConfigContext, ConfigInput, ContentUsage, ResolvedConfig, ResolvedRule, RobotsConfig, RuleConfig, SingleRuleConfig } from './types.ts'
import { isBucketHost } from './host.ts'
import { ConfigError, validateConfig, type ConfigIssue } from './validate.ts'

/** Every default, declared once. */
export const DEFAULTS = {
  guard: {
    mode: 'log',
    status: 403,
    body: "Refused: this site's robots.txt disallows this path for your crawler.\n",
    headers: {},
    spoofed: 'judge',
    exempt: USER_TRIGGERED_FETCHERS,
    crawlDelay: 'measure',
  },
  cacheControl: 'public, max-age=300',
  forwardedHeaders: 'overwrite',
  previewHosts: ['*.workers.dev', '*.pages.dev'],
  protect: agents.searchEngines,
  env: 'production',
  noindexDirectives: ['noindex'],
} as const

const list = <T>(v: T | readonly T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? [...(v as readonly T[])] : [v as T])

/** Is `host` one of `patterns` (exact, or `*.suffix` for any subdomain of suffix)? */
export function matchesHost(host: string, patterns: readonly string[]): boolean {
  const h = host.toLowerCase()
  return patterns.some((p) => {
    const pattern = p.toLowerCase()
    return pattern.startsWith('*.') ? h.endsWith(pattern.slice(1)) : h === pattern
  })
}

type UsageLine = ResolvedRule['contentUsage'][number]

/**
 * A group's Content-Usage lines. The draft's line needs a path (attach-05
 * §3), so the group-wide preferences are written for `/`. robots-edge
 * deviation: a path's line repeats the group-wide categories it does not
 * set, since the longest matching line alone decides (§3.1) and a path
 * would otherwise lose them.
 */
function usageLines(usage: ContentUsage | undefined): UsageLine[] {
  if (usage === undefined) return []
  const { paths, ...wide } = usage
  const lines: UsageLine[] = USAGE_CATEGORIES.some((key) => wide[key] !== undefined) ? [{ path: '/', preferences: wide }] : []
  for (const [path, own] of Object.entries(paths ?? {})) lines.push({ path: normalizeEncoding(path), preferences: { ...wide, ...own } })
  return lines
}

/** Lines for the same path from merged groups: the most restrictive statement wins (vocab-07 "Combining Preferences"; attach-05 §3.1). */
function combineUsage(lines: readonly UsageLine[]): UsageLine[] {
  const byPath = new Map<string, UsageLine>()
  for (const line of lines) {
    const seen = byPath.get(line.path)
    byPath.set(line.path, seen === undefined ? line : { path: line.path, preferences: strictest(seen.preferences, line.preferences) })
  }
  return [...byPath.values()]
}

function resolveRule(rule: RuleConfig | SingleRuleConfig): ResolvedRule {
  // A token named twice in one group is written once (compared as crawlers do, ignoring case).
  const agents = list(rule.userAgent ?? '*').filter((ua, i, all) => all.findIndex((u) => u.toLowerCase() === ua.toLowerCase()) === i)
  return {
    userAgent: agents,
    allow: list(rule.allow),
    disallow: list(rule.disallow),
    crawlDelay: rule.crawlDelay,
    contentSignal: rule.contentSignal,
    contentUsage: usageLines(rule.contentUsage),
    comment: rule.comment,
    other: Object.entries(rule.other ?? {}).flatMap(([key, v]) => list(v).map((item): [string, string] => [key, String(item)])),
    guard: rule.guard,
  }
}

/**
 * RFC 9309 §2.2.1: a crawler merges every group that names its token. When a
 * config names a token in several groups, it gets one group of its own with
 * the rules of all of them, in place of its first mention; the validator
 * has already warned. Other tokens keep their groups unchanged.
 */
function mergeDuplicates(rules: ResolvedRule[]): ResolvedRule[] {
  const where = new Map<string, number[]>()
  rules.forEach((rule, i) => {
    for (const ua of new Set(rule.userAgent.map((u) => u.toLowerCase()))) where.set(ua, [...(where.get(ua) ?? []), i])
  })
  const duplicated = [...where].filter(([, at]) => at.length > 1)
  if (duplicated.length === 0) return rules
  const dropped = new Set(duplicated.map(([ua]) => ua))
  const mergedAt = new Map<number, ResolvedRule[]>()
  for (const [ua, at] of duplicated) {
    const groups = at.map((i) => rules[i]!)
    const first = groups[0]!
    const merged: ResolvedRule = {
      userAgent: [first.userAgent.find((u) => u.toLowerCase() === ua)!],
      allow: groups.flatMap((g) => g.allow),
      disallow: groups.flatMap((g) => g.disallow),
      crawlDelay: groups.find((g) => g.crawlDelay !== undefined)?.crawlDelay,
      contentSignal: groups.find((g) => g.contentSignal !== undefined)?.contentSignal,
      contentUsage: combineUsage(groups.flatMap((g) => g.contentUsage)),
      comment: undefined,
      other: groups.flatMap((g) => g.other),
      guard: groups.find((g) => g.guard !== undefined)?.guard,
    }
    mergedAt.set(at[0]!, [...(mergedAt.get(at[0]!) ?? []), merged])
  }
  const out: ResolvedRule[] = []
  rules.forEach((rule, i) => {
    out.push(...(mergedAt.get(i) ?? []))
    const rest = rule.userAgent.filter((u) => !dropped.has(u.toLowerCase()))
    if (rest.length > 0) out.push({ ...rule, userAgent: rest })
  })
  return out
}

/** The config object for one context: the input itself, or what its function returns. Throws ConfigError when the function throws. */
export function configFor(input: ConfigInput, context: ConfigContext): unknown {
  try {
    return typeof input === 'function' ? input(context) : input
  } catch (error) {
    throw new ConfigError([
      {
        path: '(config)',
        message: `the config function threw for host "${context.host}", env "${context.env}": ${(error as Error)?.message ?? String(error)}`,
        fix: 'Make it return a config for every host and environment.',
      },
    ])
  }
}

/**
 * Whether a validated config serves its rules in this context: production
 * on a host that is no preview, or anywhere when it says `indexable: true`.
 * A host outside `hosts`, or no host name at all, is served as a preview is.
 */
export function indexableFor(c: RobotsConfig, context: ConfigContext): boolean {
  const production = context.env === 'production' && !isBucketHost(context.host) && !matchesHost(context.host, c.previewHosts ?? DEFAULTS.previewHosts)
  return production || c.indexable === true
}

/**
 * Reads the config a site owner wrote for one host and environment. Throws
 * ConfigError when it is invalid. Only `host` and `indexable` depend on the
 * context (createPolicies relies on it to share one resolution across hosts).
 */
export function resolveConfig(input: ConfigInput, context: ConfigContext): { config: ResolvedConfig; warnings: ConfigIssue[] } {
  const raw = configFor(input, context)
  const { errors, warnings } = validateConfig(raw)
  if (errors.length > 0) throw new ConfigError(errors)
  return { config: resolveValid(raw as RobotsConfig, context), warnings }
}

/**
 * resolveConfig for a config validated already (by the build, see
 * policies.ts `configChecked`): the same result, without the validator.
 */
export function resolveValid(c: RobotsConfig, context: ConfigContext): ResolvedConfig {
  return {
    host: context.host,
    env: context.env,
    indexable: indexableFor(c, context),
    rules: mergeDuplicates(list(c.rules).map(resolveRule)),
    sitemap: list(c.sitemap),
    robotsHost: c.host,
    header: c.header,
    guard: {
      mode: c.guard?.mode ?? DEFAULTS.guard.mode,
      status: c.guard?.status ?? DEFAULTS.guard.status,
      body: c.guard?.body ?? DEFAULTS.guard.body,
      headers: { ...DEFAULTS.guard.headers, ...c.guard?.headers },
      spoofed: c.guard?.spoofed ?? DEFAULTS.guard.spoofed,
      crawlDelay: c.guard?.crawlDelay ?? DEFAULTS.guard.crawlDelay,
      exempt: (c.guard?.exempt ?? DEFAULTS.guard.exempt).map((token) => token.toLowerCase()),
    },
    cacheControl: c.cacheControl ?? DEFAULTS.cacheControl,
    hosts: c.hosts === undefined ? undefined : [...c.hosts],
    forwardedHeaders: c.forwardedHeaders ?? DEFAULTS.forwardedHeaders,
    noindex: list(c.noindex).map((rule) => {
      const agents = list(rule.userAgent).map((ua) => ua.toLowerCase())
      return {
        paths: list(rule.path).map(normalizeEncoding),
        // `*` names every crawler, as leaving userAgent out does.
        userAgent: agents.includes('*') ? [] : [...new Set(agents)],
        directives: [...new Set(rule.directives ?? DEFAULTS.noindexDirectives)],
      }
    }),
    noindexMeta: c.noindexMeta === true,
    protect: (c.protect ?? DEFAULTS.protect).map((token) => token.toLowerCase()),
  }
}
