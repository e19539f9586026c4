// Unit tests of the D1 ledger's write path (src/ledger/ledger.ts) against a
// real local D1: classes fixed when a request is recorded, exact counters,
// sampled raw rows, capped paths; and of the Analytics Engine sink through a
// spy dataset (its writeDataPoint is a silent no-op locally).
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { toDataPoint, writeToAnalyticsEngine } from '../../src/ledger/analytics-engine.ts'
import { recordRobotsVersion, rollUpLedger, writeEvents } from '../../src/ledger/ledger.ts'
import { PATH_CAP } from '../../src/ledger/rollups.ts'
import { DAY, HOUR, MINUTE, T0, fetched, googlebot, googlebotImage, gptbot, judged, scraper } from '../support/report-fixtures.ts'
import { clearLedger } from '../support/workerd/ledger-tables.ts'

const db = env.DB

async function count(sql: string, ...params: unknown[]): Promise<number> {
  return (
    (await db
      .prepare(sql)
      .bind(...params)
      .first<number>('n')) ?? -1
  )
}

async function classes(): Promise<Record<string, number>> {
  const { results } = await db.prepare('SELECT class, sum(requests) AS n FROM counts_hourly GROUP BY class').all<{ class: string; n: number }>()
  return Object.fromEntries(results.map((r) => [r.class, r.n]))
}

beforeEach(() => clearLedger(db))

/** env.DB with its batch calls counted, and the rows they wrote. */
function countingDb() {
  const calls = { batch: 0, rowsWritten: 0 }
  const wrapped = {
    prepare: (sql: string) => db.prepare(sql),
    batch: async (statements: D1PreparedStatement[]) => {
      calls.batch++
      const results = await db.batch(statements)
      for (const r of results) calls.rowsWritten += r.meta.rows_written ?? 0
      return results
    },
  } as unknown as D1Database
  return { db: wrapped, calls }
}

const V1 = 'User-agent: *\nDisallow: /admin/\n'
const V2 = 'User-agent: *\nDisallow: /admin/\nDisallow: /drafts/\n'
const DRAFTS = { type: 'disallow', pattern: '/drafts/', line: 3 } as const

describe('schema', () => {
  it('has no column that could hold a raw IP address', async () => {
    const { results } = await db.prepare('SELECT name FROM pragma_table_info(?)').bind('events').all<{ name: string }>()
    const names = results.map((r) => r.name)
    expect(names).toContain('ip_hash')
    expect(names.filter((n) => /(^|_)ip($|_)/.test(n) && n !== 'ip_hash')).toEqual([])
  })
})

describe('writeEvents: counters', () => {
  it('counts per hour, day, host, agent, verification and class, exactly, across batches, in one batch per call', async () => {
    const { db: counted, calls } = countingDb()
    await writeEvents(counted, [
      fetched({ time: T0 }),
      judged({ time: T0 + MINUTE }),
      judged({ time: T0 + 2 * MINUTE, allowed: false, path: '/admin/a' }),
      judged({ time: T0 + 3 * MINUTE, allowed: false, path: '/admin/b', action: 'block', status: 403, mode: 'block' }),
      judged({ time: T0 + HOUR + MINUTE, agent: gptbot }),
    ])
    await writeEvents(counted, [
      judged({ time: T0 + 10 * MINUTE, allowed: false, path: '/admin/c' }),
      fetched({ time: T0 + 20 * MINUTE }),
      judged({ time: T0 + 30 * MINUTE, verification: 'spoofed', allowed: false, path: '/admin/d' }),
    ])
    expect(calls.batch).toBe(2)
    const { results } = await db
      .prepare('SELECT agent_key, hour, verification, class, requests, blocked, sampled, first_time, last_time FROM counts_hourly ORDER BY hour, agent_key, verification, class')
      .all()
    expect(results).toEqual([
      { agent_key: 'googlebot', hour: T0, verification: 'spoofed', class: 'spoofed', requests: 1, blocked: 0, sampled: 1, first_time: T0 + 30 * MINUTE, last_time: T0 + 30 * MINUTE },
      { agent_key: 'googlebot', hour: T0, verification: 'verified', class: 'afterFetch', requests: 3, blocked: 1, sampled: 3, first_time: T0 + 2 * MINUTE, last_time: T0 + 10 * MINUTE },
      { agent_key: 'googlebot', hour: T0, verification: 'verified', class: 'allowed', requests: 1, blocked: 0, sampled: 1, first_time: T0 + MINUTE, last_time: T0 + MINUTE },
      { agent_key: 'googlebot', hour: T0, verification: 'verified', class: 'robotsTxt', requests: 2, blocked: 0, sampled: 2, first_time: T0, last_time: T0 + 20 * MINUTE },
      { agent_key: 'gptbot', hour: T0 + HOUR, verification: 'verified', class: 'allowed', requests: 1, blocked: 0, sampled: 1, first_time: T0 + HOUR + MINUTE, last_time: T0 + HOUR + MINUTE },
    ])
    expect(await count('SELECT count(*) AS n FROM events')).toBe(8)
    expect((await db.prepare('SELECT * FROM robots_fetches').all()).results).toEqual([
      { host: 'example.com', agent_key: 'googlebot', robots_version: 'v1', operator: 'Google', first_fetch: T0, last_fetch: T0 + 20 * MINUTE, fetches: 2 },
    ])
    // Counted violations by rule, and disallowed requests by path.
    // Violations per rule: none written per batch; the cron adds them up from the request shapes (migrations/0070).
    expect(await count('SELECT count(*) AS n FROM rules_daily')).toBe(0)
    await rollUpLedger(db, { now: T0 })
    expect(await count('SELECT violations + derived AS n FROM rules_daily WHERE rule_line = 2')).toBe(3)
    expect(await count("SELECT count(*) AS n FROM paths_daily WHERE class = 'afterFetch' AND path <> ''")).toBe(3)
    expect(await count("SELECT count(*) AS n FROM paths_daily WHERE path = ''")).toBe(0)
    expect(await count("SELECT count(*) AS n FROM paths_daily WHERE class = 'allowed'")).toBe(0)
    expect((await db.prepare('SELECT agent_key, kind, operator, category, first_seen FROM agents ORDER BY agent_key').all()).results).toEqual([
      { agent_key: 'googlebot', kind: 'bot', operator: 'Google', category: 'Search Engine Crawler', first_seen: T0 },
      { agent_key: 'gptbot', kind: 'bot', operator: 'OpenAI', category: 'AI Crawler', first_seen: T0 + HOUR + MINUTE },
    ])
  })

  it('keeps every field of the event, agent-controlled text and the other names of an ambiguous header included', async () => {
    const path = "/x?q=' OR 1=1; DROP TABLE events; --"
    const event = {
      ...judged({ agent: scraper, path, userAgent: 'ByteScraper "quoted" \u00e9', rule: { type: 'disallow', pattern: '/x', line: 7 }, allowed: false, asn: undefined, country: undefined }),
      also: ['gptbot', 'ccbot'],
    }
    await writeEvents(db, [event])
    const row = await db.prepare('SELECT * FROM events').first<Record<string, unknown>>()
    expect(row).toMatchObject({
      type: 'request',
      time: T0,
      host: 'example.com',
      agent_key: 'bytescraper',
      agent_id: null,
      agent_tokens: 'bytescraper',
      agent_kind: 'bot',
      agent_also: 'gptbot ccbot',
      operator: null,
      obeys_robots_txt: 0,
      verification: 'verified',
      method: 'GET',
      path,
      user_agent: 'ByteScraper "quoted" \u00e9',
      allowed: 0,
      rule_type: 'disallow',
      rule_pattern: '/x',
      rule_line: 7,
      robots_group: '*',
      mode: 'log',
      action: 'pass',
      status: 0,
      robots_version: 'v1',
      country: null,
      asn: null,
      ip_hash: 'a1b2c3d4e5f60718',
      class: 'neverFetched',
      counted: 1,
    })
  })

  it('writes a large call in one batch, at most 3 rows per event', async () => {
    const { db: counted, calls } = countingDb()
    const events = Array.from({ length: 450 }, (_, i) => judged({ time: T0 + i * 1000, path: `/p/${i % 150}`, agent: i % 3 ? googlebot : gptbot }))
    expect(await writeEvents(counted, events)).toBe(450)
    expect(calls.batch).toBe(1)
    expect(calls.rowsWritten / 450).toBeLessThanOrEqual(3)
    expect(await count('SELECT sum(requests) AS n FROM counts_hourly')).toBe(450)
    expect(await writeEvents(counted, [])).toBe(0)
    expect(calls.batch).toBe(1)
  })
})

describe('writeEvents: classes', () => {
  beforeEach(async () => {
    await recordRobotsVersion(db, { host: 'example.com', hash: 'v1', text: V1, time: T0 - 10 * DAY })
    await recordRobotsVersion(db, { host: 'example.com', hash: 'v2', text: V2, time: T0 })
  })
  const bad = (o: Parameters<typeof judged>[0]) => judged({ allowed: false, robotsVersion: 'v2', path: '/admin/x', ...o })

  it('sorts disallowed requests by what the agent could have known when it asked', async () => {
    await writeEvents(db, [
      bad({ agent: scraper, time: T0 + 30 * HOUR }),
      fetched({ agent: gptbot, time: T0 + 30 * HOUR, robotsVersion: 'v2' }),
      bad({ agent: gptbot, time: T0 + 30 * HOUR + 1 }),
      fetched({ agent: googlebot, time: T0 - DAY, robotsVersion: 'v1' }),
      bad({ agent: googlebot, time: T0 + 30 * HOUR }),
      // A sibling of the operator read the version in force.
      bad({ agent: googlebotImage, time: T0 + 30 * HOUR + 5 }),
      fetched({ agent: googlebot, time: T0 + 30 * HOUR + 2, robotsVersion: 'v2' }),
      bad({ agent: gptbot, time: T0 + 31 * HOUR, verification: 'spoofed' }),
      bad({ agent: gptbot, time: T0 + 31 * HOUR, verification: 'unknown' }),
    ])
    const rows = (await db.prepare("SELECT agent_key, verification, class FROM events WHERE type = 'request' ORDER BY time, agent_key, verification").all()).results
    expect(rows).toEqual([
      { agent_key: 'bytescraper', verification: 'verified', class: 'neverFetched' },
      { agent_key: 'googlebot', verification: 'verified', class: 'staleCopy' },
      { agent_key: 'gptbot', verification: 'verified', class: 'afterFetch' },
      { agent_key: 'googlebot-image', verification: 'verified', class: 'afterFetch' },
      { agent_key: 'gptbot', verification: 'spoofed', class: 'spoofed' },
      { agent_key: 'gptbot', verification: 'unknown', class: 'unknown' },
    ])
  })

  it('gives grace within 24 h of a change, for what the previous version allowed, to an agent that had not read the new one', async () => {
    await writeEvents(db, [
      bad({ agent: scraper, time: T0 + 2 * HOUR, path: '/drafts/a', rule: DRAFTS }),
      bad({ agent: scraper, time: T0 + 2 * HOUR, path: '/admin/a' }),
      bad({ agent: scraper, time: T0 + 25 * HOUR, path: '/drafts/b', rule: DRAFTS }),
      fetched({ agent: gptbot, time: T0 + HOUR, robotsVersion: 'v2' }),
      bad({ agent: gptbot, time: T0 + 2 * HOUR, path: '/drafts/c', rule: DRAFTS }),
    ])
    expect(await classes()).toEqual({ grace: 1, neverFetched: 2, afterFetch: 1, robotsTxt: 1 })
    expect(await count("SELECT count(*) AS n FROM events WHERE class = 'grace' AND path = '/drafts/a' AND counted = 0")).toBe(1)
  })

  it('does not hold "never fetched" against a crawler in the first 24 h after robots-edge first served the host', async () => {
    await recordRobotsVersion(db, { host: 'new.example', hash: 'n1', text: V1, time: T0 })
    await writeEvents(db, [
      bad({ host: 'new.example', robotsVersion: 'n1', agent: scraper, time: T0 + 23 * HOUR }),
      bad({ host: 'new.example', robotsVersion: 'n1', agent: scraper, time: T0 + 24 * HOUR }),
      // Read the rules, then broke them: no excuse.
      fetched({ host: 'new.example', robotsVersion: 'n1', agent: gptbot, time: T0 + HOUR }),
      bad({ host: 'new.example', robotsVersion: 'n1', agent: gptbot, time: T0 + 2 * HOUR }),
    ])
    expect(await classes()).toEqual({ newHost: 1, neverFetched: 1, afterFetch: 1, robotsTxt: 1 })
  })
})

describe('writeEvents: sampling and caps', () => {
  it('keeps raw rows up to the budget per agent, hour and class, and counts every request', async () => {
    const many = (n: number, offset: number) => Array.from({ length: n }, (_, i) => judged({ time: T0 + (offset + i) * 1000, path: `/p/${i}` }))
    await writeEvents(db, many(7, 0), { sampleBudget: 10 })
    await writeEvents(db, [...many(7, 7), ...Array.from({ length: 3 }, (_, i) => judged({ time: T0 + i, allowed: false, path: '/admin/x' }))], { sampleBudget: 10 })
    await writeEvents(db, many(5, (2 * HOUR) / 1000), { sampleBudget: 10 })
    expect(await count('SELECT sum(requests) AS n FROM counts_hourly')).toBe(22)
    expect(await count("SELECT count(*) AS n FROM events WHERE class = 'allowed'")).toBe(15)
    expect(await count("SELECT count(*) AS n FROM events WHERE class = 'neverFetched'")).toBe(3)
    expect((await db.prepare('SELECT hour, class, requests, sampled FROM counts_hourly ORDER BY hour, class').all()).results).toEqual([
      { hour: T0, class: 'allowed', requests: 14, sampled: 10 },
      { hour: T0, class: 'neverFetched', requests: 3, sampled: 3 },
      { hour: T0 + 2 * HOUR, class: 'allowed', requests: 5, sampled: 5 },
    ])
    await rollUpLedger(db, { now: T0 + DAY })
    expect(await count("SELECT sampled AS n FROM counts_daily WHERE class = 'allowed'")).toBe(15)
  })

  it('shares the budget of an agent, hour, verification and class over every host: the raw rows and each counter sampled agree', async () => {
    const on = (host: string, n: number, offset: number) => Array.from({ length: n }, (_, i) => judged({ host, time: T0 + offset + i, path: `/p/${host}/${i}` }))
    // Interleaved hosts in one call, then another call: 4 kept of 9, over both hosts, in the order they came.
    await writeEvents(db, [...on('a.example', 2, 0), ...on('b.example', 3, 10), ...on('a.example', 1, 20)], { sampleBudget: 4 })
    await writeEvents(db, [...on('b.example', 2, 30), ...on('a.example', 1, 40)], { sampleBudget: 4 })
    // Another verification is its own group.
    await writeEvents(db, [judged({ host: 'b.example', time: T0 + 50, verification: 'unverified' })], { sampleBudget: 4 })
    expect((await db.prepare('SELECT host, verification, requests, sampled FROM counts_hourly ORDER BY host, verification').all()).results).toEqual([
      { host: 'a.example', verification: 'verified', requests: 4, sampled: 2 },
      { host: 'b.example', verification: 'unverified', requests: 1, sampled: 1 },
      { host: 'b.example', verification: 'verified', requests: 5, sampled: 2 },
    ])
    expect((await db.prepare('SELECT host, count(*) AS n FROM events GROUP BY host ORDER BY host').all()).results).toEqual([
      { host: 'a.example', n: 2 },
      { host: 'b.example', n: 3 },
    ])
    expect(await count('SELECT sum(requests) AS n FROM counts_hourly')).toBe(10)
  })

  it('gives the first paths of a day their own row, exactly counted, and writes nothing for the rest (the counters hold it)', async () => {
    const cap = PATH_CAP
    const events = Array.from({ length: cap + 30 }, (_, i) => judged({ time: T0 + i, path: `/admin/${i}`, allowed: false, agent: scraper }))
    await writeEvents(db, events.slice(0, 60))
    await writeEvents(db, events.slice(60))
    await writeEvents(db, [judged({ time: T0 + HOUR, path: '/admin/0', allowed: false, agent: scraper })])
    expect(await count("SELECT count(*) AS n FROM paths_daily WHERE path <> ''")).toBe(cap)
    expect(await count("SELECT count(*) AS n FROM paths_daily WHERE path = ''")).toBe(0)
    expect(await count("SELECT requests AS n FROM paths_daily WHERE path = '/admin/0'")).toBe(2)
    expect(await count('SELECT sum(requests) AS n FROM paths_daily')).toBe(cap + 1)
    // The rest of the group: its counted total less its rows.
    expect(await count("SELECT sum(requests) AS n FROM counts_hourly WHERE class = 'neverFetched'")).toBe(cap + 31)
  })
})

describe('rollUpLedger', () => {
  it('adds up the hours that ended over an hour ago into days and the timeline, once; a late request goes there directly', async () => {
    await writeEvents(db, [
      judged({ time: T0 }),
      judged({ time: T0 + HOUR, allowed: false, path: '/admin/x' }),
      judged({ time: T0 + 2 * HOUR }),
      judged({ time: T0 + 3 * HOUR, verification: 'spoofed' }),
      judged({ time: T0 + 3 * HOUR, agent: { tokens: ['curl'], kind: 'tool', obeysRobotsTxt: false } }),
    ])
    // At T0 + 3 h 30 min, hours T0 and T0 + 1 h ended over an hour ago.
    expect(await rollUpLedger(db, { now: T0 + 3.5 * HOUR })).toEqual({ rolledHour: T0 + 2 * HOUR, hours: 2 })
    expect(await count('SELECT sum(requests) AS n FROM counts_daily')).toBe(2)
    expect(await rollUpLedger(db, { now: T0 + 3.5 * HOUR })).toEqual({ rolledHour: T0 + 2 * HOUR, hours: 0 })
    await writeEvents(db, [judged({ time: T0 + 30 * 60_000 })])
    expect(await count('SELECT sum(requests) AS n FROM counts_daily')).toBe(3)
    // Spans of at most an hour, hours with nothing counted skipped: up to the hour before the last.
    expect(await rollUpLedger(db, { now: T0 + DAY, maxHours: 1 })).toEqual({ rolledHour: T0 + 23 * HOUR, hours: 2 })
    expect(await rollUpLedger(db, { now: T0 + DAY })).toEqual({ rolledHour: T0 + 23 * HOUR, hours: 0 })
    expect(await count('SELECT sum(requests) AS n FROM counts_daily')).toBe(6)
    // The timeline: crawlers' genuine requests only (the spoofed claim and the tool left out).
    expect((await db.prepare('SELECT hour, requests, violations FROM timeline_hourly ORDER BY hour').all()).results).toEqual([
      { hour: T0, requests: 2, violations: 0 },
      { hour: T0 + HOUR, requests: 1, violations: 1 },
      { hour: T0 + 2 * HOUR, requests: 1, violations: 0 },
    ])
  })
})

describe('recordRobotsVersion', () => {
  it('keeps the first-served time and the text, and when the host was first served', async () => {
    await recordRobotsVersion(db, { host: 'example.com', hash: 'v1', text: V1, time: T0 })
    await recordRobotsVersion(db, { host: 'example.com', hash: 'v1', text: V1, time: T0 + DAY })
    // Another isolate that served it earlier but reports late still moves it back.
    await recordRobotsVersion(db, { host: 'example.com', hash: 'v1', text: V1, time: T0 - HOUR })
    await recordRobotsVersion(db, { host: 'other.example', hash: 'v1', text: V1, time: T0 + DAY })
    const { results } = await db.prepare('SELECT host, hash, first_served, text FROM robots_versions ORDER BY host').all()
    expect(results).toEqual([
      { host: 'example.com', hash: 'v1', first_served: T0 - HOUR, text: V1 },
      { host: 'other.example', hash: 'v1', first_served: T0 + DAY, text: V1 },
    ])
    expect((await db.prepare('SELECT host, first_served FROM robots_hosts ORDER BY host').all()).results).toEqual([
      { host: 'example.com', first_served: T0 - HOUR },
      { host: 'other.example', first_served: T0 + DAY },
    ])
  })
})

describe('Analytics Engine', () => {
  it('lays a data point out as documented, with the class the event alone decides', () => {
    const point = toDataPoint(judged({ allowed: false, path: '/admin/x', action: 'block', status: 403, mode: 'block' }))
    expect(point.indexes).toEqual(['googlebot'])
    expect(point.blobs).toEqual([
      'request',
      'example.com',
      'googlebot',
      'Google',
      'Search Engine Crawler',
      'verified',
      'GET',
      '/admin/x',
      'disallow',
      '/admin/',
      '*',
      'block',
      'block',
      'v1',
      'US',
      'bot',
      'a1b2c3d4e5f60718',
      'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
      // A genuine claim's disallowed request: only D1 classifies it, after the point is written.
      '',
      '',
    ])
    expect(point.doubles).toEqual([0, 2, 403, 15169, 1])
    expect(toDataPoint(judged({ agent: scraper, asn: undefined, country: undefined })).doubles).toEqual([1, 0, 0, 0, 1])
    expect(toDataPoint(fetched()).blobs?.[18]).toBe('robotsTxt')
  })

  it('writes one point per event and skips one the dataset refuses', () => {
    const points: AnalyticsEngineDataPoint[] = []
    const dataset: AnalyticsEngineDataset = {
      writeDataPoint(point) {
        if (point?.blobs?.[7] === '/refused') throw new Error('too large')
        points.push(point!)
      },
    }
    expect(writeToAnalyticsEngine(dataset, [judged(), judged({ path: '/refused' }), fetched()])).toBe(2)
    expect(points.map((p) => p.blobs?.[0])).toEqual(['request', 'robots-txt'])
  })

  it('writes the class the event alone decides, and none where only D1 can', () => {
    const classes = [fetched({ agent: gptbot }), judged({ agent: gptbot, allowed: false, path: '/admin/1' }), judged({ verification: 'spoofed', allowed: false }), judged({ agent: scraper })].map(
      (e) => toDataPoint(e).blobs?.[18],
    )
    expect(classes).toEqual(['robotsTxt', '', 'spoofed', 'allowed'])
  })
})
