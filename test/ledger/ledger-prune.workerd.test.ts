// Pruning (src/ledger/prune.ts) against a real local D1: raw rows by age and
// by budget, counters after their own retention, unused robots.txt versions,
// and a bound on each run's work.
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { getReport } from '../../src/admin/queries.ts'
import { pruneLedger, recordRobotsVersion, rollUpLedger, writeEvents } from '../../src/ledger/ledger.ts'
import { DAY, HOUR, T0, googlebot, gptbot, judged } from '../support/report-fixtures.ts'
import { runUpkeep } from '../../src/admin/upkeep.ts'
import { clearLedger } from '../support/workerd/ledger-tables.ts'
import { SHAPE_PATHS_SQL } from '../../src/ledger/shape-packs.ts'

const db = env.DB
const now = T0 + 500 * DAY

async function count(sql: string): Promise<number> {
  return (await db.prepare(sql).first<number>('n')) ?? -1
}

beforeEach(() => clearLedger(db))

describe('pruneLedger', () => {
  it('deletes raw rows past the window, then the oldest hours beyond the budget, and keeps every count', async () => {
    await writeEvents(db, [
      judged({ time: now - 31 * DAY, path: '/old-1' }),
      judged({ time: now - 30 * DAY - 1, path: '/old-2' }),
      ...Array.from({ length: 6 }, (_, i) => judged({ time: now - (6 - i) * DAY, path: `/recent/${i}` })),
    ])
    const result = await pruneLedger(db, { now, maxRawEvents: 4 })
    expect(result).toMatchObject({ expired: 2, thinned: 2, rawSince: now - 5 * DAY + HOUR, complete: true })
    const { results } = await db.prepare('SELECT path FROM events ORDER BY time').all<{ path: string }>()
    expect(results.map((r) => r.path)).toEqual(['/recent/2', '/recent/3', '/recent/4', '/recent/5'])
    // The counters are untouched: the report still counts all eight.
    expect((await getReport(db, { since: now - 40 * DAY, until: now })).agents[0]?.evidence.requests).toBe(8)
    expect(await pruneLedger(db, { now, maxRawEvents: 4 })).toMatchObject({ expired: 0, thinned: 0 })
  })

  it('honours a custom window', async () => {
    await writeEvents(db, [judged({ time: T0 - 2 * DAY }), judged({ time: T0 })])
    expect(await pruneLedger(db, { now: T0, rawRetentionDays: 1 })).toMatchObject({ expired: 1, thinned: 0 })
  })

  it('deletes hourly counters once rolled up and past their retention, daily ones, paths and rules after theirs', async () => {
    await writeEvents(db, [
      judged({ time: now - 401 * DAY, allowed: false, path: '/admin/ancient' }),
      judged({ time: now - 100 * DAY, allowed: false, path: '/admin/old' }),
      judged({ time: now - DAY }),
    ])
    // The cron adds up the violations per rule while their request shapes are kept (a run before all of them: nothing rolled up).
    await rollUpLedger(db, { now: now - 402 * DAY })
    // Hourly counters not rolled up yet are kept, whatever their age.
    // The rest past 400 days go: a group, a rule and a path; and a minute past two days
    // (migrations/0060: this test's `now` is ahead of the clock, so its requests of 100 and 1 days before it got minutes).
    expect((await pruneLedger(db, { now })).rollups).toBe(4)
    expect(await count('SELECT count(*) AS n FROM timeline_minutes')).toBe(1)
    expect(await count('SELECT count(*) AS n FROM counts_hourly')).toBe(3)
    await rollUpLedger(db, { now, maxHours: 24 * 500 })
    const result = await pruneLedger(db, { now })
    expect(await count('SELECT count(*) AS n FROM counts_hourly')).toBe(1)
    expect(await count('SELECT count(*) AS n FROM timeline_hourly')).toBe(1)
    expect(await count('SELECT count(*) AS n FROM counts_daily')).toBe(2)
    expect(await count('SELECT count(*) AS n FROM paths_daily')).toBe(1)
    expect(await count('SELECT count(*) AS n FROM rules_daily')).toBe(1)
    // 2 hourly counters, 2 timeline hours, 1 daily counter.
    expect(result.rollups).toBe(5)
  })

  it('prunes robots.txt versions no counter has used within the retention, and hosts no longer served', async () => {
    await recordRobotsVersion(db, { host: 'example.com', hash: 'v1', text: 'User-agent: *\nDisallow: /a/\n', time: now - 600 * DAY })
    await recordRobotsVersion(db, { host: 'example.com', hash: 'v2', text: 'User-agent: *\nDisallow: /b/\n', time: now - 500 * DAY })
    await recordRobotsVersion(db, { host: 'example.com', hash: 'v3', text: 'User-agent: *\nDisallow: /c/\n', time: now - 10 * DAY })
    await recordRobotsVersion(db, { host: 'gone.example', hash: 'g1', text: 'User-agent: *\nDisallow: /\n', time: now - 450 * DAY })
    await recordRobotsVersion(db, { host: 'quiet.example', hash: 'q1', text: 'User-agent: *\nDisallow: /q/\n', time: now - 450 * DAY })
    await db.batch(['gone.example', 'quiet.example', 'example.com'].map((h) => db.prepare('INSERT INTO ledger_hosts (host, first_seen) VALUES (?, ?)').bind(h, now - 600 * DAY)))
    // v2 was still in use 300 days ago; quiet.example's only version 200 days ago.
    await writeEvents(db, [judged({ time: now - 300 * DAY, robotsVersion: 'v2' }), judged({ host: 'quiet.example', time: now - 200 * DAY, robotsVersion: 'q1' })])
    // v1, and gone.example with its only version: nothing has used them for 400 days.
    expect(await pruneLedger(db, { now })).toMatchObject({ versions: 3 })
    const { results } = await db.prepare('SELECT host, hash FROM robots_versions ORDER BY host, hash').all()
    expect(results).toEqual([
      { host: 'example.com', hash: 'v2' },
      { host: 'example.com', hash: 'v3' },
      { host: 'quiet.example', hash: 'q1' },
    ])
    const hosts = await db.prepare('SELECT host FROM robots_hosts ORDER BY host').all<{ host: string }>()
    expect(hosts.results.map((r) => r.host)).toEqual(['example.com', 'quiet.example'])
    // Its place under the cap on distinct hosts is freed.
    const stored = await db.prepare('SELECT host FROM ledger_hosts ORDER BY host').all<{ host: string }>()
    expect(stored.results.map((r) => r.host)).toEqual(['example.com', 'quiet.example'])
  })

  it('deletes request shapes after their own retention, and says from when the rest cover', async () => {
    await writeEvents(db, [judged({ time: now - 31 * DAY, path: '/old' }), judged({ time: now - 29 * DAY, path: '/kept' })])
    expect(await count(`SELECT count(*) AS n FROM (${SHAPE_PATHS_SQL}) WHERE path <> ''`)).toBe(2)
    expect(await pruneLedger(db, { now })).toMatchObject({ shapes: 1, complete: true })
    const { results } = await db.prepare(`SELECT path FROM (${SHAPE_PATHS_SQL}) WHERE path <> ''`).all<{ path: string }>()
    expect(results).toEqual([{ path: '/kept' }])
    expect(await count("SELECT value AS n FROM ledger_state WHERE name = 'shapes_since'")).toBe(Math.floor((now - 30 * DAY) / DAY) * DAY)
  })

  it('keeps at most maxShapeRows request shapes, whole days, newest first, and says from when they cover', async () => {
    // Shapes are not capped when written: three days of 4, 3 and 2 distinct paths.
    // An hour apart: no hour spends its sampling budget (the isolate would remember it, for the tests after).
    const day = (ago: number, n: number) => Array.from({ length: n }, (_, i) => judged({ time: now - ago * DAY + i * HOUR, path: `/d${ago}/${i}` }))
    await writeEvents(db, [...day(3, 4), ...day(2, 3), ...day(1, 2)])
    expect(await count(`SELECT count(*) AS n FROM (${SHAPE_PATHS_SQL})`)).toBe(9)
    // One pack a day (a write's paths of one group): what a write costs follows groups, not paths.
    expect(await count('SELECT count(*) AS n FROM shape_inbox')).toBe(3)
    // 5 paths fit: the newest two days (2 + 3); the third would make 9. Its pack goes, and only it.
    expect(await pruneLedger(db, { now, maxShapeRows: 5 })).toMatchObject({ shapes: 1, complete: true })
    expect(await count(`SELECT count(*) AS n FROM (${SHAPE_PATHS_SQL})`)).toBe(5)
    expect(await count("SELECT value AS n FROM ledger_state WHERE name = 'shapes_since'")).toBe(Math.floor((now - 2 * DAY) / DAY) * DAY)
  })

  it('stops when its time is up, whatever is left, and the next run goes on', async () => {
    await writeEvents(db, [judged({ time: now - 40 * DAY, path: '/old' })])
    expect(await pruneLedger(db, { now, budgetMs: 0 })).toMatchObject({ expired: 0, complete: false })
    expect(await count('SELECT count(*) AS n FROM events')).toBe(1)
    expect(await pruneLedger(db, { now })).toMatchObject({ expired: 1, complete: true })
  })

  it('deletes agents nothing refers to any more, and losses past the retention', async () => {
    await writeEvents(db, [judged({ time: now - 401 * DAY }), judged({ agent: gptbot, time: now - DAY })])
    await db
      .prepare("INSERT INTO ledger_losses (id, from_time, to_time, events, recorded_at) VALUES ('old', ?1, ?1, 3, ?1), ('new', ?2, ?2, 2, ?2)")
      .bind(now - 401 * DAY, now - DAY)
      .run()
    await rollUpLedger(db, { now, maxHours: 24 * 500 })
    expect(await pruneLedger(db, { now })).toMatchObject({ complete: true })
    const agents = await db.prepare('SELECT agent_key FROM agents').all<{ agent_key: string }>()
    expect(agents.results).toEqual([{ agent_key: 'gptbot' }])
    expect(await count('SELECT group_concat(id) AS n FROM ledger_losses')).toBe('new' as unknown as number)
  })

  it('bounds the rows one run deletes, and the next run goes on', async () => {
    await writeEvents(
      db,
      Array.from({ length: 30 }, (_, i) => judged({ agent: i % 2 ? gptbot : googlebot, time: now - 40 * DAY + i * HOUR, path: `/p/${i}` })),
    )
    expect(await pruneLedger(db, { now, maxDeletes: 12 })).toMatchObject({ expired: 12, complete: false })
    expect(await pruneLedger(db, { now, maxDeletes: 12 })).toMatchObject({ expired: 12, complete: false })
    expect(await pruneLedger(db, { now, maxDeletes: 12 })).toMatchObject({ expired: 6, complete: true })
    expect(await count('SELECT count(*) AS n FROM events')).toBe(0)
  })
})

describe('the cron', () => {
  it('rolls the hourly counters up, then prunes, and logs what it did', async () => {
    await writeEvents(db, [judged({ time: now - 40 * DAY }), judged({ time: now - 2 * DAY }), judged({ time: now - 3 * HOUR })])
    // The operators' IP-range lists are fetched too: answered here, offline.
    const fetchSpy = vi.spyOn(globalThis, 'fetch').mockImplementation(async () => new Response('not here', { status: 404 }))
    const logSpy = vi.spyOn(console, 'log').mockImplementation(() => {})
    try {
      await runUpkeep(env, now)
      const line = JSON.parse(String(logSpy.mock.calls.find((c) => String(c[0]).includes('"robotsEdge":"cron"'))?.[0]))
      expect(line.prune).toMatchObject({ rollUp: { rolledHour: now - HOUR }, expired: 1, complete: true })
      expect(await count('SELECT sum(requests) AS n FROM counts_daily')).toBe(3)
      expect(await count('SELECT count(*) AS n FROM events')).toBe(2)
    } finally {
      fetchSpy.mockRestore()
      logSpy.mockRestore()
    }
  })
})
