// Unit tests of the pure judgment (src/report/judgment.ts), in plain Node.
import { describe, expect, it } from 'vitest'
import {
  buildReport, classifyViolation, createRechecker, GRACE_MS, MIN_JUDGED_REQUESTS, previousVersion, verdictFor,
} from '../../src/report/judgment.ts'
import type { AgentTotalsRow, ReportInput, VersionRow, ViolationGroup } from '../../src/report/types.ts'
import { DAY, HOUR, T0 } from './fixtures.ts'

const versions: VersionRow[] = [
  { host: 'example.com', hash: 'v1', firstServed: T0 - 20 * DAY },
  { host: 'example.com', hash: 'v2', firstServed: T0 - 10 * DAY },
  { host: 'example.com', hash: 'v3', firstServed: T0 },
  { host: 'other.example', hash: 'o1', firstServed: T0 - DAY },
]
const texts = new Map([
  ['v2', 'User-agent: *\nDisallow: /admin/\n\nUser-agent: CCBot\nDisallow: /\n'],
  ['v3', 'User-agent: *\nDisallow: /admin/\nDisallow: /drafts/\n'],
  ['empty', 'User-agent: *\nDisallow:\n'],
])

function group(overrides: Partial<ViolationGroup> = {}): ViolationGroup {
  return {
    agentKey: 'gptbot', spoofed: false, host: 'example.com', robotsVersion: 'v3', tokens: ['gptbot'], path: '/drafts/a',
    rule: { type: 'disallow', pattern: '/drafts/', line: 3 }, hour: T0 + HOUR, count: 1, first: T0 + HOUR, last: T0 + HOUR,
    inGraceWindow: false, readVersion: false, readHost: false, ...overrides,
  }
}

function totals(overrides: Partial<AgentTotalsRow> = {}): AgentTotalsRow {
  return {
    agentKey: 'gptbot', spoofed: false, agentId: 'gptbot', operator: 'OpenAI', category: 'AI Crawler', kind: 'bot', declaredObeys: true,
    requests: 30, disallowed: 0, blocked: 0, verified: 15, robotsFetches: 1, lastRobotsFetch: T0, ...overrides,
  }
}

function input(overrides: Partial<ReportInput> = {}): ReportInput {
  return {
    filter: { since: T0 - DAY, until: T0 + DAY }, agents: [], violations: [], versions, texts,
    groupUses: [], hourly: [], truncated: false, ...overrides,
  }
}

describe('previousVersion', () => {
  it('is the version of the same host served just before', () => {
    expect(previousVersion(versions, 'example.com', 'v3')?.hash).toBe('v2')
    expect(previousVersion(versions, 'example.com', 'v2')?.hash).toBe('v1')
    expect(previousVersion(versions, 'example.com', 'v1')).toBeUndefined()
    expect(previousVersion(versions, 'other.example', 'o1')).toBeUndefined()
    expect(previousVersion(versions, 'example.com', 'unknown')).toBeUndefined()
  })
})

describe('createRechecker', () => {
  const recheck = createRechecker(versions, texts)

  it('re-runs the engine on the previous version for that agent’s tokens', () => {
    expect(recheck.previousAllowed(group())).toBe(true)
    expect(recheck.previousAllowed(group({ path: '/admin/x' }))).toBe(false)
    // v2 shut CCBot out entirely.
    expect(recheck.previousAllowed(group({ tokens: ['ccbot'] }))).toBe(false)
  })

  it('excuses nothing it cannot re-check', () => {
    // v1's text is unknown; o1 has no predecessor.
    expect(recheck.previousAllowed(group({ robotsVersion: 'v2' }))).toBe(false)
    expect(recheck.previousAllowed(group({ host: 'other.example', robotsVersion: 'o1' }))).toBe(false)
  })

  it('tells whether a group disallows anything', () => {
    expect(recheck.groupRestricts('v3', '*')).toBe(true)
    expect(recheck.groupRestricts('v2', 'ccbot')).toBe(true)
    expect(recheck.groupRestricts('v2', 'gptbot')).toBe(false)
    expect(recheck.groupRestricts('empty', '*')).toBe(false)
    expect(recheck.groupRestricts('unknown', '*')).toBe(false)
  })
})

describe('classifyViolation', () => {
  const allowedBefore = () => true
  const disallowedBefore = () => false

  it('grants grace only within the window, when the previous version allowed it, to an agent that had not read the new one', () => {
    expect(classifyViolation(group({ inGraceWindow: true }), allowedBefore)).toBe('grace')
    expect(classifyViolation(group({ inGraceWindow: true, readHost: true }), allowedBefore)).toBe('grace')
    expect(classifyViolation(group({ inGraceWindow: true, readVersion: true, readHost: true }), allowedBefore)).toBe('afterFetch')
    expect(classifyViolation(group({ inGraceWindow: true, readHost: true }), disallowedBefore)).toBe('staleCopy')
    expect(classifyViolation(group({ inGraceWindow: false, readHost: true }), allowedBefore)).toBe('staleCopy')
  })

  it('otherwise sorts by what the agent had read', () => {
    expect(classifyViolation(group({ readVersion: true, readHost: true }), disallowedBefore)).toBe('afterFetch')
    expect(classifyViolation(group({ readHost: true }), disallowedBefore)).toBe('staleCopy')
    expect(classifyViolation(group(), disallowedBefore)).toBe('neverFetched')
  })

  it('uses the RFC 9309 §2.4 24-hour cache limit', () => {
    expect(GRACE_MS).toBe(86_400_000)
  })
})

describe('verdictFor', () => {
  const v = (c: Partial<Record<'afterFetch' | 'staleCopy' | 'neverFetched' | 'grace', number>>) => {
    const all = { afterFetch: 0, staleCopy: 0, neverFetched: 0, grace: 0, ...c }
    return { ...all, counted: all.afterFetch + all.staleCopy + all.neverFetched }
  }

  it('one violation after reading robots.txt is enough, whatever the volume', () => {
    expect(verdictFor({ requests: 1, violations: v({ afterFetch: 1 }), restricted: true }).verdict).toBe('ignores robots.txt')
    expect(verdictFor({ requests: 3, violations: v({ staleCopy: 2 }), restricted: false }).verdict).toBe('ignores robots.txt')
  })

  it('violations without reading need the minimum volume', () => {
    expect(verdictFor({ requests: MIN_JUDGED_REQUESTS - 1, violations: v({ neverFetched: 5 }), restricted: true }).verdict).toBe('not enough data')
    expect(verdictFor({ requests: MIN_JUDGED_REQUESTS, violations: v({ neverFetched: 1 }), restricted: true }).verdict).toBe('ignores robots.txt')
  })

  it('complies only with enough requests and a rule that restricted it; grace is not held against it', () => {
    expect(verdictFor({ requests: MIN_JUDGED_REQUESTS - 1, violations: v({}), restricted: true })).toEqual({
      verdict: 'not enough data', reason: `only ${MIN_JUDGED_REQUESTS - 1} judged requests (${MIN_JUDGED_REQUESTS} needed)`,
    })
    expect(verdictFor({ requests: 500, violations: v({}), restricted: false }).verdict).toBe('not enough data')
    expect(verdictFor({ requests: 20, violations: v({ grace: 3 }), restricted: true })).toEqual({
      verdict: 'complies', reason: '20 judged requests and no counted violation; 3 requests within 24 h of a rule change not counted',
    })
  })
})

describe('buildReport', () => {
  it('keeps spoofed claims apart from the agent they imitate', () => {
    const report = buildReport(input({
      agents: [totals({ agentKey: 'googlebot', operator: 'Google' }), totals({ agentKey: 'googlebot', operator: 'Google', spoofed: true, requests: 9, verified: 0 })],
      violations: [group({ agentKey: 'googlebot', spoofed: true, count: 9, path: '/admin/' })],
      groupUses: [{ agentKey: 'googlebot', robotsVersion: 'v3', group: '*' }],
    }))
    expect(report.agents.map((a) => [a.agentKey, a.verdict])).toEqual([['googlebot', 'complies']])
    expect(report.agents[0]?.evidence.verifiedShare).toBe(0.5)
    expect(report.spoofed).toEqual([{
      agentKey: 'googlebot', operator: 'Google', requests: 9, violations: 9, firstViolation: T0 + HOUR, lastViolation: T0 + HOUR, examplePaths: ['/admin/'],
    }])
    expect(report.totals).toMatchObject({ requests: 30, violations: 0, spoofedRequests: 9, spoofedViolations: 9 })
  })

  it('puts ignoring agents first, with evidence, rules, paths and a timeline', () => {
    const report = buildReport(input({
      agents: [totals({ agentKey: 'quietbot', requests: 100 }), totals({ requests: 25 })],
      violations: [
        group({ path: '/drafts/a', count: 4, first: T0 + HOUR, last: T0 + HOUR + 10, readVersion: true, readHost: true }),
        group({ path: '/drafts/b', count: 2, hour: T0 + 2 * HOUR, first: T0 + 2 * HOUR, last: T0 + 2 * HOUR + 5, readVersion: true, readHost: true }),
        group({ path: '/drafts/c', count: 7, inGraceWindow: true }),
      ],
      hourly: [{ hour: T0 + HOUR, requests: 60 }, { hour: T0 + 3 * HOUR, requests: 65 }],
      truncated: true,
    }))
    expect(report.agents.map((a) => a.agentKey)).toEqual(['gptbot', 'quietbot'])
    const a = report.agents[0]!
    expect(a.evidence).toMatchObject({
      violations: { afterFetch: 6, staleCopy: 0, neverFetched: 0, grace: 7, counted: 6 },
      firstViolation: T0 + HOUR, lastViolation: T0 + 2 * HOUR + 5, examplePaths: ['/drafts/a', '/drafts/b'],
    })
    expect(report.topRules).toEqual([{ host: 'example.com', robotsVersion: 'v3', type: 'disallow', pattern: '/drafts/', line: 3, violations: 6, agents: 1 }])
    expect(report.topPaths.map((p) => [p.path, p.violations])).toEqual([['/drafts/a', 4], ['/drafts/b', 2]])
    expect(report.timeline).toEqual([
      { hour: T0 + HOUR, violations: 4, requests: 60 },
      { hour: T0 + 2 * HOUR, violations: 2, requests: 0 },
      { hour: T0 + 3 * HOUR, violations: 0, requests: 65 },
    ])
    expect(report.totals).toMatchObject({ agents: 2, violations: 6, grace: 7, ignoring: 1, truncated: true })
  })

  it('keeps the five most frequent example paths', () => {
    const violations = Array.from({ length: 8 }, (_, i) => group({ path: `/admin/${i}`, count: i + 1, readHost: true }))
    const report = buildReport(input({ agents: [totals()], violations }))
    expect(report.agents[0]?.evidence.examplePaths).toEqual(['/admin/7', '/admin/6', '/admin/5', '/admin/4', '/admin/3'])
  })
})

describe('the verdict reason', () => {
  // The reason counts every counted violation, so it agrees with the number beside it.
  it('names the violations before the first fetch too', async () => {
    const { verdictFor } = await import('../../src/report/judgment.ts')
    const v = verdictFor({ requests: 24, restricted: true, violations: { afterFetch: 4, staleCopy: 0, neverFetched: 20, grace: 0, counted: 24 } })
    expect(v).toEqual({ verdict: 'ignores robots.txt', reason: '4 disallowed requests after fetching robots.txt, and 20 more before any fetch' })
  })
})
