import fc from 'fast-check'
import * as oracle from 'structured-headers'
import { describe, expect, it } from 'vitest'
import { parseDictionary, Token } from '../../../src/core/http/structured-fields.ts'
import { CONTENT_USAGE_VOCABULARY, mergeUsageHeader, strictest, USAGE_CATEGORIES, usageValue, type UsagePreferences } from '../../../src/core/config/content-usage.ts'
import { buildPolicy, resolveConfig, validateConfig, type ContentUsage, type RobotsConfig } from '../../../src/core/config/index.ts'
import type { ResponseSignals } from '../../../src/core/config/signals.ts'
import { lintRobotsTxt, parseRobotsTxt } from '../../../src/core/robots/index.ts'

// Unit tests of Content-Usage (IETF aipref): the vocabulary module, the
// lines written into robots.txt (draft-ietf-aipref-attach-05 §3), the
// header values the Worker sends (§2), and the validator's messages.

const PRODUCTION = { host: 'example.com', env: 'production' }
const policyOf = (config: RobotsConfig) => buildPolicy(resolveConfig(config, PRODUCTION).config)
const errorsOf = (config: unknown) => validateConfig(config).errors
/** A config with one `*` group; `contentUsage` may be invalid, for the validator's tests. */
/** The header value the Worker sends for a URL under a group, with no Content-Usage from the origin. */
const headerFor = (s: ResponseSignals, group: string, url: string) => {
  const preferences = s.contentUsage(group, url)
  return preferences === undefined ? undefined : mergeUsageHeader(null, preferences)
}
const withUsage = (contentUsage: unknown): RobotsConfig => ({ rules: [{ userAgent: '*', contentUsage: contentUsage as ContentUsage }] })

describe('vocabulary (draft-ietf-aipref-vocab-07)', () => {
  // "Exemplary Serialization Format": a Dictionary of category labels to the Tokens y and n.
  it('writes a Structured Field Dictionary in vocabulary order', () => {
    expect(usageValue({ search: true, trainAi: false })).toBe('train-ai=n, search=y')
    expect(usageValue({ search: false })).toBe('search=n')
    expect(usageValue({})).toBe('')
    const parsed = parseDictionary(usageValue({ trainAi: true, search: false }))
    expect([...parsed].map(([key, [value]]) => [key, (value as Token).value])).toEqual([
      ['train-ai', 'y'],
      ['search', 'n'],
    ])
  })

  // "Combining Preferences": any n wins, then any y; a category nobody states stays unknown.
  it('combines statements so the most restrictive wins', () => {
    expect(strictest({ trainAi: true, search: true }, { trainAi: false })).toEqual({ trainAi: false, search: true })
    expect(strictest({ search: true }, { search: true })).toEqual({ search: true })
    expect(strictest({}, {})).toEqual({})
  })
})

describe('Content-Usage lines in robots.txt (attach-05 §3)', () => {
  // The path is required on the line, so group-wide preferences are written for `/`.
  it('writes the group-wide preferences for "/" and each path with what it inherits', () => {
    const text = policyOf({
      rules: [{ userAgent: '*', disallow: '/admin/', contentUsage: { trainAi: false, search: true, paths: { '/blog/': { trainAi: true }, '/shop/*.json$': { search: false } } } }],
    }).text
    expect(text).toBe(
      'User-agent: *\n' + 'Content-Usage: / train-ai=n, search=y\n' + 'Content-Usage: /blog/ train-ai=y, search=y\n' + 'Content-Usage: /shop/*.json$ train-ai=n, search=n\n' + 'Disallow: /admin/\n',
    )
  })

  it('writes only the paths when the group states nothing group-wide', () => {
    expect(policyOf({ rules: [{ userAgent: 'Googlebot', contentUsage: { paths: { '/news/': { search: true } } } }] }).text).toBe('User-agent: Googlebot\nContent-Usage: /news/ search=y\nDisallow:\n')
  })

  // RFC 9309 §2.2.2 and attach-05 §3.1: paths use the same percent-encoding as allow and disallow.
  it('percent-encodes a path outside US-ASCII', () => {
    expect(policyOf(withUsage({ paths: { '/café/': { trainAi: false } } })).text).toContain('Content-Usage: /caf%C3%A9/ train-ai=n\n')
  })

  it('keeps Content-Signal beside it: two vocabularies, two lines', () => {
    const text = policyOf({ rules: { userAgent: '*', contentSignal: { aiTrain: false }, contentUsage: { trainAi: false } } }).text
    expect(text).toContain('Content-Signal: ai-train=no\n')
    expect(text).toContain('Content-Usage: / train-ai=n\n')
  })

  // RFC 9309 §2.2.1: a crawler merges every group naming it; identical paths then combine as vocab-07 says.
  it('merges the lines of groups naming one token, the most restrictive winning per path', () => {
    const text = policyOf({
      rules: [
        { userAgent: 'GPTBot', contentUsage: { trainAi: true, search: true, paths: { '/a/': { search: true } } } },
        { userAgent: 'gptbot', disallow: '/x/', contentUsage: { trainAi: false } },
      ],
    }).text
    expect(text).toBe('User-agent: GPTBot\nContent-Usage: / train-ai=n, search=y\nContent-Usage: /a/ train-ai=y, search=y\nDisallow: /x/\n')
  })

  it('is a key the parser knows, inside the group, and the lint finds nothing to say', () => {
    const text = policyOf({ rules: [{ userAgent: '*', allow: '/', contentUsage: { trainAi: false, paths: { '/blog/': { search: true } } } }] }).text
    const parsed = parseRobotsTxt(text)
    expect(parsed.groups[0]!.other.map((r) => [r.key, r.value])).toEqual([
      ['Content-Usage', '/ train-ai=n'],
      ['Content-Usage', '/blog/ train-ai=n, search=y'],
    ])
    expect(parsed.diagnostics).toEqual([])
    expect(lintRobotsTxt(text)).toEqual([])
    // attach-05 §3.2: the path ends at the first space; the rest is the Dictionary.
    for (const r of parsed.groups[0]!.other) expect(() => parseDictionary(r.value.slice(r.value.indexOf(' ') + 1))).not.toThrow()
  })

  it('writes nothing on staging, which serves disallow-all', () => {
    const { config } = resolveConfig(withUsage({ trainAi: false }), { host: 'example.com', env: 'staging' })
    expect(buildPolicy(config).text).not.toContain('Content-Usage')
  })
})

describe('Content-Usage header values (attach-05 §2)', () => {
  const signals = policyOf({
    rules: [
      { userAgent: '*', contentUsage: { trainAi: false, paths: { '/blog/': { search: true }, '/blog/ai-ok/': { trainAi: true }, '/*.pdf$': { search: false } } } },
      { userAgent: ['GPTBot', 'CCBot'], contentUsage: { trainAi: true } },
      { userAgent: 'Bingbot', disallow: '/x/' },
    ],
  }).signals

  // attach-05 §3.1: the longest matching path decides, as for allow and disallow.
  it('takes the longest matching path of the group', () => {
    expect(headerFor(signals, '*', 'https://example.com/')).toBe('train-ai=n')
    expect(headerFor(signals, '*', 'https://example.com/blog/post')).toBe('train-ai=n, search=y')
    expect(headerFor(signals, '*', 'https://example.com/blog/ai-ok/post')).toBe('train-ai=y')
    expect(headerFor(signals, '*', 'https://example.com/files/report.pdf')).toBe('train-ai=n, search=n')
    expect(headerFor(signals, '*', 'https://example.com/files/report.pdf?x=1')).toBe('train-ai=n')
  })

  it('reads each group by its lower-case token, and nothing for a group without preferences', () => {
    expect(headerFor(signals, 'gptbot', 'https://example.com/blog/post')).toBe('train-ai=y')
    expect(headerFor(signals, 'ccbot', 'https://example.com/')).toBe('train-ai=y')
    expect(headerFor(signals, 'bingbot', 'https://example.com/')).toBeUndefined()
  })

  it('compares paths percent-encoding-normalised', () => {
    const s = policyOf(withUsage({ paths: { '/café/': { trainAi: false } } })).signals
    expect(headerFor(s, '*', 'https://example.com/caf%c3%a9/menu')).toBe('train-ai=n')
    expect(headerFor(s, '*', 'https://example.com/cafe/menu')).toBeUndefined()
  })

  it('sends no preference anywhere on staging', () => {
    const { config } = resolveConfig(withUsage({ trainAi: false }), { host: 'example.com', env: 'staging' })
    expect(headerFor(buildPolicy(config).signals, '*', 'https://example.com/')).toBeUndefined()
  })
})

describe("merging with the origin's own Content-Usage", () => {
  // vocab-07 "Combining Preferences": two statements about one response; any n wins.
  it('combines per category, the most restrictive winning', () => {
    expect(mergeUsageHeader('train-ai=y, search=n', { trainAi: false, search: true })).toBe('train-ai=n, search=n')
    expect(mergeUsageHeader('search=y', { trainAi: false })).toBe('train-ai=n, search=y')
  })

  // Unknown keys and parameters are for extensions (vocab-07): kept as the origin wrote them.
  it("keeps the origin's other members and parameters", () => {
    expect(mergeUsageHeader('future-use=n;scope="x", flag, list=(a b)', { trainAi: false })).toBe('train-ai=n, future-use=n;scope="x", flag, list=(a b)')
    expect(parseDictionary(mergeUsageHeader('flag;p=1', { search: true })).has('flag')).toBe(true)
  })

  // RFC 8941 §4.2.2: of a key stated twice (in one field or two, joined), the last value is the one every recipient reads.
  it('reads a category the origin states twice as RFC 8941 does, and never weakens it', () => {
    expect(mergeUsageHeader('train-ai=n, train-ai=n', { trainAi: true, search: true })).toBe('train-ai=n, search=y')
    expect(mergeUsageHeader('search=n, search=n', { trainAi: true, search: true })).toBe('train-ai=y, search=n')
    expect(mergeUsageHeader('train-ai=y, train-ai=n', { trainAi: true })).toBe('train-ai=n')
    expect(mergeUsageHeader('train-ai=n;a=1;a=2, future=y, future=n', { search: true })).toBe('train-ai=n, search=y, future=n')
  })

  // The merge rule, checked on generated origin values read by an independent RFC 8941 parser (structured-headers):
  // per category, n from either side wins over y, and the result is a Dictionary every recipient can read.
  it('is never less restrictive than the origin or the config', { timeout: 60_000 }, () => {
    const label = fc.constantFrom('train-ai', 'search', 'future', 'x')
    const value = fc.constantFrom('=y', '=n', '=?1', '="n"', '', '=(n y)', '=y;q=n', '=%"n"', '=n;at=%"caf%c3%a9"')
    const origin = fc.array(fc.tuple(label, value), { maxLength: 6 }).map((ms) => ms.map(([k, v]) => k + v).join(', '))
    const preferences = fc.record({ trainAi: fc.boolean(), search: fc.boolean() }, { requiredKeys: [] })
    const token = (d: oracle.Dictionary, key: string) => {
      const member = d.get(key)
      return member !== undefined && !Array.isArray(member[0]) && member[0] instanceof oracle.Token ? member[0].toString() : undefined
    }
    fc.assert(
      fc.property(origin, preferences, (sent: string, config: UsagePreferences) => {
        const theirs = oracle.parseDictionary(sent)
        const merged = oracle.parseDictionary(mergeUsageHeader(sent, config))
        for (const category of USAGE_CATEGORIES) {
          const key = CONTENT_USAGE_VOCABULARY[category]
          const stated = [token(theirs, key), config[category] === undefined ? undefined : config[category] ? 'y' : 'n']
          const expected = stated.includes('n') ? 'n' : stated.includes('y') ? 'y' : undefined
          expect(token(merged, key), `${sent} with ${JSON.stringify(config)}`).toBe(expected)
        }
      }),
      { numRuns: 1000 },
    )
  })

  // Content-Usage is an RFC 9651 field: its Dates and Display Strings are no reason to drop the origin's statement.
  it('reads an origin value with RFC 9651 Dates and Display Strings, and keeps them', () => {
    expect(mergeUsageHeader('train-ai=n, seen=@1700000000, note=%"caf%c3%a9";at=@-1', { trainAi: true, search: true })).toBe('train-ai=n, search=y, seen=@1700000000, note=%"caf%c3%a9";at=@-1')
  })

  // RFC 9651 §4.2: a field that fails to parse is ignored by every recipient.
  it("sends the config's statement alone when the origin's is no Dictionary", () => {
    expect(mergeUsageHeader('train-ai=y,,', { trainAi: false })).toBe('train-ai=n')
    expect(mergeUsageHeader('   ', { search: true })).toBe('search=y')
    expect(mergeUsageHeader('train-ai="maybe"', { search: true })).toBe('search=y')
  })
})

describe('validation of contentUsage', () => {
  it('accepts every category, paths alone, and both', () => {
    expect(errorsOf(withUsage({ trainAi: false, search: true }))).toEqual([])
    expect(errorsOf(withUsage({ paths: { '/blog/': { search: true }, '/*.pdf$': { trainAi: false } } }))).toEqual([])
  })

  // Strict, as every other object of the config: a key the vocabulary lacks is an error, never ignored.
  it("names an unknown category and lists the vocabulary's", () => {
    expect(errorsOf(withUsage({ aiTrain: false, 'train-ai': true }))).toEqual([
      { path: 'rules[0].contentUsage.aiTrain', message: 'is not a known option.', fix: 'Remove it, or use one of: trainAi, search, paths.' },
      { path: 'rules[0].contentUsage.train-ai', message: 'is not a known option.', fix: 'Remove it, or use one of: trainAi, search, paths.' },
    ])
    expect(errorsOf(withUsage({ paths: { '/a/': { trainAi: true, ai: false } } }))).toEqual([
      { path: 'rules[0].contentUsage.paths["/a/"].ai', message: 'is not a known option.', fix: 'Remove it, or use one of: trainAi, search.' },
    ])
  })

  it('refuses a value that is not a boolean, at the top and under a path', () => {
    expect(errorsOf(withUsage({ search: 'no', paths: { '/a/': { trainAi: 'n' } } }))).toEqual([
      { path: 'rules[0].contentUsage.search', message: '"no" is not true or false.', fix: 'Write true (yes) or false (no).' },
      { path: 'rules[0].contentUsage.paths["/a/"].trainAi', message: '"n" is not true or false.', fix: 'Write true (yes) or false (no).' },
    ])
  })

  it('refuses a statement that says nothing, and one that is no object', () => {
    expect(errorsOf(withUsage({}))).toEqual([{ path: 'rules[0].contentUsage', message: 'states no preference.', fix: 'Set one of: trainAi, search, paths; or remove it.' }])
    expect(errorsOf(withUsage({ paths: { '/a/': {} } }))).toEqual([{ path: 'rules[0].contentUsage.paths["/a/"]', message: 'states no preference.', fix: 'Set one of: trainAi, search; or remove it.' }])
    expect(errorsOf(withUsage(false))).toEqual([{ path: 'rules[0].contentUsage', message: 'is not an object.', fix: 'Write { trainAi: false, search: true }.' }])
    expect(errorsOf(withUsage({ paths: ['/a/'] }))).toEqual([{ path: 'rules[0].contentUsage.paths', message: '/a/ is not an object.', fix: "Write paths: { '/blog/': { trainAi: true } }." }])
  })

  // attach-05 §3.2: the path starts with "/" and ends at the first space or tab.
  it('refuses a path that does not start with "/", holds white space, or is "/"', () => {
    const message = (p: string) => `"${p}" is not a Content-Usage path: one starting with "/", without white space (draft-ietf-aipref-attach-05 §3.2), and not "/" alone.`
    const fix = 'Write e.g. "/blog/", a space as "%20"; put the preferences for "/" beside paths.'
    expect(errorsOf(withUsage({ paths: { 'blog/': { search: true }, '*.pdf': { search: true }, '/a b/': { search: true }, '/': { search: true } } }))).toEqual(
      ['blog/', '*.pdf', '/a b/', '/'].map((p) => ({ path: `rules[0].contentUsage.paths[${JSON.stringify(p)}]`, message: message(p), fix })),
    )
    // A tab is a control character first: the shared check says so, and how to encode it.
    expect(errorsOf(withUsage({ paths: { '/a\tb': { search: true } } }))[0]!.fix).toBe('Remove it, or write it percent-encoded ("%09") if the URL really holds it.')
  })

  // The validator's character checks, shared with allow and disallow: nothing may start a new line or a comment.
  it('refuses line breaks, invisible characters and "#" in a path', () => {
    const errors = errorsOf(withUsage({ paths: { '/a\u2028b': { search: true }, '/a\u200bb': { search: true }, '/a#b': { search: true } } }))
    expect(errors.map((e) => e.path)).toEqual(['rules[0].contentUsage.paths["/a\u2028b"]', 'rules[0].contentUsage.paths["/a\u200bb"]', 'rules[0].contentUsage.paths["/a#b"]'])
    expect(errors[0]!.message).toContain('U+2028')
    expect(errors[1]!.message).toContain('invisible character')
    expect(errors[2]!.message).toContain('starts a comment in robots.txt')
  })

  it('is a known option of a group', () => {
    expect(errorsOf({ rules: [{ userAgent: '*', contentUsages: { trainAi: false } }] })[0]!.fix).toContain('contentUsage')
  })
})

describe('validation of noindex', () => {
  const errorsOfNoindex = (noindex: unknown) => errorsOf({ rules: [], noindex, noindexMeta: true })

  it('accepts a rule, a list, agents and every directive', () => {
    expect(errorsOfNoindex({ path: '/search' })).toEqual([])
    expect(errorsOfNoindex([{ path: ['/a/', '/*?sort=', '/b$'], userAgent: ['Googlebot', '*'], directives: ['noindex', 'nofollow', 'noai', 'noimageai'] }])).toEqual([])
  })

  // An empty pattern matches every path: the whole site would leave the index.
  it('refuses a rule without paths, or with an empty one', () => {
    const missing = { message: 'is missing or empty.', fix: "Write the paths to keep out of the index, e.g. path: '/search'." }
    expect(errorsOfNoindex([{}, { path: [] }, { path: ['/a', ''] }])).toEqual([
      { path: 'noindex[0].path', ...missing },
      { path: 'noindex[1].path', ...missing },
      { path: 'noindex[2].path', ...missing },
    ])
  })

  it('checks patterns and product tokens as allow, disallow and userAgent are checked', () => {
    expect(errorsOfNoindex({ path: 'search', userAgent: 'Googlebot/2.1' })).toEqual([
      { path: 'noindex.path', message: '"search" does not start with "/" or "*", so it never matches a path (RFC 9309 §2.2.2).', fix: 'Write "/search".' },
      expect.objectContaining({ path: 'noindex.userAgent', fix: 'Use "Googlebot".' }),
    ])
    expect(errorsOfNoindex({ path: '/a\u2028b' })[0]!.message).toContain('U+2028')
  })

  it('names an unknown key, an unknown directive, and a flag that is no boolean', () => {
    expect(errorsOfNoindex({ path: '/a', agent: 'x' })).toEqual([{ path: 'noindex.agent', message: 'is not a known option.', fix: 'Remove it, or use one of: path, userAgent, directives.' }])
    const directives = { path: 'noindex.directives', fix: 'Use some of: noindex, nofollow, noai, noimageai; or leave it out (it means noindex).' }
    expect(errorsOfNoindex({ path: '/a', directives: ['noindex', 'none'] })).toEqual([{ ...directives, message: 'noindex,none is not a list of X-Robots-Tag directives robots-edge sends.' }])
    expect(errorsOfNoindex({ path: '/a', directives: [] })).toEqual([{ ...directives, message: ' is not a list of X-Robots-Tag directives robots-edge sends.' }])
    expect(errorsOf({ rules: [], noindexMeta: 'yes' })).toEqual([
      { path: 'noindexMeta', message: '"yes" is not true or false.', fix: 'Write noindexMeta: true to add <meta name="robots"> to HTML responses too.' },
    ])
  })

  it('resolves defaults: noindex for every crawler, agents in lower case, "*" meaning every crawler', () => {
    const { config } = resolveConfig(
      { rules: [], noindex: [{ path: '/café' }, { path: '/b', userAgent: ['Googlebot', 'googlebot'], directives: ['nofollow', 'nofollow'] }, { path: '/c', userAgent: ['*', 'Bingbot'] }] },
      PRODUCTION,
    )
    expect(config.noindex).toEqual([
      { paths: ['/caf%C3%A9'], userAgent: [], directives: ['noindex'] },
      { paths: ['/b'], userAgent: ['googlebot'], directives: ['nofollow'] },
      { paths: ['/c'], userAgent: [], directives: ['noindex'] },
    ])
    expect(config.noindexMeta).toBe(false)
  })
})
