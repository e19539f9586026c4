import { pathOf, pathStart } from './match.ts'
import { agentToken, parseRobotsTxt } from './parse.ts'
import { normalizeEncoding } from './encoding.ts'
import { decide, NORMALISE_FIRST } from './rule-set.ts'
import { TokenRules } from './token-rules.ts'
import type { ParsedRobotsTxt, RobotsTxtModel, Verdict } from './types.ts'

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

const NON_ASCII = /[^\x00-\x7f]/
/** What percent-encoding normalisation may change in a path: an escape, or a non-ASCII character. */
const NEEDS_NORMALIZING = /[%\u0080-\uffff]/
const NEEDS_NORMALIZING_FROM = /[%\u0080-\uffff]/g

/** Does the path `s[start, end)` hold an escape or a non-ASCII character? */
function needsNormalizing(s: string, start: number, end: number): boolean {
  NEEDS_NORMALIZING_FROM.lastIndex = start
  return NEEDS_NORMALIZING_FROM.test(s) && NEEDS_NORMALIZING_FROM.lastIndex <= end
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
   * apply), gathered on first use: a crawler asks for one or two tokens, so
   * a 500 KiB file with hundreds of groups costs a parse, not a compile of
   * every group; and they are indexed only once asked for often (see
   * TokenRules).
   */
  readonly #sets = new Map<string, TokenRules>()
  readonly #tokens = new Map<string, TokenRules | null>()
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

  #set(token: string): TokenRules | null {
    let rules = this.#sets.get(token)
    if (rules !== undefined) return rules
    const groups = this.#groupsOf.get(token)
    if (groups === undefined) return null
    rules = new TokenRules(token, this.model, groups)
    this.#sets.set(token, rules)
    return rules
  }

  /** RFC 9309 §2.2.1: product tokens compare case-insensitively; `*` is not a token. */
  #named(token: string): TokenRules | null {
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

  /** The `*` rules, once looked up (null: the file has no `*` group). */
  #star: TokenRules | null | undefined

  #resolve(tokens: string | readonly string[]): TokenRules | null {
    if (typeof tokens === 'string') {
      const found = this.#named(tokens)
      if (found !== null) return found
    } else if (Array.isArray(tokens)) {
      for (const token of tokens) {
        const found = this.#named(token)
        if (found !== null) return found
      }
    }
    return this.#star === undefined ? (this.#star = this.#set('*')) : this.#star
  }

  groupFor(tokens: string | readonly string[]): string | null {
    return this.#resolve(tokens)?.token ?? null
  }

  check(tokens: string | readonly string[], url: string): Verdict {
    const rules = this.#resolve(tokens)
    if (rules === null) return NO_GROUP
    const set = rules.indexed()
    if (set === null) return this.#scan(rules, url)
    let s = typeof url === 'string' ? url : '/'
    // Every path starts with `/`: for such a set only /robots.txt differs.
    if (set.constant !== null && s.indexOf('/robots.txt') < 0) return set.constant
    // The path is read in place, s[start, end): pathOf(url) without a copy.
    let start = 0
    if (s.charCodeAt(0) !== 47 || s.charCodeAt(1) === 47) {
      start = pathStart(s)
      if (start < 0) {
        s = pathOf(s)
        start = 0
      }
    }
    const hash = s.indexOf('#', start)
    let end = hash < 0 ? s.length : hash
    // robots-edge deviation: Google's matcher takes the URL as a crawler has
    // already encoded it; the guard sees whatever a client sent, so the path
    // gets the same normalisation as the patterns, and neither `/caf%c3%a9`
    // nor a raw `/café` slips past `Disallow: /café`. Canonical URLs are
    // unchanged by it; most paths have neither `%` nor non-ASCII, and most
    // rule sets are `plain` or `raw-first` (see RuleSet.mode).
    const mode = set.mode
    let raw = mode !== 'normalise'
    const percent = mode === 'raw-first' ? s.indexOf('%', start) : -1
    if (mode === 'normalise' ? needsNormalizing(s, start, end) : percent >= 0 && percent < end) {
      s = normalizeEncoding(s.slice(start, end))
      start = 0
      end = s.length
      raw = false
    }
    let rule = decide(set, s, start, end, this.#slashMask, raw && mode === 'raw-first')
    if (rule === NORMALISE_FIRST) {
      s = normalizeEncoding(s.slice(start, end))
      start = 0
      end = s.length
      rule = decide(set, s, 0, s.length, this.#slashMask, false)
    }
    if (rule === undefined || rule === null) return set.none
    // RFC 9309 §2.2.2: "The /robots.txt URI is implicitly allowed." Only a
    // disallow needs the test (normalising leaves `/robots.txt` as it is).
    if (!rule.allow && s.charCodeAt(start + 1) === 114 && s.startsWith(ROBOTS_TXT, start) && (end - start === ROBOTS_TXT.length || s.charCodeAt(start + ROBOTS_TXT.length) === 63)) {
      return set.none
    }
    return rule.verdict
  }

  /** A check by TokenRules.scan, on the path normalised (see check). */
  #scan(rules: TokenRules, url: string): Verdict {
    const raw = typeof url === 'string' ? pathOf(url) : '/'
    // RFC 9309 §2.2.2: "The /robots.txt URI is implicitly allowed."
    if (raw.startsWith(ROBOTS_TXT) && (raw.length === ROBOTS_TXT.length || raw.charCodeAt(ROBOTS_TXT.length) === 63)) {
      return { allowed: true, group: rules.token, rule: null }
    }
    return rules.scan(NEEDS_NORMALIZING.test(raw) ? normalizeEncoding(raw) : raw)
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
