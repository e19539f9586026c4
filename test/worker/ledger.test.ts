// Unit tests of the D1 ledger (src/storage/ledger.ts) against a real local D1,
// and of the Analytics Engine sink through a spy dataset (its writeDataPoint
// is a silent no-op locally).
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { toDataPoint, writeToAnalyticsEngine } from '../../src/storage/analytics-engine.ts'
import { pruneLedger, recordRobotsVersion, writeEvents } from '../../src/storage/ledger.ts'
import { DAY, HOUR, MINUTE, T0, fetched, gptbot, judged, scraper } from '../report/fixtures.ts'

const db = env.DB

async function count(sql: string, ...params: unknown[]): Promise<number> {
  return (await db.prepare(sql).bind(...params).first<number>('n')) ?? -1
}

beforeEach(async () => {
  await db.batch(['events', 'agent_hourly', 'robots_fetches', 'robots_versions'].map((t) => db.prepare(`DELETE FROM ${t}`)))
})

/** env.DB with its batch calls counted. */
function countingDb() {
  const calls = { batch: 0 }
  const wrapped = {
    prepare: (sql: string) => db.prepare(sql),
    batch: (statements: D1PreparedStatement[]) => {
      calls.batch++
      return db.batch(statements)
    },
  } as unknown as D1Database
  return { db: wrapped, calls }
}

describe('schema', () => {
  it('has no column that could hold a raw IP address', async () => {
    const { results } = await db.prepare('SELECT name FROM pragma_table_info(?)').bind('events').all<{ name: string }>()
    const names = results.map((r) => r.name)
    expect(names).toContain('ip_hash')
    expect(names.filter((n) => /(^|_)ip($|_)/.test(n) && n !== 'ip_hash')).toEqual([])
  })
})

describe('writeEvents', () => {
  it('stores raw events and hourly rollups that add up across batches', async () => {
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
    expect(await count('SELECT count(*) AS n FROM events')).toBe(8)
    expect(await count("SELECT count(*) AS n FROM events WHERE type = 'robots-txt'")).toBe(2)

    const { results } = await db
      .prepare('SELECT host, hour, agent_key, verification, requests, disallowed, blocked, robots_fetches FROM agent_hourly ORDER BY hour, agent_key, verification')
      .all()
    expect(results).toEqual([
      { host: 'example.com', hour: T0, agent_key: 'googlebot', verification: 'spoofed', requests: 1, disallowed: 1, blocked: 0, robots_fetches: 0 },
      { host: 'example.com', hour: T0, agent_key: 'googlebot', verification: 'verified', requests: 4, disallowed: 3, blocked: 1, robots_fetches: 2 },
      { host: 'example.com', hour: T0 + HOUR, agent_key: 'gptbot', verification: 'verified', requests: 1, disallowed: 0, blocked: 0, robots_fetches: 0 },
    ])
    const fetches = await db.prepare('SELECT * FROM robots_fetches').all()
    expect(fetches.results).toEqual([
      { host: 'example.com', agent_key: 'googlebot', robots_version: 'v1', operator: 'Google', first_fetch: T0, last_fetch: T0 + 20 * MINUTE, fetches: 2 },
    ])
  })

  it('keeps every field of the event, agent-controlled text included', async () => {
    const path = "/x?q=' OR 1=1; DROP TABLE events; --"
    await writeEvents(db, [judged({ agent: scraper, path, userAgent: 'ByteScraper "quoted" \u00e9', rule: { type: 'disallow', pattern: '/x', line: 7 }, allowed: false, asn: undefined, country: undefined })])
    const row = await db.prepare('SELECT * FROM events').first<Record<string, unknown>>()
    expect(row).toMatchObject({
      type: 'request', time: T0, host: 'example.com', agent_key: 'bytescraper', agent_id: null, agent_tokens: 'bytescraper',
      agent_kind: 'bot', operator: null, obeys_robots_txt: 0, verification: 'verified', method: 'GET', path,
      user_agent: 'ByteScraper "quoted" \u00e9', allowed: 0, rule_type: 'disallow', rule_pattern: '/x', rule_line: 7,
      robots_group: '*', mode: 'log', action: 'pass', status: 0, robots_version: 'v1', country: null, asn: null, ip_hash: 'a1b2c3d4e5f60718',
    })
  })

  it('writes a large call in one batch however many statements it needs', async () => {
    const { db: counted, calls } = countingDb()
    const events = Array.from({ length: 250 }, (_, i) => judged({ time: T0 + i * 1000, path: `/p/${i}` }))
    expect(await writeEvents(counted, events)).toBe(250)
    expect(calls.batch).toBe(1)
    expect(await count('SELECT count(*) AS n FROM events')).toBe(250)
    expect(await count('SELECT requests AS n FROM agent_hourly')).toBe(250)
    expect(await writeEvents(counted, [])).toBe(0)
    expect(calls.batch).toBe(1)
  })
})

describe('recordRobotsVersion', () => {
  it('keeps the first-served time and the text', async () => {
    await recordRobotsVersion(db, { host: 'example.com', hash: 'v1', text: 'User-agent: *\nDisallow: /admin/\n', time: T0 })
    await recordRobotsVersion(db, { host: 'example.com', hash: 'v1', text: 'User-agent: *\nDisallow: /admin/\n', time: T0 + DAY })
    // Another isolate that served it earlier but reports late still moves it back.
    await recordRobotsVersion(db, { host: 'example.com', hash: 'v1', text: 'User-agent: *\nDisallow: /admin/\n', time: T0 - HOUR })
    await recordRobotsVersion(db, { host: 'other.example', hash: 'v1', text: 'User-agent: *\nDisallow: /admin/\n', time: T0 + DAY })
    const { results } = await db.prepare('SELECT host, hash, first_served, text FROM robots_versions ORDER BY host').all()
    expect(results).toEqual([
      { host: 'example.com', hash: 'v1', first_served: T0 - HOUR, text: 'User-agent: *\nDisallow: /admin/\n' },
      { host: 'other.example', hash: 'v1', first_served: T0 + DAY, text: 'User-agent: *\nDisallow: /admin/\n' },
    ])
  })
})

describe('pruneLedger', () => {
  it('deletes raw events past the window, then the oldest beyond the cap, and old rollups', async () => {
    const now = T0 + 100 * DAY
    await writeEvents(db, [
      judged({ time: now - 400 * DAY - HOUR, path: '/ancient' }),
      judged({ time: now - 31 * DAY, path: '/old-1' }),
      judged({ time: now - 30 * DAY - 1, path: '/old-2' }),
      ...Array.from({ length: 6 }, (_, i) => judged({ time: now - (6 - i) * DAY, path: `/recent/${i}` })),
    ])
    await recordRobotsVersion(db, { host: 'example.com', hash: 'v1', text: '', time: now - 500 * DAY })
    const result = await pruneLedger(db, { now, maxRawEvents: 4 })
    expect(result).toEqual({ expired: 3, thinned: 2, rollups: 1 })
    const { results } = await db.prepare('SELECT path FROM events ORDER BY time').all<{ path: string }>()
    expect(results.map((r) => r.path)).toEqual(['/recent/2', '/recent/3', '/recent/4', '/recent/5'])
    // Rollups within 400 days stay, and so does every robots.txt version.
    expect(await count('SELECT sum(requests) AS n FROM agent_hourly')).toBe(8)
    expect(await count('SELECT count(*) AS n FROM robots_versions')).toBe(1)
    expect(await pruneLedger(db, { now, maxRawEvents: 4 })).toEqual({ expired: 0, thinned: 0, rollups: 0 })
  })

  it('honours a custom window', async () => {
    await writeEvents(db, [judged({ time: T0 - 2 * DAY }), judged({ time: T0 })])
    expect(await pruneLedger(db, { now: T0, rawRetentionDays: 1 })).toMatchObject({ expired: 1, thinned: 0 })
  })
})

describe('Analytics Engine', () => {
  it('lays a data point out as documented', () => {
    const point = toDataPoint(judged({ allowed: false, path: '/admin/x', action: 'block', status: 403, mode: 'block' }))
    expect(point.indexes).toEqual(['googlebot'])
    expect(point.blobs).toEqual([
      'request', 'example.com', 'googlebot', 'Google', 'Search Engine Crawler', 'verified', 'GET', '/admin/x',
      'disallow', '/admin/', '*', 'block', 'block', 'v1', 'US', 'bot', 'a1b2c3d4e5f60718',
      'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
    ])
    expect(point.doubles).toEqual([0, 2, 403, 15169, 1])
    expect(toDataPoint(judged({ agent: scraper, asn: undefined, country: undefined })).doubles).toEqual([1, 0, 0, 0, 1])
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
})
