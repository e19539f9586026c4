// Unit tests of the pure judgment (src/admin/report.ts, verdict.ts), in
// plain Node: counter rows in, verdicts out.
import { describe, expect, it } from 'vitest'
import { buildReport, GRACE_MS, groupRestricts } from '../../src/admin/report.ts'
import type { AgentInfo, CounterRow, ReportInput } from '../../src/admin/types.ts'
import { MIN_JUDGED_REQUESTS, REPEATED_AT_LEAST, REPEATED_SHARE, complianceFor } from '../../src/admin/compliance.ts'
import { HOUR, T0 } from '../support/report-fixtures.ts'

const texts = new Map([
  ['v2', 'User-agent: *\nDisallow: /admin/\n\nUser-agent: CCBot\nDisallow: /\n'],
  ['v3', 'User-agent: *\nDisallow: /admin/\nDisallow: /drafts/\n'],
  ['empty', 'User-agent: *\nDisallow:\n'],
])

const info = (agentKey: string, o: Partial<AgentInfo> = {}): AgentInfo => ({
  agentKey,
  agentId: agentKey,
  kind: 'bot',
  operator: `${agentKey} Inc.`,
  category: 'AI Crawler',
  declaredObeys: true,
  ...o,
})

function row(agentKey: string, cls: CounterRow['cls'], requests: number, o: Partial<CounterRow> = {}): CounterRow {
  return { agentKey, verification: 'verified', cls, requests, blocked: 0, sampled: requests, first: T0, last: T0 + HOUR, ...o }
}

function input(o: Partial<ReportInput> = {}): ReportInput {
  return {
    filter: { since: T0, until: T0 + 7 * 24 * HOUR },
    source: 'd1',
    agents: [],
    counts: [],
    paths: [],
    rules: [],
    groupUses: [],
    texts,
    timeline: [],
    timelineBin: HOUR,
    coverage: { counts: { since: T0, until: T0 }, samples: null, paths: { since: T0, until: T0, other: 0 }, summary: '' },
    ...o,
  }
}

const v = (c: Partial<Record<'afterFetch' | 'staleCopy' | 'neverFetched' | 'grace' | 'newHost', number>>) => ({
  afterFetch: 0,
  staleCopy: 0,
  neverFetched: 0,
  grace: 0,
  newHost: 0,
  ...c,
})

describe('the evidence rule', () => {
  it('states its numbers: 3 violations, 1 % of the requests, 20 requests, RFC 9309 §2.4 24 hours', () => {
    expect([REPEATED_AT_LEAST, REPEATED_SHARE, MIN_JUDGED_REQUESTS, GRACE_MS]).toEqual([3, 0.01, 20, 86_400_000])
  })

  it('calls fewer than 3 counted violations isolated, even after fetching robots.txt', () => {
    expect(complianceFor({ requests: 197, violations: v({ afterFetch: 1 }), restricted: true })).toEqual({
      verdict: 'isolated violations',
      reason: '1 counted violation in 197 judged requests: fewer than 3, or under 1 % of its requests, is not a pattern',
    })
    expect(complianceFor({ requests: 3, violations: v({ staleCopy: 2 }), restricted: false }).verdict).toBe('isolated violations')
  })

  it('calls violations under 1 % of the requests isolated, however many', () => {
    expect(complianceFor({ requests: 10_000, violations: v({ afterFetch: 99 }), restricted: true }).verdict).toBe('isolated violations')
    expect(complianceFor({ requests: 10_000, violations: v({ afterFetch: 100 }), restricted: true }).verdict).toBe('ignores robots.txt')
  })

  it('says ignores robots.txt on repeated evidence, naming every counted violation', () => {
    expect(complianceFor({ requests: 24, restricted: true, violations: v({ afterFetch: 4, neverFetched: 20 }) })).toEqual({
      verdict: 'ignores robots.txt',
      reason: '4 disallowed requests after fetching robots.txt, and 20 more before any fetch',
    })
    expect(complianceFor({ requests: 30, restricted: true, violations: v({ neverFetched: 3 }) })).toEqual({
      verdict: 'ignores robots.txt',
      reason: '3 disallowed requests in 30 judged requests, without fetching robots.txt for that host first',
    })
  })

  it('needs the minimum volume before violations without any fetch say anything', () => {
    expect(complianceFor({ requests: MIN_JUDGED_REQUESTS - 1, violations: v({ neverFetched: 5 }), restricted: true }).verdict).toBe('not enough data')
    expect(complianceFor({ requests: MIN_JUDGED_REQUESTS, violations: v({ neverFetched: 1 }), restricted: true }).verdict).toBe('isolated violations')
  })

  it('complies only with enough requests, a rule that restricted it, and no disallowed request in a grace period', () => {
    expect(complianceFor({ requests: MIN_JUDGED_REQUESTS - 1, violations: v({}), restricted: true })).toEqual({
      verdict: 'not enough data',
      reason: `only ${MIN_JUDGED_REQUESTS - 1} judged requests (${MIN_JUDGED_REQUESTS} needed)`,
    })
    expect(complianceFor({ requests: 500, violations: v({}), restricted: false }).verdict).toBe('not enough data')
    expect(complianceFor({ requests: 20, violations: v({}), restricted: true })).toEqual({ verdict: 'complies', reason: '20 judged requests and no counted violation' })
  })
})

describe('the evidence rule: grace periods hold judgment back, never clear (RFC 9309 §2.4)', () => {
  // 2026-11-27 02:10 UTC, the host's first request.
  const served = Date.UTC(2026, 10, 27, 2, 10)
  // The agent has not been seen on the host since the window's end: nothing settles it yet.
  const firstDay = { host: 'example.com', cls: 'newHost' as const, requests: 60, until: served + GRACE_MS, seenSince: false }

  it("calls an agent whose only disallowed requests fell in the host's first 24 h pending, and says from when they count", () => {
    expect(complianceFor({ requests: 60, violations: v({ newHost: 60 }), restricted: true, graceWindows: [firstDay] })).toEqual({
      verdict: 'pending',
      reason: "60 disallowed requests in the host's first 24 h; judged from 2026-11-28 02:10 UTC if they go on",
    })
  })

  it('is pending whatever the volume: 5 requests, 115 requests, nothing restricted on record', () => {
    expect(complianceFor({ requests: 5, violations: v({ newHost: 5 }), restricted: true, graceWindows: [firstDay] }).verdict).toBe('pending')
    expect(complianceFor({ requests: 115, violations: v({ newHost: 115 }), restricted: false }).verdict).toBe('pending')
    expect(complianceFor({ requests: 500, violations: v({ grace: 1 }), restricted: true }).verdict).toBe('pending')
  })

  it('names both kinds of grace, and a time rounded up to the minute so nothing before it is still grace', () => {
    const ruleChange = { host: 'example.com', cls: 'grace' as const, requests: 3, until: served + GRACE_MS + 30_500, seenSince: false }
    expect(complianceFor({ requests: 20, violations: v({ grace: 3, newHost: 2 }), restricted: true, graceWindows: [ruleChange] })).toEqual({
      verdict: 'pending',
      reason: "2 disallowed requests in the host's first 24 h and 3 within 24 h of a rule change; judged from 2026-11-28 02:11 UTC if they go on",
    })
  })

  it('over several hosts, names the earliest end and its host', () => {
    const windows = [
      { host: 'b.example', cls: 'newHost' as const, requests: 10, until: served + GRACE_MS + 3 * HOUR, seenSince: false },
      { host: 'a.example', cls: 'newHost' as const, requests: 50, until: served + GRACE_MS, seenSince: false },
    ]
    expect(complianceFor({ requests: 60, violations: v({ newHost: 60 }), restricted: true, graceWindows: windows }).reason).toBe(
      '60 disallowed requests in the first 24 h of 2 hosts; judged from 2026-11-28 02:10 UTC on a.example (the earliest of its hosts) if they go on',
    )
  })

  it('is settled by requests after the window, with no counted violation: a cached copy explains what came before', () => {
    const seenSince = { ...firstDay, seenSince: true }
    expect(complianceFor({ requests: 500, violations: v({ newHost: 60 }), restricted: true, graceWindows: [seenSince] })).toEqual({
      verdict: 'complies',
      reason: "500 judged requests and no counted violation; 60 disallowed requests in the host's first 24 h not counted, none since",
    })
    expect(complianceFor({ requests: 12, violations: v({ newHost: 6 }), restricted: true, graceWindows: [{ ...seenSince, requests: 6 }] }).verdict).toBe('not enough data')
    // One host settled, another not: still pending, and the time is the open window's.
    const open = { host: 'b.example', cls: 'newHost' as const, requests: 5, until: firstDay.until + 5 * HOUR, seenSince: false }
    expect(complianceFor({ requests: 500, violations: v({ newHost: 65 }), restricted: true, graceWindows: [seenSince, open] }).reason).toBe(
      '65 disallowed requests in the first 24 h of 2 hosts; judged from 2026-11-28 07:10 UTC on b.example if they go on',
    )
    // Requests the windows do not account for (a version pruned since) settle nothing.
    expect(complianceFor({ requests: 500, violations: v({ newHost: 60, grace: 1 }), restricted: true, graceWindows: [seenSince] }).verdict).toBe('pending')
  })

  it('says the grace ends without a time when the source cannot tell', () => {
    expect(complianceFor({ requests: 30, violations: v({ grace: 30 }), restricted: true }).reason).toBe(
      '30 disallowed requests within 24 h of a rule change; judged once the 24 h grace ends, if they go on',
    )
  })

  it('judges counted violations as before, and names the requests still waiting', () => {
    expect(complianceFor({ requests: 300, violations: v({ afterFetch: 1, newHost: 40 }), restricted: true, graceWindows: [firstDay] })).toEqual({
      verdict: 'isolated violations',
      reason:
        '1 counted violation in 300 judged requests: fewer than 3, or under 1 % of its requests, is not a pattern; 40 more disallowed requests in a grace period, judged from 2026-11-28 02:10 UTC if they go on',
    })
    expect(complianceFor({ requests: 100, violations: v({ neverFetched: 40, newHost: 60 }), restricted: true, graceWindows: [firstDay] }).verdict).toBe('ignores robots.txt')
  })

  it('the report ranks pending between isolated violations and complies, counts it, and gives its end as data', () => {
    const report = buildReport(
      input({
        agents: [info('quietbot'), info('bytespider'), info('strayer'), info('fewbot'), info('newbot')],
        counts: [
          row('quietbot', 'allowed', 100),
          row('bytespider', 'newHost', 115),
          row('strayer', 'allowed', 300),
          row('strayer', 'neverFetched', 2),
          row('fewbot', 'allowed', 3),
          row('newbot', 'allowed', 10),
          row('newbot', 'newHost', 5),
          row('newbot', 'grace', 2),
        ],
        groupUses: [{ agentKey: 'quietbot', robotsVersion: 'v3', group: '*' }],
        graceWindows: [
          { agentKey: 'bytespider', ...firstDay, requests: 115 },
          { agentKey: 'newbot', host: 'example.com', cls: 'grace', requests: 2, until: served + GRACE_MS + 2 * HOUR, seenSince: false },
          { agentKey: 'newbot', host: 'other.example', cls: 'newHost', requests: 5, until: served + GRACE_MS + HOUR, seenSince: false },
        ],
      }),
    )
    expect(report.agents.map((a) => [a.agentKey, a.verdict])).toEqual([
      ['strayer', 'isolated violations'],
      ['bytespider', 'pending'],
      ['newbot', 'pending'],
      ['quietbot', 'complies'],
      ['fewbot', 'not enough data'],
    ])
    const bytespider = report.agents[1]!.evidence
    expect([bytespider.pendingUntil, bytespider.pendingHost]).toEqual([served + GRACE_MS, 'example.com'])
    const newbot = report.agents[2]!.evidence
    expect([newbot.pendingUntil, newbot.pendingHost]).toEqual([served + GRACE_MS + HOUR, 'other.example'])
    expect(newbot.graceWindows.map((w) => w.host)).toEqual(['other.example', 'example.com'])
    expect(report.agents[0]!.evidence.pendingUntil).toBeNull()
    expect(report.totals).toMatchObject({ pending: 2, isolated: 1, ignoring: 0, violations: 2, newHost: 120, grace: 2 })
  })
})

describe('groupRestricts', () => {
  it('tells whether a group of a version disallows anything', () => {
    expect(groupRestricts(texts, 'v3', '*')).toBe(true)
    expect(groupRestricts(texts, 'v2', 'ccbot')).toBe(true)
    expect(groupRestricts(texts, 'v2', 'gptbot')).toBe(false)
    expect(groupRestricts(texts, 'empty', '*')).toBe(false)
    expect(groupRestricts(texts, 'unknown', '*')).toBe(false)
  })
})

describe('buildReport', () => {
  it('adds up the classes per agent and keeps spoofed and unchecked claims apart', () => {
    const report = buildReport(
      input({
        agents: [info('googlebot', { operator: 'Google' })],
        counts: [
          row('googlebot', 'allowed', 25),
          row('googlebot', 'robotsTxt', 2, { last: T0 + 2 * HOUR }),
          row('googlebot', 'allowed', 5, { verification: 'unverified' }),
          row('googlebot', 'spoofed', 9, { verification: 'spoofed', first: T0 + 5, last: T0 + 9 }),
          row('googlebot', 'allowed', 4, { verification: 'unknown' }),
          row('googlebot', 'unknown', 6, { verification: 'unknown' }),
        ],
        paths: [{ cls: 'spoofed', agentKey: 'googlebot', host: 'example.com', path: '/admin/', requests: 9 }],
        groupUses: [{ agentKey: 'googlebot', robotsVersion: 'v3', group: '*' }],
      }),
    )
    expect(report.agents.map((a) => [a.agentKey, a.verdict])).toEqual([['googlebot', 'complies']])
    expect(report.agents[0]?.evidence).toMatchObject({ requests: 30, robotsFetches: 2, lastRobotsFetch: T0 + 2 * HOUR, verifiedShare: 25 / 30, restricted: true })
    expect(report.spoofed).toEqual([
      {
        agentKey: 'googlebot',
        operator: 'Google',
        requests: 9,
        violations: 9,
        firstViolation: T0 + 5,
        lastViolation: T0 + 9,
        examplePaths: ['/admin/'],
        lastSeen: T0 + 9,
      },
    ])
    expect(report.unchecked).toEqual([expect.objectContaining({ agentKey: 'googlebot', requests: 10, violations: 6 })])
    expect(report.totals).toMatchObject({ requests: 30, violations: 0, spoofedRequests: 9, spoofedViolations: 9, uncheckedRequests: 10, uncheckedViolations: 6, truncated: false })
  })

  it('puts ignoring agents first, then isolated ones, and lists tools apart', () => {
    const report = buildReport(
      input({
        agents: [info('quietbot'), info('gptbot'), info('strayer'), info('curl', { kind: 'tool' })],
        counts: [
          row('quietbot', 'allowed', 100),
          row('gptbot', 'allowed', 22),
          row('gptbot', 'afterFetch', 6),
          row('strayer', 'allowed', 300),
          row('strayer', 'neverFetched', 2),
          row('curl', 'allowed', 20),
          row('curl', 'neverFetched', 10),
        ],
        paths: [
          { cls: 'afterFetch', agentKey: 'gptbot', host: 'example.com', path: '/drafts/a', requests: 4 },
          { cls: 'afterFetch', agentKey: 'gptbot', host: 'example.com', path: '/drafts/b', requests: 2 },
          { cls: 'afterFetch', agentKey: 'gptbot', host: 'example.com', path: '', requests: 7 },
          { cls: 'neverFetched', agentKey: 'curl', host: 'example.com', path: '/admin/', requests: 10 },
        ],
      }),
    )
    expect(report.agents.map((a) => [a.agentKey, a.verdict])).toEqual([
      ['gptbot', 'ignores robots.txt'],
      ['strayer', 'isolated violations'],
      ['quietbot', 'not enough data'],
    ])
    expect(report.agents[0]?.evidence.examplePaths).toEqual(['/drafts/a', '/drafts/b'])
    expect(report.tools.map((a) => [a.agentKey, a.verdict])).toEqual([['curl', 'ignores robots.txt']])
    // The most violated paths are the crawlers': neither "other paths" nor the tool's.
    expect(report.topPaths).toEqual([
      { host: 'example.com', path: '/drafts/a', violations: 4, agents: 1 },
      { host: 'example.com', path: '/drafts/b', violations: 2, agents: 1 },
    ])
    expect(report.totals).toMatchObject({ agents: 3, requests: 430, violations: 8, ignoring: 1, isolated: 1, tools: { agents: 1, requests: 30, violations: 10 } })
  })

  it('keeps the five most frequent example paths', () => {
    const paths = Array.from({ length: 8 }, (_, i) => ({ cls: 'staleCopy' as const, agentKey: 'gptbot', host: 'example.com', path: `/admin/${i}`, requests: i + 1 }))
    const report = buildReport(input({ agents: [info('gptbot')], counts: [row('gptbot', 'staleCopy', 36)], paths }))
    expect(report.agents[0]?.evidence.examplePaths).toEqual(['/admin/7', '/admin/6', '/admin/5', '/admin/4', '/admin/3'])
  })

  it('says which source it read and whether its numbers are estimates', () => {
    expect(buildReport(input())).toMatchObject({ source: 'd1', estimates: false, thresholds: { repeatedAtLeast: 3, repeatedShare: 0.01 } })
    expect(buildReport(input({ source: 'analytics-engine' }))).toMatchObject({ source: 'analytics-engine', estimates: true })
  })
})
