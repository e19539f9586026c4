import { normalizeEncoding } from './encoding.ts'
import { CompiledPattern } from './match.ts'
import type { DecidingRule, Rule, Verdict } from './types.ts'

const HEX_START = /^[0-9A-Fa-f]/

/** A rule compiled once for one token's set, with its RFC 9309 precedence and the verdict it gives. */
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
  /** Whether a segment after a `*` starts with a hex digit, and so could match inside a `%XX` escape. */
  readonly sensitive: boolean
  /**
   * For a sensitive rule, what a raw path (without `%`) must hold for the
   * rule to match it or its normalised form: each hex-led segment but its
   * first two characters, which alone can lie inside an escape (the rest
   * follows the escape, as raw ASCII, since the segment holds no `%`).
   * Null when a segment is too short to leave anything to look for.
   */
  readonly rawNeeds: readonly { readonly text: string; readonly atEnd: boolean }[] | null
  /**
   * For an anchored (`$`) wildcard pattern: the octet its path must end
   * with, or -1. An ASCII last character is the same in a raw path and in
   * its normalised form, so the test holds for both.
   */
  readonly endsWithCode: number
  readonly #source: DecidingRule
  readonly #token: string
  #verdict: Verdict | undefined

  constructor(allow: boolean, normalized: string, source: DecidingRule, order: number, token: string) {
    super(normalized)
    this.allow = allow
    this.order = order
    this.rank = this.priority * 2 + (allow ? 1 : 0)
    this.#source = source
    this.#token = token
    const segments = this.segments
    const start = segments.length > 0 ? segments[0]! : this.literal
    this.key = start.length >= 2 ? start.charCodeAt(1) : -1
    let after = -1
    let sensitive = false
    let needs: { text: string; atEnd: boolean }[] | null = []
    for (let k = 1; k < segments.length; k++) {
      const segment = segments[k]!
      if (after < 0 && segment.length >= 2 && segment.charCodeAt(0) === 47) after = maskBit(segment.charCodeAt(1), segment.length > 2 ? segment.charCodeAt(2) : -1)
      if (!HEX_START.test(segment)) continue
      sensitive = true
      if (segment.length <= 2) needs = null
      else needs?.push({ text: segment.slice(2), atEnd: k === segments.length - 1 && this.anchored })
    }
    this.afterSlash = after
    const tail = segments.length > 1 ? segments[segments.length - 1]! : ''
    this.endsWithCode = this.anchored && tail !== '' ? tail.charCodeAt(tail.length - 1) : -1
    this.sensitive = sensitive
    this.rawNeeds = sensitive ? needs : null
  }

  /**
   * What a check returns when this rule decides, made on first use and
   * frozen, so a check allocates nothing. RFC 9309 §2.2.2: an empty pattern
   * matches with no octets and disallows nothing; it still names the line
   * that applied.
   */
  get verdict(): Verdict {
    return (this.#verdict ??= Object.freeze({ allowed: this.allow || this.priority === 0, group: this.#token, rule: this.#source }))
  }

  /** The pre-check of `rawNeeds` on a raw path `s[start, end)` without `%`. */
  couldMatchRaw(s: string, start: number, end: number): boolean {
    if (this.rawNeeds === null) return true
    for (const need of this.rawNeeds) {
      if (need.atEnd) {
        if (!s.endsWith(need.text, end)) return false
      } else {
        const at = s.indexOf(need.text, start)
        if (at < 0 || at + need.text.length > end) return false
      }
    }
    return true
  }
}

/** Does `a` take precedence over `b`: higher rank, or equal rank and earlier? */
export function precedes(a: CompiledRule, b: CompiledRule | undefined): boolean {
  return b === undefined || a.rank > b.rank || (a.rank === b.rank && a.order < b.order)
}

/** Room for each group's compiled rules in `order`: groups come first, rules within them second. */
export const PER_GROUP = 2 ** 24

/**
 * Compiles the rules of group `index` (in file order) for `token` into
 * `out`, with the Google extension for `index.html`. A rule written again
 * (same type, same pattern) in the token's groups is compiled once: the
 * earlier one wins every tie, so the later one never decides.
 */
export function compileGroup(rules: readonly Rule[], index: number, token: string, out: CompiledRule[], seen: { allow: Set<string>; disallow: Set<string> }): void {
  let k = 0
  for (const rule of rules) {
    const allow = rule.type === 'allow'
    const same = allow ? seen.allow : seen.disallow
    if (same.has(rule.pattern)) continue
    same.add(rule.pattern)
    const normalized = normalizeEncoding(rule.pattern)
    const source: DecidingRule = rule.line === undefined ? { type: rule.type, pattern: rule.pattern, line: 0 } : (rule as DecidingRule)
    out.push(new CompiledRule(allow, normalized, source, index * PER_GROUP + k++, token))
    // Google extension: `Allow: /dir/index.html` (or `.htm`) also allows
    // `/dir/` itself, as if `Allow: /dir/$` had been written on the same line.
    if (allow) {
      const slash = normalized.lastIndexOf('/')
      if (slash >= 0 && normalized.startsWith('/index.htm', slash)) out.push(new CompiledRule(allow, normalized.slice(0, slash + 1) + '$', source, index * PER_GROUP + k++, token))
    }
  }
}

/**
 * Bit of the slash mask for the octets `a` then `b` after a `/` (b = -1 for
 * `a` alone): bits 0-127 hold single octets, bits 128-383 a hash of pairs.
 */
export function maskBit(a: number, b: number): number {
  return b < 0 ? a & 127 : 128 + (((a * 31) ^ b) & 255)
}
