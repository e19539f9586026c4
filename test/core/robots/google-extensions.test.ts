import { describe, expect, it } from 'vitest'
import { compileRobotsTxt, MAX_LINE_BYTES, parseRobotsTxt } from '../../../src/core/robots/index.ts'
import type { DecidingRule, Verdict } from '../../../src/core/robots/index.ts'

// Unit tests of what robots-edge reads beyond RFC 9309 on purpose, because
// Google's reference parser (robots.cc) reads it that way and sites rely on it.
// Each test says which deliberate extension it pins down.

function txt(...lines: string[]): string {
  return lines.join('\n') + '\n'
}

function verdict(allowed: boolean, group: string | null, rule: DecidingRule | null = null): Verdict {
  return { allowed, group, rule }
}

describe('Google extensions beyond RFC 9309', () => {
  // Deliberate: frequent misspellings of `disallow` are read as disallow, and flagged.
  it.each(['disalow', 'dissallow', 'dissalow', 'diasllow', 'disallaw', 'Disalow', 'DISSALLOW'])('reads %s as disallow', (key) => {
    const body = txt('User-agent: FooBot', `${key}: /x`)
    const parsed = parseRobotsTxt(body)
    expect(parsed.groups[0]?.rules).toEqual([{ type: 'disallow', pattern: '/x', line: 2 }])
    expect(parsed.diagnostics).toEqual([{ code: 'typo-accepted', line: 2, detail: key }])
    expect(compileRobotsTxt(body).check('FooBot', '/x/y')).toEqual(verdict(false, 'foobot', { type: 'disallow', pattern: '/x', line: 2 }))
  })

  // Deliberate: `useragent` and `user agent` are read as user-agent, and flagged.
  it.each(['useragent', 'user agent', 'UserAgent', 'User Agent'])('reads %s as user-agent', (key) => {
    const parsed = parseRobotsTxt(txt(`${key}: FooBot`, 'Disallow: /x'))
    expect(parsed.groups).toEqual([{ userAgents: ['FooBot'], rules: [{ type: 'disallow', pattern: '/x', line: 2 }], other: [], line: 1 }])
    expect(parsed.diagnostics).toEqual([{ code: 'typo-accepted', line: 1, detail: key }])
  })

  // Deliberate: `site-map` is read as sitemap, and flagged.
  it('reads site-map as sitemap', () => {
    const parsed = parseRobotsTxt(txt('Site-map: https://example.com/sitemap.xml'))
    expect(parsed.sitemaps).toEqual(['https://example.com/sitemap.xml'])
    expect(parsed.other).toEqual([])
    expect(parsed.diagnostics).toEqual([{ code: 'typo-accepted', line: 1, detail: 'Site-map' }])
  })

  // Deliberate: a key is recognised by its prefix, so `User-agents:` or `Disallowed:` still count, flagged.
  it('recognises keys by prefix', () => {
    const body = txt('User-agents: FooBot', 'Disallowed: /x', 'Allowance: /x/y', 'Sitemaps: https://example.com/s.xml')
    const parsed = parseRobotsTxt(body)
    expect(parsed.groups).toEqual([
      {
        userAgents: ['FooBot'],
        rules: [
          { type: 'disallow', pattern: '/x', line: 2 },
          { type: 'allow', pattern: '/x/y', line: 3 },
        ],
        other: [],
        line: 1,
      },
    ])
    expect(parsed.sitemaps).toEqual(['https://example.com/s.xml'])
    expect(parsed.diagnostics).toEqual([
      { code: 'typo-accepted', line: 1, detail: 'User-agents' },
      { code: 'typo-accepted', line: 2, detail: 'Disallowed' },
      { code: 'typo-accepted', line: 3, detail: 'Allowance' },
      { code: 'typo-accepted', line: 4, detail: 'Sitemaps' },
    ])
  })

  // Deliberate: a missing colon is accepted when the line is exactly two runs of non-white-space (robots_test.cc ID_LineSyntax_Line).
  it('accepts a missing colon between exactly two words', () => {
    const body = txt('user-agent FooBot', 'disallow /')
    const parsed = parseRobotsTxt(body)
    expect(parsed.groups).toEqual([{ userAgents: ['FooBot'], rules: [{ type: 'disallow', pattern: '/', line: 2 }], other: [], line: 1 }])
    expect(parsed.diagnostics).toEqual([
      { code: 'missing-colon', line: 1, detail: 'user-agent' },
      { code: 'missing-colon', line: 2, detail: 'disallow' },
    ])
    expect(compileRobotsTxt(body).check('FooBot', 'http://foo.bar/x/y')).toEqual(verdict(false, 'foobot', { type: 'disallow', pattern: '/', line: 2 }))
  })

  // Deliberate: a tab also separates key and value when the colon is missing.
  it('accepts a tab in place of the colon', () => {
    expect(parseRobotsTxt(txt('User-agent\tFooBot', 'Disallow\t/x')).groups[0]?.rules).toEqual([{ type: 'disallow', pattern: '/x', line: 2 }])
  })

  // Deliberate, and bounded: with three or more words and no colon, the line is rejected, not guessed at.
  it('rejects a line without a colon that has three words', () => {
    const body = txt('User-agent: FooBot', 'Disallow /x /y', 'this is junk')
    const parsed = parseRobotsTxt(body)
    expect(parsed.groups[0]?.rules).toEqual([])
    expect(parsed.diagnostics).toEqual([
      { code: 'malformed-line', line: 2, detail: 'Disallow /x /y' },
      { code: 'malformed-line', line: 3, detail: 'this is junk' },
    ])
    expect(compileRobotsTxt(body).check('FooBot', '/x')).toEqual(verdict(true, 'foobot'))
  })

  // Deliberate: a user-agent value is cut at the first character that is not a letter, `-` or `_`, so `Googlebot/2.1` names googlebot.
  it('reads Googlebot/2.1 as googlebot', () => {
    const body = txt('User-agent: Googlebot/2.1', 'Disallow: /x')
    const parsed = parseRobotsTxt(body)
    expect(parsed.groups[0]?.userAgents).toEqual(['Googlebot'])
    expect(parsed.diagnostics).toEqual([{ code: 'agent-value-truncated', line: 1, detail: 'Googlebot/2.1' }])
    expect(compileRobotsTxt(body).check('googlebot', '/x')).toEqual(verdict(false, 'googlebot', { type: 'disallow', pattern: '/x', line: 2 }))
  })

  // Deliberate: the value is read up to the first space, so `Foo Bar` names foo (robots_test.cc GoogleOnly_AcceptUserAgentUpToFirstSpace).
  it('reads a user-agent value up to the first space', () => {
    const robots = compileRobotsTxt(txt('User-Agent: *', 'Disallow: /', 'User-Agent: Foo Bar', 'Allow: /x/', 'Disallow: /'))
    expect(robots.check('Foo', 'http://foo.bar/x/y')).toEqual(verdict(true, 'foo', { type: 'allow', pattern: '/x/', line: 4 }))
    expect(robots.check('Foo Bar', 'http://foo.bar/x/y')).toEqual(verdict(false, '*', { type: 'disallow', pattern: '/', line: 2 }))
  })

  // Deliberate: `*` followed by white space and anything else is still the wildcard; `*foo` is not.
  it('reads "* foo" as the wildcard', () => {
    for (const value of ['* foo', '*\tfoo', '* (all robots)']) {
      const body = txt(`User-agent: ${value}`, 'Disallow: /x')
      const parsed = parseRobotsTxt(body)
      expect(parsed.groups[0]?.userAgents).toEqual(['*'])
      expect(parsed.diagnostics).toEqual([{ code: 'agent-value-truncated', line: 1, detail: value }])
      expect(compileRobotsTxt(body).check('anybot', '/x')).toEqual(verdict(false, '*', { type: 'disallow', pattern: '/x', line: 2 }))
    }
    const notWildcard = txt('User-agent: *foo', 'Disallow: /x')
    expect(parseRobotsTxt(notWildcard).diagnostics).toEqual([{ code: 'invalid-product-token', line: 1, detail: '*foo' }])
    expect(compileRobotsTxt(notWildcard).check('anybot', '/x')).toEqual(verdict(true, null))
  })

  // Deliberate: `Allow: /dir/index.html` also allows `/dir/` itself, and nothing else under /dir/ (robots_test.cc GoogleOnly_IndexHTMLisDirectory).
  it('allows the directory of an allowed index.html', () => {
    const robots = compileRobotsTxt(txt('User-Agent: *', 'Allow: /allowed-slash/index.html', 'Disallow: /'))
    const byIndex = { type: 'allow', pattern: '/allowed-slash/index.html', line: 2 } as const
    const bySlash = { type: 'disallow', pattern: '/', line: 3 } as const
    expect(robots.check('foobot', 'http://foo.com/allowed-slash/')).toEqual(verdict(true, '*', byIndex))
    expect(robots.check('foobot', 'http://foo.com/allowed-slash/index.html')).toEqual(verdict(true, '*', byIndex))
    expect(robots.check('foobot', 'http://foo.com/allowed-slash/index.htm')).toEqual(verdict(false, '*', bySlash))
    expect(robots.check('foobot', 'http://foo.com/allowed-slash/other')).toEqual(verdict(false, '*', bySlash))
    expect(robots.check('foobot', 'http://foo.com/anyother-url')).toEqual(verdict(false, '*', bySlash))
  })

  // Deliberate: the same holds for index.htm.
  it('allows the directory of an allowed index.htm', () => {
    const robots = compileRobotsTxt(txt('User-agent: *', 'Disallow: /dir/', 'Allow: /dir/index.htm'))
    expect(robots.check('x', '/dir/')).toEqual(verdict(true, '*', { type: 'allow', pattern: '/dir/index.htm', line: 3 }))
    expect(robots.check('x', '/dir/other')).toEqual(verdict(false, '*', { type: 'disallow', pattern: '/dir/', line: 2 }))
  })

  // Deliberate: a UTF-8 byte-order mark at the start is skipped and flagged; line numbers do not move.
  it('skips a leading byte-order mark', () => {
    const body = '\uFEFFUser-agent: FooBot\nDisallow: /x\n'
    const parsed = parseRobotsTxt(body)
    expect(parsed.groups).toEqual([{ userAgents: ['FooBot'], rules: [{ type: 'disallow', pattern: '/x', line: 2 }], other: [], line: 1 }])
    expect(parsed.diagnostics).toEqual([{ code: 'bom', line: 1 }])
    expect(parsed.lines).toBe(3)
  })

  // Deliberate, and bounded: a byte-order mark anywhere else is part of the line (robots_test.cc ID_UTF8ByteOrderMarkIsSkipped).
  it('does not skip a byte-order mark in the middle of the file', () => {
    const parsed = parseRobotsTxt('User-Agent: foo\n\uFEFFAllow: /AnyValue\n')
    expect(parsed.groups[0]?.rules).toEqual([])
    expect(parsed.groups[0]?.other).toEqual([{ key: '\uFEFFAllow', value: '/AnyValue', line: 2 }])
    expect(parsed.diagnostics).toEqual([{ code: 'unknown-key', line: 2, detail: '\uFEFFAllow' }])
  })

  // Deliberate: LF, CRLF and a lone CR all end a line, even mixed in one file (robots_test.cc ID_LinesNumbersAreCountedCorrectly).
  it.each([
    ['LF', 'User-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\nDisallow: /\n', 7],
    ['CRLF', 'User-Agent: foo\r\nAllow: /some/path\r\nUser-Agent: bar\r\n\r\n\r\nDisallow: /\r\n', 7],
    ['lone CR', 'User-Agent: foo\rAllow: /some/path\rUser-Agent: bar\r\r\rDisallow: /\r', 7],
    ['no final line end', 'User-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\nDisallow: /', 6],
    ['mixed', 'User-Agent: foo\nAllow: /some/path\r\nUser-Agent: bar\n\r\n\nDisallow: /', 6],
  ])('numbers lines ended by %s', (_name, body, lines) => {
    const parsed = parseRobotsTxt(body)
    expect(parsed.groups).toEqual([
      { userAgents: ['foo'], rules: [{ type: 'allow', pattern: '/some/path', line: 2 }], other: [], line: 1 },
      { userAgents: ['bar'], rules: [{ type: 'disallow', pattern: '/', line: 6 }], other: [], line: 3 },
    ])
    expect(parsed.lines).toBe(lines)
  })

  // Deliberate: the reference parser reads lines as C strings, so a NUL octet ends the line.
  it('ends a line at a NUL octet', () => {
    const body = 'User-agent: FooBot\nDisallow: /a\0/b\nAllow: /c\n'
    const parsed = parseRobotsTxt(body)
    expect(parsed.groups[0]?.rules).toEqual([
      { type: 'disallow', pattern: '/a', line: 2 },
      { type: 'allow', pattern: '/c', line: 3 },
    ])
    expect(parsed.diagnostics).toEqual([{ code: 'nul-byte', line: 2 }])
    expect(compileRobotsTxt(body).check('FooBot', '/a/x')).toEqual(verdict(false, 'foobot', { type: 'disallow', pattern: '/a', line: 2 }))
  })

  // Deliberate: only the first MAX_LINE_BYTES octets of a line are read; a disallow cut short still matches (robots_test.cc GoogleOnly_LineTooLong).
  it('cuts a long disallow line and matches what is left', () => {
    const disallow = 'disallow: '
    // Long enough that the cut falls right after the `/` that follows it.
    const longline = '/x/' + 'a'.repeat(MAX_LINE_BYTES - disallow.length - 3 - 1)
    const body = 'user-agent: FooBot\n' + disallow + longline + '/qux\n'
    const parsed = parseRobotsTxt(body)
    expect(parsed.diagnostics).toEqual([{ code: 'line-too-long', line: 2 }])
    expect(parsed.groups[0]?.rules).toEqual([{ type: 'disallow', pattern: longline + '/', line: 2 }])
    const robots = compileRobotsTxt(body)
    expect(robots.check('FooBot', 'http://foo.bar/fux')).toEqual(verdict(true, 'foobot'))
    expect(robots.check('FooBot', 'http://foo.bar' + longline + '/fux')).toEqual(verdict(false, 'foobot', { type: 'disallow', pattern: longline + '/', line: 2 }))
  })

  // Deliberate: the same cut applies to allow lines (robots_test.cc GoogleOnly_LineTooLong).
  it('cuts long allow lines and matches what is left', () => {
    const allow = 'allow: '
    const room = MAX_LINE_BYTES - allow.length - 3 - 1
    const longA = '/x/' + 'a'.repeat(room)
    const longB = '/x/' + 'b'.repeat(room)
    const body = 'user-agent: FooBot\ndisallow: /\n' + allow + longA + '/qux\n' + allow + longB + '/qux\n'
    const robots = compileRobotsTxt(body)
    expect(parseRobotsTxt(body).diagnostics).toEqual([
      { code: 'line-too-long', line: 3 },
      { code: 'line-too-long', line: 4 },
    ])
    expect(robots.check('FooBot', 'http://foo.bar/')).toEqual(verdict(false, 'foobot', { type: 'disallow', pattern: '/', line: 2 }))
    expect(robots.check('FooBot', 'http://foo.bar' + longA + '/qux')).toEqual(verdict(true, 'foobot', { type: 'allow', pattern: longA + '/', line: 3 }))
    expect(robots.check('FooBot', 'http://foo.bar' + longB + '/fux')).toEqual(verdict(true, 'foobot', { type: 'allow', pattern: longB + '/', line: 4 }))
  })

  // Deliberate: a line of exactly MAX_LINE_BYTES octets is read whole and not flagged.
  it('keeps a line of exactly MAX_LINE_BYTES octets', () => {
    const line = 'Disallow: /' + 'a'.repeat(MAX_LINE_BYTES - 'Disallow: /'.length)
    const parsed = parseRobotsTxt('User-agent: *\n' + line + '\n')
    expect(parsed.diagnostics).toEqual([])
    expect(parsed.groups[0]?.rules[0]?.pattern).toHaveLength(MAX_LINE_BYTES - 'Disallow: '.length)
  })
})
