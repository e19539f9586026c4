import { normalizeEncoding } from './encoding.ts'
import { pathOf } from './match.ts'
import type { RobotsTxtModel, Rule } from './types.ts'

/**
 * Readers of robots.txt older than RFC 9309, which many crawlers still are.
 * robots-edge enforces Google's reading (RFC 9309); these exist so the linter
 * and the tests can see where a file means something else to them.
 *
 * - `first-match`: Koster's 1996 draft ("draft-koster-robots-00"), as
 *   Python's `urllib.robotparser` implements it. The first group whose
 *   user-agent value is a substring of the crawler's name (before `/`,
 *   case-insensitive) applies; a `*` group only when none does (the first
 *   one; later `*` groups are never read). The first rule in file order whose
 *   pattern is a prefix of the path decides. `*` and `$` are ordinary
 *   characters. An empty `Disallow:` allows everything.
 * - `prefix-1994`: the 1994 "A Standard for Robot Exclusion". Groups are
 *   chosen the same way; there is no `Allow` (an unknown field, ignored); any
 *   `Disallow` pattern that is a prefix of the path forbids it.
 *
 * Both compare percent-encoding-normalised patterns and paths, as RFC 9309
 * §2.2.2 does, so that a difference they report is one of order, wildcards,
 * `Allow` or group choice, never of encoding.
 */
export type ReaderName = 'first-match' | 'prefix-1994'

export interface ReaderVerdict {
  readonly allowed: boolean
  /** Index in `model.groups` of the group the reader obeys, or -1 for none. */
  readonly group: number
  /** The rule that decided, or null when none matched. */
  readonly rule: Rule | null
}

export interface Reader {
  readonly name: ReaderName
  /** The verdict for a crawler named `name` (a product token, or a `Name/1.0` header) and a URL or path. */
  check(name: string, url: string): ReaderVerdict
  /** The index of the group a crawler named `name` obeys, or -1. */
  groupFor(name: string): number
}

interface PreparedRule {
  readonly rule: Rule
  readonly pattern: string
}

/**
 * The group a substring-choosing reader obeys: the first whose value is part
 * of the crawler's name, else the first `*` group, else none (-1). An empty
 * value is part of every name, as in `urllib.robotparser`.
 */
export function substringGroup(model: RobotsTxtModel, name: string): number {
  const wanted = name.split('/')[0]!.toLowerCase()
  let fallback = -1
  for (let i = 0; i < model.groups.length; i++) {
    const agents = model.groups[i]!.userAgents
    if (agents.includes('*')) {
      if (fallback < 0) fallback = i
      continue
    }
    if (agents.some((agent) => wanted.includes(agent.toLowerCase()))) return i
  }
  return fallback
}

/** Compiles one of the older readings of a parsed (or hand-built) model. */
export function compileReader(model: RobotsTxtModel, name: ReaderName): Reader {
  const prepared: PreparedRule[][] = model.groups.map((group) =>
    group.rules
      .filter((rule) => name === 'first-match' || rule.type === 'disallow')
      .map((rule) => ({ rule, pattern: normalizeEncoding(rule.pattern) })),
  )
  const groupFor = (crawler: string): number => substringGroup(model, crawler)
  return {
    name,
    groupFor,
    check(crawler, url) {
      const group = groupFor(crawler)
      if (group < 0) return { allowed: true, group, rule: null }
      const path = normalizeEncoding(pathOf(url))
      const rules = prepared[group]!
      if (name === 'first-match') {
        const first = rules.find((r) => path.startsWith(r.pattern))
        if (first === undefined) return { allowed: true, group, rule: null }
        return { allowed: first.rule.type === 'allow' || first.pattern === '', group, rule: first.rule }
      }
      // 1994: "Disallow:" with no value allows everything; any other
      // Disallow that prefixes the path forbids it.
      const forbidding = rules.find((r) => r.pattern !== '' && path.startsWith(r.pattern))
      if (forbidding !== undefined) return { allowed: false, group, rule: forbidding.rule }
      return { allowed: true, group, rule: rules.find((r) => r.pattern === '')?.rule ?? null }
    },
  }
}
