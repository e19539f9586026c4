import { normalizeEncoding } from './encoding.ts'
import { CompiledPattern, matchPattern, pathOf } from './match.ts'
import { agentToken, parseRobotsTxt } from './parse.ts'
import type { DecidingRule, ParsedRobotsTxt, RobotsTxtModel, Rule, Verdict } from './types.ts'

class CompiledRule extends CompiledPattern {
  readonly allow: boolean
  /**
   * Whether this rule must see the normalised path. A pattern without `%`
   * matches the same places in a path and in its normalised form, as long as
   * none of its `*`-separated segments after the first starts with a hex
   * digit: only such a segment can begin inside a `%XX` escape (the first
   * segment matches from the path's start, which is never inside one).
   */
  readonly escaped: boolean
  /**
   * The pattern's leading literal up to its first `%`. A raw path that does
   * not start with it cannot match once normalised either, since
   * normalisation leaves every octet before the first `%` or non-ASCII
   * character as it is.
   */
  readonly head: string
  /**
   * RFC 9309 §2.2.2 precedence as one number: the longest pattern wins, and
   * on a tie `allow` wins. Among equals a stable sort keeps file order, so
   * the earliest line is reported, as Google's matcher does.
   */
  readonly rank: number
  /** The octet a path must have at index 1 for this rule to match, or -1 if any may do. */
  readonly key: number
  /**
   * For a `*` pattern with a later segment such as `/tmp/`: the bit, in the
   * path's slash mask, of what that segment needs right after some `/` of
   * the path (`tm`, or `t` for a two-octet segment), or -1. Lets a check skip
   * most rules of the form `/*` + `/x*` without searching the path.
   */
  readonly afterSlash: number

  constructor(
    allow: boolean,
    normalized: string,
    readonly source: DecidingRule,
    /** Index of the group it came from. */
    readonly group: number,
  ) {
    super(normalized)
    this.allow = allow
    this.escaped = normalized.includes('%') || this.segments.some((segment, k) => k > 0 && HEX_START.test(segment))
    this.rank = this.priority * 2 + (allow ? 1 : 0)
    const start = this.segments[0] ?? this.literal
    this.key = start.length >= 2 ? start.charCodeAt(1) : -1
    const percent = start.indexOf('%')
    this.head = percent < 0 ? start : start.slice(0, percent)
    let after = -1
    for (let k = 1; k < this.segments.length && after < 0; k++) {
      const segment = this.segments[k]!
      if (segment.length < 2 || segment.charCodeAt(0) !== 47) continue
      after = maskBit(segment.charCodeAt(1), segment.length > 2 ? segment.charCodeAt(2) : -1)
    }
    this.afterSlash = after
  }
}

/**
 * A group's merged rules in precedence order, also split by the path's
 * second octet (the first after the leading `/`): a long file has hundreds of
 * rules per group and a path can only match those whose literal start agrees
 * with it. Each bucket keeps the rules that may match any path, in order.
 */
interface RuleSet {
  readonly token: string
  readonly any: readonly CompiledRule[]
  readonly buckets: readonly (readonly CompiledRule[] | undefined)[]
}

/** A robots.txt compiled once, to decide any number of URLs. */
export interface RobotsMatcher {
  /**
   * Decides `url` for an agent. With several product tokens (most specific
   * first, e.g. `['googlebot-image', 'googlebot']`), the first token that
   * names a group wins; when none does, the `*` group applies.
   */
  check(tokens: string | readonly string[], url: string): Verdict
  /**
   * The group a crawler with these tokens obeys: the lower-case token, `'*'`,
   * or `null` when the file has no group for it.
   */
  groupFor(tokens: string | readonly string[]): string | null
  /** What the matcher was compiled from. */
  readonly model: RobotsTxtModel | ParsedRobotsTxt
}

const HEX_START = /^[0-9A-Fa-f]/
const NON_ASCII = /[^\x00-\x7f]/

function compileRule(rule: Rule, group: number, out: CompiledRule[]): void {
  const normalized = normalizeEncoding(rule.pattern)
  const allow = rule.type === 'allow'
  const source: DecidingRule = rule.line === undefined ? { type: rule.type, pattern: rule.pattern, line: 0 } : (rule as DecidingRule)
  out.push(new CompiledRule(allow, normalized, source, group))
  // Google extension: `Allow: /dir/index.html` (or `.htm`) also allows
  // `/dir/` itself, as if `Allow: /dir/$` had been written on the same line.
  if (allow) {
    const slash = normalized.lastIndexOf('/')
    if (slash >= 0 && normalized.startsWith('/index.htm', slash)) {
      out.push(new CompiledRule(allow, normalized.slice(0, slash + 1) + '$', source, group))
    }
  }
}

/** `rules` must already be in precedence order. */
function buildRuleSet(token: string, rules: readonly CompiledRule[]): RuleSet {
  const any: CompiledRule[] = []
  const buckets: CompiledRule[][] = []
  for (const r of rules) if (r.key >= 0 && r.key < 128) buckets[r.key] ??= []
  for (const r of rules) {
    if (r.key >= 0 && r.key < 128) buckets[r.key]!.push(r)
    else {
      any.push(r)
      for (const b of buckets) b?.push(r)
    }
  }
  return { token, any, buckets }
}

/**
 * Bit of the slash mask for the octets `a` then `b` after a `/` (b = -1 for
 * `a` alone): bits 0-127 hold single octets, bits 128-383 a hash of pairs.
 */
function maskBit(a: number, b: number): number {
  return b < 0 ? a & 127 : 128 + (((a * 31) ^ b) & 255)
}

/**
 * Upper-case hex digit of the first UTF-8 octet of non-ASCII `c` (followed
 * by `next`): C or D for two octets, F for a surrogate pair, else E (three
 * octets, and U+FFFD for a lone surrogate).
 */
function leadHexDigit(c: number, next: number): number {
  if (c < 0x800) return c < 0x400 ? 67 : 68
  return c >= 0xd800 && c <= 0xdbff && (next & 0xfc00) === 0xdc00 ? 70 : 69
}

function isHexDigit(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102)
}

/**
 * Sets the bits of what follows each `/` of `path`: each next octet, and each
 * next pair. Computed on the raw path as it will read once normalised: a
 * non-ASCII character is `%` followed by the hex digit of its first UTF-8
 * octet, and an escape's hex is upper case. So a rule can be ruled out
 * before any normalisation.
 */
function slashMask(path: string, mask: Uint32Array): void {
  // A plain loop: for twelve words, `fill` costs more as a builtin call.
  for (let k = 0; k < mask.length; k++) mask[k] = 0
  for (let i = path.indexOf('/'); i >= 0; i = path.indexOf('/', i + 1)) {
    let a = path.charCodeAt(i + 1)
    if (!(a >= 0)) continue
    let b = path.charCodeAt(i + 2)
    if (a >= 128) {
      b = leadHexDigit(a, b)
      a = 37
    } else if (b >= 128) {
      b = 37
    } else if (a === 37 && b >= 97 && b <= 102 && isHexDigit(path.charCodeAt(i + 3))) {
      b -= 32
    }
    const one = a & 127
    mask[one >> 5]! |= 1 << (one & 31)
    if (b >= 0) {
      const two = maskBit(a, b)
      mask[two >> 5]! |= 1 << (two & 31)
    }
  }
}

const ROBOTS_TXT = '/robots.txt'
const NO_GROUP: Verdict = Object.freeze({ allowed: true, group: null, rule: null })
/** Bounds the per-matcher memo of token → group, which agents fill from request headers. */
const TOKEN_CACHE_LIMIT = 512

class Matcher implements RobotsMatcher {
  readonly model: RobotsTxtModel | ParsedRobotsTxt
  /** Which groups name each lower-case token (or `*`), in file order. */
  readonly #groupsOf = new Map<string, number[]>()
  /**
   * Each token's merged rules (RFC 9309 §2.2.1: all groups naming a token
   * apply), compiled on first use: a crawler asks for one or two tokens, so
   * a 500 KiB file with hundreds of groups costs a parse, not a compile of
   * every group.
   */
  readonly #sets = new Map<string, RuleSet>()
  readonly #compiled: (CompiledRule[] | undefined)[] = []
  readonly #tokens = new Map<string, RuleSet | null>()
  /** Bits of the octets that follow a `/` in the path being checked; reused, as checks are synchronous. */
  readonly #slashMask = new Uint32Array(12)

  constructor(model: RobotsTxtModel | ParsedRobotsTxt) {
    this.model = model
    model.groups.forEach((group, index) => {
      for (const agent of group.userAgents) {
        // A value naming no token matches no crawler.
        const token = agentToken(agent).toLowerCase()
        if (token === '') continue
        const list = this.#groupsOf.get(token)
        if (list === undefined) this.#groupsOf.set(token, [index])
        else if (list[list.length - 1] !== index) list.push(index)
      }
    })
  }

  #set(token: string): RuleSet | null {
    const built = this.#sets.get(token)
    if (built !== undefined) return built
    const indices = this.#groupsOf.get(token)
    if (indices === undefined) return null
    const rules: CompiledRule[] = []
    for (const index of indices) {
      let compiled = this.#compiled[index]
      if (compiled === undefined) {
        compiled = []
        for (const rule of this.model.groups[index]!.rules) compileRule(rule, index, compiled)
        this.#compiled[index] = compiled
      }
      for (const rule of compiled) rules.push(rule)
    }
    // Groups are in file order, so a stable sort breaks ties by line.
    rules.sort((a, b) => b.rank - a.rank)
    const set = buildRuleSet(token, rules)
    this.#sets.set(token, set)
    return set
  }

  /** RFC 9309 §2.2.1: product tokens compare case-insensitively; `*` is not a token. */
  #named(token: string): RuleSet | null {
    let found = this.#tokens.get(token)
    if (found !== undefined) return found
    // ASCII case folding only: `toLowerCase` would turn the Kelvin sign into
    // `k`, and a product token is ASCII letters, `-` and `_` (RFC 9309 §2.2.1).
    const lower = typeof token === 'string' && !NON_ASCII.test(token) ? token.toLowerCase() : ''
    found = lower === '' || lower === '*' ? null : this.#set(lower)
    if (this.#tokens.size >= TOKEN_CACHE_LIMIT) this.#tokens.clear()
    this.#tokens.set(token, found)
    return found
  }

  #resolve(tokens: string | readonly string[]): RuleSet | null {
    if (typeof tokens === 'string') return this.#named(tokens) ?? this.#set('*')
    if (Array.isArray(tokens)) {
      for (const token of tokens) {
        const found = this.#named(token)
        if (found !== null) return found
      }
    }
    return this.#set('*')
  }

  groupFor(tokens: string | readonly string[]): string | null {
    return this.#resolve(tokens)?.token ?? null
  }

  check(tokens: string | readonly string[], url: string): Verdict {
    const set = this.#resolve(tokens)
    if (set === null) return NO_GROUP
    const raw = typeof url === 'string' ? pathOf(url) : '/'
    // RFC 9309 §2.2.2: "The /robots.txt URI is implicitly allowed."
    if (raw.startsWith(ROBOTS_TXT) && (raw.length === ROBOTS_TXT.length || raw.charCodeAt(ROBOTS_TXT.length) === 63)) {
      return { allowed: true, group: set.token, rule: null }
    }
    // robots-edge deviation: Google's matcher takes the URL as a crawler has
    // already encoded it; the guard sees whatever a client sent, so the path
    // gets the same normalisation as the patterns, and neither `/caf%c3%a9`
    // nor a raw `/café` slips past `Disallow: /café`. Canonical URLs are
    // unchanged by it.
    // The path is normalised only when a rule needs it: a `%`-free ASCII
    // pattern matches the same places in a path and in its normalised form,
    // since it can match neither a raw non-ASCII character nor the `%XX`
    // that encodes it. Most rules are such patterns.
    let normalized: string | undefined
    let c = raw.charCodeAt(1)
    if (c >= 128) {
      // A raw non-ASCII octet is `%` once normalised, and so is its bucket.
      normalized = normalizeEncoding(raw)
      c = 37
    }
    const rules = (c < 128 ? set.buckets[c] : undefined) ?? set.any
    let masked = false
    const mask = this.#slashMask
    for (const rule of rules) {
      const after = rule.afterSlash
      if (after >= 0) {
        if (!masked) {
          slashMask(raw, mask)
          masked = true
        }
        if ((mask[after >> 5]! & (1 << (after & 31))) === 0) continue
      }
      let path = raw
      if (rule.escaped) {
        if (normalized === undefined) {
          if (!raw.startsWith(rule.head)) continue
          normalized = normalizeEncoding(raw)
        }
        path = normalized
      }
      if (matchPattern(rule, path)) {
        // RFC 9309 §2.2.2: an empty pattern matches with no octets and
        // disallows nothing; it still names the line that applied.
        return { allowed: rule.allow || rule.priority === 0, group: set.token, rule: rule.source }
      }
    }
    return { allowed: true, group: set.token, rule: null }
  }
}

/**
 * Compiles a robots.txt body, or a parsed or hand-built model, into a matcher.
 *
 * @example
 * const robots = compileRobotsTxt('User-agent: *\nDisallow: /admin/\n')
 * robots.check(['googlebot-image', 'googlebot'], 'https://example.com/admin/x')
 * // { allowed: false, group: '*', rule: { type: 'disallow', pattern: '/admin/', line: 2 } }
 */
export function compileRobotsTxt(textOrParsed: string | RobotsTxtModel | ParsedRobotsTxt): RobotsMatcher {
  const isModel = typeof textOrParsed === 'object' && textOrParsed !== null && Array.isArray(textOrParsed.groups)
  return new Matcher(isModel ? textOrParsed : parseRobotsTxt(textOrParsed as string))
}

/** One-shot form: may `productToken` fetch `url` under `robotsTxt`? */
export function isAllowed(robotsTxt: string, productToken: string, url: string): boolean {
  return compileRobotsTxt(robotsTxt).check(productToken, url).allowed
}
