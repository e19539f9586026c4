import { describe, expect, it } from 'vitest'
import { parseDictionary, Token } from '../../src/bots/structured-fields.ts'
import { mergeUsageHeader, strictest, usageValue } from '../../src/config/content-usage.ts'
import { buildPolicy, resolveConfig, validateConfig, type ContentUsage, type RobotsConfig } from '../../src/config/index.ts'
import type { ResponseSignals } from '../../src/config/signals.ts'
import { lintRobotsTxt, parseRobotsTxt } from '../../src/robots/index.ts'

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
    expect([...parsed].map(([key, [value]]) => [key, (value as Token).value])).toEqual([['train-ai', 'y'], ['search', 'n']])
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
    const text = policyOf({ rules: [{ userAgent: '*', disallow: '/admin/', contentUsage: { trainAi: false, search: true, paths: { '/blog/': { trainAi: true }, '/shop/*.json$': { search: false } } } }] }).text
    expect(text).toBe(
      'User-agent: *\n' +
        'Content-Usage: / train-ai=n, search=y\n' +
        'Content-Usage: /blog/ train-ai=y, search=y\n' +
        'Content-Usage: /shop/*.json$ train-ai=n, search=n\n' +
        'Disallow: /admin/\n',
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
    expect(parsed.groups[0]!.other.map((r) => [r.key, r.value])).toEqual([['Content-Usage', '/ train-ai=n'], ['Content-Usage', '/blog/ train-ai=n, search=y']])
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

describe('merging with the origin\'s own Content-Usage', () => {
  // vocab-07 "Combining Preferences": two statements about one response; any n wins.
  it('combines per category, the most restrictive winning', () => {
    expect(mergeUsageHeader('train-ai=y, search=n', { trainAi: false, search: true })).toBe('train-ai=n, search=n')
    expect(mergeUsageHeader('search=y', { trainAi: false })).toBe('train-ai=n, search=y')
  })

  // Unknown keys and parameters are for extensions (vocab-07): kept as the origin wrote them.
  it('keeps the origin\'s other members and parameters', () => {
    expect(mergeUsageHeader('future-use=n;scope="x", flag, list=(a b)', { trainAi: false })).toBe('train-ai=n, future-use=n;scope="x", flag, list=(a b)')
    expect(parseDictionary(mergeUsageHeader('flag;p=1', { search: true })).has('flag')).toBe(true)
  })

  // RFC 9651 §4.2: a field that fails to parse is ignored by every recipient.
  it('sends the config\'s statement alone when the origin\'s is no Dictionary', () => {
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

  it('names an unknown category and the vocabulary, and maps a label to its key', () => {
    expect(errorsOf(withUsage({ aiTrain: false, 'train-ai': true }))).toEqual([
      { path: 'rules[0].contentUsage.aiTrain', message: 'is not a category of use in the AI preferences vocabulary (draft-ietf-aipref-vocab-07).', fix: 'Use one of: trainAi (train-ai), search (search); or paths.' },
      { path: 'rules[0].contentUsage.train-ai', message: 'is not a category of use in the AI preferences vocabulary (draft-ietf-aipref-vocab-07).', fix: 'Write trainAi.' },
    ])
  })

  it('refuses a value that is not a boolean, at the top and under a path', () => {
    expect(errorsOf(withUsage({ search: 'no', paths: { '/a/': { trainAi: 'n' } } }))).toEqual([
      { path: 'rules[0].contentUsage.search', message: '"no" is not true or false.', fix: 'Write true (y: this use is allowed) or false (n: it is not).' },
      { path: 'rules[0].contentUsage.paths["/a/"].trainAi', message: '"n" is not true or false.', fix: 'Write true (y: this use is allowed) or false (n: it is not).' },
    ])
  })

  it('refuses a statement that says nothing, and one that is no object', () => {
    expect(errorsOf(withUsage({}))).toEqual([{ path: 'rules[0].contentUsage', message: 'states no preference, so it would write nothing.', fix: 'Set at least one of: trainAi (train-ai), search (search); or remove it.' }])
    expect(errorsOf(withUsage({ paths: { '/a/': {} } }))[0]!.path).toBe('rules[0].contentUsage.paths["/a/"]')
    expect(errorsOf(withUsage(false))).toEqual([{ path: 'rules[0].contentUsage', message: 'false is not an object.', fix: 'Write { trainAi: false, search: true }.' }])
    expect(errorsOf(withUsage({ paths: ['/a/'] }))).toEqual([{ path: 'rules[0].contentUsage.paths', message: '/a/ is not an object.', fix: "Write paths: { '/blog/': { trainAi: true } }." }])
  })

  // attach-05 §3.2: the path starts with "/" and ends at the first space or tab.
  it('refuses a path that does not start with "/", holds white space, or is "/"', () => {
    expect(errorsOf(withUsage({ paths: { 'blog/': { search: true }, '*.pdf': { search: true }, '/a b/': { search: true }, '/': { search: true } } }))).toEqual([
      { path: 'rules[0].contentUsage.paths["blog/"]', message: '"blog/" does not start with "/", which a Content-Usage path must (draft-ietf-aipref-attach-05 §3.2).', fix: 'Write "/blog/".' },
      { path: 'rules[0].contentUsage.paths["*.pdf"]', message: '"*.pdf" does not start with "/", which a Content-Usage path must (draft-ietf-aipref-attach-05 §3.2).', fix: 'Write "/*.pdf".' },
      { path: 'rules[0].contentUsage.paths["/a b/"]', message: '"/a b/" holds white space, which ends the path of a Content-Usage line (draft-ietf-aipref-attach-05 §3.2): crawlers would read the rest as the preferences.', fix: 'Write a space in a path as "%20", a tab as "%09".' },
      { path: 'rules[0].contentUsage.paths["/"]', message: '"/" is every path: its preferences are the group-wide ones.', fix: 'Write them beside `paths`, e.g. contentUsage: { trainAi: false, paths: { ... } }.' },
    ])
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
