import { describe, expect, it } from 'vitest'
import { lintRobotsTxt } from '../../../src/core/robots/index.ts'

// Unit tests of the hints of lintRobotsTxt: valid robots.txt that rarely
// means what its author meant. Each comes with a fix.

const txt = (...lines: string[]): string => lines.join('\n') + '\n'
const only = (code: string, body: string) => lintRobotsTxt(body).filter((d) => d.code === code)

describe('a named group does not inherit * (RFC 9309 §2.2.1)', () => {
  // The shipped config as it was: Googlebot's group forgot /admin/ and *.pdf.
  it('warns about a group that disallows some things but forgets what * disallows', () => {
    const body = txt('User-agent: *', 'Allow: /', 'Disallow: /admin/', 'Disallow: /*.pdf$', '', 'User-agent: Googlebot', 'Allow: /private/press/', 'Disallow: /private/')
    expect(only('no-inherit', body)).toEqual([
      {
        code: 'no-inherit',
        severity: 'warning',
        line: 6,
        message:
          'The group for Googlebot does not inherit the "*" group (RFC 9309 §2.2.1: a crawler obeys only the group naming it): googlebot may fetch what "*" disallows with "Disallow: /admin/", "Disallow: /*.pdf$" (lines 3, 4).',
        fix: 'If googlebot must stay out too, repeat those rules in its group; if it may fetch them, nothing to do.',
      },
    ])
  })

  it('says nothing once the group repeats them', () => {
    const body = txt('User-agent: Googlebot', 'Allow: /private/press/', 'Disallow: /private/', 'Disallow: /admin/', 'Disallow: /*.pdf$', '', 'User-agent: *', 'Disallow: /admin/', 'Disallow: /*.pdf$')
    expect(only('no-inherit', body)).toEqual([])
  })

  // A group of Allow lines only may mean to allow more than *: information.
  it('notes a group that only allows', () => {
    expect(only('no-inherit', txt('User-agent: *', 'Disallow: /x/', '', 'User-agent: bingbot', 'Allow: /y/')).map((d) => d.severity)).toEqual(['info'])
  })

  // An explicit allow-all says what it means.
  it.each(['Disallow:', 'Allow: /'])('says nothing about a group that allows everything with %j', (line) => {
    expect(only('no-inherit', txt('User-agent: *', 'Disallow: /x/', '', 'User-agent: bingbot', line))).toEqual([])
  })

  // A group stricter than * loses nothing.
  it('says nothing about a group that disallows everything', () => {
    expect(only('no-inherit', txt('User-agent: *', 'Disallow: /x/', '', 'User-agent: gptbot', 'Disallow: /'))).toEqual([])
  })
})

describe('directives crawlers do not read', () => {
  it.each([
    ['Noindex: /drafts/', 'Noindex'],
    ['noindex: /drafts/', 'Noindex'],
    ['Nofollow: /links/', 'Nofollow'],
  ])('warns about %j', (line, name) => {
    const [d, ...rest] = only('unsupported-directive', txt('User-agent: *', 'Disallow: /x', line))
    expect(rest).toEqual([])
    expect(d).toMatchObject({
      severity: 'warning',
      line: 3,
      message: expect.stringContaining(`"${name}" in robots.txt is read by no major crawler: Google stopped reading it in September 2019`),
      fix: expect.any(String),
    })
  })

  it('tells what to use instead of Noindex', () => {
    expect(only('unsupported-directive', txt('User-agent: *', 'Noindex: /a'))[0]!.fix).toBe(
      'Send "X-Robots-Tag: noindex" or a noindex robots meta tag on those pages, and let crawlers fetch them (a page they may not fetch is never seen saying noindex).',
    )
  })

  // Google ignores Crawl-delay; Bing and Yandex read it.
  it('warns about Crawl-delay in a group for a Google crawler', () => {
    expect(only('crawl-delay-ignored', txt('User-agent: Googlebot', 'User-agent: Googlebot-Image', 'Crawl-delay: 5', 'Disallow: /x'))).toEqual([
      {
        code: 'crawl-delay-ignored',
        severity: 'warning',
        line: 3,
        message: 'Google ignores Crawl-delay: this line changes nothing for Googlebot, Googlebot-Image.',
        fix: 'Remove it; Googlebot slows down by itself when the server answers 429, 503 or slowly. Bing and Yandex read Crawl-delay in their own groups.',
      },
    ])
    expect(only('crawl-delay-ignored', txt('User-agent: bingbot', 'Crawl-delay: 5', 'Disallow: /x'))).toEqual([])
  })
})

describe('characters other readers read differently', () => {
  // Python's splitlines() ends the line at U+2028: urllib.robotparser reads "Disallow: /" on its own.
  it('reports a line separator as an error', () => {
    expect(only('unsafe-character', txt('User-agent: GPTBot', 'Allow: /a\u2028Disallow: /'))).toEqual([
      {
        code: 'unsafe-character',
        severity: 'error',
        line: 2,
        message:
          "The line holds U+2028 (LINE SEPARATOR) at character 10: Python's urllib.robotparser and Protego end the line there (they split lines as str.splitlines() does), so they read a line Google does not.",
        fix: 'Remove it; in a path, write it percent-encoded ("%E2%80%A8") if the URL really holds it.',
      },
    ])
  })

  it.each([
    ['\u202e', 'U+202E (RIGHT-TO-LEFT OVERRIDE)', 'a bidirectional control: the line displays in a different order from the one crawlers read'],
    ['\u200b', 'U+200B (ZERO WIDTH SPACE)', 'an invisible character: the line reads differently from how it looks'],
    ['\u009b', 'U+009B (CONTROL SEQUENCE INTRODUCER)', 'a control character, which robots.txt readers handle inconsistently'],
  ])('warns about %j', (c, name, effect) => {
    expect(only('unsafe-character', txt('User-agent: *', `Disallow: /a${c}b`))).toEqual([
      { code: 'unsafe-character', severity: 'warning', line: 2, message: `The line holds ${name} at character 13: ${effect}.`, fix: expect.stringContaining('percent-encoded') },
    ])
  })

  // The byte-order mark, NUL and tabs have their own diagnostics, or none.
  it('leaves the byte-order mark, NUL and tabs to their own checks', () => {
    expect(only('unsafe-character', '\uFEFFUser-agent: *\nDisallow:\t/x\0y\n')).toEqual([])
  })

  // Text from the file is never printed raw: invisible and bidi characters are escaped in messages.
  it('escapes such characters in every message', () => {
    for (const d of lintRobotsTxt(txt('User-agent: *', 'Disallow: /x', 'junk \u202e line', 'Sitemap: /s\u200b.xml'))) {
      expect(d.message).not.toMatch(/[\u202e\u200b]/)
    }
    expect(lintRobotsTxt(txt('User-agent: *', 'Disallow: /x', 'junk \u202e line')).find((d) => d.code === 'malformed-line')!.message).toContain('"junk \\u202E line"')
  })
})
