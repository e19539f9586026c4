import type { OtherRecord, RobotsTxtModel } from './types.ts'

/**
 * Pattern octets that would end the line or start a comment are
 * percent-encoded: that is how they appear in a URL anyway (RFC 3986), so the
 * rule keeps its meaning and no line can be injected.
 */
function safePattern(pattern: string): string {
  return pattern.replace(/[\0-\x1f#\x7f]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0'))
}

/**
 * Any other value is cut at the first line break or `#`: the config validator
 * rejects such values with a clear error long before they reach this point,
 * so this is only the last line of defence against injected lines.
 */
function safeValue(value: string): string {
  const cut = value.search(/[\r\n#\0]/)
  // ASCII white space only, as the parser trims: `String.prototype.trim`
  // would also drop U+00A0 and turn an agent value that names nothing,
  // `\u00A0*`, into the wildcard.
  return (cut < 0 ? value : value.slice(0, cut)).replace(/^[ \t\v\f]+|[ \t\v\f]+$/g, '')
}

/**
 * A record whose key a parser would read as user-agent, allow, disallow or
 * sitemap would change the groups; such records, and keys that are not
 * tokens, are not written. The config validator reports them first.
 */
const STRUCTURAL_KEY = /^(user[- ]?agent|allow|dis+al+[oa]w|diasllow|site-?map)/i
const KEY = /^[A-Za-z][A-Za-z0-9_-]*$/

/** Each line of a comment gets its own `#`, so no text can escape the comment. */
function comment(text: string, out: string[]): void {
  for (const line of text.split(/\r\n|\r|\n/)) out.push(line === '' ? '#' : `# ${line.replace(/[\0-\x08\x0b-\x1f\x7f]/g, '')}`)
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
