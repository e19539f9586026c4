import { utf8Cut, utf8Exceeds, utf8Length } from './encoding.ts'
import type { Group, OtherRecord, ParseDiagnostic, ParsedRobotsTxt, Rule } from './types.ts'

/** RFC 9309 §2.5: crawlers must parse at least the first 500 KiB. */
export const MAX_FILE_BYTES = 500 * 1024

/**
 * Google extension: the reference parser keeps at most 2083 * 8 - 1 octets
 * of a line (eight times the longest URL browsers accept) and drops the rest.
 */
export const MAX_LINE_BYTES = 2083 * 8 - 1

/** Keys that are not rules but are widely used; anything else is `unknown-key`. */
const KNOWN_OTHER_KEYS = new Set(['crawl-delay', 'content-signal', 'content-usage', 'host', 'clean-param', 'request-rate', 'visit-time', 'noindex', 'nofollow'])

interface MutableGroup {
  userAgents: string[]
  rules: Rule[]
  other: OtherRecord[]
  line: number
}

/** Google's parser trims with C's isspace: space, \t, \n, \v, \f, \r. Not Unicode spaces. */
function isAsciiSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13)
}

function isTokenChar(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 45 || c === 95
}

/**
 * The product token a user-agent value names, as the matcher reads it.
 * RFC 9309 §2.2.1: a product token is letters, `-` and `_`.
 * Google extension: the value is cut at the first other character, so
 * `Googlebot/2.1` names `Googlebot`; and `*` followed by white space and
 * anything else is still the wildcard.
 * Returns `''` when the value names no token at all.
 */
export function agentToken(value: string): string {
  if (value.charCodeAt(0) === 42 /* * */ && (value.length === 1 || isAsciiSpace(value.charCodeAt(1)))) return '*'
  let i = 0
  while (i < value.length && isTokenChar(value.charCodeAt(i))) i++
  return i === value.length ? value : value.slice(0, i)
}

type KeyKind = 'user-agent' | 'allow' | 'disallow' | 'sitemap' | 'other'

/**
 * Does `body[from, to)` start with `lower`, ignoring ASCII case? `| 32` folds
 * case exactly here: only CR and NUL would fold onto `-` and space, and
 * neither is ever inside a line.
 */
function startsWithFolded(body: string, from: number, to: number, lower: string): boolean {
  if (to - from < lower.length) return false
  for (let i = 0; i < lower.length; i++) if ((body.charCodeAt(from + i) | 32) !== lower.charCodeAt(i)) return false
  return true
}

/**
 * Google extension: keys match by prefix and a few frequent misspellings are
 * accepted (`useragent`, `user agent`, `dissallow`, `dissalow`, `disalow`,
 * `diasllow`, `disallaw`, `site-map`). RFC 9309 §2.2 names only the exact keys.
 */
function classifyKey(body: string, from: number, to: number): KeyKind {
  switch (body.charCodeAt(from) | 32) {
    case 117:
      return startsWithFolded(body, from, to, 'user-agent') || startsWithFolded(body, from, to, 'useragent') || startsWithFolded(body, from, to, 'user agent') ? 'user-agent' : 'other'
    case 97:
      return startsWithFolded(body, from, to, 'allow') ? 'allow' : 'other'
    case 100:
      return startsWithFolded(body, from, to, 'disallow') ||
        startsWithFolded(body, from, to, 'dissallow') ||
        startsWithFolded(body, from, to, 'dissalow') ||
        startsWithFolded(body, from, to, 'disalow') ||
        startsWithFolded(body, from, to, 'diasllow') ||
        startsWithFolded(body, from, to, 'disallaw')
        ? 'disallow'
        : 'other'
    case 115:
      return startsWithFolded(body, from, to, 'sitemap') || startsWithFolded(body, from, to, 'site-map') ? 'sitemap' : 'other'
    default:
      return 'other'
  }
}

/**
 * Parses a robots.txt body. Reports what it saw in file order, never throws,
 * and runs in time linear in the size of the body.
 */
export function parseRobotsTxt(text: string): ParsedRobotsTxt {
  const body = typeof text === 'string' ? text : String(text ?? '')
  const diagnostics: ParseDiagnostic[] = []
  const groups: MutableGroup[] = []
  const agentValues: string[][] = []
  const sitemaps: string[] = []
  const sitemapLines: number[] = []
  const other: OtherRecord[] = []
  let current: MutableGroup | null = null
  // RFC 9309 §2.1: a group's user-agent lines end at its first rule; a
  // user-agent line after a rule starts a new group.
  let inRules = false

  let pos = 0
  // Google extension: a UTF-8 byte-order mark is skipped.
  if (body.charCodeAt(0) === 0xfeff) {
    pos = 1
    diagnostics.push({ code: 'bom', line: 1 })
  }
  if (utf8Exceeds(body, MAX_FILE_BYTES)) {
    diagnostics.push({ code: 'file-too-large', line: 0 })
  }

  // The body is read in place, by offsets: the next `#`, `:` and NUL are
  // found once by native search and reused across lines, so a line costs
  // little more than slicing out its value.
  let nextNul = body.indexOf('\0', pos)
  let nextHash = body.indexOf('#', pos)
  let nextColon = body.indexOf(':', pos)

  const handleLine = (start: number, end: number, line: number): void => {
    if (end - start > MAX_LINE_BYTES / 3 && utf8Length(body, start, end) > MAX_LINE_BYTES) {
      diagnostics.push({ code: 'line-too-long', line })
      end = utf8Cut(body, start, MAX_LINE_BYTES)
    }
    if (nextNul !== -1) {
      // Google extension: the reference parser reads lines as C strings, so
      // a NUL octet ends the line.
      if (nextNul < start) nextNul = body.indexOf('\0', start)
      if (nextNul !== -1 && nextNul < end) {
        diagnostics.push({ code: 'nul-byte', line })
        end = nextNul
      }
    }
    // RFC 9309 §2.2: a comment runs from `#` to the end of the line.
    if (nextHash !== -1 && nextHash < start) nextHash = body.indexOf('#', start)
    let b = nextHash !== -1 && nextHash < end ? nextHash : end
    let a = start
    while (a < b && isAsciiSpace(body.charCodeAt(a))) a++
    while (b > a && isAsciiSpace(body.charCodeAt(b - 1))) b--
    if (a === b) return

    let keyEnd: number
    let valueStart: number
    let missingColon = false
    if (nextColon !== -1 && nextColon < a) nextColon = body.indexOf(':', a)
    if (nextColon !== -1 && nextColon < b) {
      keyEnd = nextColon
      valueStart = nextColon + 1
    } else {
      // Google extension: a missing colon is accepted when the line is exactly
      // two runs of non-white-space, `Disallow /x`.
      let ws = a
      while (ws < b && body.charCodeAt(ws) !== 32 && body.charCodeAt(ws) !== 9) ws++
      // Only spaces and tabs separate key and value here (Google's strspn
      // with " \t"); a \v or \f after them makes a third run, and the line
      // is not read.
      let v = ws
      while (v < b && (body.charCodeAt(v) === 32 || body.charCodeAt(v) === 9)) v++
      let extra = v
      while (extra < b && body.charCodeAt(extra) !== 32 && body.charCodeAt(extra) !== 9) extra++
      if (ws === b || extra < b) {
        diagnostics.push({ code: 'malformed-line', line, detail: body.slice(a, b) })
        return
      }
      keyEnd = ws
      valueStart = v
      missingColon = true
    }
    while (keyEnd > a && isAsciiSpace(body.charCodeAt(keyEnd - 1))) keyEnd--
    if (keyEnd === a) {
      diagnostics.push({ code: 'malformed-line', line, detail: body.slice(a, b) })
      return
    }
    while (valueStart < b && isAsciiSpace(body.charCodeAt(valueStart))) valueStart++
    const value = body.slice(valueStart, b)
    if (missingColon) diagnostics.push({ code: 'missing-colon', line, detail: body.slice(a, keyEnd) })

    const kind = classifyKey(body, a, keyEnd)
    if (kind !== 'other' && (keyEnd - a !== kind.length || !startsWithFolded(body, a, keyEnd, kind))) {
      diagnostics.push({ code: 'typo-accepted', line, detail: body.slice(a, keyEnd) })
    }

    switch (kind) {
      case 'user-agent': {
        if (current === null || inRules) {
          current = { userAgents: [], rules: [], other: [], line }
          groups.push(current)
          agentValues.push([])
          inRules = false
        }
        agentValues[agentValues.length - 1]!.push(value)
        const token = agentToken(value)
        if (token === '') {
          diagnostics.push({ code: 'invalid-product-token', line, detail: value })
          current.userAgents.push(value)
        } else {
          if (token !== value) diagnostics.push({ code: 'agent-value-truncated', line, detail: value })
          current.userAgents.push(token)
        }
        return
      }
      case 'allow':
      case 'disallow': {
        // RFC 9309 §2.1: rules belong to the group above them; before any
        // user-agent line there is no group, so they are ignored.
        if (current === null) {
          diagnostics.push({ code: 'rule-outside-group', line, detail: body.slice(a, keyEnd) })
          return
        }
        inRules = true
        const c = value.charCodeAt(0)
        if (value !== '' && c !== 47 && c !== 42) diagnostics.push({ code: 'pattern-start', line, detail: value })
        current.rules.push({ type: kind, pattern: value, line })
        return
      }
      case 'sitemap':
        // RFC 9309 §2.3.5: sitemaps are not tied to any group.
        sitemaps.push(value)
        sitemapLines.push(line)
        return
      default: {
        const key = body.slice(a, keyEnd)
        const lower = key.toLowerCase()
        if (!KNOWN_OTHER_KEYS.has(lower)) diagnostics.push({ code: 'unknown-key', line, detail: key })
        // `Host` names the site, not a group (Yandex).
        const target = current === null || lower === 'host' ? other : current.other
        target.push({ key, value, line })
      }
    }
  }

  let lineNo = 0
  let nextLF = body.indexOf('\n', pos)
  let nextCR = body.indexOf('\r', pos)
  for (;;) {
    if (nextLF !== -1 && nextLF < pos) nextLF = body.indexOf('\n', pos)
    if (nextCR !== -1 && nextCR < pos) nextCR = body.indexOf('\r', pos)
    // RFC 9309 §2.2: lines end with CR, LF or CRLF.
    const end = nextLF === -1 ? nextCR : nextCR === -1 ? nextLF : Math.min(nextLF, nextCR)
    lineNo++
    if (end === -1) {
      handleLine(pos, body.length, lineNo)
      break
    }
    handleLine(pos, end, lineNo)
    pos = end + 1
    if (body.charCodeAt(end) === 13 && body.charCodeAt(pos) === 10) pos++
  }

  return {
    groups: groups as Group[],
    sitemaps,
    sitemapLines,
    other,
    diagnostics,
    lines: lineNo,
    agentValues,
  }
}
