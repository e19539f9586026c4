import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { compileRobotsTxt, normalizeEncoding, parseRobotsTxt, pathOf } from '../../../src/core/robots/index.ts'

// RFC 9309 §2.2.2 compares patterns and paths percent-encoding-normalised.
// robots-edge deviation: check() also normalises the URL it is given, so a
// raw or lower-case-escaped path gets the verdict of its canonical form. The
// matcher skips that normalisation where it can prove it changes nothing;
// these properties hold it to the proof.

const PATH_CHARS = [...'abcdefABCDEF0123456789/%-._~?=&*', 'é', 'ツ', '😀', '\uD800', '\uDC00', 'ſ']
const pathArb = fc.string({ unit: fc.constantFrom(...PATH_CHARS), maxLength: 24 }).map((rest) => '/' + rest)
const patternArb = fc.tuple(fc.constantFrom('/', '/*', '*', '/a', '/%'), fc.string({ unit: fc.constantFrom(...PATH_CHARS, '$'), maxLength: 12 })).map(([head, rest]) => head + rest)
const fileArb = fc
  .array(fc.tuple(fc.constantFrom('Allow', 'Disallow'), patternArb), { minLength: 1, maxLength: 12 })
  .map((rules) => 'User-agent: *\n' + rules.map(([k, p]) => `${k}: ${p}`).join('\n') + '\n')

/**
 * A deliberately naive reference: Google's position-set matching on
 * normalised strings, every rule of the `*` group tried, no index and no
 * shortcut. The optimised matcher must agree with it on every input.
 */
function referenceMatches(path: string, pattern: string): boolean {
  let positions = [0]
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i]
    if (p === '$' && i === pattern.length - 1) return positions.includes(path.length)
    if (p === '*') {
      const from = Math.min(...positions)
      positions = Array.from({ length: path.length - from + 1 }, (_, k) => from + k)
    } else {
      positions = positions.filter((q) => q < path.length && path[q] === p).map((q) => q + 1)
      if (positions.length === 0) return false
    }
  }
  return true
}

function reference(file: string, rawPath: string): { allowed: boolean; line: number } {
  const path = normalizeEncoding(pathOf(rawPath))
  let best: { priority: number; allow: boolean; line: number } | undefined
  for (const group of parseRobotsTxt(file).groups) {
    for (const rule of group.rules) {
      const candidates = [normalizeEncoding(rule.pattern)]
      const slash = candidates[0]!.lastIndexOf('/')
      if (rule.type === 'allow' && slash >= 0 && candidates[0]!.startsWith('/index.htm', slash)) {
        candidates.push(candidates[0]!.slice(0, slash + 1) + '$')
      }
      for (const pattern of candidates) {
        if (!referenceMatches(path, pattern)) continue
        const allow = rule.type === 'allow'
        const better = best === undefined || pattern.length > best.priority || (pattern.length === best.priority && allow && !best.allow)
        if (better) best = { priority: pattern.length, allow, line: rule.line! }
      }
    }
  }
  if (best === undefined) return { allowed: true, line: 0 }
  return { allowed: best.allow || best.priority === 0, line: best.line }
}

/**
 * A matcher scans a token's rules for its first check and indexes them for
 * the next (src/core/robots/token-rules.ts): a warmed matcher answers from the index.
 */
function warmed(file: string): ReturnType<typeof compileRobotsTxt> {
  const robots = compileRobotsTxt(file)
  robots.check('anybot', '/')
  return robots
}

describe('the optimised matcher agrees with a naive reference', () => {
  it('for random rules and random raw paths, scanned and indexed', () => {
    fc.assert(
      fc.property(fileArb, pathArb, (file, path) => {
        fc.pre(!path.startsWith('/robots.txt'))
        const expected = reference(file, path)
        for (const verdict of [compileRobotsTxt(file).check('anybot', path), warmed(file).check('anybot', path)]) {
          expect({ allowed: verdict.allowed, line: verdict.rule?.line ?? 0 }).toEqual(expected)
        }
      }),
      { numRuns: 5000 },
    )
  })

  // The same on full URLs, with queries and fragments, read in place.
  it('for random rules and URLs', () => {
    const urlArb = fc.tuple(fc.constantFrom('https://example.com', 'http://a.b:8080', '//example.com', ''), pathArb, fc.constantFrom('', '#frag', '#/x/%41', '?q=1#f'))
    fc.assert(
      fc.property(fileArb, urlArb, (file, [origin, path, tail]) => {
        fc.pre(!path.startsWith('/robots.txt'))
        const url = origin + path + tail
        const expected = reference(file, url)
        expect(compileRobotsTxt(file).check('anybot', url)).toEqual(warmed(file).check('anybot', url))
        const verdict = warmed(file).check('anybot', url)
        expect({ allowed: verdict.allowed, line: verdict.rule?.line ?? 0 }).toEqual(expected)
      }),
      { numRuns: 3000 },
    )
  })
})

describe('a raw path and its normalised form get the same verdict', () => {
  it('for random rules and random paths', () => {
    fc.assert(
      fc.property(fileArb, pathArb, (file, path) => {
        for (const robots of [compileRobotsTxt(file), warmed(file)]) expect(robots.check('anybot', path)).toEqual(robots.check('anybot', normalizeEncoding(path)))
      }),
      { numRuns: 3000 },
    )
  })

  it.each([
    ['/*83', '/ツ'],
    ['/*E3', '/x%e3%83%84'],
    ['/caf*A9$', '/caf%c3%a9'],
    ['/*/%E3*', '/a/ツ'],
    ['/*/%e*', '/a/%ez'],
    ['/*/%EF%BF%BD', '/x/\uD800'],
    ['/*/%F0', '/x/😀'],
    ['/*/%C3', '/x/é'],
  ])('pattern %s against %s', (pattern, path) => {
    const file = `User-agent: *\nDisallow: ${pattern}\n`
    for (const robots of [compileRobotsTxt(file), warmed(file)]) {
      const canonical = robots.check('anybot', normalizeEncoding(path))
      expect(robots.check('anybot', path)).toEqual(canonical)
      expect(canonical.allowed).toBe(reference(file, path).allowed)
    }
  })
})
