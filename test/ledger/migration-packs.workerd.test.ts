// Migration 0080 (packed request shapes, group totals, top paths) keeps a
// ledger's data: the per-path shapes written before it are still replayed
// and totalled, and the days before it keep the paths they were written with.
import { applyD1Migrations, env } from 'cloudflare:test'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { getImpact } from '../../src/admin/impact-queries.ts'
import { getReport } from '../../src/admin/queries.ts'
import { mergeShapePacks, rollUpLedger, writeEvents } from '../../src/ledger/ledger.ts'
import { DAY, HOUR, MINUTE, T0, gptbot, judged } from '../support/report-fixtures.ts'
import { migrateBefore } from '../support/workerd/ledger-tables.ts'

const db = env.DB
const day = Math.floor(T0 / DAY) * DAY

afterEach(() => vi.restoreAllMocks())

describe('migration 0080', () => {
  it('replays and totals the shapes written before it, and keeps the paths of the days before it', { timeout: 60_000 }, async () => {
    expect(await migrateBefore(db, env.TEST_MIGRATIONS, '0080')).toBeLessThan(env.TEST_MIGRATIONS.length)
    // As the write path left them: the first paths of the day, 12 requests of per-path shapes, hours up to T0 + 14 h rolled up.
    await db.batch([
      db.prepare("INSERT INTO agents (agent_key, agent_id, kind, operator, category, obeys_robots_txt, first_seen) VALUES ('gptbot', 'gptbot', 'bot', 'OpenAI', 'AI Crawler', 1, ?1)").bind(T0),
      db.prepare("INSERT INTO robots_versions (host, hash, text, first_served, last_used) VALUES ('example.com', 'v1', 'User-agent: *\nDisallow: /admin/\n', ?1, ?2)").bind(T0 - 30 * DAY, day),
      db
        .prepare(`INSERT INTO counts_daily (agent_key, day, host, verification, class, requests, blocked, sampled, first_time, last_time, bytes, pages)
          VALUES ('gptbot', ?1, 'example.com', 'verified', 'neverFetched', 12, 0, 0, ?2, ?2, 0, 0)`)
        .bind(day, T0),
      ...['/admin/a', '/admin/b', '/admin/c'].map((path) =>
        db
          .prepare(`INSERT INTO paths_daily (class, day, host, agent_key, verification, robots_version, path, agent_tokens, requests, paths)
            VALUES ('neverFetched', ?1, 'example.com', 'gptbot', 'verified', 'v1', ?2, 'gptbot', 1, 0)`)
          .bind(day, path),
      ),
      ...[
        ['/admin/a', 1],
        ['/admin/b', 1],
        ['/admin/c', 1],
        ['/admin/z', 9],
      ].map(([path, n]) =>
        db
          .prepare(`INSERT INTO shapes_daily (day, host, agent_key, robots_version, path, agent_tokens, requests, paths, violations, rule_line, rule_type, rule_pattern)
            VALUES (?1, 'example.com', 'gptbot', 'v1', ?2, 'gptbot', ?3, 0, ?3, 2, 'disallow', '/admin/')`)
          .bind(day, path, n),
      ),
      db.prepare("INSERT INTO ledger_state (name, value) VALUES ('rolled_hour', ?1)").bind(T0 + 4 * HOUR),
    ])
    await applyD1Migrations(db, env.TEST_MIGRATIONS)
    // Top paths only from the first whole day after the migration: this day keeps its first paths.
    expect(await db.prepare("SELECT value FROM ledger_state WHERE name = 'top_paths_day'").first('value')).toBe(day + DAY)

    const filter = { since: day, until: day + DAY }
    const options = { candidates: new Map([['*', 'User-agent: *\nDisallow: /admin/z\n']]), exempt: new Set<string>(), protect: new Set<string>() }
    const { rowsRead: _r1, ...replay } = await getImpact(db, filter, options)
    expect(replay.summary.requests).toBe(12)
    expect(replay.estimate.exact).toBe(true)

    // Written after it, for the same day, as it happens: added to the same shapes.
    vi.spyOn(Date, 'now').mockReturnValue(T0 + 5 * HOUR + MINUTE)
    await writeEvents(db, [judged({ agent: gptbot, path: '/admin/z', allowed: false, time: T0 + 5 * HOUR })])
    vi.restoreAllMocks()
    await rollUpLedger(db, { now: day + DAY + 3 * HOUR })
    expect(await mergeShapePacks(db)).toMatchObject({ days: 1, complete: true })
    const totals = await db.prepare('SELECT grp, requests, paths FROM shape_groups_daily').all()
    expect(totals.results).toEqual([{ grp: '/admin/', requests: 13, paths: 4 }])
    const { rowsRead: _r2, ...after } = await getImpact(db, filter, options)
    expect(after.summary.requests).toBe(13)
    const report = await getReport(db, filter)
    expect(report.topPaths.map((p) => p.path)).toEqual(['/admin/a', '/admin/b', '/admin/c'])
  })
})
