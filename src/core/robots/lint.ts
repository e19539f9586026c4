import { showValue } from './characters.ts'
import { lintHints } from './lint-hints.ts'
import { lintReaders } from './lint-readers.ts'
import { MAX_FILE_BYTES, MAX_LINE_BYTES, parseRobotsTxt } from './parse.ts'
import type { LintDiagnostic, ParseDiagnostic, ParsedRobotsTxt, Severity } from './types.ts'

type Explained = { severity: Severity; message: string; fix?: string }

function explain(d: ParseDiagnostic): Explained {
  const raw = d.detail ?? ''
  // Text from the file is quoted with its invisible and bidi characters escaped.
  const detail = showValue(raw).slice(1, -1)
  switch (d.code) {
    case 'bom':
      return {
        severity: 'warning',
        message: 'The file starts with a UTF-8 byte-order mark; Google skips it, other crawlers may read it as part of the first key.',
        fix: 'Save the file as UTF-8 without a BOM.',
      }
    case 'file-too-large':
      return {
        severity: 'error',
        message: `The file is over ${MAX_FILE_BYTES / 1024} KiB; RFC 9309 §2.5 lets crawlers ignore everything after that.`,
        fix: 'Merge groups and remove redundant rules to bring it under 500 KiB.',
      }
    case 'line-too-long':
      return { severity: 'error', message: `The line is over ${MAX_LINE_BYTES} octets; Google's parser drops the rest of it.`, fix: 'Shorten the pattern or split it into several rules.' }
    case 'missing-colon':
      return { severity: 'warning', message: `"${detail}" has no colon after it; Google accepts that, RFC 9309 §2.2 does not.`, fix: `Write "${detail}: value".` }
    case 'typo-accepted':
      return {
        severity: 'warning',
        message: `"${detail}" is not a standard key; Google reads it as one, other crawlers ignore the line.`,
        fix: 'Use the exact key: User-agent, Allow, Disallow or Sitemap.',
      }
    case 'rule-outside-group':
      return { severity: 'error', message: `"${detail}" comes before any User-agent line, so no crawler applies it (RFC 9309 §2.1).`, fix: 'Put a "User-agent: *" line above it.' }
    case 'invalid-product-token':
      return {
        severity: 'error',
        message: `User-agent "${detail}" names no product token (letters, "-" and "_", RFC 9309 §2.2.1); it matches no crawler.`,
        fix: 'Use the crawler\'s product token, e.g. "Googlebot".',
      }
    case 'agent-value-truncated':
      return {
        severity: 'warning',
        message: `User-agent "${detail}" is not a bare product token; Google reads only its leading letters, "-" and "_".`,
        fix: 'Write only the product token, without version or comment.',
      }
    case 'pattern-start':
      return { severity: 'error', message: `Pattern "${detail}" does not start with "/" or "*", so it never matches a path (RFC 9309 §2.2.2).`, fix: `Write "/${detail}".` }
    case 'unknown-key':
      return { severity: 'info', message: `"${detail}" is not a key crawlers are known to read; they ignore the line.` }
    case 'nul-byte':
      return { severity: 'error', message: 'The line holds a NUL octet; parsers stop reading the line there.', fix: 'Remove the NUL octet.' }
    case 'malformed-line':
      return { severity: 'warning', message: `${showValue(raw.slice(0, 80))} is not a "key: value" line; crawlers ignore it.`, fix: 'Write it as "key: value", or make it a comment with "#".' }
  }
}

function lintRecords(parsed: ParsedRobotsTxt, out: LintDiagnostic[]): void {
  if (parsed.groups.length === 0) {
    out.push({ code: 'no-groups', severity: 'info', line: 0, message: 'The file has no groups, so it allows everything to everyone.' })
  }
  for (const group of parsed.groups) {
    if (group.rules.length === 0 && group === parsed.groups[parsed.groups.length - 1]) {
      out.push({
        code: 'empty-group',
        severity: 'warning',
        line: group.line ?? 0,
        message: `The group for ${group.userAgents.map((a) => showValue(a).slice(1, -1)).join(', ')} has no rules: these crawlers ignore the "*" group and may fetch everything.`,
        fix: 'Add rules, or "Disallow:" to make allowing everything explicit.',
      })
    }
    for (const r of group.other) {
      if (r.key.toLowerCase() !== 'crawl-delay') continue
      const n = Number(r.value)
      if (!(n > 0))
        out.push({
          code: 'crawl-delay',
          severity: 'warning',
          line: r.line ?? 0,
          message: `Crawl-delay ${showValue(r.value)} is not a positive number of seconds.`,
          fix: 'Write a positive number, e.g. "Crawl-delay: 5".',
        })
    }
  }
  for (const r of parsed.other) {
    if (r.key.toLowerCase() === 'crawl-delay') {
      out.push({ code: 'crawl-delay', severity: 'warning', line: r.line ?? 0, message: 'Crawl-delay before any User-agent line applies to no group.', fix: 'Move it into the group it is meant for.' })
    }
  }
  parsed.sitemaps.forEach((sitemap, i) => {
    if (!/^https?:\/\/[^/\s]+/i.test(sitemap)) {
      out.push({
        code: 'sitemap-url',
        severity: 'error',
        line: parsed.sitemapLines[i] ?? 0,
        message: `Sitemap ${showValue(sitemap)} is not an absolute http(s) URL (RFC 9309 §2.3.5).`,
        fix: 'Write the full URL, e.g. "https://example.com/sitemap.xml".',
      })
    }
  })
}

const ORDER: Record<Severity, number> = { error: 0, warning: 1, info: 2 }

/**
 * Lints a robots.txt body: every parser diagnostic with a severity, a message
 * and a suggested fix; checks across records; where Google's reading, the
 * first-match reading (1996 draft, urllib.robotparser) and the 1994 prefix
 * reading differ (lint-readers.ts); and the hints of lint-hints.ts. Sorted
 * by line, then severity.
 *
 * @example
 * lintRobotsTxt('User-agent: *\nAllow: /\nDisallow: /admin/\n')
 * // [{ code: 'reader-order', severity: 'warning', line: 3, message: 'Google and other RFC 9309 readers disallow "/admin/" ...', fix: '...', example: {...} }]
 */
export function lintRobotsTxt(text: string): LintDiagnostic[] {
  const body = typeof text === 'string' ? text : String(text ?? '')
  const parsed = parseRobotsTxt(body)
  const out: LintDiagnostic[] = parsed.diagnostics.map((d) => ({ code: d.code, line: d.line, ...explain(d) }))
  lintRecords(parsed, out)
  // Over 500 KiB crawlers may read only part of the file (RFC 9309 §2.5), and
  // that error comes first: the readings are compared once the file is whole.
  const whole = !parsed.diagnostics.some((d) => d.code === 'file-too-large')
  out.push(...(whole ? lintReaders(parsed) : []), ...lintHints(parsed, body, whole))
  return out.sort((a, b) => a.line - b.line || ORDER[a.severity] - ORDER[b.severity])
}
