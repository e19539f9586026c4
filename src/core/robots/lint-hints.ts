import { describeCodePoint, kindOf, percentEncode, showValue, UNSAFE_IN_TEXT, type UnsafeKind } from './characters.ts'
import { compileRobotsTxt } from './compile.ts'
import { agentToken } from './parse.ts'
import type { Group, LintDiagnostic, ParsedRobotsTxt } from './types.ts'

// Checks of what a file says, beyond what the parser reports: mistakes that
// are valid robots.txt but rarely what the author meant.

const rulesText = (patterns: readonly string[]): string => patterns.map((p) => showValue(`Disallow: ${p}`)).join(', ')
const names = (g: Group): string => g.userAgents.join(', ')

/**
 * RFC 9309 §2.2.1: a crawler obeys the group naming it and nothing else; a
 * named group does not inherit the `*` group. A group that forgets what `*`
 * disallows lets its crawlers fetch it, which surprises nearly everyone.
 */
function noInherit(parsed: ParsedRobotsTxt, out: LintDiagnostic[]): void {
  const star = parsed.groups.filter((g) => g.userAgents.includes('*'))
  if (star.length === 0) return
  const robots = compileRobotsTxt(parsed)
  const starRules = star.flatMap((g) => g.rules).filter((r) => r.type === 'disallow' && r.pattern !== '')
  const reported = new Set<string>()
  for (const group of parsed.groups) {
    // An empty group is reported as such (lint.ts).
    if (group.userAgents.includes('*') || group.rules.length === 0) continue
    const token = group.userAgents.map((a) => agentToken(a).toLowerCase()).find((t) => t !== '')
    if (token === undefined || reported.has(token)) continue
    reported.add(token)
    const missed = starRules.filter((rule) => {
      const path = rule.pattern.replace(/\*/g, 'x').replace(/\$$/, '')
      const forStar = robots.check('*', path)
      return !forStar.allowed && forStar.rule?.line === rule.line && robots.check(token, path).allowed
    })
    // A group that disallows nothing and says "allow everything" (`Disallow:`
    // or `Allow: /`) means it; one that disallows nothing else may.
    const restrictive = group.rules.some((r) => r.type === 'disallow' && r.pattern !== '')
    const allowsAll = group.rules.some((r) => r.pattern === '' || (r.type === 'allow' && r.pattern === '/'))
    if (missed.length === 0 || (!restrictive && allowsAll)) continue
    const patterns = [...new Set(missed.map((r) => r.pattern))]
    out.push({
      code: 'no-inherit',
      severity: restrictive ? 'warning' : 'info',
      line: group.line ?? 0,
      message: `The group for ${names(group)} does not inherit the "*" group (RFC 9309 §2.2.1: a crawler obeys only the group naming it): ${token} may fetch what "*" disallows with ${rulesText(patterns)} (line${missed.length === 1 ? '' : 's'} ${[...new Set(missed.map((r) => r.line ?? 0))].join(', ')}).`,
      fix: `If ${token} must stay out too, repeat ${patterns.length === 1 ? 'that rule' : 'those rules'} in its group; if it may fetch them, nothing to do.`,
    })
  }
}

const UNSUPPORTED: Readonly<Record<string, string>> = {
  noindex: '"Noindex" in robots.txt is read by no major crawler: Google stopped reading it in September 2019, and the pages stay indexable.',
  nofollow: '"Nofollow" in robots.txt is read by no major crawler: Google stopped reading it in September 2019.',
}

/** Directives crawlers stopped reading, and Crawl-delay where Google ignores it. */
function unsupported(parsed: ParsedRobotsTxt, out: LintDiagnostic[]): void {
  for (const record of [...parsed.other, ...parsed.groups.flatMap((g) => g.other)]) {
    const message = UNSUPPORTED[record.key.toLowerCase()]
    if (message === undefined) continue
    out.push({
      code: 'unsupported-directive',
      severity: 'warning',
      line: record.line ?? 0,
      message,
      fix:
        record.key.toLowerCase() === 'noindex'
          ? 'Send "X-Robots-Tag: noindex" or a noindex robots meta tag on those pages, and let crawlers fetch them (a page they may not fetch is never seen saying noindex).'
          : 'Use rel="nofollow" on the links, or a nofollow robots meta tag, and remove the line.',
    })
  }
  for (const group of parsed.groups) {
    const google = group.userAgents.filter((a) => agentToken(a).toLowerCase().includes('google'))
    if (google.length === 0) continue
    for (const record of group.other) {
      if (record.key.toLowerCase() !== 'crawl-delay') continue
      out.push({
        code: 'crawl-delay-ignored',
        severity: 'warning',
        line: record.line ?? 0,
        message: `Google ignores Crawl-delay: this line changes nothing for ${google.join(', ')}.`,
        fix: 'Remove it; Googlebot slows down by itself when the server answers 429, 503 or slowly. Bing and Yandex read Crawl-delay in their own groups.',
      })
    }
  }
}

const EFFECT: Readonly<Record<UnsafeKind, string>> = {
  'line-break': "Python's urllib.robotparser and Protego end the line there (they split lines as str.splitlines() does), so they read a line Google does not",
  control: 'a control character, which robots.txt readers handle inconsistently',
  bidi: 'a bidirectional control: the line displays in a different order from the one crawlers read',
  invisible: 'an invisible character: the line reads differently from how it looks',
  surrogate: 'an unpaired surrogate, which is not text',
}

/**
 * Line breaks of other readers, controls, bidi and invisible characters in
 * the file (RFC 9309 §2.2 ends lines at CR and LF only; the rest is text to
 * Google, and something else to others). NUL and a leading byte-order mark
 * have diagnostics of their own.
 */
function characters(text: string, out: LintDiagnostic[]): void {
  const scan = new RegExp(UNSAFE_IN_TEXT.source, UNSAFE_IN_TEXT.flags)
  let line = 1
  let lineStart = 0
  let counted = 0
  let reported = 0
  for (let m = scan.exec(text); m !== null; m = scan.exec(text)) {
    if (m.index === 0 && m[0] === '\uFEFF') continue
    // Lines end at CR, LF or CRLF, as the parser counts them.
    for (let i = counted; i < m.index; i++) {
      const c = text.charCodeAt(i)
      if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) {
        line++
        lineStart = i + 1
      }
    }
    counted = m.index
    if (reported === line) continue
    reported = line
    const codePoint = m[0].codePointAt(0)!
    const kind = kindOf(m[0], codePoint)
    const from = lineStart === 0 && text.charCodeAt(0) === 0xfeff ? 1 : lineStart
    const position = [...text.slice(from, m.index)].length + 1
    out.push({
      code: 'unsafe-character',
      severity: kind === 'line-break' ? 'error' : 'warning',
      line,
      message: `The line holds ${describeCodePoint(codePoint)} at character ${position}: ${EFFECT[kind]}.`,
      fix: `Remove it; in a path, write it percent-encoded ("${percentEncode(m[0])}") if the URL really holds it.`,
    })
  }
}

/** The hints above, for a parsed file and the text it came from; `whole` when it is within 500 KiB. */
export function lintHints(parsed: ParsedRobotsTxt, text: string, whole: boolean): LintDiagnostic[] {
  const out: LintDiagnostic[] = []
  if (whole) noInherit(parsed, out)
  unsupported(parsed, out)
  characters(text, out)
  return out
}
