import { normalizeEncoding } from './encoding.ts'
import { pathOf } from './match.ts'
import { PrefixTrie } from './prefix-trie.ts'
import type { ParsedRobotsTxt, RobotsTxtModel, Rule } from './types.ts'

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

/**
 * A group's rules for a prefix reader: each normalised pattern once, with
 * the earliest rule that has it (the 1996 draft's first match among equal
 * patterns).
 */
interface PreparedGroup {
  readonly index: PrefixTrie
  /** By literal index: the earliest rule, and its position in the group. */
  readonly first: readonly { readonly rule: Rule; readonly at: number }[]
  /** The empty `Disallow:` of a 1994 group (which allows everything), if any. */
  readonly empty: Rule | null
}

function prepare(rules: readonly Rule[]): PreparedGroup {
  const earliest = new Map<string, { rule: Rule; at: number }>()
  rules.forEach((rule, at) => {
    const pattern = normalizeEncoding(rule.pattern)
    if (!earliest.has(pattern)) earliest.set(pattern, { rule, at })
  })
  return { index: new PrefixTrie([...earliest.keys()]), first: [...earliest.values()], empty: null }
}

/**
 * The group a substring-choosing reader obeys: the first whose value is part
 * of the crawler's name, else the first `*` group, else none (-1). Values are
 * compared as written (`agentValues` of a parsed file), and an empty value is
 * part of every name, as in `urllib.robotparser`.
 */
export function substringGroup(model: RobotsTxtModel | ParsedRobotsTxt, name: string): number {
  const wanted = name.split('/')[0]!.toLowerCase()
  const values = 'agentValues' in model ? model.agentValues : model.groups.map((g) => g.userAgents)
  let fallback = -1
  for (let i = 0; i < values.length; i++) {
    const agents = values[i]!
    if (agents.includes('*')) {
      if (fallback < 0) fallback = i
      continue
    }
    if (agents.some((agent) => wanted.includes(agent.toLowerCase()))) return i
  }
  return fallback
}

/**
 * Compiles one of the older readings of a parsed (or hand-built) model.
 * Groups are prepared on first use.
 *
 * @example
 * const python = compileReader(parseRobotsTxt('User-agent: *\nAllow: /\nDisallow: /admin/\n'), 'first-match')
 * python.check('examplebot', '/admin/x')
 * // { allowed: true, group: 0, rule: { type: 'allow', pattern: '/', line: 2 } }
 */
export function compileReader(model: RobotsTxtModel | ParsedRobotsTxt, name: ReaderName): Reader {
  const prepared: (PreparedGroup | undefined)[] = []
  const prepareGroup = (i: number): PreparedGroup => {
    const rules = model.groups[i]!.rules
    if (name === 'first-match') return prepare(rules)
    // 1994: no Allow; "Disallow:" with no value allows everything.
    const disallows = rules.filter((rule) => rule.type === 'disallow')
    const empty = disallows.find((rule) => rule.pattern === '') ?? null
    return { ...prepare(disallows.filter((rule) => rule.pattern !== '')), empty }
  }
  // Crawler names come from outside: the memo is bounded.
  const groups = new Map<string, number>()
  const groupFor = (crawler: string): number => {
    let group = groups.get(crawler)
    if (group === undefined) {
      group = substringGroup(model, crawler)
      if (groups.size >= 512) groups.clear()
      groups.set(crawler, group)
    }
    return group
  }
  return {
    name,
    groupFor,
    check(crawler, url) {
      const group = groupFor(crawler)
      if (group < 0) return { allowed: true, group, rule: null }
      const { index, first, empty } = (prepared[group] ??= prepareGroup(group))
      // The earliest in file order of the rules whose pattern is a prefix of the path.
      let decided: { rule: Rule; at: number } | undefined
      index.prefixes(normalizeEncoding(pathOf(url)), (i) => {
        if (decided === undefined || first[i]!.at < decided.at) decided = first[i]
      })
      if (decided === undefined) return { allowed: true, group, rule: empty }
      const { rule } = decided
      return { allowed: rule.type === 'allow' || rule.pattern === '', group, rule }
    },
  }
}
