// Migration 0030 (bytes, pages, referrals_daily) keeps a ledger's data: the
// counters written before it keep every count, read 0 bytes and 0 pages, and
// take the new counts on top.
import { applyD1Migrations, env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { getReport } from '../../src/admin/queries.ts'
import { writeEvents } from '../../src/ledger/ledger.ts'
import { pruneReferrals } from '../../src/ledger/referrals.ts'
import { hourOf } from '../../src/ledger/rollups.ts'
import { DAY, T0, gptbot, judged } from '../support/report-fixtures.ts'
import { migrateBefore } from '../support/workerd/ledger-tables.ts'

const db = env.DB

describe('migration 0030', () => {
  it('keeps the counters written before it, with 0 bytes and pages, and adds new ones to them', { timeout: 60_000 }, async () => {
    expect(await migrateBefore(db, env.TEST_MIGRATIONS, '0030')).toBeLessThan(env.TEST_MIGRATIONS.length)
    const hour = hourOf(T0)
    await db.batch([
      db.prepare("INSERT INTO agents (agent_key, agent_id, kind, operator, category, obeys_robots_txt, first_seen) VALUES ('gptbot', 'gptbot', 'bot', 'OpenAI', 'AI Crawler', 1, ?1)").bind(T0),
      db
        .prepare(
          "INSERT INTO counts_hourly (agent_key, hour, host, verification, class, requests, blocked, sampled, first_time, last_time) VALUES ('gptbot', ?1, 'example.com', 'verified', 'allowed', 30, 0, 0, ?2, ?2)",
        )
        .bind(hour, T0),
    ])

    await applyD1Migrations(db, env.TEST_MIGRATIONS)
    expect(await db.prepare('SELECT requests, bytes, pages FROM counts_hourly').all()).toMatchObject({ results: [{ requests: 30, bytes: 0, pages: 0 }] })
    expect(await db.prepare('SELECT count(*) AS n FROM referrals_daily').first('n')).toBe(0)

    await writeEvents(db, [
      judged({ agent: gptbot, time: T0 + 1, path: '/a', bytes: 1000, page: true }),
      judged({ agent: gptbot, time: T0 + 2, path: '/b', bytes: 500, page: false }),
      // A streamed body's bytes, once sent: added to the request already counted.
      { ...judged({ agent: gptbot, time: T0 + 2, path: '/b' }), type: 'bytes', bytes: 250 },
    ])
    const report = await getReport(db, { since: T0 - DAY, until: T0 + DAY })
    expect(report.agents.find((a) => a.agentKey === 'gptbot')?.evidence).toMatchObject({ requests: 32, bytes: 1750, pages: 1 })
  })

  it("adds a disallowed request's streamed bytes to its own class's counter", { timeout: 30_000 }, async () => {
    const blocked = judged({ agent: gptbot, time: T0 + 5, path: '/admin/x', allowed: false, rule: { type: 'disallow', pattern: '/admin/', line: 2 } })
    await writeEvents(db, [blocked, { ...blocked, type: 'bytes', bytes: 321 }])
    const rows = await db.prepare("SELECT class, requests, bytes FROM counts_hourly WHERE class NOT IN ('allowed')").all()
    expect(rows.results).toEqual([{ class: 'neverFetched', requests: 1, bytes: 321 }])
  })

  it('the cron prunes referral counters past their retention, and only those', { timeout: 30_000 }, async () => {
    const now = T0 + 500 * DAY
    await db.batch(
      [T0, now - 399 * DAY, now].map((day) => db.prepare("INSERT INTO referrals_daily (day, host, referrer, visits) VALUES (?1, 'example.com', 'claude.ai', 3)").bind(Math.floor(day / DAY) * DAY)),
    )
    expect(await pruneReferrals(db, { now })).toBe(1)
    expect(await db.prepare('SELECT count(*) AS n FROM referrals_daily').first('n')).toBe(2)
  })
})
