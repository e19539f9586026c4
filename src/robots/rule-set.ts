import { normalizeEncoding } from './encoding.ts'
import { CompiledPattern, EXACT, matchPattern, PREFIX } from './match.ts'
import { PrefixIndex } from './prefix-index.ts'
import type { DecidingRule, Rule } from './types.ts'

/** A rule compiled once, with its RFC 9309 precedence. */
export class CompiledRule extends CompiledPattern {
  readonly allow: boolean
  /**
   * RFC 9309 §2.2.2 precedence as one number: the longest pattern wins, and
   * on a tie `allow` wins.
   */
  readonly rank: number
  /**
   * Position in the file (group, then rule within the group): a token's
   * merged rules keep file order, and among rules of equal rank the earliest
   * is reported, as Google's matcher does.
   */
  readonly order: number
  /** The octet a path must have at index 1 for this rule to match, or -1 if any may do. */
  readonly key: number
  /**
   * For a `*` pattern with a later segment such as `/tmp/`: the bit, in the
   * path's slash mask, of what that segment needs right after some `/` of
   * the path (`tm`, or `t` for a two-octet segment), or -1. Lets a check skip
   * most rules of the form `/*` + `/x*` without searching the path.
   */
  readonly afterSlash: number

  constructor(allow: boolean, normalized: string, readonly source: DecidingRule, order: number) {
    super(normalized)
    this.allow = allow
    this.order = order
    this.rank = this.priority * 2 + (allow ? 1 : 0)
    const start = this.segments[0] ?? this.literal
    this.key = start.length >= 2 ? start.charCodeAt(1) : -1
    let after = -1
    for (let k = 1; k < this.segments.length && after < 0; k++) {
      const segment = this.segments[k]!
      if (segment.length < 2 || segment.charCodeAt(0) !== 47) continue
      after = maskBit(segment.charCodeAt(1), segment.length > 2 ? segment.charCodeAt(2) : -1)
    }
    this.afterSlash = after
  }
}

/** Does `a` take precedence over `b`: higher rank, or equal rank and earlier? */
export function precedes(a: CompiledRule, b: CompiledRule | undefined): boolean {
  return b === undefined || a.rank > b.rank || (a.rank === b.rank && a.order < b.order)
}

/** Room for each group's compiled rules in `order`: groups come first, rules within them second. */
const PER_GROUP = 2 ** 24

/** Compiles the rules of group `index` (in file order) into `out`, with the Google extension for `index.html`. */
export function compileGroup(rules: readonly Rule[], index: number, out: CompiledRule[]): void {
  for (const rule of rules) {
    const normalized = normalizeEncoding(rule.pattern)
    const allow = rule.type === 'allow'
    const source: DecidingRule = rule.line === undefined ? { type: rule.type, pattern: rule.pattern, line: 0 } : (rule as DecidingRule)
    out.push(new CompiledRule(allow, normalized, source, index * PER_GROUP + out.length))
    // Google extension: `Allow: /dir/index.html` (or `.htm`) also allows
    // `/dir/` itself, as if `Allow: /dir/$` had been written on the same line.
    if (allow) {
      const slash = normalized.lastIndexOf('/')
      if (slash >= 0 && normalized.startsWith('/index.htm', slash)) out.push(new CompiledRule(allow, normalized.slice(0, slash + 1) + '$', source, index * PER_GROUP + out.length))
    }
  }
}

/**
 * A token's merged rules, arranged so a check visits few of them:
 *
 * - prefix rules (no `*`, no `$`) in a PrefixIndex: the longest literal that
 *   is a prefix of the path is the best of them, found by binary search;
 * - exact rules (`$` and no `*`) by their literal: one lookup, and when one
 *   matches it beats every prefix rule, whose literal is shorter;
 * - the rest (`*`) in precedence order, split by the path's second octet
 *   (the first after the leading `/`); each bucket keeps the rules that may
 *   match any path, in order. A long file has hundreds of rules per token
 *   and a path can only match those whose literal start agrees with it.
 */
export interface RuleSet {
  readonly token: string
  readonly prefixes: PrefixIndex
  /** By literal index in `prefixes`: the rule that wins among those with that literal. */
  readonly prefixRules: readonly CompiledRule[]
  readonly exact: ReadonlyMap<string, CompiledRule> | null
  readonly any: readonly CompiledRule[]
  readonly buckets: readonly (readonly CompiledRule[] | undefined)[]
}

/** `rules` in file order (the order they were merged in). */
export function buildRuleSet(token: string, rules: readonly CompiledRule[]): RuleSet {
  const best = new Map<string, CompiledRule>()
  const exact = new Map<string, CompiledRule>()
  const wild: CompiledRule[] = []
  rules.forEach((rule) => {
    if (rule.kind === PREFIX || rule.kind === EXACT) {
      const by = rule.kind === PREFIX ? best : exact
      if (precedes(rule, by.get(rule.literal))) by.set(rule.literal, rule)
    } else {
      wild.push(rule)
    }
  })
  const prefixes = new PrefixIndex(best.keys())
  // A stable sort keeps file order among equal ranks.
  wild.sort((a, b) => b.rank - a.rank)
  const any: CompiledRule[] = []
  const buckets: CompiledRule[][] = []
  for (const r of wild) if (r.key >= 0 && r.key < 128) buckets[r.key] ??= []
  for (const r of wild) {
    if (r.key >= 0 && r.key < 128) buckets[r.key]!.push(r)
    else {
      any.push(r)
      for (const b of buckets) b?.push(r)
    }
  }
  return { token, prefixes, prefixRules: prefixes.literals.map((l) => best.get(l)!), exact: exact.size > 0 ? exact : null, any, buckets }
}

/** The rule of `set` that decides `path` (already normalised), or undefined when none matches. */
export function decide(set: RuleSet, path: string, mask: Uint32Array): CompiledRule | undefined {
  let found = set.exact?.get(path)
  if (found === undefined) {
    const i = set.prefixes.longest(path)
    if (i >= 0) found = set.prefixRules[i]
  }
  const c = path.charCodeAt(1)
  const wild = (c < 128 ? set.buckets[c] : undefined) ?? set.any
  let masked = false
  for (const rule of wild) {
    // In precedence order: once a rule cannot beat what was found, none after it can.
    if (found !== undefined && !precedes(rule, found)) break
    const after = rule.afterSlash
    if (after >= 0) {
      if (!masked) {
        slashMask(path, mask)
        masked = true
      }
      if ((mask[after >> 5]! & (1 << (after & 31))) === 0) continue
    }
    if (matchPattern(rule, path)) return rule
  }
  return found
}

/**
 * Bit of the slash mask for the octets `a` then `b` after a `/` (b = -1 for
 * `a` alone): bits 0-127 hold single octets, bits 128-383 a hash of pairs.
 */
function maskBit(a: number, b: number): number {
  return b < 0 ? a & 127 : 128 + (((a * 31) ^ b) & 255)
}

/** Sets the bits of what follows each `/` of a normalised `path`: each next octet, and each next pair. */
function slashMask(path: string, mask: Uint32Array): void {
  // A plain loop: for twelve words, `fill` costs more as a builtin call.
  for (let k = 0; k < mask.length; k++) mask[k] = 0
  for (let i = path.indexOf('/'); i >= 0; i = path.indexOf('/', i + 1)) {
    const a = path.charCodeAt(i + 1)
    if (!(a >= 0)) continue
    const b = path.charCodeAt(i + 2)
    const one = a & 127
    mask[one >> 5]! |= 1 << (one & 31)
    if (b >= 0) {
      const two = maskBit(a, b)
      mask[two >> 5]! |= 1 << (two & 31)
    }
  }
}
