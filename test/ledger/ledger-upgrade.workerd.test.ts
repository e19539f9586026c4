// Issue 18's upgrade needs no migration, and keeps what the ledger holds:
// rows written before it (raw rows beyond today's sampling budget, the
// "other" rows under path '' of paths_daily and shapes_daily, with their
// `paths` counts) stay, are read by the report and the replay as before,
// and new writes add to them without counting anything twice.
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { getAgentRequests, getReport } from '../../src/admin/queries.ts'
import { getImpact } from '../../src/admin/impact-queries.ts'
import { contentHash } from '../../src/core/config/hash.ts'
import { recordRobotsVersion, writeEvents } from '../../src/ledger/ledger.ts'
import { DAY, HOUR, MINUTE, T0, gptbot, judged } from '../support/report-fixtures.ts'
import { clearLedger } from '../support/workerd/ledger-tables.ts'

const db = env.DB
const TEXT = 'User-agent: *\nDisallow: /admin/\n'
const V = contentHash(TEXT)
const day = Math.floor(T0 / DAY) * DAY

beforeEach(() => clearLedger(db))

describe('the upgrade to issue 18', () => {
  it('keeps the rows written before it, and the report, the drill-down and the replay read them', async () => {
    await recordRobotsVersion(db, { host: 'example.com', hash: V, text: TEXT, time: T0 - 30 * DAY })
    // Before: 12 requests in one hour, every one kept raw (the budget was 200 an hour).
    const before = Array.from({ length: 12 }, (_, i) => judged({ agent: gptbot, time: T0 + i * MINUTE, path: `/admin/${i}`, allowed: false, robotsVersion: V }))
    await writeEvents(db, before, { sampleBudget: 200 })
    // ...and, as the old write path left them, "other" rows: 5 disallowed requests beyond the old path cap, 7 beyond the old shape cap.
    await db.batch([
      db
        .prepare(`INSERT INTO paths_daily (class, day, host, agent_key, verification, robots_version, path, agent_tokens, requests, paths)
          VALUES ('neverFetched', ?1, 'example.com', 'gptbot', 'verified', '', '', '', 5, 100)`)
        .bind(day),
      db
        .prepare(`INSERT INTO shapes_daily (day, host, agent_key, robots_version, path, agent_tokens, requests, paths)
          VALUES (?1, 'example.com', 'gptbot', '', '', '', 7, 1000)`)
        .bind(day),
    ])
    const rowsBefore = (await db.prepare('SELECT count(*) AS n FROM events').first<{ n: number }>())?.n
    expect(rowsBefore).toBe(12)

    // After: one more request of the same hour, through today's write path (20 raw rows of counted violations an hour at most).
    await writeEvents(db, [judged({ agent: gptbot, time: T0 + 30 * MINUTE, path: '/admin/0', allowed: false, robotsVersion: V })])
    // The raw rows already there stay (the budget only stops new ones), and the new one is kept beside them.
    expect((await db.prepare('SELECT count(*) AS n FROM events').first<{ n: number }>())?.n).toBe(13)
    expect(await getAgentRequests(db, 'gptbot', { limit: 100 })).toHaveLength(13)
    // The old "other" rows are kept as they were.
    expect(await db.prepare("SELECT requests, paths FROM paths_daily WHERE path = ''").first()).toEqual({ requests: 5, paths: 100 })
    expect(await db.prepare("SELECT requests, paths FROM shapes_daily WHERE path = ''").first()).toEqual({ requests: 7, paths: 1000 })

    // The report counts from the counters, as before: 13 requests, every one a counted violation.
    const report = await getReport(db, { since: T0 - HOUR, until: T0 + DAY })
    const agent = report.agents.find((a) => a.agentKey === 'gptbot')
    expect(agent?.evidence).toMatchObject({ requests: 13, violations: { counted: 13 } })
    expect(agent?.evidence.examplePaths.length).toBeGreaterThan(0)
    expect(agent?.evidence.examplePaths).toContain('/admin/0')

    // The replay judges the 13 shapes' requests again and says the 7 the old cap left out were not.
    const impact = await getImpact(db, { since: T0 - HOUR, until: T0 + HOUR }, { candidates: new Map([['*', 'User-agent: *\nDisallow: /\n']]), exempt: new Set(), protect: new Set() })
    expect(impact.summary).toMatchObject({ requests: 20, replayed: 13 })
    expect(impact.estimate).toMatchObject({ exact: false, beyondCap: 7, beyondRead: 0 })
  })
})
