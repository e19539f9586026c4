import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { compileReader, compileRobotsTxt, parseRobotsTxt, readerSafeModel, serializeRobotsTxt } from '../../../src/core/robots/index.ts'
import type { Group, RobotsTxtModel, Rule, Verdict } from '../../../src/core/robots/index.ts'

// Unit and property tests of readerSafeModel: the reader-safe order changes
// the text, never its RFC 9309 meaning, and makes a first-match reader (the
// 1996 draft, urllib.robotparser) read Google's verdicts wherever patterns
// have no wildcards.

const rule = (type: Rule['type'], pattern: string): Rule => ({ type, pattern })
const group = (userAgents: string[], rules: Rule[], other: Group['other'] = []): Group => ({ userAgents, rules, other })
const model = (...groups: Group[]): RobotsTxtModel => ({ groups, sitemaps: [], other: [] })
const txt = (...lines: string[]): string => lines.join('\n') + '\n'

describe('rule order (RFC 9309 §2.2.2: the longest match wins)', () => {
  // Longest pattern first, so the first prefix that matches is the longest one.
  it('writes the longest pattern first', () => {
    const m = model(group(['*'], [rule('allow', '/'), rule('disallow', '/admin/'), rule('allow', '/admin/public/')]))
    expect(serializeRobotsTxt(readerSafeModel(m))).toBe(txt('User-agent: *', 'Allow: /admin/public/', 'Disallow: /admin/', 'Allow: /'))
  })

  // At equal length allow wins (RFC 9309 §2.2.2), so it comes first; equal rules keep their order.
  it('puts allow before disallow at equal length, and keeps the order of equals', () => {
    const m = model(group(['*'], [rule('disallow', '/b'), rule('disallow', '/a'), rule('allow', '/a'), rule('disallow', '/c')]))
    expect(readerSafeModel(m).groups[0]!.rules).toEqual([rule('allow', '/a'), rule('disallow', '/b'), rule('disallow', '/a'), rule('disallow', '/c')])
  })

  // Length is RFC 9309 priority: octets after percent-encoding normalisation, `*` and `$` included.
  it('measures length in normalised octets', () => {
    const m = model(group(['*'], [rule('disallow', '/*.pdf$'), rule('disallow', '/abcdefgh'), rule('allow', '/éé'), rule('allow', '/é')]))
    expect(readerSafeModel(m).groups[0]!.rules.map((r) => r.pattern)).toEqual(['/éé', '/abcdefgh', '/é', '/*.pdf$'])
  })
})

describe('group order (substring readers)', () => {
  // A group whose token contains another's comes first.
  it('writes googlebot-image before googlebot, and * last', () => {
    const m = model(group(['*'], [rule('disallow', '/x')]), group(['googlebot'], [rule('disallow', '/a')]), group(['Googlebot-Image'], [rule('disallow', '/b')]))
    expect(readerSafeModel(m).groups.map((g) => g.userAgents)).toEqual([['Googlebot-Image'], ['googlebot'], ['*']])
  })

  // Otherwise the given order is kept.
  it('keeps the given order where it is free', () => {
    const m = model(group(['ccbot'], []), group(['gptbot'], []), group(['bingbot'], []))
    expect(readerSafeModel(m).groups.map((g) => g.userAgents)).toEqual([['ccbot'], ['gptbot'], ['bingbot']])
  })

  // A cycle (bingbot ⊃ bing, googlebot-news ⊃ googlebot, in crossed groups) is resolved by splitting the groups into one group per token.
  it('splits groups caught in a cycle', () => {
    const m = model(group(['bingbot', 'googlebot'], [rule('disallow', '/a/')]), group(['googlebot-news', 'bing'], [rule('disallow', '/b/')]))
    expect(readerSafeModel(m).groups.map((g) => [g.userAgents, g.rules.map((r) => r.pattern)])).toEqual([
      [['bingbot'], ['/a/']],
      [['googlebot-news'], ['/b/']],
      [['googlebot'], ['/a/']],
      [['bing'], ['/b/']],
    ])
  })

  // `*` beside a token: the token gets its own copy of the rules, `*` its group at the end.
  it('gives a token named beside * its own group', () => {
    const m = model({ ...group(['*', 'slurp'], [rule('disallow', '/x/')]), comment: 'everyone' }, group(['slurpy'], [rule('disallow', '/')]))
    expect(readerSafeModel(m).groups).toEqual([
      group(['slurpy'], [rule('disallow', '/')]),
      { ...group(['slurp'], [rule('disallow', '/x/')]), comment: 'everyone' },
      group(['*'], [rule('disallow', '/x/')]),
    ])
  })

  // RFC 9309 §2.2.1: a token named in several groups obeys all their rules; it gets one group in place of its first mention.
  it('merges the groups of a repeated token', () => {
    const m = model(group(['a', 'b'], [rule('disallow', '/1')]), group(['c'], [rule('disallow', '/2')]), group(['B', '*'], [rule('disallow', '/3')]), group(['*'], [rule('allow', '/4')]))
    expect(readerSafeModel(m).groups.map((g) => [g.userAgents, g.rules.map((r) => r.pattern)])).toEqual([
      [['b'], ['/1', '/3']],
      [['a'], ['/1']],
      [['c'], ['/2']],
      [['*'], ['/4', '/3']],
    ])
  })

  // A group with no rules still allows everything to every reader: written as `Disallow:`.
  it('keeps an empty group allowing everything', () => {
    const text = serializeRobotsTxt(readerSafeModel(model(group(['*'], [rule('disallow', '/')]), group(['duckduckbot'], []))))
    expect(text).toBe(txt('User-agent: duckduckbot', 'Disallow:', '', 'User-agent: *', 'Disallow: /'))
    expect(compileReader(parseRobotsTxt(text), 'first-match').check('duckduckbot', '/x').allowed).toBe(true)
    expect(compileReader(parseRobotsTxt(text), 'prefix-1994').check('duckduckbot', '/x').allowed).toBe(true)
  })
})

describe('size', () => {
  // Thousands of groups, many containing each other's tokens, in linear time (hang guard, far above the normal run).
  // Linear in the groups: quadratic ordering of 5000 groups would outlast the timeout (speed: npm run bench).
  it('orders 5000 groups', () => {
    // Letters only (a product token): bot-a, botx-b, ..., with names that contain shorter ones.
    const letters = (i: number): string => (i < 26 ? '' : letters(Math.floor(i / 26) - 1)) + String.fromCharCode(97 + (i % 26))
    const groups = Array.from({ length: 5000 }, (_, i) => group([`bot${'x'.repeat(i % 7)}-${letters(i)}`], [rule('disallow', `/p${i}/`)]))
    const ordered = readerSafeModel(model(...groups)).groups
    expect(ordered).toHaveLength(5000)
    // Every group comes before the groups whose token is part of its own.
    const at = new Map(ordered.map((g, i) => [g.userAgents[0]!.toLowerCase(), i]))
    for (const [value, i] of at) for (const [other, j] of at) if (other !== value && value.includes(other)) expect(i).toBeLessThan(j)
  }, 30_000)
})

// Arbitraries: tokens that often contain each other, patterns that often nest.
const TOKENS = ['*', 'a', 'ab', 'abc', 'b', 'bot', 'googlebot', 'googlebot-image', 'Googlebot-News', 'x-googlebot', 'bingbot', 'bing']
const SEGMENTS = ['a', 'b', 'ab', 'c', 'x.pdf', 'a-b']
const literal = fc.tuple(fc.array(fc.constantFrom(...SEGMENTS), { maxLength: 3 }), fc.boolean()).map(([segs, slash]) => (segs.length === 0 ? '/' : '/' + segs.join('/') + (slash ? '/' : '')))
const plainPattern = fc.oneof({ weight: 9, arbitrary: literal }, { weight: 1, arbitrary: fc.constant('') })
const wildPattern = fc.oneof(
  { weight: 3, arbitrary: plainPattern },
  { weight: 1, arbitrary: literal.map((p) => p + '*') },
  { weight: 1, arbitrary: literal.map((p) => p + '$') },
  { weight: 1, arbitrary: literal.map((p) => '/*' + p.slice(1)) },
)
const groupOf = (pattern: fc.Arbitrary<string>) =>
  fc.record({
    userAgents: fc.uniqueArray(fc.constantFrom(...TOKENS), { minLength: 1, maxLength: 3 }),
    rules: fc.array(fc.record({ type: fc.constantFrom('allow' as const, 'disallow' as const), pattern }), { maxLength: 6 }),
    other: fc.constant([]),
  })
const modelOf = (pattern: fc.Arbitrary<string>) => fc.array(groupOf(pattern), { minLength: 1, maxLength: 5 }).map((groups): RobotsTxtModel => ({ groups, sitemaps: [], other: [] }))
const path = literal.chain((p) => fc.constantFrom(p, p + 'x', p + '/y', p + '.pdf'))

/** Crawler names for which a substring reader can agree: the named tokens, and unnamed names that contain none of them. */
function crawlers(m: RobotsTxtModel): string[] {
  const named = [
    ...new Set(
      m.groups
        .flatMap((g) => g.userAgents)
        .filter((a) => a !== '*')
        .map((a) => a.toLowerCase()),
    ),
  ]
  const unnamed = ['zzz', 'examplebot', 'googlebot-video'].filter((name) => !named.some((t) => name.includes(t)))
  return [...named, ...unnamed]
}

/** What a verdict means: an empty `Disallow:` (written for a group with no rules) decides as no rule does. */
function reading(v: Verdict): unknown {
  return { allowed: v.allowed, group: v.group, rule: v.rule === null || v.rule.pattern === '' ? null : [v.rule.type, v.rule.pattern] }
}

describe('properties', () => {
  // (a) = (b): the RFC 9309 verdict, its group and its deciding rule are the same for the model and for the re-ordered served text.
  it('keeps every RFC 9309 verdict', () => {
    fc.assert(
      fc.property(modelOf(wildPattern), fc.array(path, { minLength: 1, maxLength: 8 }), (m, paths) => {
        const meant = compileRobotsTxt(m)
        const served = compileRobotsTxt(serializeRobotsTxt(readerSafeModel(m)))
        for (const name of [...crawlers(m), 'googlebot-image-extra']) {
          for (const p of paths) {
            expect(reading(served.check(name, p))).toEqual(reading(meant.check(name, p)))
          }
        }
      }),
      { numRuns: 400 },
    )
  })

  // (a) = (c): without wildcards, a first-match reader reads the served text as Google reads the model.
  it('makes a first-match reader agree wherever patterns have no wildcards', () => {
    fc.assert(
      fc.property(modelOf(plainPattern), fc.array(path, { minLength: 1, maxLength: 8 }), (m, paths) => {
        const meant = compileRobotsTxt(m)
        const firstMatch = compileReader(parseRobotsTxt(serializeRobotsTxt(readerSafeModel(m))), 'first-match')
        for (const name of crawlers(m)) {
          for (const p of paths) expect([name, p, firstMatch.check(name, p).allowed]).toEqual([name, p, meant.check(name, p).allowed])
        }
      }),
      { numRuns: 400 },
    )
  })

  // Writing a reader-safe model again changes nothing.
  it('is idempotent', () => {
    fc.assert(
      fc.property(modelOf(wildPattern), (m) => {
        const once = serializeRobotsTxt(readerSafeModel(m))
        expect(serializeRobotsTxt(readerSafeModel(parseRobotsTxt(once)))).toBe(once)
      }),
      { numRuns: 300 },
    )
  })
})
