import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { compileRobotsTxt, isAllowed, lintRobotsTxt, MAX_LINE_BYTES, parseRobotsTxt, serializeRobotsTxt } from '../../../src/core/robots/index.ts'
import type { Verdict } from '../../../src/core/robots/index.ts'

// Unit tests of the core against hostile or broken input. Bodies, tokens and
// URLs may all come from outside, so nothing here may throw or take more than
// linear time. The time limits are hang guards, far above normal run times;
// the numbers themselves belong to `npm run bench`.

function txt(...lines: string[]): string {
  return lines.join('\n') + '\n'
}

/** Runs every entry point on one input and returns the verdict for the token and URL. */
function everything(body: string, token: string | readonly string[], url: string): Verdict {
  const parsed = parseRobotsTxt(body)
  const robots = compileRobotsTxt(body)
  const verdict = robots.check(token, url)
  expect(compileRobotsTxt(parsed).check(token, url)).toEqual(verdict)
  expect(robots.groupFor(token)).toBe(verdict.group)
  if (typeof token === 'string') expect(isAllowed(body, token, url)).toBe(verdict.allowed)
  parseRobotsTxt(serializeRobotsTxt(parsed))
  lintRobotsTxt(body)
  return verdict
}

/** Deterministic pseudo-random octets (xorshift32), so a failure can be replayed. */
function garbage(length: number, seed: number): string {
  const bytes = new Uint8Array(length)
  let x = seed
  for (let i = 0; i < length; i++) {
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    bytes[i] = x & 0xff
  }
  return Buffer.from(bytes).toString('latin1')
}

describe('bad input: garbage bodies', () => {
  // Random octets read as latin1 are parsed, matched, written back and linted without an exception.
  it.each([1, 2, 3, 0xdeadbeef])('survives 64 KiB of random octets (seed %i)', (seed) => {
    const body = garbage(64 * 1024, seed)
    const verdict = everything(body, 'googlebot', '/x')
    expect(typeof verdict.allowed).toBe('boolean')
  })

  // Random octets after a valid group do not disturb the group.
  it('keeps a valid group followed by garbage', () => {
    const body = txt('User-agent: *', 'Disallow: /private') + garbage(4096, 7).replace(/[\r\n]/g, ' ')
    expect(everything(body, 'googlebot', '/private/x')).toEqual({
      allowed: false,
      group: '*',
      rule: { type: 'disallow', pattern: '/private', line: 2 },
    })
  })

  // NUL octets anywhere end the line they are on and nothing else.
  it('survives NUL octets', () => {
    expect(everything('\0'.repeat(10_000), 'googlebot', '/x')).toEqual({ allowed: true, group: null, rule: null })
    expect(everything('\0User-agent: *\nDisallow: /', 'googlebot', '/x')).toEqual({ allowed: true, group: null, rule: null })
    expect(everything('User-agent: *\0\nDisallow: /a\0b\n\0', 'googlebot', '/a\0b')).toEqual({
      allowed: false,
      group: '*',
      rule: { type: 'disallow', pattern: '/a', line: 2 },
    })
  })

  // A lone surrogate has no UTF-8 form; it is encoded as U+FFFD in patterns and URLs alike.
  it('survives lone surrogates in patterns, agents, tokens and URLs', () => {
    const body = txt('User-agent: \uDFFF', 'Disallow: /', 'User-agent: *', 'Disallow: /\uD800', 'Allow: /\uDFFF\uD800x')
    expect(everything(body, '\uD800', '/\uD800')).toEqual({
      allowed: false,
      group: '*',
      rule: { type: 'disallow', pattern: '/\uD800', line: 4 },
    })
    expect(everything(body, ['\uDFFF', 'googlebot'], 'https://example.com/\uDFFF\uD800x')).toEqual({
      allowed: true,
      group: '*',
      rule: { type: 'allow', pattern: '/\uDFFF\uD800x', line: 5 },
    })
    expect(everything(body, 'googlebot', '/%EF%BF%BD')).toEqual({
      allowed: false,
      group: '*',
      rule: { type: 'disallow', pattern: '/\uD800', line: 4 },
    })
    expect(parseRobotsTxt(body).groups[0]?.userAgents).toEqual(['\uDFFF'])
  })

  // parseRobotsTxt and lintRobotsTxt read a non-string body as text rather than throwing.
  it.each([undefined, null, 42])('parses and lints the body %j', (body) => {
    expect(parseRobotsTxt(body as unknown as string).groups).toEqual([])
    expect(() => lintRobotsTxt(body as unknown as string)).not.toThrow()
    expect(compileRobotsTxt(txt('User-agent: *', 'Disallow: /')).model.groups).toHaveLength(1)
  })
})

describe('bad input: size', () => {
  // A 10 MB body is handled by every entry point in linear time. The hang guard is
  // the test's timeout, not a wall-clock assertion: a quadratic step on 10 MB
  // would take hours, while a loaded CI core may take seconds (speed: npm run bench).
  it('handles a 10 MB body', () => {
    const unit = txt('User-agent: bot', 'Disallow: /private/*.php$', 'Allow: /public', '# a comment', '')
    const body = unit.repeat(Math.ceil(10_000_000 / unit.length))
    const parsed = parseRobotsTxt(body)
    expect(parsed.diagnostics).toEqual([{ code: 'file-too-large', line: 0 }])
    const robots = compileRobotsTxt(parsed)
    const verdict = robots.check('bot', '/private/a.php')
    expect(verdict).toEqual({ allowed: false, group: 'bot', rule: { type: 'disallow', pattern: '/private/*.php$', line: 2 } })
    const allowed = isAllowed(body, 'bot', '/public/x')
    expect(allowed).toBe(true)
    expect(serializeRobotsTxt(parsed)).toContain('Disallow: /private/*.php$')
    expect(lintRobotsTxt(body).length).toBeGreaterThan(0)
  }, 60_000)

  // A 10 MB body with no line end at all is one line, cut at MAX_LINE_BYTES.
  it('handles a 10 MB single line', () => {
    const body = 'User-agent: *\nDisallow: /' + 'a'.repeat(10_000_000)
    const verdict = everything(body, 'googlebot', '/' + 'a'.repeat(20_000))
    expect(verdict.allowed).toBe(false)
    expect(verdict.rule?.pattern).toHaveLength(MAX_LINE_BYTES - 'Disallow: '.length)
  }, 60_000)

  // A single 100 KB line, of plain octets or of wildcards, is read and matched in linear time (the timeout is the guard).
  it.each([
    ['plain', 'Disallow: /' + 'a'.repeat(100_000)],
    ['wildcards', 'Disallow: /' + '*a'.repeat(50_000)],
    ['garbage', garbage(100_000, 11).replace(/[\r\n]/g, ' ')],
  ])(
    'handles a 100 KB %s line',
    (_name, line) => {
      const body = 'User-agent: *\n' + line + '\n'
      const path = '/' + 'a'.repeat(4096)
      const robots = compileRobotsTxt(body)
      for (let i = 0; i < 100; i++) robots.check('googlebot', path)
      everything(body, 'googlebot', path)
      expect(parseRobotsTxt(body).diagnostics.map((d) => d.code)).toContain('line-too-long')
    },
    30_000,
  )

  // Matching stays linear: a pattern built to make a backtracking matcher explode is fast on a 4 KiB path.
  it('matches /*a*a*a*a*a*a*a*a*a*b against 4 KiB of a without backtracking', () => {
    const robots = compileRobotsTxt(txt('User-agent: *', 'Disallow: /*a*a*a*a*a*a*a*a*a*b'))
    const path = '/' + 'a'.repeat(4096)
    expect(robots.check('googlebot', path)).toEqual({ allowed: true, group: '*', rule: null })
    expect(robots.check('googlebot', path + 'b')).toEqual({
      allowed: false,
      group: '*',
      rule: { type: 'disallow', pattern: '/*a*a*a*a*a*a*a*a*a*b', line: 2 },
    })
    // Backtracking would take longer than the age of the universe: the timeout is the guard.
    for (let i = 0; i < 1000; i++) robots.check('googlebot', path)
  }, 10_000)
})

describe('bad input: non-string arguments to check', () => {
  const body = txt('User-agent: *', 'Disallow: /x')
  const bad = [undefined, null, 42, Number.NaN, {}, true]

  // A URL that is not a string is read as no path, `/`.
  it.each(bad)('reads the URL %j as /', (url) => {
    const robots = compileRobotsTxt(body)
    expect(robots.check('googlebot', url as unknown as string)).toEqual({ allowed: true, group: '*', rule: null })
    expect(isAllowed(body, 'googlebot', url as unknown as string)).toBe(true)
  })

  // Bad request input is never an exception: a token that is not a string is no token, so the `*` group applies.
  it.each(bad)('reads the token %j as no token', (token) => {
    const robots = compileRobotsTxt(body)
    expect(robots.check(token as unknown as string, '/x')).toEqual({
      allowed: false,
      group: '*',
      rule: { type: 'disallow', pattern: '/x', line: 2 },
    })
    expect(robots.groupFor(token as unknown as string)).toBe('*')
    expect(isAllowed(body, token as unknown as string, '/x')).toBe(false)
  })

  // Non-strings inside a token list are skipped.
  it('skips non-strings in a token list', () => {
    const robots = compileRobotsTxt(txt('User-agent: *', 'Disallow: /', 'User-agent: googlebot', 'Disallow: /x'))
    const tokens = [undefined, null, 42, {}, 'googlebot'] as unknown as string[]
    expect(robots.check(tokens, '/y')).toEqual({ allowed: true, group: 'googlebot', rule: null })
    expect(robots.groupFor(tokens)).toBe('googlebot')
  })
})

// Arbitraries: robots.txt-ish lines, crawler tokens and URLs, realistic and not.
const TOKEN = fc.oneof(
  fc.stringMatching(/^[A-Za-z_-]{1,12}$/),
  fc.constantFrom('googlebot', 'Googlebot', 'googlebot-image', 'bingbot', 'GPTBot', '*', ''),
  fc.string({ unit: 'binary', maxLength: 10 }),
)
const PATH_CHARS = [...'abcxyzA09/._-~*$?=&%:;#', 'é', 'ツ', '\uD800']
const PATH = fc.string({ unit: fc.constantFrom(...PATH_CHARS), maxLength: 25 }).map((s) => '/' + s)
const URL_ = fc.oneof(PATH, fc.webUrl({ withQueryParameters: true, withFragments: true }), fc.string({ unit: 'binary', maxLength: 30 }))
const KEY = fc.constantFrom('User-agent', 'user-agent', 'USER-AGENT', 'useragent', 'user agent', 'Allow', 'Disallow', 'disalow', 'Sitemap', 'Crawl-delay', 'Host', 'Foo', '')
const SEPARATOR = fc.constantFrom(':', ': ', ' ', '\t', ' : ', '')
const VALUE = fc.oneof(
  PATH,
  TOKEN,
  fc.constantFrom('*', '* foo', '*foo', 'Googlebot/2.1', '', '/', '/$', '$', '*$', '/a*b$', '/dir/index.html', '/%e3%83%84', '/ツ'),
  fc.string({ unit: 'binary', maxLength: 10 }),
)
const TAIL = fc.constantFrom('', ' # comment', '#', '\0tail', ' extra words')
const LINE = fc.tuple(KEY, SEPARATOR, VALUE, TAIL).map((parts) => parts.join(''))
const EOL = fc.constantFrom('\n', '\r\n', '\r')
const ROBOTS = fc.tuple(fc.boolean(), fc.array(fc.tuple(LINE, EOL), { maxLength: 25 })).map(([bom, lines]) => (bom ? '\uFEFF' : '') + lines.map(([line, eol]) => line + eol).join(''))
const TOKENS = fc.oneof(TOKEN, fc.array(TOKEN, { maxLength: 3 }))

describe('bad input: properties', () => {
  // Any string of octets, as body, token and URL, goes through every entry point without an exception.
  it('never throws on binary strings', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary', maxLength: 20 }), fc.string({ unit: 'binary' }), (body, token, url) => {
        everything(body, token, url)
      }),
      { numRuns: 300 },
    )
  })

  // Any string of Unicode graphemes goes through every entry point without an exception.
  it('never throws on grapheme strings', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme', maxLength: 20 }), fc.string({ unit: 'grapheme' }), (body, token, url) => {
        everything(body, token, url)
      }),
      { numRuns: 300 },
    )
  })

  // Any mix of robots.txt-ish lines goes through every entry point without an exception.
  it('never throws on robots.txt-ish lines', () => {
    fc.assert(
      fc.property(ROBOTS, TOKENS, URL_, (body, tokens, url) => {
        everything(body, tokens, url)
      }),
      { numRuns: 500 },
    )
  })

  // The one-shot isAllowed agrees with a compiled matcher on every input.
  it('agrees between compileRobotsTxt().check and isAllowed', () => {
    fc.assert(
      fc.property(ROBOTS, TOKEN, URL_, (body, token, url) => {
        expect(compileRobotsTxt(body).check(token, url).allowed).toBe(isAllowed(body, token, url))
      }),
      { numRuns: 500 },
    )
  })

  // A verdict's provenance is real: a disallow verdict names a disallow rule, and every named rule is a line of the file.
  it('names a rule of the file in every verdict', () => {
    fc.assert(
      fc.property(ROBOTS, TOKENS, URL_, (body, tokens, url) => {
        const verdict = compileRobotsTxt(body).check(tokens, url)
        if (verdict.group === null) expect(verdict).toEqual({ allowed: true, group: null, rule: null })
        if (!verdict.allowed) expect(verdict.rule?.type).toBe('disallow')
        if (verdict.rule !== null) {
          const rules = parseRobotsTxt(body).groups.flatMap((g) => g.rules)
          expect(rules).toContainEqual(verdict.rule)
        }
      }),
      { numRuns: 500 },
    )
  })
})
