// Unit tests of the replay of a changed policy (src/admin/impact.ts): which
// requests change verdict, by which rules, their paths and share, who is
// protected, what is skipped; and, as a property, that a shape is judged
// exactly as the guard judges a request (src/core/judge/judge.ts).
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { identifyAgent } from '../../src/core/agents/index.ts'
import { contentHash } from '../../src/core/config/hash.ts'
import { createPolicies, DEFAULTS } from '../../src/core/config/index.ts'
import { judge } from '../../src/core/judge/judge.ts'
import { describeEstimate } from '../../src/cli/impact.ts'
import { judgeShape, MAX_PATHS, replayImpact, type ImpactShape, type JudgedBy, type ReplayInput } from '../../src/admin/impact.ts'
import { compileRobotsTxt } from '../../src/core/robots/index.ts'
import { uniformOver } from '../../src/admin/impact.ts'

const SERVED = 'User-agent: *\nAllow: /\nDisallow: /admin/\n\nUser-agent: GPTBot\nDisallow: /\n'
const CANDIDATE = 'User-agent: *\nAllow: /\nDisallow: /admin/\nDisallow: /articles/\n\nUser-agent: GPTBot\nDisallow: /private/\n'

const by = (text: string): JudgedBy => ({ version: contentHash(text), matcher: compileRobotsTxt(text) })
const served = by(SERVED)
const candidate = by(CANDIDATE)

const shape = (agentKey: string, path: string, requests: number, o: Partial<ImpactShape> = {}): ImpactShape => ({
  host: 'example.com',
  agentKey,
  tokens: [agentKey],
  version: served.version,
  path,
  requests,
  ...o,
})

const AGENTS = new Map([
  ['googlebot', { agentId: 'googlebot', kind: 'bot', operator: 'Google', category: 'Search Engine Crawler' }],
  ['bingbot', { agentId: 'bingbot', kind: 'bot', operator: 'Microsoft', category: 'Search Engine Crawler' }],
  ['gptbot', { agentId: 'gptbot', kind: 'bot', operator: 'OpenAI', category: 'AI Crawler' }],
  ['chatgpt-user', { agentId: 'chatgpt-user', kind: 'bot', operator: 'OpenAI', category: 'AI Assistant' }],
  ['adsbot-google', { agentId: 'adsbot-google', kind: 'bot', operator: 'Google', category: 'Advertising & Marketing' }],
])

function input(shapes: ImpactShape[], o: Partial<ReplayInput> = {}): ReplayInput {
  const totals = new Map<string, number>()
  for (const s of shapes) totals.set(`${s.host}\n${s.agentKey}`, (totals.get(`${s.host}\n${s.agentKey}`) ?? 0) + s.requests)
  return {
    shapes,
    totals: [...totals].map(([k, requests]) => ({ host: k.split('\n')[0]!, agentKey: k.split('\n')[1]!, requests })),
    agents: AGENTS,
    before: () => served,
    after: () => candidate,
    exempt: new Set(DEFAULTS.guard.exempt),
    protect: new Set(['googlebot', 'bingbot']),
    ...o,
  }
}

describe('replayImpact', () => {
  const result = replayImpact(
    input([
      shape('googlebot', '/articles/1', 30),
      shape('googlebot', '/articles/2', 10),
      shape('googlebot', '/', 60),
      shape('bingbot', '/articles/1', 5),
      shape('bingbot', '/about', 15),
      shape('gptbot', '/articles/1', 8),
      shape('gptbot', '/private/x', 2),
    ]),
  )

  it('finds the requests that become disallowed, with both deciding rules and their lines, the paths and the share', () => {
    const google = result.agents.find((a) => a.agentKey === 'googlebot')!
    expect(google).toMatchObject({ protected: true, requests: 100, replayed: 100, gained: { requests: 0, changes: [] } })
    expect(google.lost).toMatchObject({ requests: 40, share: 0.4, paths: 2 })
    expect(google.lost.changes).toEqual([
      {
        host: 'example.com',
        before: { version: served.version, group: '*', rule: { type: 'allow', pattern: '/', line: 2 } },
        after: { version: candidate.version, group: '*', rule: { type: 'disallow', pattern: '/articles/', line: 4 } },
        requests: 40,
        pathCount: 2,
        paths: [
          { path: '/articles/1', requests: 30 },
          { path: '/articles/2', requests: 10 },
        ],
      },
    ])
  })

  it("finds the requests that become allowed, by the agent's own group", () => {
    const gpt = result.agents.find((a) => a.agentKey === 'gptbot')!
    expect(gpt).toMatchObject({ protected: false, lost: { requests: 0 }, gained: { requests: 8, share: 0.8, paths: 1 } })
    expect(gpt.gained.changes[0]).toMatchObject({
      before: { group: 'gptbot', rule: { type: 'disallow', pattern: '/', line: 6 } },
      after: { group: 'gptbot', rule: null },
    })
  })

  it('lists protected agents losing access first, then by requests lost, and sums it up', () => {
    expect(result.agents.map((a) => a.agentKey)).toEqual(['googlebot', 'bingbot', 'gptbot'])
    expect(result.summary).toEqual({ agents: 3, changed: 3, requests: 130, replayed: 130, shapes: 7, lost: 45, gained: 8, protectedLosing: ['googlebot', 'bingbot'] })
  })

  it('protects every agent with "*", and none with an empty list', () => {
    expect(replayImpact(input([shape('gptbot', '/private/x', 1)], { protect: new Set(['*']) })).agents[0]?.protected).toBe(true)
    expect(replayImpact(input([shape('googlebot', '/articles/1', 1)], { protect: new Set() })).summary.protectedLosing).toEqual([])
  })

  it('leaves a user-triggered fetcher to the groups naming it, and AdsBot to its own group, as the guard does', () => {
    const r = replayImpact(input([shape('chatgpt-user', '/articles/1', 4), shape('adsbot-google', '/articles/1', 3)]))
    expect(r.summary.changed).toBe(0)
    // With an empty exempt list, `*` judges ChatGPT-User too.
    const judged = replayImpact(input([shape('chatgpt-user', '/articles/1', 4)], { exempt: new Set() }))
    expect(judged.summary.lost).toBe(4)
  })

  it('reads a path both ways: an encoded letter does not slip past the new rule', () => {
    expect(replayImpact(input([shape('bingbot', '/%61rticles/x', 2)])).summary.lost).toBe(2)
  })

  it('counts the requests it could not replay: no candidate for a host, or a version whose text is gone', () => {
    const r = replayImpact(
      input([shape('googlebot', '/articles/1', 3, { host: 'a.example' }), shape('googlebot', '/articles/1', 4, { host: 'b.example' })], {
        after: (host) => (host === 'a.example' ? candidate : null),
        before: (s) => (s.host === 'a.example' ? null : served),
      }),
    )
    expect(r.skipped).toEqual([
      { host: 'a.example', requests: 3, reason: 'no stored version' },
      { host: 'b.example', requests: 4, reason: 'no candidate' },
    ])
    expect(r.agents[0]).toMatchObject({ requests: 7, replayed: 0, lost: { requests: 0 } })
  })

  it("shares are of all the agent's requests, replayed or not, and the paths listed are capped but counted", () => {
    const many = Array.from({ length: MAX_PATHS + 5 }, (_, i) => shape('googlebot', `/articles/${i}`, 1))
    const r = replayImpact({ ...input(many), totals: [{ host: 'example.com', agentKey: 'googlebot', requests: 100 }] })
    const lost = r.agents[0]!.lost
    expect(lost).toMatchObject({ requests: MAX_PATHS + 5, share: (MAX_PATHS + 5) / 100, paths: MAX_PATHS + 5 })
    expect(lost.changes[0]!.paths).toHaveLength(MAX_PATHS)
    expect(lost.changes[0]!.pathCount).toBe(MAX_PATHS + 5)
    expect(r.agents[0]).toMatchObject({ requests: 100, replayed: MAX_PATHS + 5 })
  })

  it('groups changes by host and by the rules on each side, worst first', () => {
    const v2 = by('User-agent: *\nDisallow: /admin/\nAllow: /articles/old/\n')
    const r = replayImpact(
      input([shape('googlebot', '/articles/1', 2), shape('googlebot', '/articles/old/1', 5, { version: v2.version }), shape('googlebot', '/articles/1', 1, { host: 'b.example' })], {
        before: (s) => (s.version === v2.version ? v2 : served),
      }),
    )
    expect(r.agents[0]!.lost.changes.map((c) => [c.host, c.before.rule?.line, c.after.rule?.line, c.requests])).toEqual([
      ['example.com', 3, 4, 5],
      ['example.com', 2, 4, 2],
      ['b.example', 2, 4, 1],
    ])
  })
})

describe('a shape is judged exactly as the guard judges a request', () => {
  const PATTERNS = ['/', '/a', '/a/', '/a/*', '/*.pdf$', '/b%2Fc', '/%61', '/x$', '']
  const AGENT_HEADERS = [
    'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
    'Googlebot-Image/1.0',
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ChatGPT-User/1.0; +https://openai.com/bot)',
    'AdsBot-Google (+http://www.google.com/adsbot.html)',
    'curl/8.5.0',
    'GPTBot/1.2',
    'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
  ]
  const group = fc.record({
    userAgent: fc.constantFrom('*', 'Googlebot', 'Googlebot-Image', 'ChatGPT-User', 'AdsBot-Google', 'curl', 'GPTBot'),
    allow: fc.array(fc.constantFrom(...PATTERNS.filter(Boolean)), { maxLength: 2 }),
    disallow: fc.array(fc.constantFrom(...PATTERNS), { maxLength: 3 }),
  })

  it('for random configs, agents and paths', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(group, { minLength: 1, maxLength: 4, selector: (g) => g.userAgent }),
        fc.constantFrom(...AGENT_HEADERS),
        fc.constantFrom('/', '/a', '/a/b', '/A/b', '/%61/b', '/x', '/doc.pdf', '/b/c', '/b%2Fc'),
        fc.boolean(),
        (rules, header, path, exemptNone) => {
          const policy = createPolicies({ rules, ...(exemptNone ? { guard: { exempt: [] } } : {}) }).get('example.com', 'production')
          const identity = identifyAgent(header)!
          // What the ledger keeps of the request: the agent's id and tokens, and the path.
          const shape = { tokens: identity.tokens, path }
          expect(judgeShape(policy.matcher, shape, identity.id, new Set(policy.config.guard.exempt))).toEqual(judge(policy, identity, `https://example.com${path}`))
        },
      ),
      { numRuns: 500 },
    )
  })
})

describe('describeEstimate', () => {
  const facts = { beyondCap: 0, shapeCap: 1000, beyondRead: 0, maxShapes: 50_000, shapesSince: 0 }
  it('says when the replay is exact, and when and by how much it is an estimate', () => {
    expect(describeEstimate(facts, 100, 0)).toBe('exact: every request in the range was judged again')
    expect(describeEstimate({ ...facts, beyondCap: 25 }, 1000, 0)).toBe(
      'an estimate: 25 requests (2.5 %) were recorded beyond 1,000 distinct paths per agent, host and day, before the ledger kept every path, and were not judged again, so the counts of changed requests are lower bounds',
    )
    expect(describeEstimate({ ...facts, shapesSince: Date.UTC(2026, 0, 6, 12) }, 100, Date.UTC(2026, 0, 5))).toBe(
      'exact from then on: request shapes are kept from 2026-01-06 12:00 UTC on, so earlier requests are not in it',
    )
  })
})

describe('uniformOver: a path group one check of its prefix decides (RFC 9309 §2.2.2)', () => {
  const over = (text: string, prefix: string) => uniformOver(compileRobotsTxt(text), prefix)
  it('holds when every rule matches all of the group or none of it', () => {
    expect(over('User-agent: *\nDisallow: /articles/\nAllow: /\n', '/articles/')).toBe(true)
    expect(over('User-agent: *\nDisallow: /art\n', '/articles/')).toBe(true)
    expect(over('User-agent: *\nDisallow: /private/\nDisallow: /articles*\n', '/articles/')).toBe(true)
    expect(over('User-agent: *\nDisallow:\n', '/articles/')).toBe(true)
  })
  it('fails when a rule reaches into the group, or may match only some of its paths', () => {
    expect(over('User-agent: *\nDisallow: /articles/1\n', '/articles/')).toBe(false)
    expect(over('User-agent: *\nDisallow: /*.pdf$\n', '/articles/')).toBe(false)
    expect(over('User-agent: *\nDisallow: /articles/$\n', '/articles/')).toBe(false)
    expect(over('User-agent: *\nDisallow: /%61rticles/\n', '/articles/')).toBe(false)
  })
})

describe('uniformOver, as a property', () => {
  it('when it holds, every plain path of the group gets the verdict (and the rule) of its prefix', () => {
    const segment = fc.stringMatching(/^[ab]{1,3}$/)
    const pattern = fc.tuple(fc.array(segment, { minLength: 1, maxLength: 3 }), fc.constantFrom('', '/', '*', '$', '*.b', '/*$')).map(([parts, tail]) => `/${parts.join('/')}${tail}`)
    const rules = fc.array(fc.tuple(fc.constantFrom('Allow', 'Disallow'), pattern), { minLength: 1, maxLength: 5 })
    fc.assert(
      fc.property(rules, segment, fc.array(fc.stringMatching(/^[ab/.]{0,6}$/), { minLength: 1, maxLength: 5 }), (list, first, suffixes) => {
        const matcher = compileRobotsTxt(`User-agent: *\n${list.map(([type, p]) => `${type}: ${p}`).join('\n')}\n`)
        const prefix = `/${first}/`
        if (!uniformOver(matcher, prefix)) return
        const at = matcher.check(['bot'], prefix)
        for (const suffix of suffixes) {
          const path = `${prefix}${suffix}`
          if (path.includes('//') || path.includes('/.')) continue
          const v = matcher.check(['bot'], path)
          expect([v.allowed, v.rule?.line]).toEqual([at.allowed, at.rule?.line])
        }
      }),
      { numRuns: 500 },
    )
  })
})
