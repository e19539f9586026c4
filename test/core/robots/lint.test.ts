import { describe, expect, it } from 'vitest'
import { lintRobotsTxt, MAX_FILE_BYTES, MAX_LINE_BYTES } from '../../../src/core/robots/index.ts'
import type { LintDiagnostic } from '../../../src/core/robots/index.ts'

// Unit tests of lintRobotsTxt: each parser diagnostic and each check across
// records comes back with a severity, the line it is about, a message that
// names the offending text, and a fix where there is one.

function txt(...lines: string[]): string {
  return lines.join('\n') + '\n'
}

/** What a reader needs to act on: code, severity, line. */
function brief(d: LintDiagnostic): [string, string, number] {
  return [d.code, d.severity, d.line]
}

describe('lintRobotsTxt: parser diagnostics', () => {
  // A leading byte-order mark is a warning on line 1.
  it('warns about a byte-order mark', () => {
    expect(lintRobotsTxt('\uFEFFUser-agent: *\nDisallow: /x\n')).toEqual([{ code: 'bom', severity: 'warning', line: 1, message: expect.stringContaining('byte-order mark'), fix: expect.any(String) }])
  })

  // RFC 9309 §2.5: a file over 500 KiB is an error about the file as a whole (line 0).
  it('reports a file over 500 KiB', () => {
    const body = txt('User-agent: *', 'Disallow: /x') + ('#'.repeat(99) + '\n').repeat(Math.ceil(MAX_FILE_BYTES / 100))
    expect(lintRobotsTxt(body)).toEqual([{ code: 'file-too-large', severity: 'error', line: 0, message: expect.stringContaining('500 KiB'), fix: expect.any(String) }])
  })

  // A line longer than MAX_LINE_BYTES is an error on that line.
  it('reports a line that is too long', () => {
    const body = txt('User-agent: *', 'Disallow: /' + 'a'.repeat(MAX_LINE_BYTES))
    expect(lintRobotsTxt(body)).toEqual([{ code: 'line-too-long', severity: 'error', line: 2, message: expect.stringContaining(String(MAX_LINE_BYTES)), fix: expect.any(String) }])
  })

  // A missing colon is a warning naming the key, with the corrected line as the fix.
  it('warns about a missing colon', () => {
    expect(lintRobotsTxt(txt('User-agent: *', 'Disallow /x'))).toEqual([
      { code: 'missing-colon', severity: 'warning', line: 2, message: expect.stringContaining('"Disallow"'), fix: 'Write "Disallow: value".' },
    ])
  })

  // An accepted misspelling is a warning naming the key as written.
  it('warns about an accepted typo', () => {
    expect(lintRobotsTxt(txt('User-agent: *', 'Disalow: /x'))).toEqual([
      { code: 'typo-accepted', severity: 'warning', line: 2, message: expect.stringContaining('"Disalow"'), fix: expect.any(String) },
    ])
  })

  // RFC 9309 §2.1: a rule before any user-agent line applies to nobody, an error.
  it('reports a rule outside any group', () => {
    expect(lintRobotsTxt(txt('Disallow: /x', 'User-agent: *', 'Disallow: /y'))).toEqual([
      { code: 'rule-outside-group', severity: 'error', line: 1, message: expect.stringContaining('"Disallow"'), fix: 'Put a "User-agent: *" line above it.' },
    ])
  })

  // RFC 9309 §2.2.1: a user-agent value with no product token matches no crawler, an error.
  it('reports a user-agent that names no product token', () => {
    expect(lintRobotsTxt(txt('User-agent: 123bot', 'Disallow: /x'))).toEqual([
      { code: 'invalid-product-token', severity: 'error', line: 1, message: expect.stringContaining('"123bot"'), fix: expect.any(String) },
    ])
  })

  // A user-agent value read only in part is a warning naming the whole value.
  // Readers that compare the whole value match no crawler with it (they cut the crawler's name at "/"): a reader difference too.
  it('warns about a truncated user-agent value', () => {
    expect(lintRobotsTxt(txt('User-agent: Googlebot/2.1', 'Disallow: /x')).map(brief)).toEqual([
      ['agent-value-truncated', 'warning', 1],
      ['reader-group', 'warning', 2],
    ])
    expect(lintRobotsTxt(txt('User-agent: Googlebot/2.1', 'Disallow: /x'))[0]).toEqual({
      code: 'agent-value-truncated',
      severity: 'warning',
      line: 1,
      message: expect.stringContaining('"Googlebot/2.1"'),
      fix: expect.any(String),
    })
  })

  // RFC 9309 §2.2.2: a pattern that starts with neither `/` nor `*` never matches, an error whose fix adds the slash.
  it('reports a pattern that does not start with / or *', () => {
    expect(lintRobotsTxt(txt('User-agent: *', 'Disallow: private'))).toEqual([
      { code: 'pattern-start', severity: 'error', line: 2, message: expect.stringContaining('"private"'), fix: 'Write "/private".' },
    ])
  })

  // An unknown key is information only, with no fix.
  it('notes an unknown key', () => {
    const [d, ...rest] = lintRobotsTxt(txt('User-agent: *', 'Disallow: /x', 'Foo: bar'))
    expect(rest).toEqual([])
    expect(d).toEqual({ code: 'unknown-key', severity: 'info', line: 3, message: expect.stringContaining('"Foo"') })
    expect(d).not.toHaveProperty('fix')
  })

  // Keys crawlers are known to read (crawl-delay, host, content-signal, clean-param) are not flagged.
  it('does not flag well-known other keys', () => {
    const body = txt('Host: example.com', 'User-agent: *', 'Crawl-delay: 5', 'Content-signal: search=yes', 'Clean-param: ref /', 'Disallow: /x')
    expect(lintRobotsTxt(body)).toEqual([])
  })

  // A NUL octet ends the line for parsers, an error.
  it('reports a NUL octet', () => {
    expect(lintRobotsTxt('User-agent: *\nDisallow: /x\0y\n')).toEqual([{ code: 'nul-byte', severity: 'error', line: 2, message: expect.stringContaining('NUL'), fix: expect.any(String) }])
  })

  // A line that is not `key: value` is a warning quoting it.
  it('warns about a malformed line', () => {
    expect(lintRobotsTxt(txt('User-agent: *', 'Disallow: /x', 'this is junk'))).toEqual([
      { code: 'malformed-line', severity: 'warning', line: 3, message: expect.stringContaining('"this is junk"'), fix: expect.any(String) },
    ])
  })

  // A clean file has nothing to report.
  it('reports nothing for a clean file', () => {
    expect(lintRobotsTxt(txt('User-agent: googlebot', 'Disallow: /admin/', 'Disallow: /tmp/', '', 'User-agent: *', 'Disallow: /admin/', '', 'Sitemap: https://example.com/sitemap.xml'))).toEqual([])
  })
})

describe('lintRobotsTxt: checks across records', () => {
  // A last group with no rules makes its crawlers skip `*` and fetch everything: a warning on its first user-agent line.
  it('warns about a group with no rules', () => {
    expect(lintRobotsTxt(txt('User-agent: *', 'Disallow: /', '', 'User-agent: googlebot', 'User-agent: bingbot'))).toEqual([
      { code: 'empty-group', severity: 'warning', line: 4, message: expect.stringContaining('googlebot, bingbot'), fix: expect.any(String) },
    ])
  })

  // An explicit `Disallow:` is a rule, so the group is not empty.
  it('accepts a group that allows everything explicitly', () => {
    expect(lintRobotsTxt(txt('User-agent: *', 'Disallow: /', '', 'User-agent: googlebot', 'Disallow:'))).toEqual([])
  })

  // A crawl-delay that is not a positive number is a warning on its line.
  it.each(['0', '-1', 'soon', ''])('warns about Crawl-delay: %j', (value) => {
    expect(lintRobotsTxt(txt('User-agent: *', `Crawl-delay: ${value}`, 'Disallow: /x'))).toEqual([
      { code: 'crawl-delay', severity: 'warning', line: 2, message: expect.stringContaining(`"${value}"`), fix: expect.any(String) },
    ])
  })

  // A positive crawl-delay, whole or not, is fine.
  it.each(['5', '0.5', ' 10 '])('accepts Crawl-delay: %j', (value) => {
    expect(lintRobotsTxt(txt('User-agent: *', `Crawl-delay: ${value}`, 'Disallow: /x'))).toEqual([])
  })

  // A crawl-delay before any user-agent line applies to no group: a warning on its line.
  it('warns about a crawl-delay outside any group', () => {
    expect(lintRobotsTxt(txt('Crawl-delay: 10', 'User-agent: *', 'Disallow: /x'))).toEqual([
      { code: 'crawl-delay', severity: 'warning', line: 1, message: expect.stringContaining('no group'), fix: expect.any(String) },
    ])
  })

  // RFC 9309 §2.3.5: a sitemap must be an absolute URL; a relative one is an error naming it.
  it.each(['/sitemap.xml', 'example.com/sitemap.xml', 'https://', ''])('reports Sitemap: %j', (value) => {
    const found = lintRobotsTxt(txt('User-agent: *', 'Disallow: /x', `Sitemap: ${value}`))
    expect(found).toHaveLength(1)
    expect(found[0]).toMatchObject({ code: 'sitemap-url', severity: 'error', message: expect.stringContaining(`"${value}"`), fix: expect.any(String) })
  })

  // A sitemap diagnostic points at the Sitemap line, like every other record check.
  it('reports a relative sitemap on its own line', () => {
    expect(lintRobotsTxt(txt('User-agent: *', 'Disallow: /x', 'Sitemap: /sitemap.xml')).map(brief)).toEqual([['sitemap-url', 'error', 3]])
  })

  // Absolute http and https sitemaps are fine.
  it('accepts absolute sitemap URLs', () => {
    expect(lintRobotsTxt(txt('User-agent: *', 'Disallow: /x', 'Sitemap: https://example.com/s.xml', 'Sitemap: http://example.com/s.xml'))).toEqual([])
  })

  // A file with no groups allows everything to everyone: information about the file (line 0).
  it.each(['', txt('# nothing here'), txt('Sitemap: https://example.com/s.xml')])('notes a file with no groups: %j', (body) => {
    expect(lintRobotsTxt(body)).toEqual([{ code: 'no-groups', severity: 'info', line: 0, message: expect.stringContaining('no groups') }])
  })
})

describe('lintRobotsTxt: order', () => {
  // Diagnostics come sorted by line, and within a line errors before warnings before information.
  it('sorts by line, then by severity', () => {
    const body = txt(
      'Disallow: /early', // 1 rule-outside-group
      'User-agent: Googlebot/2.1', // 2 agent-value-truncated
      'Disalow private', // 3 missing-colon, typo-accepted, pattern-start
      'Crawl-delay: -1', // 4 crawl-delay
      'Foo: bar', // 5 unknown-key
      'User-agent: bingbot', // 6 empty-group
    )
    const found = lintRobotsTxt(body)
    expect(found.map(brief)).toEqual([
      ['rule-outside-group', 'error', 1],
      ['agent-value-truncated', 'warning', 2],
      ['pattern-start', 'error', 3],
      ['missing-colon', 'warning', 3],
      ['typo-accepted', 'warning', 3],
      ['crawl-delay', 'warning', 4],
      ['crawl-delay-ignored', 'warning', 4],
      ['unknown-key', 'info', 5],
      ['empty-group', 'warning', 6],
    ])
    for (const d of found) expect(d.message.length).toBeGreaterThan(0)
  })
})
