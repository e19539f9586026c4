// The timeline's bin follows the span of activity (src/admin/coverage.ts
// timelineBinFor, src/admin/queries.ts): a first minute of traffic reads per
// minute from timeline_minutes (migrations/0060), not as one hourly spike;
// minutes the ledger no longer holds, or never wrote, leave the exact hourly
// bins. Once through the real Worker entry, then against a seeded ledger.
import { env, SELF } from 'cloudflare:test'
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import googlebotRanges from '../fixtures/ip-ranges/googlebot.json?raw'
import { getReport } from '../../src/admin/queries.ts'
import { recordRobotsVersion, writeEvents } from '../../src/ledger/ledger.ts'
import { pruneLedger } from '../../src/ledger/prune.ts'
import { refreshIpRanges } from '../../src/verify/store/ip-ranges.ts'
import { DAY, HOUR, MINUTE, T0, googlebot, gptbot, judged } from '../support/report-fixtures.ts'
import { clearLedger } from '../support/workerd/ledger-tables.ts'

const db = env.DB
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'
const GOOGLE_IP = '66.249.64.5'
const sum = (bins: readonly { requests: number }[]) => bins.reduce((n, b) => n + b.requests, 0)

beforeAll(async () => {
  const fetchFn = async (url: string) => (url.endsWith('/common-crawlers.json') ? new Response(googlebotRanges) : new Response('not found', { status: 404 }))
  await refreshIpRanges(env.ROBOTS_KV, fetchFn)
})

beforeEach(async () => {
  await clearLedger(db)
})

describe('the timeline through the Worker entry', () => {
  it('bins a first minute of verified traffic per minute, named so in the report', async () => {
    const paths = ['/', '/articles/1', '/private/memo', '/articles/2', '/private/memo']
    for (const path of paths) {
      const res = await SELF.fetch(`http://localhost${path}`, { headers: { 'User-Agent': GOOGLEBOT, 'CF-Connecting-IP': GOOGLE_IP } })
      await res.arrayBuffer()
    }
    // Recording runs in waitUntil: wait for the counters, bounded.
    let counted = 0
    for (let i = 0; i < 100 && counted < paths.length; i++) {
      counted = (await db.prepare('SELECT coalesce(sum(requests), 0) AS n FROM timeline_minutes').first<{ n: number }>())!.n
      if (counted < paths.length) await new Promise((r) => setTimeout(r, 20))
    }
    expect(counted).toBe(paths.length)
    const res = await SELF.fetch('http://localhost/_robots/api/report', { headers: { Authorization: 'Bearer test-admin-token' } })
    expect(res.status).toBe(200)
    const report = (await res.json()) as { timelineBin: number; timeline: { hour: number; requests: number; violations: number }[] }
    expect(report.timelineBin).toBe(MINUTE)
    expect(sum(report.timeline)).toBe(paths.length)
    for (const b of report.timeline) expect(b.hour % MINUTE).toBe(0)
    // All within a minute or two of now, not one bin at the start of the hour.
    expect(report.timeline.at(-1)!.hour).toBeGreaterThan(Date.now() - 3 * MINUTE)
  })
})

describe('the timeline against a seeded ledger', () => {
  it('reads minutes for activity up to three hours before the range’s end, with the same totals as the hours', async () => {
    // The hour before this one: minutes are written for requests up to three hours old when recorded.
    const T0 = Math.floor(Date.now() / HOUR) * HOUR - HOUR
    const range = { since: T0 - 7 * DAY, until: T0 + HOUR }
    await writeEvents(db, [
      judged({ time: T0 + 5 * MINUTE }),
      judged({ time: T0 + 5 * MINUTE + 1 }),
      judged({ time: T0 + 7 * MINUTE, path: '/admin/x', allowed: false }),
      judged({ agent: gptbot, time: T0 + 9 * MINUTE, verification: 'unverified' }),
      // Spoofed and unchecked claims are not on the timeline, whatever the bin.
      judged({ time: T0 + 9 * MINUTE, verification: 'spoofed' }),
      judged({ time: T0 + 9 * MINUTE, verification: 'unknown' }),
    ])
    const report = await getReport(db, range)
    expect(report.timelineBin).toBe(MINUTE)
    expect(report.timeline).toEqual([
      { hour: T0 + 5 * MINUTE, requests: 2, violations: 0 },
      { hour: T0 + 7 * MINUTE, requests: 1, violations: expect.any(Number) },
      { hour: T0 + 9 * MINUTE, requests: 1, violations: 0 },
    ])
    const hourly = await getReport(db, { since: T0 - 7 * DAY, until: T0 + 5 * HOUR })
    expect(hourly.timelineBin).toBe(HOUR)
    expect(hourly.timeline).toEqual([{ hour: T0, requests: 4, violations: report.timeline[1]!.violations }])
    // By category too; one agent's timeline reads hours (minutes are counted per host and category, not per agent).
    const category = await getReport(db, { ...range, category: 'AI Crawler' })
    expect(category.timelineBin).toBe(MINUTE)
    expect(category.timeline).toEqual([{ hour: T0 + 9 * MINUTE, requests: 1, violations: 0 }])
    const agent = await getReport(db, { ...range, agent: 'gptbot' })
    expect(agent.timelineBin).toBe(HOUR)
    expect(agent.timeline).toEqual([{ hour: T0, requests: 1, violations: 0 }])
  })

  it('reads hours for a long range whose activity spans two days, days beyond a week', async () => {
    await writeEvents(db, [judged({ agent: googlebot, time: T0 - 40 * HOUR }), judged({ time: T0 })])
    const month = { since: T0 - 30 * DAY, until: T0 + HOUR }
    const report = await getReport(db, month)
    expect(report.timelineBin).toBe(HOUR)
    expect(report.timeline.map((b) => b.hour)).toEqual([T0 - 40 * HOUR, T0])
    await writeEvents(db, [judged({ time: T0 - 20 * DAY })])
    expect((await getReport(db, month)).timelineBin).toBe(DAY)
  })

  it('keeps the hourly bins where minutes are missing (pruned after two days, or recorded before migration 0060)', async () => {
    const now = Date.now()
    await writeEvents(db, [judged({ time: now - 10 * MINUTE }), judged({ time: now - 3 * DAY })])
    // A late request, recorded days after it was made: counted per hour, no minute row.
    expect((await db.prepare('SELECT count(*) AS n FROM timeline_minutes').first<{ n: number }>())!.n).toBe(1)
    // Two hours back: counts start at the first whole hour in the range, which holds the event at any minute of the clock.
    const recent = { since: now - 2 * HOUR, until: now }
    expect((await getReport(db, recent)).timelineBin).toBe(MINUTE)
    await db
      .prepare('INSERT INTO timeline_minutes VALUES (?1, ?2, ?3, 1, 0)')
      .bind(now - 3 * DAY, 'example.com', 'Search Engine Crawler')
      .run()
    await pruneLedger(db, { now })
    // The recent minute survives the prune; the old one is gone.
    const minutes = (await db.prepare('SELECT minute FROM timeline_minutes').all<{ minute: number }>()).results
    expect(minutes).toEqual([{ minute: Math.floor((now - 10 * MINUTE) / MINUTE) * MINUTE }])
    await db.prepare('DELETE FROM timeline_minutes').run()
    const report = await getReport(db, recent)
    expect(report.timelineBin).toBe(HOUR)
    expect(sum(report.timeline)).toBe(1)
  })

  it('writes minutes in a host’s first six hours only, and reads hours after, exactly', async () => {
    const now = Date.now()
    await recordRobotsVersion(db, { host: 'new.example', hash: 'n1', text: 'User-agent: *\nDisallow: /private/\n', time: now - HOUR })
    await recordRobotsVersion(db, { host: 'old.example', hash: 'o1', text: 'User-agent: *\nDisallow: /private/\n', time: now - 7 * HOUR })
    await writeEvents(db, [judged({ host: 'new.example', robotsVersion: 'n1', time: now - MINUTE }), judged({ host: 'old.example', robotsVersion: 'o1', time: now - MINUTE })])
    const hosts = (await db.prepare('SELECT host FROM timeline_minutes').all<{ host: string }>()).results
    expect(hosts).toEqual([{ host: 'new.example' }])
    // The old host's short range has no minutes: its hours, which add up.
    const report = await getReport(db, { since: now - 2 * HOUR, until: now, host: 'old.example' })
    expect(report.timelineBin).toBe(HOUR)
    expect(sum(report.timeline)).toBe(1)
    expect((await getReport(db, { since: now - 2 * HOUR, until: now, host: 'new.example' })).timelineBin).toBe(MINUTE)
  })
})
