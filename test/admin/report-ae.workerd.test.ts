// The Analytics Engine report judges as the D1 report does: the same
// events go to D1 and to a dataset spy as data points carrying the classes
// D1 gives them; a stand-in for the SQL API answers the report's queries
// from those points (each weighted by its sample interval), and both reports
// give the same per-agent verdicts and classes. The edge writes its points
// when it records events, before D1 classifies them: a genuine claim's
// disallowed request then carries no class, and the report estimates it
// from whether the agent fetched robots.txt in the range.
import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { analyticsEngineReportSql, getAnalyticsEngineJudgedReport } from '../../src/admin/ae-report.ts'
import { getReport } from '../../src/admin/queries.ts'
import type { Report } from '../../src/admin/types.ts'
import { recordRobotsVersion, rollUpLedger, writeEvents } from '../../src/ledger/ledger.ts'
import { toDataPoint } from '../../src/ledger/analytics-engine.ts'
import type { JudgedRequest } from '../../src/core/events.ts'
import { DAY, HOUR, MINUTE, T0, fetched, googlebot, gptbot, judged, scraper } from '../support/report-fixtures.ts'
import { clearLedger } from '../support/workerd/ledger-tables.ts'

const db = env.DB
const RANGE = { since: T0, until: T0 + 7 * DAY }

type Point = { blobs: string[]; doubles: number[]; interval: number; time: number }
const COUNTED = ['afterFetch', 'staleCopy', 'neverFetched']

/** Groups points by `key` and sums their sample intervals, as the SQL API does with sum(_sample_interval). */
function group<T>(points: Point[], key: (p: Point) => string, row: (k: string, ps: Point[]) => T): T[] {
  const by = new Map<string, Point[]>()
  for (const p of points) by.set(key(p), [...(by.get(key(p)) ?? []), p])
  return [...by].map(([k, ps]) => row(k, ps))
}
const weight = (ps: Point[], f: (p: Point) => boolean = () => true) => ps.filter(f).reduce((n, p) => n + p.interval, 0)

/** A stand-in for the SQL API over `points`, answering each of the report's queries by its shape. */
function sqlApi(points: Point[]) {
  const queries = analyticsEngineReportSql('robots_edge_events', RANGE, HOUR)
  return async (_url: string, init: RequestInit) => {
    const sql = String(init.body)
    const b = (p: Point, i: number) => p.blobs[i - 1]!
    // A genuine claim's disallowed request the edge could not classify.
    const unsettled = (p: Point) => b(p, 19) === '' && b(p, 1) === 'request' && p.doubles[0] === 0 && ['verified', 'unverified'].includes(b(p, 6))
    let data: object[] = []
    if (sql === queries.counts) {
      data = group(
        points,
        (p) => [b(p, 3), b(p, 6), b(p, 19), b(p, 1), p.doubles[0]].join('\n'),
        (_k, ps) => ({
          agent_key: b(ps[0]!, 3),
          verification: b(ps[0]!, 6),
          class: b(ps[0]!, 19),
          type: b(ps[0]!, 1),
          allowed: ps[0]!.doubles[0],
          operator: b(ps[0]!, 4),
          category: b(ps[0]!, 5),
          kind: b(ps[0]!, 16),
          requests: weight(ps),
          blocked: weight(ps, (p) => b(p, 13) === 'block'),
          points: ps.length,
          first: Math.min(...ps.map((p) => p.time)) / 1000,
          last: Math.max(...ps.map((p) => p.time)) / 1000,
        }),
      )
    } else if (sql === queries.paths) {
      data = group(
        points.filter((p) => [...COUNTED, 'spoofed', 'unknown'].includes(b(p, 19)) || unsettled(p)),
        (p) => [b(p, 19), b(p, 3), b(p, 2), b(p, 8)].join('\n'),
        (_k, ps) => ({
          class: b(ps[0]!, 19),
          agent_key: b(ps[0]!, 3),
          host: b(ps[0]!, 2),
          path: b(ps[0]!, 8),
          requests: weight(ps),
        }),
      )
    } else if (sql === queries.rules) {
      data = group(
        points.filter((p) => (COUNTED.includes(b(p, 19)) || unsettled(p)) && b(p, 9) !== '' && b(p, 16) === 'bot'),
        (p) => [b(p, 2), b(p, 14), p.doubles[1], b(p, 3)].join('\n'),
        (_k, ps) => ({
          host: b(ps[0]!, 2),
          version: b(ps[0]!, 14),
          type: b(ps[0]!, 9),
          pattern: b(ps[0]!, 10),
          line: ps[0]!.doubles[1],
          agent_key: b(ps[0]!, 3),
          violations: weight(ps),
        }),
      )
    } else if (sql === queries.timeline) {
      data = group(
        points.filter((p) => b(p, 1) === 'request' && b(p, 16) === 'bot' && ['verified', 'unverified'].includes(b(p, 6))),
        (p) => String(Math.floor(p.time / HOUR) * HOUR),
        (k, ps) => ({
          t: Number(k) / 1000,
          requests: weight(ps),
          violations: weight(ps, (p) => COUNTED.includes(b(p, 19)) || unsettled(p)),
        }),
      )
    } else if (sql === queries.groups) {
      data = group(
        points.filter((p) => b(p, 1) === 'request' && b(p, 11) !== '' && ['verified', 'unverified'].includes(b(p, 6))),
        (p) => [b(p, 3), b(p, 14), b(p, 11)].join('\n'),
        (_k, ps) => ({
          agent_key: b(ps[0]!, 3),
          version: b(ps[0]!, 14),
          grp: b(ps[0]!, 11),
        }),
      )
    } else throw new Error(`unexpected query: ${sql.slice(0, 80)}`)
    return Response.json({ data })
  }
}

const verdicts = (r: Report) => Object.fromEntries([...r.agents, ...r.tools].map((a) => [a.agentKey, [a.verdict, a.evidence.violations]]))

describe('the Analytics Engine report', () => {
  it('gives the same verdicts and classes as D1, and scales sampled points by their interval', async () => {
    await clearLedger(db)
    await recordRobotsVersion(db, { host: 'example.com', hash: 'v1', text: 'User-agent: *\nDisallow: /admin/\n', time: T0 - 30 * DAY })
    const points: Point[] = []
    let time = 0
    // The classes D1 gives these requests: GPTBot's disallowed ones come after its fetch, the scraper never fetched.
    const classOf = (e: JudgedRequest, blob: string) => blob || (e.agent === gptbot ? 'afterFetch' : 'neverFetched')
    const point = (e: JudgedRequest): Point => {
      const p = toDataPoint(e)
      return { blobs: (p.blobs as string[]).map((x, i) => (i === 18 ? classOf(e, x) : x)), doubles: p.doubles!, interval: 1, time }
    }
    const events = [
      fetched({ agent: gptbot, time: T0 }),
      ...Array.from({ length: 40 }, (_, i) => judged({ agent: gptbot, time: T0 + (i + 1) * MINUTE, path: i % 4 ? `/p/${i}` : `/admin/${i}`, allowed: i % 4 !== 0 })),
      ...Array.from({ length: 30 }, (_, i) => judged({ agent: scraper, verification: 'unverified', time: T0 + HOUR + i * MINUTE, path: i === 7 ? '/admin/x' : `/q/${i}`, allowed: i !== 7 })),
      ...Array.from({ length: 25 }, (_, i) => judged({ agent: googlebot, time: T0 + 2 * HOUR + i * MINUTE, path: `/g/${i}` })),
      ...Array.from({ length: 6 }, (_, i) => judged({ time: T0 + 3 * HOUR + i, path: `/admin/s${i}`, allowed: false, verification: 'spoofed' })),
    ]
    for (const e of events) {
      time = e.time
      await writeEvents(db, [e])
      points.push(point(e))
    }
    // The cron adds up the violations per rule from the request shapes.
    await rollUpLedger(db, { now: T0 })
    const d1 = await getReport(db, RANGE)
    const ae = await getAnalyticsEngineJudgedReport({ accountId: 'a', apiToken: 't', dataset: 'robots_edge_events', fetch: sqlApi(points) }, RANGE, {
      texts: async () => new Map([['v1', 'User-agent: *\nDisallow: /admin/\n']]),
    })
    expect(verdicts(ae)).toEqual(verdicts(d1))
    expect(verdicts(ae).gptbot?.[0]).toBe('ignores robots.txt')
    expect(ae.spoofed.map((s) => [s.agentKey, s.requests])).toEqual(d1.spoofed.map((s) => [s.agentKey, s.requests]))
    expect(ae.topRules.map((r) => [r.line, r.violations])).toEqual(d1.topRules.map((r) => [r.line, r.violations]))
    expect(ae.timeline).toEqual(d1.timeline)
    expect(ae).toMatchObject({ source: 'analytics-engine', estimates: true })
    expect(ae.coverage.summary).toMatch(/^estimates from Analytics Engine's sampled data over the full 7 days/)

    // Sampled 1 in 10: every count is an estimate, ten times each point.
    const sampled = await getAnalyticsEngineJudgedReport(
      {
        accountId: 'a',
        apiToken: 't',
        dataset: 'robots_edge_events',
        fetch: sqlApi(points.map((p) => ({ ...p, interval: 10 }))),
      },
      RANGE,
    )
    expect(sampled.agents.find((a) => a.agentKey === 'gptbot')?.evidence).toMatchObject({ requests: 400, violations: { afterFetch: 100 } })

    // As the edge writes them, before D1 decides: GPTBot's disallowed requests carry no class; it fetched
    // robots.txt in the range, so they are estimated as after a fetch, the scraper's as never fetched.
    const asWritten = await getAnalyticsEngineJudgedReport(
      {
        accountId: 'a',
        apiToken: 't',
        dataset: 'robots_edge_events',
        fetch: sqlApi(events.map((e) => ({ blobs: toDataPoint(e).blobs as string[], doubles: toDataPoint(e).doubles!, interval: 1, time: e.time }))),
      },
      RANGE,
      { texts: async () => new Map([['v1', 'User-agent: *\nDisallow: /admin/\n']]) },
    )
    expect(asWritten.agents.find((a) => a.agentKey === 'gptbot')?.evidence.violations).toMatchObject({ afterFetch: 10, counted: 10, unclassified: 0 })
    expect(verdicts(asWritten)).toEqual(verdicts(d1))
    expect(asWritten.timeline).toEqual(d1.timeline)
  })
})
