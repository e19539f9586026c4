// Migration 0070 (violations per rule added up by the cron from the request
// shapes) keeps a ledger's data: the rules_daily rows written before it keep
// their counts, the shapes keep theirs, and what is written after it adds to
// them, each request once, late ones included.
import { applyD1Migrations, env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { getReport } from '../../src/admin/queries.ts'
import { recordRobotsVersion, rollUpLedger, writeEvents } from '../../src/ledger/ledger.ts'
import { DAY, HOUR, MINUTE, T0, gptbot, judged } from '../support/report-fixtures.ts'
import { migrateBefore } from '../support/workerd/ledger-tables.ts'
import { SHAPE_PATHS_SQL } from '../../src/ledger/shape-packs.ts'

const db = env.DB
const day = Math.floor(T0 / DAY) * DAY

describe('migration 0070', () => {
  it('keeps the violations per rule written before it, and adds what comes after, once', { timeout: 60_000 }, async () => {
    expect(await migrateBefore(db, env.TEST_MIGRATIONS, '0070')).toBeLessThan(env.TEST_MIGRATIONS.length)
    // As the old write path left them: 5 violations of line 2 counted per batch, their shape, and hours before T0 rolled up.
    await db.batch([
      db.prepare("INSERT INTO agents (agent_key, agent_id, kind, operator, category, obeys_robots_txt, first_seen) VALUES ('gptbot', 'gptbot', 'bot', 'OpenAI', 'AI Crawler', 1, ?1)").bind(T0),
      db
        .prepare(
          "INSERT INTO rules_daily (day, host, robots_version, rule_line, agent_key, rule_type, rule_pattern, violations) VALUES (?1, 'example.com', 'v1', 2, 'gptbot', 'disallow', '/admin/', 5)",
        )
        .bind(day),
      db
        .prepare("INSERT INTO shapes_daily (day, host, agent_key, robots_version, path, agent_tokens, requests, paths) VALUES (?1, 'example.com', 'gptbot', 'v1', '/admin/old', 'gptbot', 5, 0)")
        .bind(day),
      db.prepare("INSERT INTO ledger_state (name, value) VALUES ('rolled_hour', ?1)").bind(T0),
    ])

    await applyD1Migrations(db, env.TEST_MIGRATIONS)
    expect(await db.prepare('SELECT violations, derived FROM rules_daily').all()).toMatchObject({ results: [{ violations: 5, derived: 0 }] })
    expect(await db.prepare('SELECT requests, violations, rule_line FROM shapes_daily').all()).toMatchObject({ results: [{ requests: 5, violations: 0, rule_line: null }] })
    expect(await db.prepare("SELECT value FROM ledger_state WHERE name = 'rules_day'").first('value')).toBe(day)

    await recordRobotsVersion(db, { host: 'example.com', hash: 'v1', text: 'User-agent: *\nDisallow: /admin/\n', time: T0 - 30 * DAY })
    // After: 3 violations (never fetched) of line 2 in hours not rolled up, one of them on the old shape's path.
    await writeEvents(
      db,
      ['/admin/old', '/admin/a', '/admin/b'].map((path, i) => judged({ agent: gptbot, time: T0 + HOUR + i * MINUTE, path, allowed: false })),
    )
    // Not written per batch: the cron adds them up, as often as it runs, once.
    expect(await db.prepare('SELECT violations + derived AS n FROM rules_daily').first('n')).toBe(5)
    await rollUpLedger(db, { now: T0 })
    await rollUpLedger(db, { now: T0 })
    expect(await db.prepare('SELECT violations, derived FROM rules_daily').all()).toMatchObject({ results: [{ violations: 5, derived: 3 }] })
    // A late request (for an hour already rolled up) is counted as it is written, not in the shapes.
    await writeEvents(db, [judged({ agent: gptbot, time: T0 - 30 * MINUTE, path: '/admin/late', allowed: false })])
    expect(await db.prepare(`SELECT violations FROM (${SHAPE_PATHS_SQL}) WHERE path = '/admin/late'`).first('violations')).toBe(0)
    await rollUpLedger(db, { now: T0 })
    expect(await db.prepare('SELECT violations, derived FROM rules_daily').all()).toMatchObject({ results: [{ violations: 6, derived: 3 }] })

    const report = await getReport(db, { since: day, until: day + DAY })
    expect(report.topRules).toEqual([{ host: 'example.com', robotsVersion: 'v1', type: 'disallow', pattern: '/admin/', line: 2, violations: 9, agents: 1 }])
    expect(report.agents.find((a) => a.agentKey === 'gptbot')?.evidence.violations.counted).toBe(4)
  })
})
