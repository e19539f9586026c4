/** No `*`, no trailing `$`: a prefix test. */
export const PREFIX = 0
/** No `*`, trailing `$`: the whole path must equal the literal. */
export const EXACT = 1
/** At least one `*`: literal segments found left to right. */
export const WILDCARD = 2
type Kind = typeof PREFIX | typeof EXACT | typeof WILDCARD

/**
 * A rule pattern compiled once. Its priority is its length in octets after
 * normalisation, counting `*` and `$` (RFC 9309 §2.2.2: "the most specific
 * match ... the match with the most octets").
 */
export class CompiledPattern {
  readonly kind: Kind
  readonly priority: number
  readonly literal: string
  readonly segments: readonly string[]
  readonly anchored: boolean
  /** The fewest octets a path needs to match: the literal octets. A cheap first test. */
  readonly minLength: number
  /**
   * The third octet of the leading literal, or -1. Rules are bucketed by the
   * second octet, so comparing the third (inlined by the JIT) rejects most
   * misses before the `startsWith` call.
   */
  readonly probe: number
  /** Index and octet of the leading literal's last octet (from the fourth on), or -1. */
  readonly lastAt: number
  readonly last: number

  /** `normalized` is a pattern already percent-encoding-normalised. */
  constructor(normalized: string) {
    this.priority = normalized.length
    // RFC 9309 §2.2.3: `$` designates the end of the match pattern only as
    // the last character; anywhere else it is an ordinary octet.
    this.anchored = normalized.endsWith('$')
    this.literal = this.anchored ? normalized.slice(0, -1) : normalized
    if (this.literal.includes('*')) {
      this.kind = WILDCARD
      this.segments = this.literal.split('*')
      this.minLength = this.literal.length - this.segments.length + 1
    } else {
      this.kind = this.anchored ? EXACT : PREFIX
      this.segments = NO_SEGMENTS
      this.minLength = this.literal.length
    }
    const start = this.segments[0] ?? this.literal
    this.probe = start.length > 2 ? start.charCodeAt(2) : -1
    this.lastAt = start.length > 3 ? start.length - 1 : -1
    this.last = start.length > 3 ? start.charCodeAt(start.length - 1) : -1
  }
}

const NO_SEGMENTS: readonly string[] = []

/**
 * Does `pattern` match the path `s[start, end)` (RFC 9309 §2.2.2, §2.2.3)?
 * Patterns match as prefixes; `*` matches any run of octets, `$` anchors at
 * the end. The path is read in place, so a URL needs no copy of its path.
 *
 * Each literal segment between stars is taken at its leftmost occurrence
 * after the previous one: taking it earlier never rules out a later match,
 * so no backtracking is needed. Worst case O(path length × pattern length);
 * no regular expression is built from a pattern.
 */
export function matchPattern(pattern: CompiledPattern, s: string, start: number, end: number): boolean {
  const length = end - start
  if (length < pattern.minLength || (pattern.probe >= 0 && s.charCodeAt(start + 2) !== pattern.probe) || (pattern.lastAt >= 0 && s.charCodeAt(start + pattern.lastAt) !== pattern.last)) return false
  switch (pattern.kind) {
    case PREFIX:
      return s.startsWith(pattern.literal, start)
    case EXACT:
      return length === pattern.literal.length && s.startsWith(pattern.literal, start)
    default:
      return matchWildcard(pattern.segments, pattern.anchored, s, start, end)
  }
}

/**
 * Does the percent-encoding-normalised pattern `pattern` match `path`? The
 * same matching as matchPattern, for a pattern used once: nothing to compile.
 */
export function matchesPattern(pattern: string, path: string): boolean {
  const anchored = pattern.charCodeAt(pattern.length - 1) === 36
  const literal = anchored ? pattern.slice(0, -1) : pattern
  if (!literal.includes('*')) return anchored ? path === literal : path.startsWith(literal)
  return matchWildcard(literal.split('*'), anchored, path, 0, path.length)
}

/** `s.indexOf(text, from)` within `[from, end)`, or -1. */
function find(s: string, text: string, from: number, end: number): number {
  const at = s.indexOf(text, from)
  return at >= 0 && at + text.length <= end ? at : -1
}

function matchWildcard(segments: readonly string[], anchored: boolean, s: string, start: number, end: number): boolean {
  const first = segments[0]!
  if (!s.startsWith(first, start)) return false
  const tail = segments[segments.length - 1]!
  // An anchored tail is the cheapest test that usually fails (`/*.php$`).
  if (anchored && !s.endsWith(tail, end)) return false
  let pos = start + first.length
  const last = segments.length - 1
  for (let k = 1; k < last; k++) {
    const segment = segments[k]!
    if (segment === '') continue
    const at = find(s, segment, pos, end)
    if (at < 0) return false
    pos = at + segment.length
  }
  if (anchored) return end - tail.length >= pos
  return tail === '' || find(s, tail, pos, end) >= 0
}

const AUTHORITY = /[^/?;#]*/y

/** 8 for `https://`, 7 for `http://`, else -1 (any case). Char codes: cheaper than startsWith here. */
function schemeEnd(url: string): number {
  if ((url.charCodeAt(0) | 32) !== 104 || (url.charCodeAt(1) | 32) !== 116 || (url.charCodeAt(2) | 32) !== 116 || (url.charCodeAt(3) | 32) !== 112) return -1
  const s = (url.charCodeAt(4) | 32) === 115 ? 5 : 4
  return url.charCodeAt(s) === 58 && url.charCodeAt(s + 1) === 47 && url.charCodeAt(s + 2) === 47 ? s + 3 : -1
}

function firstOfPathStart(url: string, from: number): number {
  for (let i = from; i < url.length; i++) {
    const c = url.charCodeAt(i)
    if (c === 47 /* / */ || c === 63 /* ? */ || c === 59 /* ; */) return i
  }
  return -1
}

/**
 * The part of a URL that rules match against: path, params and query,
 * without the fragment, always starting with `/` (RFC 9309 §2.2.2 matches
 * "the path and query of the URI"). Accepts an absolute URL, a
 * scheme-relative one or a bare path, and never throws: anything without a
 * path is `/`. Reads URLs the way Google's reference matcher does, so a `://`
 * inside a query is not taken for a scheme.
 */
export function pathOf(url: string): string {
  if (url.charCodeAt(0) === 47 && url.charCodeAt(1) !== 47) {
    const hash = url.indexOf('#')
    return hash < 0 ? url : url.slice(0, hash)
  }
  // Fast path for the common `http(s)://host/...`; same result as below.
  const host = schemeEnd(url)
  if (host > 0) {
    // A sticky regular expression skips the host in native code.
    AUTHORITY.lastIndex = host
    AUTHORITY.test(url)
    const i = AUTHORITY.lastIndex
    if (url.charCodeAt(i) === 47) {
      const hash = url.indexOf('#', i)
      return hash < 0 ? url.slice(i) : url.slice(i, hash)
    }
  }
  const searchStart = url.startsWith('//') ? 2 : 0
  const early = firstOfPathStart(url, searchStart)
  let scheme = url.indexOf('://', searchStart)
  if (early >= 0 && (scheme < 0 || early < scheme)) scheme = -1
  const authority = scheme < 0 ? searchStart : scheme + 3
  const start = firstOfPathStart(url, authority)
  if (start < 0) return '/'
  const hash = url.indexOf('#', searchStart)
  if (hash >= 0 && hash < start) return '/'
  const path = url.slice(start, hash < 0 ? url.length : hash)
  return url.charCodeAt(start) === 47 ? path : '/' + path
}

/**
 * Where the path of `url` starts when it is the common `http(s)://host/…`
 * (the index of the `/` after the host), or -1 for any other form, which
 * pathOf reads.
 */
export function pathStart(url: string): number {
  // One sticky expression reads the scheme and skips the host in native code.
  ORIGIN.lastIndex = 0
  if (!ORIGIN.test(url)) return -1
  const i = ORIGIN.lastIndex
  return url.charCodeAt(i) === 47 ? i : -1
}

const ORIGIN = /https?:\/\/[^/?;#]*/iy
