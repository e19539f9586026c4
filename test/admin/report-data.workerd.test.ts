// The compliance report (src/admin/queries.ts) against a real local D1:
// events go in through the ledger, verdicts come out of getReport.
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import type { JudgedRequest } from '../../src/core/events.ts'
import { toCsv } from '../../src/admin/csv.ts'
import { getAgentRequests, getReport } from '../../src/admin/queries.ts'
import type { AgentReport, Report } from '../../src/admin/types.ts'
import { recordRobotsVersion, rollUpLedger, writeEvents } from '../../src/ledger/ledger.ts'
import { DAY, HOUR, MINUTE, T0, ccbot, fetched, googlebot, googlebotImage, gptbot, judged, scraper } from '../support/report-fixtures.ts'
import { clearLedger } from '../support/workerd/ledger-tables.ts'

const db = env.DB
const V1 = 'User-agent: *\nDisallow: /admin/\n'
/** V2 adds line 3 at T0: /drafts/ was allowed until then. */
const V2 = 'User-agent: *\nDisallow: /admin/\nDisallow: /drafts/\n'
const DRAFTS = { type: 'disallow', pattern: '/drafts/', line: 3 } as const
const ALL = { since: T0 - 30 * DAY, until: T0 + 30 * DAY }

beforeEach(async () => {
  await clearLedger(db)
  await recordRobotsVersion(db, { host: 'example.com', hash: 'v1', text: V1, time: T0 - 10 * DAY })
  await recordRobotsVersion(db, { host: 'example.com', hash: 'v2', text: V2, time: T0 })
})

/** `n` allowed requests a minute apart from `start`, under v2. */
function allowedRequests(n: number, start: number, overrides: Partial<JudgedRequest> = {}): JudgedRequest[] {
  return Array.from({ length: n }, (_, i) => judged({ time: start + i * MINUTE, path: `/page/${i}`, robotsVersion: 'v2', ...overrides }))
}

function agent(report: Report, key: string): AgentReport {
  const found = report.agents.find((a) => a.agentKey === key)
  if (!found) throw new Error(`no agent ${key} in report: ${report.agents.map((a) => a.agentKey).join(', ')}`)
  return found
}

describe('getReport: classes and verdicts', () => {
  // The evidence rule changed this case: one violation in 25 requests was "ignores
  // robots.txt"; it is now "isolated violations". Repeated ones still ignore.
  it('an agent that fetched robots.txt and then requested disallowed URLs repeatedly ignores it; once is isolated', async () => {
    await writeEvents(db, [
      fetched({ agent: gptbot, time: T0 + 25 * HOUR, robotsVersion: 'v2' }),
      ...allowedRequests(24, T0 + 25 * HOUR + MINUTE, { agent: gptbot }),
      judged({ agent: gptbot, time: T0 + 26 * HOUR, path: '/admin/secret', allowed: false, robotsVersion: 'v2' }),
    ])
    const once = agent(await getReport(db, ALL), 'gptbot')
    expect(once.verdict).toBe('isolated violations')
    expect(once.reason).toBe('1 counted violation in 25 judged requests: fewer than 3, or under 1 % of its requests, is not a pattern')
    await writeEvents(
      db,
      [1, 2].map((i) => judged({ agent: gptbot, time: T0 + 26 * HOUR + i, path: '/admin/secret', allowed: false, robotsVersion: 'v2' })),
    )
    const report = await getReport(db, ALL)
    const a = agent(report, 'gptbot')
    expect(a.verdict).toBe('ignores robots.txt')
    expect(a.reason).toBe('3 disallowed requests after fetching robots.txt')
    expect(a.evidence).toMatchObject({
      requests: 27,
      disallowed: 3,
      violations: { afterFetch: 3, staleCopy: 0, neverFetched: 0, grace: 0, newHost: 0, unclassified: 0, counted: 3 },
      firstViolation: T0 + 26 * HOUR,
      lastViolation: T0 + 26 * HOUR + 2,
      examplePaths: ['/admin/secret'],
      robotsFetches: 1,
      lastRobotsFetch: T0 + 25 * HOUR,
      verifiedShare: 1,
      restricted: true,
    })
    expect(a).toMatchObject({ operator: 'OpenAI', category: 'AI Crawler', declaredObeys: true })
  })

  it('reports agents never seen fetching robots.txt as a class of their own', async () => {
    await writeEvents(db, [
      ...allowedRequests(27, T0 + 30 * HOUR, { agent: scraper, verification: 'unverified' }),
      ...[1, 2, 3].map((i) => judged({ agent: scraper, verification: 'unverified', time: T0 + 31 * HOUR + i, path: `/admin/${i}`, allowed: false, robotsVersion: 'v2' })),
      ...allowedRequests(4, T0 + 30 * HOUR, { agent: ccbot }),
      judged({ agent: ccbot, time: T0 + 31 * HOUR, path: '/admin/x', allowed: false, robotsVersion: 'v2' }),
    ])
    const report = await getReport(db, ALL)
    const s = agent(report, 'bytescraper')
    expect(s.evidence.violations).toEqual({ afterFetch: 0, staleCopy: 0, neverFetched: 3, grace: 0, newHost: 0, unclassified: 0, counted: 3 })
    expect(s.verdict).toBe('ignores robots.txt')
    expect(s.reason).toMatch(/without fetching robots.txt for that host first/)
    expect(s.evidence.verifiedShare).toBe(0)
    // Five requests are too few to call it, even with one violation unread.
    const c = agent(report, 'ccbot')
    expect(c.evidence.violations.neverFetched).toBe(1)
    expect(c.verdict).toBe('not enough data')
    expect(report.agents[0]?.agentKey).toBe('bytescraper')
  })

  it('does not count a request the previous version allowed, within 24 h of the change: pending until then', async () => {
    await writeEvents(db, [
      fetched({ agent: ccbot, time: T0 - 2 * DAY, robotsVersion: 'v1' }),
      ...allowedRequests(24, T0 + HOUR, { agent: ccbot }),
      judged({ agent: ccbot, time: T0 + 2 * HOUR, path: '/drafts/a', allowed: false, rule: DRAFTS, robotsVersion: 'v2' }),
    ])
    const report = await getReport(db, ALL)
    const c = agent(report, 'ccbot')
    expect(c.evidence.violations).toEqual({ afterFetch: 0, staleCopy: 0, neverFetched: 0, grace: 1, newHost: 0, unclassified: 0, counted: 0 })
    // Not held against it, never cleared either: pending until v2's 24 h are over.
    expect(c).toMatchObject({
      verdict: 'pending',
      reason: '1 disallowed request within 24 h of a rule change; judged from 2026-01-06 10:00 UTC if they go on',
      evidence: { graceWindows: [{ host: 'example.com', cls: 'grace', requests: 1, until: T0 + DAY }], pendingUntil: T0 + DAY, pendingHost: 'example.com' },
    })
    expect(report.totals).toMatchObject({ violations: 0, grace: 1, pending: 1 })
    expect(report.topPaths).toEqual([])
  })

  it('counts what the previous version also disallowed, what came after 24 h, and what followed a fetch of the new version', async () => {
    await writeEvents(db, [
      // Read v1 only: /admin/ was disallowed in v1 too, so no cached copy excuses it.
      fetched({ agent: ccbot, time: T0 - 2 * DAY, robotsVersion: 'v1' }),
      judged({ agent: ccbot, time: T0 + 2 * HOUR, path: '/admin/x', allowed: false, robotsVersion: 'v2' }),
      // Past the 24 hours a cached copy may be used.
      judged({ agent: ccbot, time: T0 + 30 * HOUR, path: '/drafts/late', allowed: false, rule: DRAFTS, robotsVersion: 'v2' }),
      // Read v2, then went where v2 forbids: no grace.
      fetched({ agent: gptbot, time: T0 + HOUR, robotsVersion: 'v2' }),
      judged({ agent: gptbot, time: T0 + 2 * HOUR, path: '/drafts/b', allowed: false, rule: DRAFTS, robotsVersion: 'v2' }),
    ])
    const report = await getReport(db, ALL)
    expect(agent(report, 'ccbot').evidence.violations).toMatchObject({ staleCopy: 2, grace: 0, counted: 2 })
    // Counted, but two violations and one are isolated (they were "ignores robots.txt").
    expect(agent(report, 'ccbot').verdict).toBe('isolated violations')
    expect(agent(report, 'gptbot').evidence.violations).toMatchObject({ afterFetch: 1, grace: 0 })
    expect(agent(report, 'gptbot').verdict).toBe('isolated violations')
  })

  it('reports spoofed Googlebot apart and keeps Google complying', async () => {
    await writeEvents(db, [
      fetched({ time: T0 + 25 * HOUR, robotsVersion: 'v2' }),
      ...allowedRequests(25, T0 + 26 * HOUR),
      fetched({ time: T0 + 27 * HOUR, verification: 'spoofed', robotsVersion: 'v2' }),
      ...Array.from({ length: 10 }, (_, i) => judged({ time: T0 + 27 * HOUR + i, path: `/admin/${i}`, allowed: false, verification: 'spoofed', robotsVersion: 'v2', ipHash: 'ffff0000' })),
    ])
    const report = await getReport(db, ALL)
    const g = agent(report, 'googlebot')
    expect(g.verdict).toBe('complies')
    expect(g.evidence).toMatchObject({ requests: 25, disallowed: 0, robotsFetches: 1, verifiedShare: 1 })
    expect(g.evidence.violations.counted).toBe(0)
    expect(report.agents).toHaveLength(1)
    expect(report.spoofed).toEqual([
      expect.objectContaining({ agentKey: 'googlebot', operator: 'Google', requests: 10, violations: 10, firstViolation: T0 + 27 * HOUR, lastViolation: T0 + 27 * HOUR + 9 }),
    ])
    expect(report.totals).toMatchObject({ requests: 25, violations: 0, spoofedRequests: 10, spoofedViolations: 10, ignoring: 0 })
    expect(report.timeline.every((h) => h.violations === 0)).toBe(true)
    expect(
      toCsv(report)
        .split('\r\n')
        .filter((l) => l.startsWith('spoofed,googlebot')),
    ).toHaveLength(1)
  })

  it("treats a sibling crawler's fetch as read: Google shares one copy across its crawlers", async () => {
    await writeEvents(db, [
      fetched({ time: T0 + 25 * HOUR, robotsVersion: 'v2' }),
      judged({ agent: googlebotImage, time: T0 + 26 * HOUR, path: '/admin/logo.png', allowed: false, robotsVersion: 'v2', group: 'googlebot' }),
    ])
    const report = await getReport(db, ALL)
    expect(agent(report, 'googlebot-image').evidence.violations.afterFetch).toBe(1)
  })

  it('needs a restricting rule before it says complies', async () => {
    await writeEvents(db, allowedRequests(30, T0 + 30 * HOUR, { agent: gptbot, group: null }))
    const a = agent(await getReport(db, ALL), 'gptbot')
    expect(a.verdict).toBe('not enough data')
    expect(a.reason).toMatch(/nothing to ignore/)
  })
})

describe('getReport: rules, paths, timeline', () => {
  it('ranks the most violated rules with their line, the paths, and counts per hour', async () => {
    await writeEvents(db, [
      ...allowedRequests(3, T0 + 30 * HOUR, { agent: scraper }),
      ...[0, 1, 2].map((i) => judged({ agent: scraper, time: T0 + 30 * HOUR + i, path: '/admin/a', allowed: false, robotsVersion: 'v2' })),
      judged({ agent: gptbot, time: T0 + 31 * HOUR, path: '/admin/a', allowed: false, robotsVersion: 'v2' }),
      judged({ agent: gptbot, time: T0 + 31 * HOUR + 1, path: '/drafts/z', allowed: false, rule: DRAFTS, robotsVersion: 'v2' }),
    ])
    // The cron adds up the violations per rule from the request shapes.
    await rollUpLedger(db, { now: T0 })
    // Two days: an hourly timeline (over a week it is daily).
    const report = await getReport(db, { since: T0 + DAY, until: T0 + 3 * DAY })
    expect(report.timelineBin).toBe(HOUR)
    expect(report.topRules).toEqual([
      { host: 'example.com', robotsVersion: 'v2', type: 'disallow', pattern: '/admin/', line: 2, violations: 4, agents: 2 },
      { host: 'example.com', robotsVersion: 'v2', type: 'disallow', pattern: '/drafts/', line: 3, violations: 1, agents: 1 },
    ])
    expect(report.topPaths[0]).toEqual({ host: 'example.com', path: '/admin/a', violations: 4, agents: 2 })
    expect(report.timeline).toEqual([
      { hour: T0 + 30 * HOUR, violations: 3, requests: 6 },
      { hour: T0 + 31 * HOUR, violations: 2, requests: 2 },
    ])
  })
})

describe('getReport: filters', () => {
  beforeEach(async () => {
    await writeEvents(db, [
      judged({ agent: gptbot, time: T0 + HOUR, path: '/a' }),
      judged({ agent: gptbot, time: T0 + 5 * DAY, path: '/b' }),
      judged({ agent: googlebot, time: T0 + HOUR, host: 'shop.example.com' }),
      judged({ agent: scraper, time: T0 + 2 * HOUR }),
    ])
  })

  const keys = async (filter: Parameters<typeof getReport>[1]) => (await getReport(db, filter)).agents.map((a) => `${a.agentKey}:${a.evidence.requests}`).sort()

  it('by time (since inclusive, until exclusive)', async () => {
    expect(await keys(ALL)).toEqual(['bytescraper:1', 'googlebot:1', 'gptbot:2'])
    expect(await keys({ since: T0 + HOUR, until: T0 + 2 * HOUR })).toEqual(['googlebot:1', 'gptbot:1'])
    expect(await keys({ since: T0 + 3 * DAY, until: T0 + 30 * DAY })).toEqual(['gptbot:1'])
  })

  it('by host, agent and category', async () => {
    expect(await keys({ ...ALL, host: 'Shop.Example.com' })).toEqual(['googlebot:1'])
    expect(await keys({ ...ALL, agent: 'gptbot' })).toEqual(['gptbot:2'])
    expect(await keys({ ...ALL, category: 'AI Crawler' })).toEqual(['gptbot:2'])
    expect(await keys({ ...ALL, host: 'example.com', category: 'Search Engine Crawler' })).toEqual([])
  })

  it('treats SQL in filter values as plain text', async () => {
    for (const evil of ["' OR '1'='1", "x'; DROP TABLE events; --", '%', '*', '1) OR (1=1']) {
      const report = await getReport(db, { ...ALL, host: evil, agent: evil, category: evil })
      expect(report.agents).toEqual([])
      expect(await getAgentRequests(db, evil, { host: evil })).toEqual([])
    }
    expect(await keys(ALL)).toHaveLength(3)
  })

  it('refuses a range that is not a time', async () => {
    await expect(getReport(db, { since: Number.NaN, until: T0 })).rejects.toThrow(/since and until/)
  })
})

describe('getAgentRequests', () => {
  it('returns one agent’s events newest first, limited, paged and filtered by host', async () => {
    await writeEvents(
      db,
      [
        fetched({ agent: gptbot, time: T0 }),
        ...Array.from({ length: 5 }, (_, i) => judged({ agent: gptbot, time: T0 + (i + 1) * MINUTE, path: `/p/${i}` })),
        judged({ agent: gptbot, time: T0 + 10 * MINUTE, host: 'shop.example.com', path: '/shop' }),
        judged({ agent: ccbot, time: T0 + 11 * MINUTE }),
      ],
      { sampleBudget: 200 },
    )
    const page = await getAgentRequests(db, 'gptbot', { limit: 3 })
    expect(page.map((e) => e.path)).toEqual(['/shop', '/p/4', '/p/3'])
    const next = await getAgentRequests(db, 'gptbot', { limit: 3, before: page[2]!.time })
    expect(next.map((e) => e.path)).toEqual(['/p/2', '/p/1', '/p/0'])
    const last = await getAgentRequests(db, 'gptbot', { before: next[2]!.time, host: 'example.com' })
    expect(last).toHaveLength(1)
    expect(last[0]).toMatchObject({ type: 'robots-txt', path: '/robots.txt', agentKey: 'gptbot', tokens: ['gptbot'], allowed: true, rule: null, ipHash: 'a1b2c3d4e5f60718' })
    expect(await getAgentRequests(db, 'gptbot', { limit: 0 })).toHaveLength(1)
    expect(await getAgentRequests(db, 'gptbot', { limit: 10_000 })).toHaveLength(7)
  })
})
