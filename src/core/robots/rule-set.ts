import { maskBit, precedes, type CompiledRule } from './compiled-rule.ts'
import { EXACT, matchPattern, PREFIX } from './match.ts'
import { PrefixTrie } from './prefix-trie.ts'
import type { Verdict } from './types.ts'

/**
 * A token's merged rules, arranged so a check visits few of them:
 *
 * - prefix rules (no `*`, no `$`): the longest literal that is a prefix of
 *   the path is the best of them; a scan when there are few, else one walk
 *   down a PrefixTrie;
 * - exact rules (`$` and no `*`) in the same trie: when the walk ends on
 *   one at the path's end it matches, and beats every prefix rule, whose
 *   literal is shorter;
 * - the rest (`*`) in precedence order, split by the path's second octet
 *   (the first after the leading `/`) and, where the pattern fixes it, the
 *   third; each list keeps the rules that may match any such path, in
 *   order. A long file has hundreds of rules per token and a path can only
 *   match those whose literal start agrees with it.
 */
export interface RuleSet {
  readonly token: string
  /**
   * How a path must be prepared (see compile.ts): `plain`, the raw path
   * decides as its normalised form would; `raw-first`, no rule holds `%`, so
   * a path without `%` can be tried raw (see `decide`); `normalise`, the
   * path is normalised first whenever it holds `%` or non-ASCII.
   *
   * A literal without `%` matches neither a raw non-ASCII character nor the
   * `%XX` that normalisation writes for it; only a segment after a `*` that
   * starts with a hex digit can match inside such an escape (a pattern's
   * first segment starts at the path's `/`), so a set without those is plain.
   */
  readonly mode: 'plain' | 'raw-first' | 'normalise'
  /** The verdict when no rule matches (and for /robots.txt). */
  readonly none: Verdict
  /**
   * The verdict of every path but /robots.txt, when the rules make it one:
   * a set whose only rule is `Disallow: /` (or `Allow: /`, or an empty
   * pattern), as for most crawlers a file keeps out entirely. Null otherwise.
   */
  readonly constant: Verdict | null
  /** Prefix rules when there are few: the best per literal, longest first. */
  readonly short: readonly CompiledRule[] | null
  /** Otherwise all of them, by literal. */
  readonly prefixes: PrefixTrie | null
  /** By literal index in `prefixes`: the rule that wins among those with that literal. */
  readonly prefixRules: readonly CompiledRule[]
  /** Exact rules (in `prefixes` too, as exact literals): the one that wins per literal. */
  readonly exactRules: readonly CompiledRule[]
  /** The wildcard rules, by what the path starts with. */
  readonly wildcards: WildIndex
}

/** Up to this many prefix literals a scan, longest first, beats a walk down the trie. */
const SHORT = 6

/** `rules` in file order (the order they were merged in). */
export function buildRuleSet(token: string, rules: readonly CompiledRule[]): RuleSet {
  const best = new Map<string, CompiledRule>()
  const exact = new Map<string, CompiledRule>()
  const wild: CompiledRule[] = []
  let percentFree = true
  let sensitive = false
  for (const rule of rules) {
    if (percentFree && rule.literal.includes('%')) percentFree = false
    if (rule.kind === PREFIX || rule.kind === EXACT) {
      const by = rule.kind === PREFIX ? best : exact
      if (precedes(rule, by.get(rule.literal))) by.set(rule.literal, rule)
    } else {
      wild.push(rule)
      sensitive ||= rule.sensitive
    }
  }
  const prefixRules = [...best.values()]
  const exactRules = [...exact.values()]
  const short = prefixRules.length <= SHORT && exactRules.length === 0 ? prefixRules.sort((a, b) => b.literal.length - a.literal.length) : null
  // A stable sort keeps file order among equal ranks.
  wild.sort((a, b) => b.rank - a.rank)
  const only = prefixRules.length === 1 && wild.length === 0 && exactRules.length === 0 ? prefixRules[0]! : undefined
  return {
    token,
    constant: only !== undefined && (only.literal === '/' || only.literal === '') ? only.verdict : null,
    mode: !percentFree ? 'normalise' : sensitive ? 'raw-first' : 'plain',
    none: Object.freeze({ allowed: true, group: token, rule: null }),
    short,
    prefixes:
      short === null
        ? new PrefixTrie(
            prefixRules.map((r) => r.literal),
            exactRules.map((r) => r.literal),
          )
        : null,
    prefixRules,
    exactRules,
    wildcards: new WildIndex(wild),
  }
}

/** Merges lists each in precedence order (rank, then file order) into one. */
function merge(...lists: (readonly CompiledRule[] | undefined)[]): CompiledRule[] {
  const present = lists.filter((l): l is readonly CompiledRule[] => l !== undefined && l.length > 0)
  const at = present.map(() => 0)
  const out: CompiledRule[] = []
  for (;;) {
    let next = -1
    for (let k = 0; k < present.length; k++) {
      const candidate = present[k]![at[k]!]
      if (candidate !== undefined && (next < 0 || precedes(candidate, present[next]![at[next]!]))) next = k
    }
    if (next < 0) return out
    out.push(present[next]![at[next]!++]!)
  }
}

/**
 * Wildcard rules split by the path's second octet (the first after the
 * leading `/`) and, where the pattern fixes it, the third. The list for a
 * path holds the rules fixed to its octets and those that may match any
 * path, in precedence order; each list is merged the first time a path
 * needs it, so a set pays only for the starts its paths have.
 */
export class WildIndex {
  /** Rules that may match any path. */
  readonly any: readonly CompiledRule[]
  readonly #first: (CompiledRule[] | undefined)[] = []
  readonly #pair = new Map<number, CompiledRule[]>()
  /** Which second octets have rules fixed to a third (1). */
  readonly #paired = new Uint8Array(128)
  readonly #firstLists: (readonly CompiledRule[] | undefined)[] = []
  readonly #pairLists = new Map<number, readonly CompiledRule[]>()

  /** `wild` in precedence order. */
  constructor(wild: readonly CompiledRule[]) {
    const any: CompiledRule[] = []
    for (const r of wild) {
      const start = r.segments[0]!
      if (start.length >= 3 && r.key < 128 && start.charCodeAt(2) < 128) {
        const pair = r.key * 128 + start.charCodeAt(2)
        const list = this.#pair.get(pair)
        if (list === undefined) this.#pair.set(pair, [r])
        else list.push(r)
        this.#paired[r.key] = 1
      } else if (r.key >= 0 && r.key < 128) {
        ;(this.#first[r.key] ??= []).push(r)
      } else {
        any.push(r)
      }
    }
    this.any = any
  }

  /** The rules a path whose second and third octets are `c` and `c2` (128 and beyond: none, or not ASCII) may match. */
  list(c: number, c2: number): readonly CompiledRule[] {
    if (c >= 128) return this.any
    if (this.#paired[c] === 1 && c2 < 128) {
      const key = c * 128 + c2
      let list = this.#pairLists.get(key)
      if (list !== undefined) return list
      const fixed = this.#pair.get(key)
      if (fixed !== undefined) {
        list = merge(fixed, this.#first[c], this.any)
        this.#pairLists.set(key, list)
        return list
      }
    }
    let list = this.#firstLists[c]
    if (list === undefined) {
      const fixed = this.#first[c]
      list = fixed === undefined ? this.any : merge(fixed, this.any)
      this.#firstLists[c] = list
    }
    return list
  }
}

/** What decide returns when a raw path holds non-ASCII that a rule could see differently once normalised. */
export const NORMALISE_FIRST = null

const NON_ASCII = /[^\x00-\x7f]/

/**
 * The rule of `set` that decides the path `s[start, end)`, or undefined
 * when none matches. The path is normalised, or `raw` is set: then it holds
 * no `%` and the set's rules none either (mode `raw-first`), so everything
 * decides as on the normalised path except a hex-led segment inside the
 * `%XX` of a non-ASCII character; a rule with such a segment is first
 * pre-checked on the raw path, and if it could match, a path with non-ASCII
 * is sent back (NORMALISE_FIRST) to be normalised.
 */
export function decide(set: RuleSet, s: string, start: number, end: number, mask: Uint32Array, raw: boolean): CompiledRule | undefined | typeof NORMALISE_FIRST {
  let found: CompiledRule | undefined
  const short = set.short
  if (short !== null) {
    const length = end - start
    for (let k = 0; k < short.length; k++) {
      const rule = short[k]!
      if (rule.literal.length <= length && s.startsWith(rule.literal, start)) {
        found = rule
        break
      }
    }
  } else {
    const trie = set.prefixes!
    const i = trie.longest(s, start, end)
    // An exact rule that matches beats every prefix rule: their literals are shorter.
    found = trie.exactMatch >= 0 ? set.exactRules[trie.exactMatch] : i >= 0 ? set.prefixRules[i] : undefined
  }
  const wild = set.wildcards.list(start + 1 < end ? s.charCodeAt(start + 1) : 128, start + 2 < end ? s.charCodeAt(start + 2) : 128)
  if (wild.length === 0) return found
  // In precedence order: once a rule cannot beat what was found, none after it can.
  const rank = found === undefined ? -1 : found.rank
  const order = found === undefined ? 0 : found.order
  let masked = false
  let ascii: boolean | undefined
  for (let k = 0; k < wild.length; k++) {
    const rule = wild[k]!
    if (rule.rank < rank || (rule.rank === rank && rule.order > order)) break
    const last = rule.endsWithCode
    if (last >= 0) {
      const code = s.charCodeAt(end - 1)
      if (code !== last && code < 128) continue
    }
    const after = rule.afterSlash
    if (after >= 0) {
      if (!masked) {
        slashMask(s, start, end, mask)
        masked = true
      }
      if ((mask[after >> 5]! & (1 << (after & 31))) === 0) continue
    }
    if (raw && rule.sensitive) {
      if (!rule.couldMatchRaw(s, start, end)) continue
      ascii ??= !NON_ASCII.test(s.slice(start, end))
      if (!ascii) return NORMALISE_FIRST
    }
    if (matchPattern(rule, s, start, end)) return rule
  }
  return found
}

/**
 * Sets the bits of what follows each `/` of the path `s[start, end)`: each
 * next octet, and each next pair. A raw non-ASCII character sets some bit
 * too, which can only make a rule be tried, never skipped.
 */
function slashMask(s: string, start: number, end: number, mask: Uint32Array): void {
  // A plain loop: for twelve words, `fill` costs more as a builtin call.
  for (let k = 0; k < mask.length; k++) mask[k] = 0
  for (let i = s.indexOf('/', start); i >= 0 && i < end; i = s.indexOf('/', i + 1)) {
    if (i + 1 >= end) break
    const a = s.charCodeAt(i + 1)
    const one = a & 127
    mask[one >> 5]! |= 1 << (one & 31)
    if (i + 2 < end) {
      const two = maskBit(a, s.charCodeAt(i + 2))
      mask[two >> 5]! |= 1 << (two & 31)
    }
  }
}
