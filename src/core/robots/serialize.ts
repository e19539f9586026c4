import { LINE_BREAK_CHARS, percentEncode, replaceUnsafe } from './characters.ts'
import type { OtherRecord, RobotsTxtModel } from './types.ts'

/**
 * The config validator refuses line breaks (those of every common reader,
 * U+2028 and friends included), controls, bidi and invisible characters
 * long before a model reaches this point; what follows is only the last line
 * of defence, for models built by hand or parsed from a file.
 */

/**
 * In a pattern, such characters and `#` are percent-encoded: the matcher
 * reads a raw non-ASCII character as its `%XX` octets anyway (RFC 9309
 * §2.2.2), so the rule keeps its meaning and no line can be injected.
 */
function safePattern(pattern: string): string {
  return replaceUnsafe(pattern, percentEncode).replace(/#/g, '%23')
}

const CUT = new RegExp(`[${LINE_BREAK_CHARS}#\\0]`)
const COMMENT_LINES = new RegExp(`\\r\\n|[${LINE_BREAK_CHARS}]`)

/**
 * Any other value is cut at the first line break or `#`, and its other
 * unsafe characters are percent-encoded. Neither changes which crawler a
 * user-agent value names: a token ends at the first character that is not a
 * letter, `-` or `_` (RFC 9309 §2.2.1), and `%` is not one either.
 */
function safeValue(value: string): string {
  const cut = value.search(CUT)
  // ASCII white space only, as the parser trims: `String.prototype.trim`
  // would also drop U+00A0 and turn an agent value that names nothing,
  // `\u00A0*`, into the wildcard.
  const kept = (cut < 0 ? value : value.slice(0, cut)).replace(/^[ \t\v\f]+|[ \t\v\f]+$/g, '')
  return replaceUnsafe(kept, (c) => (c === '\t' ? c : percentEncode(c)))
}

/**
 * A record whose key a parser would read as user-agent, allow, disallow or
 * sitemap would change the groups; such records, and keys that are not
 * tokens, are not written. The config validator reports them first.
 */
const STRUCTURAL_KEY = /^(user[- ]?agent|allow|dis+al+[oa]w|diasllow|site-?map)/i
const KEY = /^[A-Za-z][A-Za-z0-9_-]*$/

/**
 * Each line of a comment gets its own `#`, whichever reader's line break
 * ended it, so no text can escape the comment; other unsafe characters are
 * dropped (a comment has no meaning to lose).
 */
function comment(text: string, out: string[]): void {
  for (const line of text.split(COMMENT_LINES)) {
    const clean = replaceUnsafe(line, (c) => (c === '\t' ? c : ''))
    out.push(clean === '' ? '#' : `# ${clean}`)
  }
}

function record(r: OtherRecord): string | undefined {
  if (!KEY.test(r.key) || STRUCTURAL_KEY.test(r.key)) return undefined
  const value = safeValue(r.value)
  return value === '' ? `${r.key}:` : `${r.key}: ${value}`
}

/**
 * Writes the canonical robots.txt for a model: header comment, file-wide
 * records, one block per group (user-agent lines, its other records, its
 * rules), then sitemaps. Line ends are LF; the output ends with one LF.
 *
 * For any model whose groups each have at least one rule,
 * `parseRobotsTxt(serializeRobotsTxt(m))` reads back `m` (line numbers aside).
 * A group without rules is written with an empty `Disallow:` (allow all,
 * RFC 9309 §2.2.2): left bare, a crawler would merge it into the next group
 * (§2.1) and silently obey that group's rules.
 */
export function serializeRobotsTxt(model: RobotsTxtModel): string {
  const out: string[] = []
  if (model.header) {
    comment(model.header, out)
    out.push('')
  }
  if (model.other.length > 0) {
    for (const r of model.other) {
      const line = record(r)
      if (line !== undefined) out.push(line)
    }
    out.push('')
  }
  for (const group of model.groups) {
    if (group.comment) comment(group.comment, out)
    for (const agent of group.userAgents) out.push(`User-agent: ${safeValue(agent)}`)
    for (const r of group.other) {
      const line = record(r)
      if (line !== undefined) out.push(line)
    }
    for (const rule of group.rules) {
      const pattern = safePattern(rule.pattern)
      out.push(`${rule.type === 'allow' ? 'Allow' : 'Disallow'}:${pattern === '' ? '' : ' ' + pattern}`)
    }
    if (group.rules.length === 0) out.push('Disallow:')
    out.push('')
  }
  for (const sitemap of model.sitemaps) out.push(`Sitemap: ${safeValue(sitemap)}`)
  while (out.length > 0 && out[out.length - 1] === '') out.pop()
  return out.length === 0 ? '' : out.join('\n') + '\n'
}
