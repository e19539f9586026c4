import { describe, expect, it } from 'vitest'
import { compileRobotsTxt, MAX_FILE_BYTES, parseRobotsTxt, pathOf } from '../../../src/core/robots/index.ts'
import type { DecidingRule, Verdict } from '../../../src/core/robots/index.ts'

// Unit tests of the RFC 9309 core, grouped by section of the RFC. Each `it`
// is preceded by the requirement it checks, in the manner of
// google/robotstxt's robots_test.cc.

/** A robots.txt body from its lines: line N of the file is argument N. */
function txt(...lines: string[]): string {
  return lines.join('\n') + '\n'
}

function allow(pattern: string, line: number): DecidingRule {
  return { type: 'allow', pattern, line }
}

function disallow(pattern: string, line: number): DecidingRule {
  return { type: 'disallow', pattern, line }
}

function verdict(allowed: boolean, group: string | null, rule: DecidingRule | null = null): Verdict {
  return { allowed, group, rule }
}

describe('RFC 9309 §2.1 groups', () => {
  // Rules before the first user-agent line belong to no group and are ignored.
  it('ignores rules that come before any user-agent line', () => {
    const body = txt('Disallow: /a', 'Allow: /b', 'User-agent: *', 'Disallow: /b')
    const robots = compileRobotsTxt(body)
    expect(robots.check('foobot', '/a')).toEqual(verdict(true, '*'))
    expect(robots.check('foobot', '/b/c')).toEqual(verdict(false, '*', disallow('/b', 4)))
    expect(parseRobotsTxt(body).diagnostics).toEqual([
      { code: 'rule-outside-group', line: 1, detail: 'Disallow' },
      { code: 'rule-outside-group', line: 2, detail: 'Allow' },
    ])
  })

  // Consecutive user-agent lines name the same group.
  it('puts consecutive user-agent lines in one group', () => {
    const body = txt('User-agent: a', 'User-agent: b', 'Disallow: /x')
    expect(parseRobotsTxt(body).groups).toEqual([{ userAgents: ['a', 'b'], rules: [disallow('/x', 3)], other: [], line: 1 }])
    expect(compileRobotsTxt(body).check('a', '/x')).toEqual(verdict(false, 'a', disallow('/x', 3)))
    expect(compileRobotsTxt(body).check('b', '/x')).toEqual(verdict(false, 'b', disallow('/x', 3)))
  })

  // A user-agent line after a rule starts a new group.
  it('starts a new group at a user-agent line that follows a rule', () => {
    const body = txt('User-agent: a', 'Disallow: /x', 'User-agent: b', 'Disallow: /y')
    expect(parseRobotsTxt(body).groups.map((g) => g.userAgents)).toEqual([['a'], ['b']])
    const robots = compileRobotsTxt(body)
    expect(robots.check('a', '/y')).toEqual(verdict(true, 'a'))
    expect(robots.check('a', '/x')).toEqual(verdict(false, 'a', disallow('/x', 2)))
    expect(robots.check('b', '/x')).toEqual(verdict(true, 'b'))
    expect(robots.check('b', '/y')).toEqual(verdict(false, 'b', disallow('/y', 4)))
  })

  // Blank lines and comment lines do not end a group, before or after its rules.
  it('keeps a group together across blank lines and comments', () => {
    const body = txt('User-agent: a', '', '# a comment', 'User-agent: b', 'Disallow: /x', '', '# another', 'Disallow: /y')
    expect(parseRobotsTxt(body).groups).toEqual([{ userAgents: ['a', 'b'], rules: [disallow('/x', 5), disallow('/y', 8)], other: [], line: 1 }])
  })

  // Records other than allow and disallow (crawl-delay, sitemap, unknown keys) do not close the list of user-agent lines.
  it('does not split the user-agent lines at other records', () => {
    const body = txt('User-agent: a', 'Crawl-delay: 5', 'Sitemap: https://example.com/sitemap.xml', 'Unknown-thing: x', 'User-agent: b', 'Disallow: /')
    const parsed = parseRobotsTxt(body)
    expect(parsed.groups).toEqual([
      {
        userAgents: ['a', 'b'],
        rules: [disallow('/', 6)],
        other: [
          { key: 'Crawl-delay', value: '5', line: 2 },
          { key: 'Unknown-thing', value: 'x', line: 4 },
        ],
        line: 1,
      },
    ])
    expect(parsed.sitemaps).toEqual(['https://example.com/sitemap.xml'])
    expect(compileRobotsTxt(body).check('a', '/x')).toEqual(verdict(false, 'a', disallow('/', 6)))
  })

  // robots_test.cc ID_LineSyntax_Groups: groups end at the next user-agent line after a rule; same-agent groups combine.
  it('reads the groups of the reference example', () => {
    const robots = compileRobotsTxt(
      txt(
        'allow: /foo/bar/',
        '',
        'user-agent: FooBot',
        'disallow: /',
        'allow: /x/',
        'user-agent: BarBot',
        'disallow: /',
        'allow: /y/',
        '',
        '',
        'allow: /w/',
        'user-agent: BazBot',
        '',
        'user-agent: FooBot',
        'allow: /z/',
        'disallow: /',
      ),
    )
    expect(robots.check('FooBot', 'http://foo.bar/x/b')).toEqual(verdict(true, 'foobot', allow('/x/', 5)))
    expect(robots.check('FooBot', 'http://foo.bar/z/d')).toEqual(verdict(true, 'foobot', allow('/z/', 15)))
    expect(robots.check('FooBot', 'http://foo.bar/y/c')).toEqual(verdict(false, 'foobot', disallow('/', 4)))
    expect(robots.check('BarBot', 'http://foo.bar/y/c')).toEqual(verdict(true, 'barbot', allow('/y/', 8)))
    expect(robots.check('BarBot', 'http://foo.bar/w/a')).toEqual(verdict(true, 'barbot', allow('/w/', 11)))
    expect(robots.check('BarBot', 'http://foo.bar/z/d')).toEqual(verdict(false, 'barbot', disallow('/', 7)))
    expect(robots.check('BazBot', 'http://foo.bar/z/d')).toEqual(verdict(true, 'bazbot', allow('/z/', 15)))
    expect(robots.check('FooBot', 'http://foo.bar/foo/bar/')).toEqual(verdict(false, 'foobot', disallow('/', 4)))
    expect(robots.check('BarBot', 'http://foo.bar/foo/bar/')).toEqual(verdict(false, 'barbot', disallow('/', 7)))
    expect(robots.check('BazBot', 'http://foo.bar/foo/bar/')).toEqual(verdict(false, 'bazbot', disallow('/', 16)))
  })
})

describe('RFC 9309 §2.2 line syntax', () => {
  // Keys are case-insensitive.
  it('reads keys in any case', () => {
    for (const body of [txt('USER-AGENT: FooBot', 'ALLOW: /x/', 'DISALLOW: /'), txt('user-agent: FooBot', 'allow: /x/', 'disallow: /'), txt('uSeR-aGeNt: FooBot', 'AlLoW: /x/', 'dIsAlLoW: /')]) {
      const robots = compileRobotsTxt(body)
      expect(robots.check('FooBot', 'http://foo.bar/x/y')).toEqual(verdict(true, 'foobot', allow('/x/', 2)))
      expect(robots.check('FooBot', 'http://foo.bar/a/b')).toEqual(verdict(false, 'foobot', disallow('/', 3)))
    }
  })

  // A comment runs from `#` to the end of the line, on its own line or after a record.
  it('drops comments', () => {
    const robots = compileRobotsTxt(txt('User-agent: FooBot', '# Disallow: /', 'Disallow: /foo/quz#qux', 'Allow: /'))
    expect(robots.check('FooBot', 'http://foo.bar/foo/bar')).toEqual(verdict(true, 'foobot', allow('/', 4)))
    expect(robots.check('FooBot', 'http://foo.bar/foo/quz')).toEqual(verdict(false, 'foobot', disallow('/foo/quz', 3)))
  })

  // White space around keys, the colon and values is not part of them.
  it('trims white space around keys and values', () => {
    const parsed = parseRobotsTxt(txt('  User-agent  :  FooBot  ', '\tDisallow\t:\t/x \t'))
    expect(parsed.groups).toEqual([{ userAgents: ['FooBot'], rules: [disallow('/x', 2)], other: [], line: 1 }])
    expect(parsed.diagnostics).toEqual([])
  })
})

describe('RFC 9309 §2.2.1 the user-agent line', () => {
  // A group applies only when its product token equals the crawler's: no prefix match.
  it('does not apply a group to a crawler whose token only starts with its token', () => {
    const robots = compileRobotsTxt(txt('User-agent: Googlebot', 'Disallow: /'))
    expect(robots.check('googlebot-image', '/x')).toEqual(verdict(true, null))
    expect(robots.check('googlebot', '/x')).toEqual(verdict(false, 'googlebot', disallow('/', 2)))
  })

  // A group applies only when its product token equals the crawler's: a shorter token is no match.
  it('does not apply a group whose token is a prefix of the crawler token', () => {
    const robots = compileRobotsTxt(txt('User-agent: Google', 'Disallow: /'))
    expect(robots.check('googlebot', '/x')).toEqual(verdict(true, null))
    expect(robots.groupFor('googlebot')).toBeNull()
  })

  // A longer token in the file does not apply to a shorter crawler token either.
  it('does not apply a group for googlebot-image to googlebot', () => {
    const robots = compileRobotsTxt(txt('User-agent: *', 'Allow: /', 'User-agent: Googlebot-Image', 'Disallow: /'))
    expect(robots.check('googlebot', '/x')).toEqual(verdict(true, '*', allow('/', 2)))
    expect(robots.check('Googlebot-Image', '/x')).toEqual(verdict(false, 'googlebot-image', disallow('/', 4)))
  })

  // Product tokens compare case-insensitively.
  it('matches product tokens in any case', () => {
    const robots = compileRobotsTxt(txt('User-agent: GoOgLeBoT', 'Disallow: /x'))
    expect(robots.check('GOOGLEBOT', '/x')).toEqual(verdict(false, 'googlebot', disallow('/x', 2)))
    expect(robots.check('googlebot', '/x')).toEqual(verdict(false, 'googlebot', disallow('/x', 2)))
  })

  // Case-insensitive means ASCII case: product tokens are letters, `-` and `_` only, so U+212A KELVIN SIGN is not `k`.
  it('does not fold non-ASCII characters into a product token', () => {
    const robots = compileRobotsTxt(txt('User-agent: kbot', 'Disallow: /'))
    expect(robots.check('\u212Abot', '/x')).toEqual(verdict(true, null))
  })

  // All groups that name the same product token are combined into one.
  it('merges every group naming the same token, longest match across them', () => {
    const robots = compileRobotsTxt(txt('User-agent: googlebot', 'Disallow: /a', '', 'User-agent: bingbot', 'Disallow: /', '', 'User-agent: Googlebot', 'Allow: /a/b'))
    expect(robots.check('googlebot', '/a/b/c')).toEqual(verdict(true, 'googlebot', allow('/a/b', 8)))
    expect(robots.check('googlebot', '/a/x')).toEqual(verdict(false, 'googlebot', disallow('/a', 2)))
    expect(robots.check('googlebot', '/other')).toEqual(verdict(true, 'googlebot'))
  })

  // The `*` group applies only when no group names the crawler, even if the crawler's group decides nothing.
  it('ignores the * group when a specific group names the crawler', () => {
    const robots = compileRobotsTxt(txt('User-agent: *', 'Disallow: /private/', '', 'User-agent: googlebot', 'Allow: /public/'))
    expect(robots.check('googlebot', '/private/x')).toEqual(verdict(true, 'googlebot'))
    expect(robots.check('googlebot', '/public/x')).toEqual(verdict(true, 'googlebot', allow('/public/', 5)))
    expect(robots.check('bingbot', '/private/x')).toEqual(verdict(false, '*', disallow('/private/', 2)))
  })

  // A group naming the crawler with no rules allows everything, and `*` is still ignored.
  it('allows everything under a group with no rules', () => {
    const robots = compileRobotsTxt(txt('User-agent: *', 'Disallow: /', 'User-agent: googlebot'))
    expect(robots.check('googlebot', '/x')).toEqual(verdict(true, 'googlebot'))
    expect(robots.check('bingbot', '/x')).toEqual(verdict(false, '*', disallow('/', 2)))
  })

  // robots_test.cc ID_GlobalGroups_Secondary: without `*`, a crawler no group names has no rules.
  it('falls back to * only when there is one', () => {
    const global = compileRobotsTxt(txt('user-agent: *', 'allow: /', 'user-agent: FooBot', 'disallow: /'))
    expect(global.check('FooBot', 'http://foo.bar/x/y')).toEqual(verdict(false, 'foobot', disallow('/', 4)))
    expect(global.check('BarBot', 'http://foo.bar/x/y')).toEqual(verdict(true, '*', allow('/', 2)))
    const specific = compileRobotsTxt(txt('user-agent: FooBot', 'allow: /', 'user-agent: BarBot', 'disallow: /', 'user-agent: BazBot', 'disallow: /'))
    expect(specific.check('QuxBot', 'http://foo.bar/x/y')).toEqual(verdict(true, null))
  })

  // With several tokens, most specific first, the first token that names a group wins; otherwise `*`.
  it('picks the group of the first token that names one', () => {
    const robots = compileRobotsTxt(txt('User-agent: *', 'Disallow: /', '', 'User-agent: googlebot', 'Disallow: /private/', '', 'User-agent: googlebot-image', 'Disallow: /photos/'))
    expect(robots.check(['googlebot-image', 'googlebot'], '/private/x')).toEqual(verdict(true, 'googlebot-image'))
    expect(robots.check(['googlebot-image', 'googlebot'], '/photos/x')).toEqual(verdict(false, 'googlebot-image', disallow('/photos/', 8)))
    expect(robots.check(['googlebot-news', 'googlebot'], '/private/x')).toEqual(verdict(false, 'googlebot', disallow('/private/', 5)))
    expect(robots.check(['googlebot-news', 'googlebot'], '/photos/x')).toEqual(verdict(true, 'googlebot'))
    expect(robots.check(['foo', 'bar'], '/x')).toEqual(verdict(false, '*', disallow('/', 2)))
    expect(robots.check([], '/x')).toEqual(verdict(false, '*', disallow('/', 2)))
  })

  // groupFor names the group a crawler obeys: its lower-case token, `*`, or null.
  it('reports the group a crawler obeys', () => {
    const robots = compileRobotsTxt(txt('User-agent: *', 'Disallow: /', 'User-agent: Googlebot', 'Disallow: /x'))
    expect(robots.groupFor('googlebot')).toBe('googlebot')
    expect(robots.groupFor('GOOGLEBOT')).toBe('googlebot')
    expect(robots.groupFor(['googlebot-image', 'googlebot'])).toBe('googlebot')
    expect(robots.groupFor(['Googlebot', 'googlebot-image'])).toBe('googlebot')
    expect(robots.groupFor('bingbot')).toBe('*')
    expect(robots.groupFor('*')).toBe('*')
    expect(robots.groupFor([])).toBe('*')
    const noWildcard = compileRobotsTxt(txt('User-agent: Googlebot', 'Disallow: /x'))
    expect(noWildcard.groupFor('bingbot')).toBeNull()
    expect(noWildcard.groupFor([])).toBeNull()
  })

  // A file with no group for the crawler (or no groups at all) allows everything and names no group or rule.
  it('allows everything when no group applies', () => {
    expect(compileRobotsTxt('').check('googlebot', '/x')).toEqual(verdict(true, null))
    expect(compileRobotsTxt(txt('Sitemap: https://example.com/s.xml')).check('googlebot', '/x')).toEqual(verdict(true, null))
    expect(compileRobotsTxt(txt('User-agent: bingbot', 'Disallow: /')).check('googlebot', '/x')).toEqual(verdict(true, null))
    // robots_test.cc GoogleOnly_SystemTest: an empty token names no group.
    expect(compileRobotsTxt(txt('user-agent: FooBot', 'disallow: /')).check('', '')).toEqual(verdict(true, null))
  })
})

describe('RFC 9309 §2.2.2 the allow and disallow lines', () => {
  // The most specific (longest) matching rule decides: Google's precedence example `allow: /p` vs `disallow: /`.
  it('lets a longer allow beat a shorter disallow', () => {
    const robots = compileRobotsTxt(txt('user-agent: FooBot', 'allow: /p', 'disallow: /'))
    expect(robots.check('FooBot', 'http://example.com/page')).toEqual(verdict(true, 'foobot', allow('/p', 2)))
  })

  // On equally long matches the allow rule wins, whatever their order.
  it('lets allow win a tie', () => {
    const first = compileRobotsTxt(txt('user-agent: FooBot', 'allow: /folder', 'disallow: /folder'))
    expect(first.check('FooBot', 'http://example.com/folder/page')).toEqual(verdict(true, 'foobot', allow('/folder', 2)))
    const second = compileRobotsTxt(txt('user-agent: FooBot', 'disallow: /folder', 'allow: /folder'))
    expect(second.check('FooBot', 'http://example.com/folder/page')).toEqual(verdict(true, 'foobot', allow('/folder', 3)))
  })

  // Length counts the pattern's octets, wildcards included: `/*.htm` (6) beats `/page` (5).
  it('lets a longer wildcard disallow beat a shorter allow', () => {
    const robots = compileRobotsTxt(txt('user-agent: FooBot', 'allow: /page', 'disallow: /*.htm'))
    expect(robots.check('FooBot', 'http://example.com/page.htm')).toEqual(verdict(false, 'foobot', disallow('/*.htm', 3)))
    expect(robots.check('FooBot', 'http://example.com/page')).toEqual(verdict(true, 'foobot', allow('/page', 2)))
  })

  // `allow: /$` with `disallow: /` allows the root only.
  it('allows only the root with allow: /$', () => {
    const robots = compileRobotsTxt(txt('user-agent: FooBot', 'allow: /$', 'disallow: /'))
    expect(robots.check('FooBot', 'http://example.com/')).toEqual(verdict(true, 'foobot', allow('/$', 2)))
    expect(robots.check('FooBot', 'http://example.com/page.htm')).toEqual(verdict(false, 'foobot', disallow('/', 3)))
  })

  // robots_test.cc ID_LongestMatch: the longest match decides either way.
  it('decides by length in both directions', () => {
    const url = 'http://foo.bar/x/page.html'
    expect(compileRobotsTxt(txt('user-agent: FooBot', 'disallow: /x/page.html', 'allow: /x/')).check('FooBot', url)).toEqual(verdict(false, 'foobot', disallow('/x/page.html', 2)))
    const robots = compileRobotsTxt(txt('user-agent: FooBot', 'disallow: /x', 'allow: /x/'))
    expect(robots.check('FooBot', 'http://foo.bar/x')).toEqual(verdict(false, 'foobot', disallow('/x', 2)))
    expect(robots.check('FooBot', 'http://foo.bar/x/')).toEqual(verdict(true, 'foobot', allow('/x/', 3)))
  })

  // Among equal rules, the verdict names the first one in the file.
  it('reports the earliest of equal rules', () => {
    const robots = compileRobotsTxt(txt('User-agent: *', 'Disallow: /a', 'Disallow: /a', 'Allow: /b', 'Allow: /b'))
    expect(robots.check('x', '/a')).toEqual(verdict(false, '*', disallow('/a', 2)))
    expect(robots.check('x', '/b')).toEqual(verdict(true, '*', allow('/b', 4)))
  })

  // An empty Disallow matches with no octets and disallows nothing, but it is the rule that applied.
  it('allows everything under an empty Disallow and reports it', () => {
    const robots = compileRobotsTxt(txt('User-agent: *', 'Disallow:', 'Disallow: /x'))
    expect(robots.check('foobot', '/anything')).toEqual(verdict(true, '*', disallow('', 2)))
    expect(robots.check('foobot', '/x/y')).toEqual(verdict(false, '*', disallow('/x', 3)))
  })

  // robots_test.cc ID_LongestMatch: empty allow and empty disallow tie, and allow wins.
  it('prefers an empty allow over an empty disallow', () => {
    const robots = compileRobotsTxt(txt('user-agent: FooBot', 'disallow:', 'allow:'))
    expect(robots.check('FooBot', 'http://foo.bar/x/page.html')).toEqual(verdict(true, 'foobot', allow('', 3)))
  })

  // Non-ASCII octets in a pattern are percent-encoded before comparison.
  it('matches a UTF-8 pattern against its percent-encoded URL', () => {
    const robots = compileRobotsTxt(txt('User-agent: FooBot', 'Disallow: /', 'Allow: /foo/bar/ツ'))
    expect(robots.check('FooBot', 'http://foo.bar/foo/bar/%E3%83%84')).toEqual(verdict(true, 'foobot', allow('/foo/bar/ツ', 3)))
  })

  // Percent-encoded octets compare regardless of the case of their hex digits.
  it('matches %xx escapes case-insensitively', () => {
    const robots = compileRobotsTxt(txt('User-agent: *', 'Disallow: /%e3%83%84'))
    expect(robots.check('x', '/%E3%83%84')).toEqual(verdict(false, '*', disallow('/%e3%83%84', 2)))
  })

  // robots-edge deviation: the URL is normalised like the patterns, so a raw or lower-case-escaped path is caught too.
  it('normalises the URL as well as the pattern', () => {
    const robots = compileRobotsTxt(txt('User-agent: *', 'Disallow: /%E3%83%84'))
    expect(robots.check('x', '/%e3%83%84')).toEqual(verdict(false, '*', disallow('/%E3%83%84', 2)))
    expect(robots.check('x', '/ツ')).toEqual(verdict(false, '*', disallow('/%E3%83%84', 2)))
  })

  // robots-edge deviation: a raw or lower-case-escaped URL gets the verdict of its canonical form, whatever the pattern.
  it.each([
    ['/*83', ['/%E3%83%84', '/%e3%83%84', '/ツ']],
    ['/*E3', ['/x%E3%83%84', '/x%e3%83%84', '/xツ']],
    ['/caf*A9$', ['/caf%C3%A9', '/caf%c3%a9', '/café']],
  ])('gives %s the same verdict on every form of the URL', (pattern, forms) => {
    const robots = compileRobotsTxt(txt('User-agent: *', `Disallow: ${pattern}`))
    for (const url of forms) expect(robots.check('x', url), url).toEqual(verdict(false, '*', disallow(pattern, 2)))
  })

  // Escapes of unreserved ASCII characters are not decoded: `%62%61%7A` is not `baz`.
  it('does not decode escaped ASCII', () => {
    const robots = compileRobotsTxt(txt('User-agent: FooBot', 'Disallow: /', 'Allow: /foo/bar/%62%61%7A'))
    expect(robots.check('FooBot', 'http://foo.bar/foo/bar/baz')).toEqual(verdict(false, 'foobot', disallow('/', 2)))
    expect(robots.check('FooBot', 'http://foo.bar/foo/bar/%62%61%7A')).toEqual(verdict(true, 'foobot', allow('/foo/bar/%62%61%7A', 3)))
  })

  // Length is counted in octets after encoding: `/ツ` is 10 octets (`/%E3%83%84`), not 2 characters.
  it('measures pattern length in encoded octets', () => {
    const url = '/%E3%83%84'
    // 9 encoded octets lose to 10.
    const shorter = compileRobotsTxt(txt('User-agent: *', 'Disallow: /%E3%83%8', 'Allow: /ツ'))
    expect(shorter.check('x', url)).toEqual(verdict(true, '*', allow('/ツ', 3)))
    // 10 octets each: a tie, so allow wins.
    const tie = compileRobotsTxt(txt('User-agent: *', 'Disallow: /*E3%83%84', 'Allow: /ツ'))
    expect(tie.check('x', url)).toEqual(verdict(true, '*', allow('/ツ', 3)))
    // 11 octets beat 10.
    const longer = compileRobotsTxt(txt('User-agent: *', 'Disallow: /*%E3%83%84', 'Allow: /ツ'))
    expect(longer.check('x', url)).toEqual(verdict(false, '*', disallow('/*%E3%83%84', 2)))
  })

  // Paths compare case-sensitively.
  it('matches paths case-sensitively', () => {
    expect(compileRobotsTxt(txt('user-agent: FooBot', 'disallow: /x/')).check('FooBot', 'http://foo.bar/x/y')).toEqual(verdict(false, 'foobot', disallow('/x/', 2)))
    expect(compileRobotsTxt(txt('user-agent: FooBot', 'disallow: /X/')).check('FooBot', 'http://foo.bar/x/y')).toEqual(verdict(true, 'foobot'))
  })

  // "The /robots.txt URI is implicitly allowed", even under `Disallow: /`.
  it('always allows /robots.txt', () => {
    const robots = compileRobotsTxt(txt('User-agent: *', 'Disallow: /', 'User-agent: googlebot', 'Disallow: /robots.txt'))
    expect(robots.check('x', '/robots.txt')).toEqual(verdict(true, '*'))
    expect(robots.check('x', 'https://example.com/robots.txt')).toEqual(verdict(true, '*'))
    expect(robots.check('googlebot', 'https://example.com/robots.txt')).toEqual(verdict(true, 'googlebot'))
    expect(robots.check('x', '/robots.txt.bak')).toEqual(verdict(false, '*', disallow('/', 2)))
  })

  // Rules match the path and query of the URI.
  it('matches the query string', () => {
    const robots = compileRobotsTxt(txt('User-agent: *', 'Disallow: /*?q='))
    expect(robots.check('x', 'https://example.com/search?q=1')).toEqual(verdict(false, '*', disallow('/*?q=', 2)))
    expect(robots.check('x', 'https://example.com/search')).toEqual(verdict(true, '*'))
    expect(robots.check('x', 'https://example.com/search?lang=en&q=1')).toEqual(verdict(true, '*'))
  })

  // robots_test.cc ID_Encoding: a URL inside the query is matched as written.
  it('matches a query that holds another URL', () => {
    const robots = compileRobotsTxt(txt('User-agent: FooBot', 'Disallow: /', 'Allow: /foo/bar?qux=taz&baz=http://foo.bar?tar&par'))
    expect(robots.check('FooBot', 'http://foo.bar/foo/bar?qux=taz&baz=http://foo.bar?tar&par')).toEqual(verdict(true, 'foobot', allow('/foo/bar?qux=taz&baz=http://foo.bar?tar&par', 3)))
  })

  // The fragment is not part of what is matched.
  it('ignores the fragment', () => {
    const robots = compileRobotsTxt(txt('User-agent: *', 'Disallow: /a$', 'Disallow: /private'))
    expect(robots.check('x', 'https://example.com/a#section')).toEqual(verdict(false, '*', disallow('/a$', 2)))
    expect(robots.check('x', '/a#section')).toEqual(verdict(false, '*', disallow('/a$', 2)))
    expect(robots.check('x', 'https://example.com/#/private')).toEqual(verdict(true, '*'))
    expect(robots.check('x', 'https://example.com#/private')).toEqual(verdict(true, '*'))
  })

  // Absolute URLs, scheme-relative URLs and bare paths all match by their path; no path at all is `/`.
  it('reads the path of any URL form', () => {
    const robots = compileRobotsTxt(txt('User-agent: *', 'Disallow: /$', 'Disallow: /a/'))
    for (const url of ['https://example.com/a/b', '//example.com/a/b', '/a/b', 'example.com/a/b']) {
      expect(robots.check('x', url), url).toEqual(verdict(false, '*', disallow('/a/', 3)))
    }
    for (const url of ['https://example.com', 'https://example.com/', '', 'example.com']) {
      expect(robots.check('x', url), url).toEqual(verdict(false, '*', disallow('/$', 2)))
    }
    expect(robots.check('x', 'https://example.com?x=1')).toEqual(verdict(true, '*'))
  })

  // robots_test.cc TestGetPathParamsQuery: path, params and query, without scheme, authority or fragment.
  it.each([
    ['', '/'],
    ['http://www.example.com', '/'],
    ['http://www.example.com/', '/'],
    ['http://www.example.com/a', '/a'],
    ['http://www.example.com/a/', '/a/'],
    ['http://www.example.com/a/b?c=http://d.e/', '/a/b?c=http://d.e/'],
    ['http://www.example.com/a/b?c=d&e=f#fragment', '/a/b?c=d&e=f'],
    ['example.com', '/'],
    ['example.com/', '/'],
    ['example.com/a', '/a'],
    ['example.com/a/', '/a/'],
    ['example.com/a/b?c=d&e=f#fragment', '/a/b?c=d&e=f'],
    ['a', '/'],
    ['a/', '/'],
    ['/a', '/a'],
    ['a/b', '/b'],
    ['example.com?a', '/?a'],
    ['example.com/a;b#c', '/a;b'],
    ['//a/b/c', '/b/c'],
  ])('pathOf(%j) is %j', (url, path) => {
    expect(pathOf(url)).toBe(path)
  })
})

/** Rows of [pattern, path, matches] from a line of Google's documentation table. */
function table(pattern: string, matches: string[], misses: string[]): Array<[string, string, boolean]> {
  return [...matches.map((path): [string, string, boolean] => [pattern, path, true]), ...misses.map((path): [string, string, boolean] => [pattern, path, false])]
}

const FISH_MATCHES = ['/fish', '/fish.html', '/fish/salmon.html', '/fishheads', '/fishheads/yummy.html', '/fish.php?id=anything']
const FISH_MISSES = ['/Fish.asp', '/catfish', '/?id=fish', '/desert/fish']

describe('RFC 9309 §2.2.3 special characters', () => {
  // Google's documentation, "URL matching based on path values": every row of every table.
  it.each([
    ...table('/', ['/', '/any', '/any/path.html?q=1'], []),
    ...table('/$', ['/'], ['/page', '/index.html', '/?q=1']),
    ...table('*', ['/', '/any', '/any/path.html?q=1'], []),
    ...table('/fish', FISH_MATCHES, FISH_MISSES),
    ...table('/fish*', FISH_MATCHES, FISH_MISSES),
    ...table('/fish/', ['/fish/', '/fish/?id=anything', '/fish/salmon.htm'], ['/fish', '/fish.html', '/animals/fish/', '/Fish/Salmon.asp']),
    ...table('/*.php', ['/index.php', '/filename.php', '/folder/filename.php', '/folder/filename.php?parameters', '/folder/any.php.file.html', '/filename.php/'], ['/', '/windows.PHP']),
    ...table('/*.php$', ['/filename.php', '/folder/filename.php'], ['/filename.php?parameters', '/filename.php/', '/filename.php5', '/windows.PHP']),
    ...table('/fish*.php', ['/fish.php', '/fishheads/catfish.php?parameters'], ['/Fish.PHP']),
  ])('Disallow: %s on %s matches: %s', (pattern, path, matches) => {
    const robots = compileRobotsTxt(txt('User-agent: *', `Disallow: ${pattern}`))
    expect(robots.check('foobot', `https://example.com${path}`)).toEqual(matches ? verdict(false, '*', disallow(pattern, 2)) : verdict(true, '*'))
  })

  // `$` ends the pattern only as its last character; elsewhere it is an ordinary octet.
  it.each([...table('/a$b', ['/a$b', '/a$b/c'], ['/ab', '/a', '/a/b']), ...table('/a$b$', ['/a$b'], ['/a$bc', '/ab']), ...table('/*$x', ['/q$x', '/$x/y'], ['/x', '/q'])])(
    'Disallow: %s on %s matches: %s',
    (pattern, path, matches) => {
      const robots = compileRobotsTxt(txt('User-agent: *', `Disallow: ${pattern}`))
      expect(robots.check('foobot', path)).toEqual(matches ? verdict(false, '*', disallow(pattern, 2)) : verdict(true, '*'))
    },
  )

  // robots_test.cc ID_SpecialCharacters: `*` matches any run of octets, including none.
  it('matches * against any run of octets', () => {
    const robots = compileRobotsTxt(txt('User-agent: FooBot', 'Disallow: /foo/bar/quz', 'Allow: /foo/*/qux'))
    expect(robots.check('FooBot', 'http://foo.bar/foo/bar/quz')).toEqual(verdict(false, 'foobot', disallow('/foo/bar/quz', 2)))
    expect(robots.check('FooBot', 'http://foo.bar/foo/quz')).toEqual(verdict(true, 'foobot'))
    expect(robots.check('FooBot', 'http://foo.bar/foo//quz')).toEqual(verdict(true, 'foobot'))
    expect(robots.check('FooBot', 'http://foo.bar/foo/bax/quz')).toEqual(verdict(true, 'foobot'))
    expect(robots.check('FooBot', 'http://foo.bar/foo/a/b/qux')).toEqual(verdict(true, 'foobot', allow('/foo/*/qux', 3)))
  })

  // robots_test.cc ID_SpecialCharacters: `/foo/bar$` is that exact path only.
  it('anchors a pattern with a final $', () => {
    const robots = compileRobotsTxt(txt('User-agent: FooBot', 'Disallow: /foo/bar$', 'Allow: /foo/bar/qux'))
    expect(robots.check('FooBot', 'http://foo.bar/foo/bar')).toEqual(verdict(false, 'foobot', disallow('/foo/bar$', 2)))
    expect(robots.check('FooBot', 'http://foo.bar/foo/bar/qux')).toEqual(verdict(true, 'foobot', allow('/foo/bar/qux', 3)))
    expect(robots.check('FooBot', 'http://foo.bar/foo/bar/')).toEqual(verdict(true, 'foobot'))
    expect(robots.check('FooBot', 'http://foo.bar/foo/bar/baz')).toEqual(verdict(true, 'foobot'))
  })
})

describe('RFC 9309 §2.5 limits', () => {
  const rule = 'Disallow: /x\n'

  // Crawlers must parse at least 500 KiB; a larger file is still read, and flagged.
  it('parses a file over 500 KiB and reports it', () => {
    const count = Math.ceil(MAX_FILE_BYTES / rule.length) + 10
    const body = 'User-agent: *\n' + rule.repeat(count) + 'Disallow: /last\n'
    const parsed = parseRobotsTxt(body)
    expect(parsed.diagnostics).toEqual([{ code: 'file-too-large', line: 0 }])
    expect(parsed.groups[0]?.rules).toHaveLength(count + 1)
    expect(compileRobotsTxt(parsed).check('x', '/last')).toEqual(verdict(false, '*', disallow('/last', count + 2)))
  })

  // The limit is 500 KiB exactly: a file of that size is not too large, one octet more is.
  it('draws the line at exactly 500 KiB', () => {
    const head = 'User-agent: *\n'
    const comment = '#'.repeat(99) + '\n'
    const room = MAX_FILE_BYTES - head.length
    const exact = head + comment.repeat(Math.floor(room / comment.length)) + '#'.repeat(room % comment.length)
    expect(exact.length).toBe(MAX_FILE_BYTES)
    expect(parseRobotsTxt(exact).diagnostics).toEqual([])
    expect(parseRobotsTxt(exact + '#').diagnostics).toEqual([{ code: 'file-too-large', line: 0 }])
  })

  // The limit counts octets, not characters: 2000 lines of 99 three-octet characters are over 500 KiB.
  it('measures the file in UTF-8 octets', () => {
    const body = 'User-agent: *\n' + ('# ' + 'ツ'.repeat(99) + '\n').repeat(2000)
    expect(body.length).toBeLessThan(MAX_FILE_BYTES)
    expect(parseRobotsTxt(body).diagnostics).toEqual([{ code: 'file-too-large', line: 0 }])
  })
})
