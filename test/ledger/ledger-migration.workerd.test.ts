// The upgrade from the first ledger (migrations 0001-0002) keeps its data:
// a ledger written the old way, raw events and hourly rollups, is migrated
// by 0003 and later and read back through the new report and drill-down.
import { applyD1Migrations, env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import type { JudgedRequest } from '../../src/core/events.ts'
import { getAgentRequests, getReport } from '../../src/admin/queries.ts'
import type { Report } from '../../src/admin/types.ts'
import { writeEvents } from '../../src/ledger/ledger.ts'
import { EVENT_COLUMNS, hourOf, summariseFetches, toEventRow } from '../../src/ledger/rollups.ts'
import { DAY, HOUR, MINUTE, T0, ccbot, fetched, googlebot, gptbot, judged, scraper } from '../support/report-fixtures.ts'
import { LEDGER_TABLES } from '../support/workerd/ledger-tables.ts'

const db = env.DB
const V1 = 'User-agent: *\nDisallow: /admin/\n'
const V2 = 'User-agent: *\nDisallow: /admin/\nDisallow: /drafts/\n'
const DRAFTS = { type: 'disallow', pattern: '/drafts/', line: 3 } as const
const ALL = { since: T0 - 30 * DAY, until: T0 + 30 * DAY }

/** Every table the migrations create (today's, and the first ledger's agent_hourly), and wrangler's record of which ran. */
const TABLES = [...LEDGER_TABLES, 'agent_hourly', 'd1_migrations']

const OLD_COLUMNS = EVENT_COLUMNS.filter((c) => c !== 'agent_also')
const json = (cols: readonly string[]) => cols.map((c) => `value ->> '$.${c}'`).join(', ')

/** What the first version's writeEvents did: raw rows, per-hour rollups and the fetch summary, in one batch. */
async function writeTheOldWay(events: readonly JudgedRequest[]): Promise<void> {
  const rollups = new Map<
    string,
    {
      host: string
      hour: number
      agent_key: string
      verification: string
      operator: string | null
      category: string | null
      requests: number
      disallowed: number
      blocked: number
      robots_fetches: number
    }
  >()
  for (const e of events) {
    const row = toEventRow(e)
    const id = `${row.host}\n${hourOf(row.time)}\n${row.agent_key}\n${row.verification}`
    const r = rollups.get(id) ?? {
      host: row.host,
      hour: hourOf(row.time),
      agent_key: row.agent_key,
      verification: row.verification,
      operator: row.operator,
      category: row.category,
      requests: 0,
      disallowed: 0,
      blocked: 0,
      robots_fetches: 0,
    }
    if (e.type === 'robots-txt') r.robots_fetches++
    else {
      r.requests++
      if (!e.allowed) r.disallowed++
      if (e.action === 'block') r.blocked++
    }
    rollups.set(id, r)
  }
  await writeOldRollups([...rollups.values()], events)
}

async function writeOldRollups(rollups: readonly object[], events: readonly JudgedRequest[] = []): Promise<void> {
  const hourly = ['host', 'hour', 'agent_key', 'verification', 'operator', 'category', 'requests', 'disallowed', 'blocked', 'robots_fetches']
  const fetches = ['host', 'agent_key', 'robots_version', 'operator', 'first_fetch', 'last_fetch', 'fetches']
  const statements = [db.prepare(`INSERT INTO agent_hourly (${hourly.join(', ')}) SELECT ${json(hourly)} FROM json_each(?)`).bind(JSON.stringify(rollups))]
  if (events.length > 0) {
    statements.push(
      db.prepare(`INSERT INTO events (${OLD_COLUMNS.join(', ')}) SELECT ${json(OLD_COLUMNS)} FROM json_each(?)`).bind(JSON.stringify(events.map(toEventRow))),
      db
        .prepare(`INSERT INTO robots_fetches (${fetches.join(', ')}) SELECT ${json(fetches)} FROM json_each(?) WHERE true
        ON CONFLICT (host, agent_key, robots_version) DO UPDATE SET fetches = fetches + excluded.fetches`)
        .bind(JSON.stringify(summariseFetches(events))),
    )
  }
  await db.batch(statements)
}

const agentOf = (report: Report, key: string) => report.agents.find((a) => a.agentKey === key)

describe('migrating the first ledger', () => {
  it('keeps its raw events and hourly rollups, classified, counted and readable through the new report', async () => {
    await db.batch(TABLES.map((t) => db.prepare(`DROP TABLE IF EXISTS ${t}`)))
    await applyD1Migrations(db, env.TEST_MIGRATIONS.slice(0, 2))
    expect(await db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'agent_hourly'").first<number>('n')).toBe(1)

    await db.batch([
      db.prepare('INSERT INTO robots_versions (host, hash, text, first_served) VALUES (?, ?, ?, ?)').bind('example.com', 'v1', V1, T0 - 10 * DAY),
      db.prepare('INSERT INTO robots_versions (host, hash, text, first_served) VALUES (?, ?, ?, ?)').bind('example.com', 'v2', V2, T0),
    ])
    const v2 = { robotsVersion: 'v2' }
    await writeTheOldWay([
      fetched({ agent: gptbot, time: T0 + 25 * HOUR, ...v2 }),
      ...Array.from({ length: 24 }, (_, i) => judged({ agent: gptbot, time: T0 + 25 * HOUR + (i + 1) * MINUTE, path: `/page/${i}`, ...v2 })),
      ...[1, 2, 3].map((i) => judged({ agent: gptbot, time: T0 + 26 * HOUR + i, path: `/admin/${i}`, allowed: false, ...v2 })),
      ...Array.from({ length: 27 }, (_, i) => judged({ agent: scraper, verification: 'unverified', time: T0 + 30 * HOUR + i, path: `/p/${i}`, ...v2 })),
      ...[1, 2, 3].map((i) => judged({ agent: scraper, verification: 'unverified', time: T0 + 31 * HOUR + i, path: `/admin/${i}`, allowed: false, ...v2 })),
      fetched({ agent: ccbot, time: T0 - 2 * DAY, robotsVersion: 'v1' }),
      judged({ agent: ccbot, time: T0 + 30 * HOUR, path: '/drafts/late', allowed: false, rule: DRAFTS, ...v2 }),
      fetched({ agent: googlebot, time: T0 + 25 * HOUR, ...v2 }),
      ...Array.from({ length: 25 }, (_, i) => judged({ agent: googlebot, time: T0 + 26 * HOUR + i * MINUTE, path: `/g/${i}`, ...v2 })),
      ...[1, 2].map((i) => judged({ time: T0 + 27 * HOUR + i, path: `/admin/${i}`, allowed: false, verification: 'spoofed', ...v2 })),
    ])
    // An hour whose raw rows the old cap had pruned: only its rollup is left.
    await writeOldRollups([
      {
        host: 'example.com',
        hour: T0 - 5 * DAY,
        agent_key: 'gptbot',
        verification: 'verified',
        operator: 'OpenAI',
        category: 'AI Crawler',
        requests: 10,
        disallowed: 4,
        blocked: 0,
        robots_fetches: 1,
      },
    ])

    await applyD1Migrations(db, env.TEST_MIGRATIONS)
    expect(await db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'agent_hourly'").first<number>('n')).toBe(0)

    const report = await getReport(db, ALL)
    expect(agentOf(report, 'gptbot')).toMatchObject({
      verdict: 'ignores robots.txt',
      operator: 'OpenAI',
      category: 'AI Crawler',
      evidence: { requests: 37, disallowed: 7, robotsFetches: 2, violations: { afterFetch: 3, counted: 3, unclassified: 4 } },
    })
    expect(agentOf(report, 'bytescraper')).toMatchObject({ verdict: 'ignores robots.txt', evidence: { requests: 30, violations: { neverFetched: 3, counted: 3 } } })
    expect(agentOf(report, 'ccbot')).toMatchObject({ verdict: 'isolated violations', evidence: { violations: { staleCopy: 1, counted: 1 }, robotsFetches: 1 } })
    expect(agentOf(report, 'googlebot')).toMatchObject({ verdict: 'complies', evidence: { requests: 25, verifiedShare: 1, restricted: true } })
    expect(report.spoofed).toEqual([expect.objectContaining({ agentKey: 'googlebot', requests: 2, violations: 2 })])
    expect(report.topRules[0]).toMatchObject({ host: 'example.com', robotsVersion: 'v2', pattern: '/admin/', line: 2, violations: 6, agents: 2 })
    expect(report.totals).toMatchObject({ violations: 7, spoofedRequests: 2 })

    // The raw rows stay for the drill-down, with their class.
    const drill = await getAgentRequests(db, 'gptbot', { violations: true })
    expect(drill.map((e) => [e.path, e.class, e.counted])).toEqual([
      ['/admin/3', 'afterFetch', true],
      ['/admin/2', 'afterFetch', true],
      ['/admin/1', 'afterFetch', true],
    ])
    expect((await getAgentRequests(db, 'gptbot', { limit: 500 })).length).toBe(28)

    // New requests add to the migrated counters.
    await writeEvents(db, [judged({ agent: gptbot, time: T0 + 27 * HOUR, path: '/admin/new', allowed: false, ...v2 })])
    expect(agentOf(await getReport(db, ALL), 'gptbot')?.evidence.violations.afterFetch).toBe(4)
  })
})
