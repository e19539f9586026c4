// The evidence rule and the report's sections, end to end
// through the ledger: isolated violations with the requests behind them,
// newly served hosts, tools and unchecked claims apart, case-insensitive
// agent filters, and what the window covers.
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import type { EventAgent, JudgedRequest } from '../../src/core/events.ts'
import { getAgentRequests, getReport } from '../../src/admin/queries.ts'
import type { AgentReport, Report } from '../../src/admin/types.ts'
import { pruneLedger, recordRobotsVersion, writeEvents } from '../../src/ledger/ledger.ts'
import { PATH_CAP, SAMPLE_BUDGET } from '../../src/ledger/rollups.ts'
import { DAY, HOUR, MINUTE, T0, fetched, googlebot, gptbot, judged, scraper } from '../support/report-fixtures.ts'
import { clearLedger } from '../support/workerd/ledger-tables.ts'

const db = env.DB
const V1 = 'User-agent: *\nDisallow: /admin/\n'
const WEEK = { since: T0, until: T0 + 7 * DAY }
const curl: EventAgent = { tokens: ['curl'], kind: 'tool', obeysRobotsTxt: false }

beforeEach(async () => {
  await clearLedger(db)
  await recordRobotsVersion(db, { host: 'example.com', hash: 'v1', text: V1, time: T0 - 30 * DAY })
})

function agent(report: Report, key: string, list: readonly AgentReport[] = report.agents): AgentReport {
  const found = list.find((a) => a.agentKey === key)
  if (!found) throw new Error(`no agent ${key}: ${list.map((a) => a.agentKey).join(', ')}`)
  return found
}

/** `n` requests a minute apart from `start`, every `every`-th one to a disallowed path. */
function traffic(agentOf: EventAgent, n: number, start: number, every = 0, o: Partial<JudgedRequest> = {}): JudgedRequest[] {
  return Array.from({ length: n }, (_, i) => {
    const bad = every > 0 && i % every === every - 1
    return judged({ agent: agentOf, time: start + i * MINUTE, path: bad ? `/admin/${i}` : `/page/${i}`, allowed: !bad, ...o })
  })
}

describe('the evidence rule', () => {
  it('calls one stray request in 197 isolated, and shows the requests behind it', async () => {
    await writeEvents(db, [fetched({ agent: googlebot, time: T0 + HOUR }), ...traffic(googlebot, 196, T0 + 2 * HOUR), judged({ time: T0 + 5 * HOUR, path: '/admin/oops', allowed: false })])
    const g = agent(await getReport(db, WEEK), 'googlebot')
    expect(g.verdict).toBe('isolated violations')
    expect(g.evidence.violations.counted).toBe(1)
    const behind = await getAgentRequests(db, 'googlebot', { violations: true })
    expect(behind.map((e) => [e.path, e.class, e.counted])).toEqual([['/admin/oops', 'afterFetch', true]])
  })

  it('needs repeated evidence: 3 violations and at least 1 % of the requests', async () => {
    await writeEvents(db, [
      fetched({ agent: gptbot, time: T0 + HOUR }),
      ...traffic(gptbot, 400, T0 + 2 * HOUR, 100), // 4 in 400: 1 %
      ...traffic(scraper, 500, T0 + 2 * HOUR, 250), // 2 in 500
      ...traffic({ ...scraper, tokens: ['bigcrawler'] }, 1000, T0 + 2 * HOUR, 334), // 2 in 1000 (0.2 %)
    ])
    const report = await getReport(db, WEEK)
    expect(agent(report, 'gptbot').verdict).toBe('ignores robots.txt')
    expect(agent(report, 'bytescraper').verdict).toBe('isolated violations')
    expect(agent(report, 'bigcrawler').verdict).toBe('isolated violations')
    expect(report.totals).toMatchObject({ ignoring: 1, isolated: 2 })
    expect(report.agents.map((a) => a.agentKey)).toEqual(['gptbot', 'bigcrawler', 'bytescraper'])
  })

  it('does not hold "never fetched" against a crawler in the first 24 h robots-edge serves a host, nor clear it: pending', async () => {
    await recordRobotsVersion(db, { host: 'new.example', hash: 'n1', text: V1, time: T0 + DAY })
    const onNew = { host: 'new.example', robotsVersion: 'n1' }
    await writeEvents(db, [
      ...traffic(scraper, 40, T0 + DAY + HOUR, 4, onNew), // 10 never-fetched violations, within the first day
      ...traffic(gptbot, 40, T0 + 3 * DAY, 4, onNew), // 10, after it
    ])
    const report = await getReport(db, WEEK)
    expect(agent(report, 'bytescraper').evidence.violations).toMatchObject({ newHost: 10, neverFetched: 0, counted: 0 })
    expect(agent(report, 'bytescraper')).toMatchObject({
      verdict: 'pending',
      reason: "10 disallowed requests in the host's first 24 h; judged from 2026-01-07 10:00 UTC if they go on",
      evidence: { pendingUntil: T0 + 2 * DAY, pendingHost: 'new.example' },
    })
    expect(agent(report, 'gptbot').evidence.violations).toMatchObject({ newHost: 0, neverFetched: 10, counted: 10 })
    expect(agent(report, 'gptbot').verdict).toBe('ignores robots.txt')
    expect(report.totals).toMatchObject({ newHost: 10, violations: 10, pending: 1 })
  })
})

describe('the report keeps apart', () => {
  it('tools, judged alike but not among the crawlers', async () => {
    await writeEvents(db, [...traffic(curl, 30, T0 + HOUR, 3), ...traffic(gptbot, 30, T0 + HOUR)])
    const report = await getReport(db, WEEK)
    expect(report.agents.map((a) => a.agentKey)).toEqual(['gptbot'])
    expect(agent(report, 'curl', report.tools)).toMatchObject({ kind: 'tool', verdict: 'ignores robots.txt', evidence: { violations: { neverFetched: 10 } } })
    expect(report.totals).toMatchObject({ agents: 1, requests: 30, violations: 0, tools: { agents: 1, requests: 30, violations: 10 } })
    expect(report.topPaths).toEqual([])
    expect(report.timeline.reduce((n, b) => n + b.requests, 0)).toBe(30)
  })

  it('claims that could not be checked: never counted against the crawler they name', async () => {
    await writeEvents(db, [fetched({ time: T0 + HOUR }), ...traffic(googlebot, 30, T0 + 2 * HOUR), ...traffic(googlebot, 30, T0 + 3 * HOUR, 2, { verification: 'unknown' })])
    const report = await getReport(db, WEEK)
    expect(agent(report, 'googlebot')).toMatchObject({ verdict: 'complies', evidence: { requests: 30, violations: { counted: 0 } } })
    expect(report.unchecked).toEqual([expect.objectContaining({ agentKey: 'googlebot', operator: 'Google', requests: 30, violations: 15 })])
    // The first PATH_CAP paths of each day and host are kept per path.
    expect(report.unchecked[0]?.examplePaths).toHaveLength(PATH_CAP)
    expect(report.totals).toMatchObject({ uncheckedRequests: 30, uncheckedViolations: 15, violations: 0 })
  })
})

describe('filters and coverage', () => {
  it('matches the agent filter and the drill-down case-insensitively', async () => {
    await writeEvents(db, traffic(gptbot, 5, T0 + HOUR, 5), { sampleBudget: 200 })
    for (const name of ['GPTBot', 'gptbot', 'GPTBOT']) {
      expect((await getReport(db, { ...WEEK, agent: name })).agents.map((a) => a.agentKey)).toEqual(['gptbot'])
      expect(await getAgentRequests(db, name)).toHaveLength(5)
    }
  })

  it('says what its window covers: counts in whole hours, samples since the last pruning, paths in whole days', async () => {
    const now = T0 + 7 * DAY
    // Three days, 10 requests an hour: 720 counted, all of them kept as samples at first.
    await writeEvents(
      db,
      Array.from({ length: 720 }, (_, i) => judged({ time: now - 3 * DAY + i * 6 * MINUTE, path: `/p/${i % 40}` })),
      { sampleBudget: 200 },
    )
    const before = await getReport(db, { since: now - 7 * DAY, until: now })
    expect(before.coverage.counts).toEqual({ since: now - 7 * DAY, until: now })
    expect(before.coverage.summary).toBe(
      'counts cover the full 7 days (the ledger holds nothing before 2026-01-09); request samples cover the full range; the most violated rules and paths count whole UTC days (2026-01-05 to 2026-01-12)',
    )
    // A budget of 240 raw rows keeps the last 24 hours.
    expect(await pruneLedger(db, { now, maxRawEvents: 240 })).toMatchObject({ expired: 0, thinned: 480, rawSince: now - DAY, complete: true })
    const after = await getReport(db, { since: now - 7 * DAY, until: now })
    expect(after.coverage.summary).toMatch(/^counts cover the full 7 days \(the ledger holds nothing before 2026-01-09\); request samples cover the last 24 hours;/)
    expect(after.coverage.samples).toMatchObject({ since: now - DAY, until: now, budgetPerHour: SAMPLE_BUDGET })
    expect(agent(after, 'googlebot').evidence.requests).toBe(720)
    expect((await getAgentRequests(db, 'googlebot', { limit: 500 })).length).toBe(240)
  })
})
