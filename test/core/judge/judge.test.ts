import { describe, expect, it } from 'vitest'
import { identifyAgent, type AgentIdentity } from '../../../src/core/agents/index.ts'
import { createPolicies, type ConfigInput } from '../../../src/core/config/index.ts'
import { buildEvent } from '../../../src/core/judge/event.ts'
import { USER_TRIGGERED_FETCHERS } from '../../../src/core/agents/exempt.ts'
import { decide } from '../../../src/core/judge/judge.ts'
import { decodeUnreserved } from '../../../src/core/judge/readings.ts'

// Unit tests of the guard's decision (src/core/judge): ambiguous headers, the two
// readings of a path, and the default exemptions. The Worker-level tests are
// in test/worker/guard-*.test.ts.

const policyOf = (config: ConfigInput, host = 'example.com') => createPolicies(config).get(host, 'production')
const url = (path: string) => `https://example.com${path}`

/** An identity as identifyAgent returns it, with `others` filled as the identification contract says. */
function ambiguous(primary: string, ...others: string[]): AgentIdentity {
  const identity = identifyAgent(`${primary}/1.0`)!
  return { ...identity, others: others.map((name) => identifyAgent(`${name}/1.0`)!) }
}

describe('a header naming two registry crawlers is judged by the stricter verdict', () => {
  const config: ConfigInput = {
    rules: [
      { userAgent: '*', allow: '/' },
      { userAgent: 'Googlebot', disallow: '/private/' },
      { userAgent: 'GPTBot', disallow: '/', guard: 'block' },
    ],
    guard: { mode: 'log' },
  }

  it("Googlebot/2.1 GPTBot/1.1: GPTBot's refusal wins, and the event names both", () => {
    const policy = policyOf(config)
    const decision = decide(policy, ambiguous('Googlebot', 'GPTBot'), url('/articles/1'))
    expect(decision).toMatchObject({ mode: 'block', verdict: { allowed: false, group: 'gptbot' }, also: ['googlebot'] })
    expect(decision.identity.id).toBe('gptbot')
    const event = buildEvent({
      type: 'request',
      request: new Request('https://example.com/articles/1', { headers: { 'User-Agent': 'Googlebot/2.1 GPTBot/1.1' } }),
      url: new URL(url('/articles/1')),
      identity: decision.identity,
      policy,
      verdict: decision.verdict,
      verification: 'unknown',
      mode: decision.mode,
      action: 'block',
      status: 403,
      also: decision.also,
    })
    expect(event).toMatchObject({ agent: { id: 'gptbot' }, also: ['googlebot'] })
  })

  it('the order in the header does not matter', () => {
    const decision = decide(policyOf(config), ambiguous('GPTBot', 'Googlebot'), url('/articles/1'))
    expect(decision).toMatchObject({ mode: 'block', verdict: { allowed: false }, also: ['googlebot'] })
  })

  it('a logged violation beats an allowed request when nothing refuses', () => {
    const decision = decide(policyOf(config), ambiguous('Bingbot', 'Googlebot'), url('/private/x'))
    expect(decision).toMatchObject({ mode: 'log', verdict: { allowed: false, group: 'googlebot' }, also: ['bingbot'] })
  })

  it('when both allow, the identity identifyAgent chose stays, and the other is still named', () => {
    const decision = decide(policyOf(config), ambiguous('Googlebot', 'Bingbot'), url('/articles/1'))
    expect(decision.identity.id).toBe('googlebot')
    expect(decision.also).toEqual(['bingbot'])
  })

  it('a header naming one crawler has no `also`, and its event no field', () => {
    const policy = policyOf(config)
    const decision = decide(policy, identifyAgent('Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)')!, url('/private/x'))
    expect(decision.also).toEqual([])
    const event = buildEvent({
      type: 'request',
      request: new Request('https://example.com/private/x'),
      url: new URL(url('/private/x')),
      identity: decision.identity,
      policy,
      verdict: decision.verdict,
      verification: 'verified',
      mode: decision.mode,
      action: 'pass',
      status: 0,
      also: decision.also,
    })
    expect(event).not.toHaveProperty('also')
  })
})

describe('a client that names itself as nothing is judged only by a group naming it', () => {
  const star: ConfigInput = { rules: [{ userAgent: '*', disallow: '/private/' }], guard: { mode: 'block' } }

  it('the * group, written for crawlers, never judges it', () => {
    const identity = identifyAgent('Magician')!
    expect(identity.unidentified).toBe(true)
    expect(decide(policyOf(star), identity, url('/private/x'))).toMatchObject({ verdict: { allowed: true, group: null } })
  })

  it('a group naming it does', () => {
    const named: ConfigInput = {
      rules: [
        { userAgent: '*', allow: '/' },
        { userAgent: 'Magician', disallow: '/private/' },
      ],
      guard: { mode: 'block' },
    }
    expect(decide(policyOf(named), identifyAgent('Magician')!, url('/private/x'))).toMatchObject({ verdict: { allowed: false, group: 'magician' }, mode: 'block' })
  })

  it('the same name calling itself a bot answers to *', () => {
    expect(decide(policyOf(star), identifyAgent('MagicianBot/1.0')!, url('/private/x'))).toMatchObject({ verdict: { allowed: false, group: '*' } })
  })
})

describe('decodeUnreserved (RFC 3986 §2.3, §6.2.2.2)', () => {
  it('decodes letters, digits, "-", ".", "_" and "~", in either case of hex', () => {
    expect(decodeUnreserved('/%70%52%69v%61te/%7e%7E%2d%2E%5f%5F%30%39')).toBe('/pRivate/~~-.__09')
  })

  it('keeps every other escape, malformed ones and reserved characters alike', () => {
    for (const s of ['/a%2Fb', '/a%3Fb', '/a%23b', '/a%25b', '/a%20b', '/%', '/%7', '/%zz', '/%C3%A9', '/a%2570']) expect(decodeUnreserved(s)).toBe(s)
  })

  it('decodes once, left to right', () => {
    expect(decodeUnreserved('/%2570rivate')).toBe('/%2570rivate')
    expect(decodeUnreserved('/%25%70')).toBe('/%25p')
  })
})

describe('USER_TRIGGERED_FETCHERS, the default of guard.exempt', () => {
  it("lists the fetchers whose operators say robots.txt does not apply to a person's request", () => {
    expect(USER_TRIGGERED_FETCHERS).toEqual(
      expect.arrayContaining(['chatgpt-user', 'perplexity-user', 'meta-externalfetcher', 'amzn-user', 'feedfetcher-google', 'google-read-aloud', 'google-site-verification']),
    )
  })

  it('leaves out crawlers, tools, and agents that ignore robots.txt for other reasons', () => {
    for (const token of ['gptbot', 'googlebot', 'claude-user', 'archivebot', 'google-safety', 'curl', 'wget']) expect(USER_TRIGGERED_FETCHERS, token).not.toContain(token)
  })
})
