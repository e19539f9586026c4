import { matchesPattern, normalizeEncoding, pathOf } from '../robots/index.ts'
import type { UsagePreferences } from './content-usage.ts'
import type { ResolvedConfig } from './types.ts'

/**
 * What the Worker adds to the responses it passes through, computed from
 * the same resolved config as robots.txt: the `Content-Usage` preferences
 * of the group that judges a request, and the `X-Robots-Tag` directives of
 * the `noindex` rules a URL matches. Built once per policy.
 */
export interface ResponseSignals {
  /** Whether any response can get a header at all (a cheap test before any URL is read). */
  readonly any: boolean
  /** The Content-Usage preferences for `url` under `group` (a lower-case token or `'*'`), or undefined. */
  contentUsage(group: string, url: string): UsagePreferences | undefined
  /** The directives for `url`: those for every crawler, then per crawler (lower-case token). */
  robotsTag(url: string): RobotsTag | undefined
}

/** `X-Robots-Tag` directives: those for every crawler (`noindex`), and those for one (`googlebot: noindex`, Google's form). */
export interface RobotsTag {
  readonly all: readonly string[]
  readonly named: readonly string[]
}

type UsageLine = ResolvedConfig['rules'][number]['contentUsage'][number]

/** Not production (staging, a preview host): nothing may be indexed, wherever it is. */
const EVERYTHING: RobotsTag = { all: ['noindex'], named: [] }

/** The path and query a pattern matches (RFC 9309 §2.2.2), percent-encoding-normalised as the patterns are. */
const pathFor = (url: string) => normalizeEncoding(pathOf(url))

export function compileSignals(config: ResolvedConfig): ResponseSignals {
  if (!config.indexable) return { any: true, contentUsage: () => undefined, robotsTag: () => EVERYTHING }
  // Per group token, its lines longest first: the longest matching pattern decides (attach-05 §3.1, as RFC 9309 §2.2.2).
  const usage = new Map<string, readonly UsageLine[]>()
  for (const rule of config.rules) {
    if (rule.contentUsage.length === 0) continue
    const lines = [...rule.contentUsage].sort((a, b) => b.path.length - a.path.length)
    for (const ua of rule.userAgent) usage.set(ua.toLowerCase(), lines)
  }
  const noindex = config.noindex.map((rule) => ({
    paths: rule.paths,
    all: rule.userAgent.length === 0 ? rule.directives : [],
    named: rule.userAgent.flatMap((ua) => rule.directives.map((d) => `${ua}: ${d}`)),
  }))
  return {
    any: usage.size > 0 || noindex.length > 0,
    contentUsage(group, url) {
      const lines = usage.get(group)
      if (lines === undefined) return undefined
      const path = pathFor(url)
      return lines.find((l) => matchesPattern(l.path, path))?.preferences
    },
    robotsTag(url) {
      if (noindex.length === 0) return undefined
      const path = pathFor(url)
      const all = new Set<string>()
      const named = new Set<string>()
      for (const rule of noindex) {
        if (!rule.paths.some((p) => matchesPattern(p, path))) continue
        for (const d of rule.all) all.add(d)
        for (const d of rule.named) named.add(d)
      }
      return all.size + named.size === 0 ? undefined : { all: [...all], named: [...named] }
    },
  }
}
