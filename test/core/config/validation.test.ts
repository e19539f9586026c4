import { describe, expect, it } from 'vitest'
import {
  buildPolicy,
  checkConfig,
  ConfigError,
  createPolicies,
  formatIssue,
  resolveConfig,
  validateConfig,
  toRobotsModel,
  type ConfigIssue,
  type RobotsConfig,
} from '../../../src/core/config/index.ts'
import { compileRobotsTxt, lintRobotsTxt, MAX_FILE_BYTES } from '../../../src/core/robots/index.ts'

// Unit tests of validateConfig: every invalid config is an error that names
// the field path and the fix; warnings are for configs that work, but not as
// written. Strict: unknown keys are errors.

const PRODUCTION = { host: 'example.com', env: 'production' }

/** The errors of a config given as plain data (the type checker would refuse most of these). */
function errorsOf(config: unknown): ConfigIssue[] {
  return validateConfig(config).errors
}
const rule = (fields: Record<string, unknown>) => ({ rules: [{ userAgent: '*', ...fields }] })

describe('product tokens (RFC 9309 §2.2.1)', () => {
  // A value with a space: crawlers read the leading run of letters, and the fix names it.
  it('rejects "Brightbot 1.0" and says crawlers read "Brightbot"', () => {
    expect(errorsOf({ rules: [{ userAgent: 'Brightbot 1.0', disallow: '/' }] })).toEqual([
      {
        path: 'rules[0].userAgent',
        message: '"Brightbot 1.0" is not a product token (letters, "-" and "_" only, RFC 9309 §2.2.1): crawlers read only "Brightbot", the part before the first other character.',
        fix: 'Use "Brightbot".',
      },
    ])
  })

  // Digits end the token: the group would apply to another crawler altogether.
  it('rejects "MJ12bot" and says RFC parsers read "MJ"', () => {
    expect(errorsOf({ rules: [{ userAgent: ['*', 'MJ12bot'], disallow: '/' }] })).toEqual([
      {
        path: 'rules[0].userAgent[1]',
        message:
          '"MJ12bot" is not a product token (letters, "-" and "_" only, RFC 9309 §2.2.1): crawlers that follow the RFC, Google\'s among them, read it as "MJ", so the group would apply to a crawler named "MJ", not the one you mean.',
        fix: 'Name a crawler by a token of letters, "-" and "_" only; a crawler whose documented name has digits cannot be named reliably in robots.txt.',
      },
    ])
  })

  it('rejects a version suffix, and a value that names no token at all', () => {
    expect(errorsOf({ rules: { userAgent: 'Googlebot/2.1' } })).toEqual([expect.objectContaining({ path: 'rules.userAgent', fix: 'Use "Googlebot".' })])
    expect(errorsOf({ rules: { userAgent: '2bot' } })).toEqual([
      {
        path: 'rules.userAgent',
        message: '"2bot" is not a product token (letters, "-" and "_" only, RFC 9309 §2.2.1): crawlers read no token from it, so the group would apply to no crawler.',
        fix: 'Use the product token the crawler documents, e.g. "Googlebot".',
      },
    ])
  })

  it('requires at least one user agent', () => {
    const missing = { path: 'rules[0].userAgent', message: 'is missing: a group must name at least one crawler.', fix: "Add userAgent: '*' for every crawler, or a product token." }
    expect(errorsOf({ rules: [{ disallow: '/' }] })).toEqual([missing])
    expect(errorsOf({ rules: [{ userAgent: [], disallow: '/' }] })).toEqual([missing])
  })
})

describe('patterns (RFC 9309 §2.2.2)', () => {
  it('rejects a pattern that starts with neither "/" nor "*"', () => {
    expect(errorsOf(rule({ allow: '/ok', disallow: ['/ok', 'admin/'] }))).toEqual([
      { path: 'rules[0].disallow[1]', message: '"admin/" does not start with "/" or "*", so it never matches a path (RFC 9309 §2.2.2).', fix: 'Write "/admin/".' },
    ])
    expect(errorsOf(rule({ allow: '$' }))).toEqual([expect.objectContaining({ path: 'rules[0].allow', fix: 'Write "/$".' })])
  })

  // An empty pattern is RFC 9309's "allow everything" and stays valid.
  it('accepts the empty pattern and wildcards', () => {
    expect(errorsOf(rule({ disallow: ['', '*.pdf$', '/a*b$'] }))).toEqual([])
  })
})

describe('values that would break lines (robots.txt injection)', () => {
  // The exact messages for every character class are in characters.test.ts;
  // here, each field that reaches robots.txt refuses CR and LF and names itself.
  const LF = 'which ends a line in robots.txt: every crawler would read what follows as a line of its own.'
  const ENCODE_LF = 'Remove it, or write it percent-encoded ("%0A") if the URL really holds it.'
  const ENCODE_CR = 'Remove it, or write it percent-encoded ("%0D") if the URL really holds it.'
  const hash = (path: string, value: string): ConfigIssue => ({
    path,
    message: `${JSON.stringify(value)} holds "#", which starts a comment in robots.txt: everything after it would be ignored.`,
    fix: 'Remove it (URL fragments are never sent to the server).',
  })

  it.each([
    [
      'userAgent',
      { rules: { userAgent: 'Googlebot\nDisallow: /' } },
      { path: 'rules.userAgent', message: `"Googlebot\\nDisallow: /" holds U+000A (LINE FEED) at character 10, ${LF}`, fix: 'Remove it.' },
    ],
    ['allow', rule({ allow: '/a\rUser-agent: *' }), { path: 'rules[0].allow', message: `"/a\\rUser-agent: *" holds U+000D (CARRIAGE RETURN) at character 3, ${LF}`, fix: ENCODE_CR }],
    ['disallow', rule({ disallow: ['/', '/b\r\n'] }), { path: 'rules[0].disallow[1]', message: `"/b\\r\\n" holds U+000D (CARRIAGE RETURN) at character 3, ${LF}`, fix: ENCODE_CR }],
    [
      'sitemap',
      { rules: { userAgent: '*' }, sitemap: ['https://example.com/a.xml', 'https://example.com/b.xml\nDisallow: /'] },
      { path: 'sitemap[1]', message: `"https://example.com/b.xml\\nDisallow: /" holds U+000A (LINE FEED) at character 26, ${LF}`, fix: ENCODE_LF },
    ],
    [
      'other value',
      rule({ other: { 'Clean-param': 'ref\nDisallow: /' } }),
      { path: 'rules[0].other.Clean-param', message: `"ref\\nDisallow: /" holds U+000A (LINE FEED) at character 4, ${LF}`, fix: 'Remove it.' },
    ],
    [
      'other list value',
      rule({ other: { 'Clean-param': ['a', 'b\r'] } }),
      { path: 'rules[0].other.Clean-param[1]', message: `"b\\r" holds U+000D (CARRIAGE RETURN) at character 2, ${LF}`, fix: 'Remove it.' },
    ],
  ])('rejects a line break in %s', (_, config, issue) => {
    expect(errorsOf(config)).toEqual([issue])
  })

  it.each([
    ['userAgent', { rules: { userAgent: 'Googlebot#x' } }, 'rules.userAgent', 'Googlebot#x'],
    ['allow', rule({ allow: '/a#b' }), 'rules[0].allow', '/a#b'],
    ['disallow', rule({ disallow: '/#' }), 'rules[0].disallow', '/#'],
    ['other value', rule({ other: { 'Clean-param': 'a#b' } }), 'rules[0].other.Clean-param', 'a#b'],
    ['host', { rules: { userAgent: '*' }, host: 'example.com#x' }, 'host', 'example.com#x'],
  ])('rejects "#" in %s', (_, config, path, value) => {
    expect(errorsOf(config)).toEqual([hash(path, value)])
  })

  // Controls are named by code point and position, never shown raw.
  it.each([
    ['userAgent', { rules: { userAgent: 'Google\u0000bot' } }, 'rules.userAgent', '"Google\\u0000bot" holds U+0000 (NULL) at character 7', 'Remove it.'],
    ['allow', rule({ allow: '/a\u0007' }), 'rules[0].allow', '"/a\\u0007" holds U+0007 at character 3', 'Remove it, or write it percent-encoded ("%07") if the URL really holds it.'],
    [
      'disallow',
      rule({ disallow: '/a\u001b[31m' }),
      'rules[0].disallow',
      '"/a\\u001b[31m" holds U+001B (ESCAPE) at character 3',
      'Remove it, or write it percent-encoded ("%1B") if the URL really holds it.',
    ],
    [
      'sitemap',
      { rules: { userAgent: '*' }, sitemap: 'https://example.com/\u007f.xml' },
      'sitemap',
      '"https://example.com/\\u007F.xml" holds U+007F (DELETE) at character 21',
      'Remove it, or write it percent-encoded ("%7F") if the URL really holds it.',
    ],
    ['host', { rules: { userAgent: '*' }, host: 'example.com\u0001' }, 'host', '"example.com\\u0001" holds U+0001 at character 12', 'Remove it.'],
  ])('rejects a control character in %s', (_, config, path, start, fix) => {
    expect(errorsOf(config)).toEqual([
      { path, message: `${start}, a control character, which robots.txt readers handle inconsistently (some keep it, some end the line there, terminals run it as an escape).`, fix },
    ])
  })

  // The host is one host name: a line break there is white space, reported as such.
  it('rejects a line break in host', () => {
    expect(errorsOf({ rules: { userAgent: '*' }, host: 'example.com\nDisallow: /' })).toEqual([
      { path: 'host', message: '"example.com\\nDisallow: /" is not a host name.', fix: 'Write e.g. "example.com".' },
    ])
  })

  it('rejects other keys a parser would read as a group or sitemap line', () => {
    expect(errorsOf(rule({ other: { Disalow: '/x', 'Site-map': 'https://e.com/s.xml', '1st': 'x' } }))).toEqual([
      { path: 'rules[0].other.Disalow', message: '"Disalow" would be read as a group line, not an extra record.', fix: 'Use userAgent, allow, disallow or sitemap instead.' },
      { path: 'rules[0].other.Site-map', message: '"Site-map" would be read as a sitemap line, not an extra record.', fix: 'Use userAgent, allow, disallow or sitemap instead.' },
      { path: 'rules[0].other.1st', message: '"1st" is not a record key.', fix: 'Use letters, digits, "-" and "_", starting with a letter.' },
    ])
  })
})

describe('sitemaps (RFC 9309 §2.3.5)', () => {
  it.each([['/sitemap.xml'], ['ftp://example.com/sitemap.xml'], ['sitemap.xml'], ['https://example.com/a b.xml']])('rejects %s', (value) => {
    expect(errorsOf({ rules: { userAgent: '*' }, sitemap: value })).toEqual([
      {
        path: 'sitemap',
        message: `${JSON.stringify(value)} is not an absolute http(s) URL, which is what crawlers read in a Sitemap line (RFC 9309 §2.3.5).`,
        fix: 'Write the full URL, e.g. "https://example.com/sitemap.xml".',
      },
    ])
  })

  it('names the entry of a list, and rejects a value that is not a string', () => {
    expect(errorsOf({ rules: { userAgent: '*' }, sitemap: ['https://example.com/a.xml', 42] })).toEqual([{ path: 'sitemap[1]', message: '42 is not a string.', fix: 'Write an absolute URL.' }])
  })
})

describe('crawl delay and Content-Signal', () => {
  it.each([
    [0, '0'],
    [-1, '-1'],
    [Number.NaN, 'NaN'],
    [Number.POSITIVE_INFINITY, 'Infinity'],
    ['5', '"5"'],
  ])('rejects crawlDelay %s', (value, shown) => {
    expect(errorsOf(rule({ crawlDelay: value }))).toEqual([
      { path: 'rules[0].crawlDelay', message: `${shown} is not a positive number of seconds.`, fix: 'Write a number above 0, e.g. crawlDelay: 5, or remove it.' },
    ])
  })

  it('accepts a fractional crawl delay', () => {
    expect(errorsOf(rule({ crawlDelay: 0.5 }))).toEqual([])
  })

  it('rejects a Content-Signal key outside search, aiInput, aiTrain, and a value that is not a boolean', () => {
    expect(errorsOf(rule({ contentSignal: { search: true, aiTraining: false, aiInput: 'no' } }))).toEqual([
      { path: 'rules[0].contentSignal.aiTraining', message: 'is not a Content-Signal key.', fix: 'Use one of: search, aiInput, aiTrain.' },
      { path: 'rules[0].contentSignal.aiInput', message: '"no" is not true or false.', fix: 'Write true (yes) or false (no).' },
    ])
  })
})

describe('unknown keys (strict validation)', () => {
  it('rejects unknown keys at the root, in a rule and in guard', () => {
    expect(errorsOf({ rules: [{ userAgent: '*', disalow: '/x' }], sitemaps: [], guard: { mode: 'log', satus: 402 } })).toEqual([
      {
        path: 'sitemaps',
        message: 'is not a known option.',
        fix: 'Remove it, or use one of: rules, sitemap, host, header, guard, cacheControl, indexable, previewHosts, forwardedHeaders, hosts, noindex, noindexMeta, protect, alerts.',
      },
      { path: 'rules[0].disalow', message: 'is not a known option.', fix: 'Remove it, or use one of: userAgent, allow, disallow, crawlDelay, contentSignal, contentUsage, comment, other, guard.' },
      { path: 'guard.satus', message: 'is not a known option.', fix: 'Remove it, or use one of: mode, status, body, headers, spoofed, exempt, crawlDelay.' },
    ])
  })
})

describe('wrong types', () => {
  it.each([
    ['a config that is not an object', null, { path: '(config)', message: 'is not an object.' }],
    ['an array as the config', [], { path: '(config)', message: 'is not an object.' }],
    ['no rules', {}, { path: 'rules', message: 'is missing.' }],
    ['a rule that is not an object', { rules: ['*'] }, { path: 'rules[0]', message: 'is not an object.' }],
    ['a user agent that is not a string', { rules: { userAgent: 7 } }, { path: 'rules.userAgent', message: '7 is not a string.' }],
    ['a pattern that is not a string', rule({ disallow: [true] }), { path: 'rules[0].disallow[0]', message: 'true is not a string.' }],
    ['a comment that is not text', rule({ comment: 1 }), { path: 'rules[0].comment', message: 'is not plain text.' }],
    ['other that is not an object', rule({ other: 'Clean-param: x' }), { path: 'rules[0].other', message: 'is not an object.' }],
    ['a rule guard mode that is not a mode', rule({ guard: 'deny' }), { path: 'rules[0].guard', message: '"deny" is not a guard mode.' }],
    ['guard that is not an object', { rules: { userAgent: '*' }, guard: 'block' }, { path: 'guard', message: 'is not an object.' }],
    ['a guard mode that is not a mode', { rules: { userAgent: '*' }, guard: { mode: 'refuse' } }, { path: 'guard.mode', message: '"refuse" is not a guard mode.' }],
    ['a refusal status outside 4xx/5xx', { rules: { userAgent: '*' }, guard: { status: 200 } }, { path: 'guard.status', message: '200 is not a refusal status.' }],
    ['a refusal body that is not a string', { rules: { userAgent: '*' }, guard: { body: 1 } }, { path: 'guard.body', message: 'is not a string.' }],
    [
      'a refusal header with a line break',
      { rules: { userAgent: '*' }, guard: { headers: { 'X-A': 'a\nb' } } },
      { path: 'guard.headers.X-A', message: '"a\\nb" is not a header value this Worker can send.' },
    ],
    ['a spoofed option that is not one', { rules: { userAgent: '*' }, guard: { spoofed: 'allow' } }, { path: 'guard.spoofed', message: '"allow" is not an option.' }],
    ['a host that is not a string', { rules: { userAgent: '*' }, host: 1 }, { path: 'host', message: '1 is not a host name.' }],
    ['a header that is not text', { rules: { userAgent: '*' }, header: ['x'] }, { path: 'header', message: 'is not plain text.' }],
    [
      'a cacheControl with a line break',
      { rules: { userAgent: '*' }, cacheControl: 'public\r\nX: y' },
      { path: 'cacheControl', message: '"public\\r\\nX: y" is not a header value this Worker can send.' },
    ],
    ['indexable that is not a boolean', { rules: { userAgent: '*' }, indexable: 'yes' }, { path: 'indexable', message: '"yes" is not true or false.' }],
    [
      'a preview host that is not a host',
      { rules: { userAgent: '*' }, previewHosts: ['*.workers.dev', 'https://x.dev'] },
      { path: 'previewHosts[1]', message: '"https://x.dev" is not a host or *.suffix.' },
    ],
  ])('rejects %s', (_, config, expected) => {
    expect(errorsOf(config)).toEqual([{ ...expected, fix: expect.any(String) }])
  })
})

describe('the same token in two groups (RFC 9309 §2.2.1: crawlers merge them)', () => {
  const config: RobotsConfig = {
    rules: [
      { userAgent: ['GPTBot', 'CCBot'], disallow: '/', guard: 'block' },
      { userAgent: '*', disallow: '/admin/' },
      { userAgent: 'gptbot', allow: '/public/', crawlDelay: 5, guard: 'log' },
    ],
  }

  // A warning, not an error: the config works, but not as two groups.
  it('warns with both paths', () => {
    expect(validateConfig(config)).toEqual({
      errors: [],
      warnings: [
        {
          path: 'rules[2].userAgent',
          message: '"gptbot" is also named at rules[0].userAgent[0]; crawlers merge the two groups, so robots-edge writes one group for it with the rules of both.',
          fix: 'Name each token in one group.',
        },
      ],
    })
  })

  // One group for the token, in place of its first mention, with the rules of both; the other token keeps its group.
  it('resolves to one group with the rules of both', () => {
    const { config: resolved, warnings } = resolveConfig(config, PRODUCTION)
    expect(warnings).toHaveLength(1)
    expect(resolved.rules).toEqual([
      { userAgent: ['GPTBot'], allow: ['/public/'], disallow: ['/'], crawlDelay: 5, contentSignal: undefined, contentUsage: [], comment: undefined, other: [], guard: 'block' },
      { userAgent: ['CCBot'], allow: [], disallow: ['/'], crawlDelay: undefined, contentSignal: undefined, contentUsage: [], comment: undefined, other: [], guard: 'block' },
      { userAgent: ['*'], allow: [], disallow: ['/admin/'], crawlDelay: undefined, contentSignal: undefined, contentUsage: [], comment: undefined, other: [], guard: undefined },
    ])
  })

  it('serves the merged group', () => {
    const policy = createPolicies(config).get('example.com', 'production')
    expect(policy.text).toBe(
      ['User-agent: GPTBot', 'Crawl-delay: 5', 'Allow: /public/', 'Disallow: /', '', 'User-agent: CCBot', 'Disallow: /', '', 'User-agent: *', 'Disallow: /admin/', ''].join('\n'),
    )
    expect(policy.matcher.check('gptbot', '/public/x')).toEqual({ allowed: true, group: 'gptbot', rule: { type: 'allow', pattern: '/public/', line: 3 } })
    expect(policy.matcher.check('ccbot', '/public/x')).toEqual({ allowed: false, group: 'ccbot', rule: { type: 'disallow', pattern: '/', line: 7 } })
    // The first guard mode named for the token applies to the merged group.
    expect(policy.modeFor('gptbot')).toBe('block')
  })
})

describe('file size (RFC 9309 §2.5)', () => {
  // Crawlers may stop reading at 500 KiB: a config that renders more is refused before it is served.
  it('throws ConfigError from buildPolicy when the output is over 500 KiB', () => {
    const disallow = Array.from({ length: 20_000 }, (_, i) => `/archive/${String(i).padStart(6, '0')}/page-with-a-long-name/`)
    const config: RobotsConfig = { rules: { userAgent: '*', disallow } }
    const { config: resolved } = resolveConfig(config, PRODUCTION)
    let error: unknown
    try {
      buildPolicy(resolved)
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(ConfigError)
    const issues = (error as ConfigError).issues
    expect(issues).toEqual([
      {
        path: 'rules',
        message: expect.stringMatching(/^the robots\.txt would be \d+ KiB; crawlers may ignore everything after 500 KiB \(RFC 9309 §2\.5\)\.$/),
        fix: 'Merge groups and remove redundant rules.',
      },
    ])
    expect(Number(/be (\d+) KiB/.exec(issues[0]!.message)![1]) * 1024).toBeGreaterThan(MAX_FILE_BYTES)
    expect(() => checkConfig(config)).toThrow(ConfigError)
  })
})

describe('config functions', () => {
  it('reports a function that throws as an error of the config, naming the host and env', () => {
    const config = ({ host }: { host: string }): RobotsConfig => {
      throw new Error(`no site for ${host}`)
    }
    expect(() => resolveConfig(config, PRODUCTION)).toThrow(ConfigError)
    try {
      checkConfig(config)
    } catch (e) {
      expect((e as ConfigError).issues).toEqual([
        { path: '(config)', message: 'the config function threw for host "localhost", env "production": no site for localhost', fix: 'Make it return a config for every host and environment.' },
      ])
    }
    expect.assertions(2)
  })

  // What a function returns is validated like an object.
  it('validates what a function returns', () => {
    expect(() => resolveConfig(() => ({ rules: { userAgent: 'MJ12bot' } }), PRODUCTION)).toThrow(/rules\.userAgent: "MJ12bot" is not a product token/)
  })
})

describe('ConfigError and formatIssue', () => {
  it('formats each issue as "path: message fix" and lists them all in the message', () => {
    const issue = { path: 'rules[0].allow', message: '"x" does not start with "/" or "*".', fix: 'Write "/x".' }
    expect(formatIssue(issue)).toBe('rules[0].allow: "x" does not start with "/" or "*". Write "/x".')
    expect(formatIssue({ path: 'rules', message: 'is missing.' })).toBe('rules: is missing.')
    const error = new ConfigError([issue, { path: 'rules', message: 'is missing.' }])
    expect(error.message).toBe('Invalid robots config:\n  - rules[0].allow: "x" does not start with "/" or "*". Write "/x".\n  - rules: is missing.')
    expect(error.name).toBe('ConfigError')
  })
})

// Bugs in src/core/config these tests found. Each fails until src/core/config is
// fixed; each names the consequence for a site.
describe('bugs found in src/core/config (these fail until it is fixed)', () => {
  const tab = (path: string, value: string, at: number, fix: string): ConfigIssue => ({
    path,
    message: `${JSON.stringify(value)} holds U+0009 (CHARACTER TABULATION) at character ${at}, a control character, which robots.txt readers handle inconsistently (some keep it, some end the line there, terminals run it as an escape).`,
    fix,
  })
  const encodeTab = 'Remove it, or write it percent-encoded ("%09") if the URL really holds it.'

  // TAB is a control character, but CONTROL in validate.ts skips U+0009. In a
  // pattern the serializer writes it as %09, so the served rule matches
  // `/a%09b` while the config's own rule does not: file and config disagree.
  it.each([
    ['disallow', rule({ disallow: '/a\tb' }), tab('rules[0].disallow', '/a\tb', 3, encodeTab)],
    ['allow', rule({ allow: '/a\t' }), tab('rules[0].allow', '/a\t', 3, encodeTab)],
    ['other value', rule({ other: { 'Clean-param': 'a\tb' } }), tab('rules[0].other.Clean-param', 'a\tb', 2, 'Remove it.')],
  ])('rejects a TAB in %s', (_, config, issue) => {
    expect(errorsOf(config)).toEqual([issue])
  })

  // `Disallow: /a ` is read as `/a` (RFC 9309 §2.2: values are trimmed), so
  // the served file disallows /ab while the config's rule `/a ` does not.
  it('rejects a pattern with trailing white space, or serves it so that it means the same', () => {
    const config = rule({ disallow: '/a ' }) as RobotsConfig
    const { errors } = validateConfig(config)
    if (errors.length > 0) {
      expect(errors.map((e) => e.path)).toEqual(['rules[0].disallow'])
      return
    }
    const policy = createPolicies(config).get('example.com', 'production')
    const served = compileRobotsTxt(policy.text).check('anybot', '/ab')
    const meant = compileRobotsTxt(toRobotsModel(policy.config)).check('anybot', '/ab')
    expect(served.allowed).toBe(meant.allowed)
  })

  // The issue lists "#" in a sitemap as an error; validate.ts allows it
  // (checkLineSafe(…, allowHash = true)) and the serializer silently cuts the
  // URL at "#", so the file serves a different value than the config holds.
  it('rejects "#" in a sitemap', () => {
    const value = 'https://example.com/sitemap.xml#top'
    expect(errorsOf({ rules: { userAgent: '*' }, sitemap: value })).toEqual([
      {
        path: 'sitemap',
        message: `${JSON.stringify(value)} holds "#", which starts a comment in robots.txt: everything after it would be ignored.`,
        fix: 'Remove it (URL fragments are never sent to the server).',
      },
    ])
  })

  // The WHATWG URL parser accepts "https:example.com/…", so validation
  // passes, yet lintRobotsTxt reports the served Sitemap line as an error
  // (not an absolute URL): `robots lint` fails a config `validate` passes.
  it.each([['https:example.com/sitemap.xml'], ['http:/example.com/sitemap.xml']])('rejects the scheme-without-slashes sitemap %s', (value) => {
    const policyText = `User-agent: *\nDisallow:\n\nSitemap: ${value}\n`
    expect(lintRobotsTxt(policyText).map((d) => d.code)).toEqual(['sitemap-url'])
    expect(errorsOf({ rules: { userAgent: '*' }, sitemap: value }).map((e) => e.path)).toEqual(['sitemap'])
  })

  // A header value must be a ByteString (no code point above U+00FF):
  // `new Headers()` throws on one, so a non-Latin-1 cacheControl makes every
  // /robots.txt a 500, and such a guard header makes every refusal a 500.
  it.each([
    ['cacheControl', { rules: { userAgent: '*' }, cacheControl: 'public, max-age=300 — 5 分' }, 'cacheControl'],
    ['refusal header', { rules: { userAgent: '*' }, guard: { headers: { 'X-Robots-Note': 'Bitte → robots.txt lesen' } } }, 'guard.headers.X-Robots-Note'],
  ])('rejects a %s value that is not a valid HTTP header value', (_, config, path) => {
    const value = 'cacheControl' in config ? config.cacheControl : config.guard.headers['X-Robots-Note']
    expect(() => new Headers({ 'x-test': value })).toThrow(TypeError)
    expect(errorsOf(config).map((e) => e.path)).toEqual([path])
  })
})
