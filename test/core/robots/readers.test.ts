import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { compileReader, parseRobotsTxt, serializeRobotsTxt, substringGroup } from '../../../src/core/robots/index.ts'
import type { RobotsTxtModel } from '../../../src/core/robots/index.ts'
import { PrefixTrie } from '../../../src/core/robots/prefix-trie.ts'
import { readWithPython, requirePythonReaders } from './python.ts'

// Unit tests of the older readers the linter compares with Google's: the
// first-match reader (1996 draft, urllib.robotparser) and the 1994 prefix
// reader; and of the prefix index they share. The first-match reader is
// checked against urllib.robotparser itself.

const txt = (...lines: string[]): string => lines.join('\n') + '\n'

describe('the first-match reader (1996 draft)', () => {
  const body = txt('User-agent: googlebot', 'Disallow: /a/', 'Allow: /a/b/', '', 'User-agent: *', 'Allow: /', 'Disallow: /admin/', '', 'User-agent: *', 'Disallow: /')
  const reader = compileReader(parseRobotsTxt(body), 'first-match')

  // The first rule in file order that is a prefix of the path decides.
  it('applies the first matching rule, not the longest', () => {
    expect(reader.check('googlebot', '/a/b/c')).toMatchObject({ allowed: false, rule: { type: 'disallow', pattern: '/a/', line: 2 } })
    expect(reader.check('otherbot', '/admin/x')).toMatchObject({ allowed: true, rule: { pattern: '/', line: 6 } })
  })

  // Groups by substring of the name before "/", case-insensitive; the first * group only, and last.
  it('chooses groups by substring and reads the first * group', () => {
    expect(reader.groupFor('Googlebot-Image/1.0')).toBe(0)
    expect(reader.groupFor('bingbot')).toBe(1)
    expect(substringGroup(parseRobotsTxt(txt('User-agent: *', 'Disallow:', '', 'User-agent: bot', 'Disallow: /')), 'anybot')).toBe(1)
    expect(substringGroup(parseRobotsTxt(txt('User-agent: x', 'Disallow: /')), 'y')).toBe(-1)
  })

  // An empty Disallow allows everything; no wildcards: "*" and "$" are plain characters.
  it('reads empty Disallow as allow-all and knows no wildcards', () => {
    const r = compileReader(parseRobotsTxt(txt('User-agent: *', 'Disallow: /*.pdf$', 'Disallow:')), 'first-match')
    expect(r.check('x', '/a.pdf')).toMatchObject({ allowed: true, rule: { pattern: '' } })
    expect(r.check('x', '/*.pdf$')).toMatchObject({ allowed: false, rule: { pattern: '/*.pdf$' } })
  })

  // Values are compared as written: a value with "/" matches no name (names are cut at "/").
  it('compares user-agent values as written', () => {
    const parsed = parseRobotsTxt(txt('User-agent: Googlebot/2.1', 'Disallow: /'))
    expect(compileReader(parsed, 'first-match').check('Googlebot/2.1', '/x')).toEqual({ allowed: true, group: -1, rule: null })
  })
})

describe('the 1994 prefix reader', () => {
  const reader = compileReader(parseRobotsTxt(txt('User-agent: *', 'Allow: /a/b/', 'Disallow: /a/', 'Disallow:')), 'prefix-1994')

  // No Allow: any Disallow that is a prefix forbids.
  it('ignores Allow lines', () => {
    expect(reader.check('x', '/a/b/c')).toMatchObject({ allowed: false, rule: { pattern: '/a/', line: 3 } })
  })

  it('allows everything else, naming the empty Disallow', () => {
    expect(reader.check('x', '/z')).toMatchObject({ allowed: true, rule: { pattern: '', line: 4 } })
  })
})

describe('PrefixTrie', () => {
  const all = (trie: PrefixTrie, literals: readonly string[], s: string): string[] => {
    const out: string[] = []
    trie.prefixes(s, (i) => out.push(literals[i]!))
    return out
  }

  it('finds the literals that are prefixes, shortest first, and the longest', () => {
    const literals = ['/a', '/a/b', '/ab', '', '/a/b/c', '/b', '/a/b']
    const trie = new PrefixTrie(literals)
    expect(all(trie, literals, '/a/b/cd')).toEqual(['', '/a', '/a/b', '/a/b/c'])
    expect(all(trie, literals, '/a/bx')).toEqual(['', '/a', '/a/b'])
    expect(all(trie, literals, '/ab')).toEqual(['', '/a', '/ab'])
    expect(all(trie, literals, '/c')).toEqual([''])
    expect(literals[trie.longest('/a/b/cd')]).toBe('/a/b/c')
    expect(new PrefixTrie(['/x']).longest('/y')).toBe(-1)
  })

  // Many children of one node get a table; deep chains need no recursion.
  it('handles wide and deep trees', () => {
    const wide = Array.from({ length: 100 }, (_, i) => `/w/${String.fromCharCode(33 + i)}`)
    const trie = new PrefixTrie(wide)
    expect(wide[trie.longest('/w/Ax')]).toBe('/w/A')
    const deep = Array.from({ length: 2000 }, (_, i) => '/' + 'a'.repeat(i))
    expect(deep[new PrefixTrie(deep).longest('/' + 'a'.repeat(3000))]).toBe('/' + 'a'.repeat(1999))
  })

  // Against the obvious definition, for random literals and strings (non-ASCII too).
  it('agrees with a linear scan', () => {
    const str = fc.string({ unit: fc.constantFrom('/', 'a', 'b', 'é', '\u{1F600}'), maxLength: 6 })
    fc.assert(
      fc.property(fc.uniqueArray(str, { maxLength: 12 }), str, (literals, s) => {
        const trie = new PrefixTrie(literals)
        const expected = literals.filter((l) => s.startsWith(l)).sort((a, b) => a.length - b.length)
        expect(all(trie, literals, s)).toEqual(expected)
        expect(trie.longest(s)).toBe(expected.length === 0 ? -1 : literals.indexOf(expected.at(-1)!))
      }),
      { numRuns: 2000 },
    )
  })
})

describe('the first-match reader against urllib.robotparser', { timeout: 60_000 }, () => {
  beforeAll(() => requirePythonReaders(), 30_000)

  // Random wildcard-free files in any order, with tokens that contain each other.
  it('gives the same verdict as urllib.robotparser on 150 random files', () => {
    const segment = fc.constantFrom('a', 'b', 'ab', 'x.html', 'a-b')
    const path = fc.tuple(fc.array(segment, { maxLength: 3 }), fc.boolean()).map(([s, slash]) => (s.length === 0 ? '/' : '/' + s.join('/') + (slash ? '/' : '')))
    const model: fc.Arbitrary<RobotsTxtModel> = fc
      .array(
        fc.record({
          userAgents: fc.uniqueArray(fc.constantFrom('*', 'a', 'ab', 'bot', 'googlebot', 'googlebot-image', 'Bingbot'), { minLength: 1, maxLength: 3 }),
          rules: fc.array(fc.record({ type: fc.constantFrom('allow' as const, 'disallow' as const), pattern: fc.oneof(path, fc.constant('')) }), { maxLength: 5 }),
          other: fc.constant([]),
        }),
        { minLength: 1, maxLength: 5 },
      )
      .map((groups) => ({ groups, sitemaps: [], other: [] }))
    const files = fc.sample(fc.tuple(model, fc.array(path, { minLength: 4, maxLength: 10 })), { numRuns: 150, seed: 10 })
    const names = ['googlebot', 'googlebot-image', 'Bingbot/2.0', 'abc', 'otherbot', 'zz']
    const queries = files.map(([, paths]) => names.flatMap((n) => paths.map((p) => [n, `https://example.com${p}`] as const)))
    const texts = files.map(([m]) => serializeRobotsTxt(m))
    const python = readWithPython(texts.map((text, i) => ({ text, queries: queries[i]! })))
    const differ = texts.flatMap((text, i) => {
      const reader = compileReader(parseRobotsTxt(text), 'first-match')
      return queries[i]!.filter(([n, u], k) => reader.check(n, u).allowed !== python[i]![k]![0]).map(([n, u]) => ({ text, n, u }))
    })
    expect(queries.flat().length).toBeGreaterThan(3000)
    expect(differ).toEqual([])
  })
})
