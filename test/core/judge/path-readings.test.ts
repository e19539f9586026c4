import { describe, expect, it } from 'vitest'
import { identifyAgent } from '../../../src/core/agents/index.ts'
import { createPolicies, type ConfigInput } from '../../../src/core/config/index.ts'
import { decide } from '../../../src/core/judge/judge.ts'
import { MAX_PATH, mayNormalize, normalizedPath, normalizedReadings, removeDotSegments } from '../../../src/core/judge/path-readings.ts'
import { checkEitherWay } from '../../../src/core/judge/readings.ts'

// Unit tests of the readings a normalizing origin may make of a path
// (src/guard/path-readings.ts), and of the guard judging them. The same
// spellings against a real normalizing server are in normalizing-origin.test.ts.

const policyOf = (config: ConfigInput) => createPolicies(config).get('example.com', 'production')
const GPTBOT = identifyAgent('Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)')!
const judged = (config: ConfigInput, path: string) => decide(policyOf(config), GPTBOT, `https://example.com${path}`).verdict

describe('removeDotSegments (RFC 3986 §5.2.4)', () => {
  // The algorithm's own examples (§5.2.4, §5.4.1), and the ends of a path.
  it.each([
    ['/a/b/c/./../../g', '/a/g'],
    ['/mid/content=5/../6', '/mid/6'],
    ['/b/c/../../../g', '/g'],
    ['/..', '/'],
    ['/../private', '/private'],
    ['/a/.', '/a/'],
    ['/a/b/..', '/a/'],
    ['/a//../b', '/a/b'],
    ['/a/..b/.c', '/a/..b/.c'],
    ['/plain/path', '/plain/path'],
  ])('%s → %s', (path, expected) => {
    expect(removeDotSegments(path)).toBe(expected)
  })
})

describe('the readings of a path', () => {
  it('a path with no `//`, `/.`, `%2F`, `%5C` or backslash gets none', () => {
    for (const path of ['/articles/1', '/a.b/c', '/x?q=1', '/%70rivate', '/a%20b', '/a%2Cb']) expect(mayNormalize(path), path).toBe(false)
    for (const path of ['//x', '/./x', '/a%2Fb', '/a%2fb', '/a%5cb', '/a%5Cb', '/a\\b', '/.well-known/x']) expect(mayNormalize(path), path).toBe(true)
  })

  it('each step alone and combined, the query kept as written', () => {
    const readings = normalizedReadings('/a/.//b%2F..%5Cc?next=/x/../y')
    expect(readings).toContain('/a/c?next=/x/../y')
    // Dot segments alone (the WHATWG URL parser's reading): `//` kept.
    expect(readings).toContain('/a//b%2F..%5Cc?next=/x/../y')
    expect(readings.every((r) => r.endsWith('?next=/x/../y'))).toBe(true)
    expect(normalizedPath('/x/..%2Fprivate/y?a=%2F')).toBe('/private/y?a=%2F')
  })

  it('stay bounded: at most 15, and one beyond MAX_PATH characters', () => {
    const adversarial = '/.%2F\\%5c//..'.repeat(200)
    expect(normalizedReadings(adversarial).length).toBeLessThanOrEqual(15)
    expect(normalizedReadings(`${'/..%2F'.repeat(MAX_PATH)}private`)).toEqual(['/private'])
  })
})

describe('the guard refuses when any reading is disallowed', () => {
  const config: ConfigInput = {
    rules: [
      { userAgent: '*', allow: '/' },
      { userAgent: 'GPTBot', disallow: ['/private/', '/a//'], guard: 'block' },
    ],
  }
  const served = policyOf(config).text.split('\n')
  const line = (pattern: string) => served.indexOf(`Disallow: ${pattern}`) + 1

  it.each([
    ['//private/x', '/private/'],
    ['/private%2Fx', '/private/'],
    ['/x/..%2Fprivate/x', '/private/'],
    ['/x/.%2E%2fprivate/x', '/private/'],
    ['/%2e%2e/private/x', '/private/'],
    ['/x/..%5Cprivate/x', '/private/'],
    ['/private%5cx', '/private/'],
    ['/private\\x', '/private/'],
    ['/x/../private/x', '/private/'],
    // Only one subset reads it so: dot segments removed, `//` kept.
    ['/a/.//b', '/a//'],
  ])('%s, naming %s and its line as written', (path, pattern) => {
    expect(judged(config, path)).toEqual({ allowed: false, group: 'gptbot', rule: { type: 'disallow', pattern, line: line(pattern) } })
  })

  it('passes what no reading disallows, and reads the query as no path', () => {
    for (const path of ['/public//x', '/privatex', '/x/..%2Fpublic', '/public?next=..%2Fprivate/x', '/private%2570', '/a/b']) {
      expect(judged(config, path).allowed, path).toBe(true)
    }
  })

  it('a rule that encodes an unreserved octet is matched by the normalized readings too, and named as written', () => {
    const policy = policyOf({ rules: [{ userAgent: 'GPTBot', disallow: '/%7Euser/' }] })
    expect(checkEitherWay(policy, ['gptbot'], 'https://example.com/x/..%2F~user/page')).toMatchObject({ allowed: false, rule: { pattern: '/%7Euser/' } })
  })

  it("`check` and the served file keep Google's reading", () => {
    const policy = policyOf(config)
    expect(policy.matcher.check('gptbot', 'https://example.com/x/..%2Fprivate/x').allowed).toBe(true)
    expect(policy.text).toContain('Disallow: /private/\n')
  })
})
