/**
 * Pruning, run from the cron trigger: raw rows by age and by budget, then
 * each counter after its own retention, then robots.txt versions nothing
 * uses any more and the hosts no longer served, agents nothing refers to,
 * and old losses. Every delete is bounded per run, in rows (`maxDeletes`)
 * and in time (`budgetMs`), in chunks of 10,000 rows, so a run after a
 * backlog stays within the cron's time and the next goes on. Each delete
 * reads only the rows it deletes plus a seek per agent: the tables are
 * keyed by agent (or class, or day) first and driven from `agents`, never
 * scanned. The shapes' row cap reads their keys once per run.
 */
import { DAY_MS, HOUR_MS, dayOf } from './rollups.ts'
import { REQUEST_CLASSES, TOP_PATHS_CLASS } from './classes.ts'
import { GROUPS_DAY, PACK_TABLES } from './shape-sql.ts'

/** Options of pruneLedger. */
export interface PruneOptions {
  /** The current time, ms. */
  now: number
  /** Raw rows older than this many days are deleted. Default 30. */
  rawRetentionDays?: number
  /** At most this many raw rows are kept; the oldest hours beyond it are deleted. Default 1,000,000. */
  maxRawEvents?: number
  /** Hourly counters (and the timeline) older than this many days are deleted. Default 90. */
  hourlyRetentionDays?: number
  /** Daily counters, paths, rules and unused robots.txt versions older than this many days are deleted. Default 400. */
  rollupRetentionDays?: number
  /** Request shapes (what a replay of a changed policy reads) older than this many days are deleted. Default 30. */
  shapeRetentionDays?: number
  /** At most this many request-shape paths are kept (a path per day, host, agent and version); the oldest days beyond it are deleted. Default 5,000,000. */
  maxShapeRows?: number
  /** Most rows deleted from one table in one run; the next run goes on. Default 2,000,000. */
  maxDeletes?: number
  /**
   * Wall time one run may spend deleting, ms: past it, each table's delete
   * stops after its current chunk and the next run goes on. Default 60,000
   * (a Cron Trigger may run up to 15 minutes).
   */
  budgetMs?: number
}

/** What pruneLedger deleted. */
export interface PruneResult {
  /** Raw rows past the retention window. */
  expired: number
  /** Raw rows beyond the budget (`maxRawEvents`), though within the window. */
  thinned: number
  /** Counter rows past their retention. */
  rollups: number
  /** Request-shape rows (packs, and per-path rows from before them) past their retention or cap. */
  shapes: number
  /** robots.txt versions no longer used, and hosts no longer served (left without a version). */
  versions: number
  /** Raw rows cover requests from this time on (ms). */
  rawSince: number
  /** False when a bound cut a delete short (the next run goes on). */
  complete: boolean
}

const CHUNK = 10_000

/**
 * Deletes by `sql` (bound with `params`, then the chunk size as the last
 * parameter) until a chunk comes back short, `max` rows are gone, or the
 * run's time is up. A chunk is at most 10,000 rows, so a run stays within
 * its time whatever the backlog; what is left is for the next run.
 */
async function deleteChunks(db: D1Database, sql: string, params: readonly (string | number)[], max: number, deadline: number): Promise<{ deleted: number; complete: boolean }> {
  let deleted = 0
  while (deleted < max && Date.now() < deadline) {
    const size = Math.min(CHUNK, max - deleted)
    const changes =
      (
        await db
          .prepare(sql)
          .bind(...params, size)
          .run()
      ).meta.changes ?? 0
    deleted += changes
    if (changes < size) return { deleted, complete: true }
  }
  return { deleted, complete: false }
}

/**
 * The counters' rows of every agent from ?1 on: days rolled up, and the
 * hours after them (counts_daily holds exactly the hours before
 * `rolled_hour`, ?2), as (agent_key, host, t, n) with n the raw rows kept.
 */
const KEPT = `SELECT c.agent_key, c.host, c.day AS t, c.sampled AS n FROM agents a CROSS JOIN counts_daily c ON c.agent_key = a.agent_key AND c.day >= ?1
  UNION ALL
  SELECT c.agent_key, c.host, c.hour, c.sampled FROM agents a CROSS JOIN counts_hourly c ON c.agent_key = a.agent_key AND c.hour >= max(?1, ?2)`

/**
 * Raw rows older than ?3, in the (agent, host) pairs that were active
 * between ?1 and ?3 (older rows are gone already), at most ?4 of them.
 */
const DELETE_RAW = `DELETE FROM events WHERE (agent_key, host, counted, time, id) IN (
  SELECT e.agent_key, e.host, e.counted, e.time, e.id
  FROM (SELECT DISTINCT agent_key, host FROM (${KEPT}) WHERE t <= ?3) p
  CROSS JOIN (SELECT 0 AS counted UNION ALL SELECT 1) k
  CROSS JOIN events e ON e.agent_key = p.agent_key AND e.host = p.host AND e.counted = k.counted AND e.time < ?3
  LIMIT ?4)`

const byAgent = (table: string, time: string, key: string) => `DELETE FROM ${table} WHERE (${key}) IN (
  SELECT ${key
    .split(', ')
    .map((c) => `t.${c}`)
    .join(', ')} FROM agents a CROSS JOIN ${table} t ON t.agent_key = a.agent_key AND t.${time} < ?1 LIMIT ?2)`

const DELETE_COUNTS_HOURLY = byAgent('counts_hourly', 'hour', 'agent_key, hour, host, verification, class')
const DELETE_COUNTS_DAILY = byAgent('counts_daily', 'day', 'agent_key, day, host, verification, class')
/** Minute counts (a short span's timeline, migrations/0060) are kept two days. */
const DELETE_MINUTES = `DELETE FROM timeline_minutes WHERE (minute, host, category) IN (SELECT minute, host, category FROM timeline_minutes WHERE minute < ?1 LIMIT ?2)`
const DELETE_GROUPS = byAgent('agent_groups', 'day', 'agent_key, day, robots_version, robots_group')
const DELETE_TIMELINE = `DELETE FROM timeline_hourly WHERE (hour, host, category) IN (SELECT hour, host, category FROM timeline_hourly WHERE hour < ?1 LIMIT ?2)`
const DELETE_RULES = `DELETE FROM rules_daily WHERE (day, host, robots_version, rule_line, agent_key) IN (
  SELECT day, host, robots_version, rule_line, agent_key FROM rules_daily WHERE day < ?1 LIMIT ?2)`
const DELETE_PATHS = `DELETE FROM paths_daily WHERE (class, day, host, agent_key, verification, robots_version, path) IN (
  SELECT p.class, p.day, p.host, p.agent_key, p.verification, p.robots_version, p.path
  FROM (SELECT value AS class FROM json_each(?2)) k
  CROSS JOIN paths_daily p ON p.class = k.class AND p.day < ?1 LIMIT ?3)`
/** Shapes of days before ?1: the packs (src/ledger/shape-packs.ts), and the per-path rows written before them. */
const DELETE_SHAPES = [
  // A day's totals before its per-path rows: a run cut short between them never leaves totals whose rows are gone (rows left
  // without totals are read by no replay: their day is before `shapes_since`, which a replay states as not covered).
  `DELETE FROM shape_groups_daily WHERE (day, host, agent_key, robots_version, grp) IN (
  SELECT day, host, agent_key, robots_version, grp FROM shape_groups_daily WHERE day < ?1 LIMIT ?2)`,
  ...PACK_TABLES.map(
    (t) => `DELETE FROM ${t} WHERE (day, host, agent_key, robots_version, seq) IN (
  SELECT day, host, agent_key, robots_version, seq FROM ${t} WHERE day < ?1 LIMIT ?2)`,
  ),
  `DELETE FROM shapes_daily WHERE (day, host, agent_key, robots_version, path) IN (
  SELECT day, host, agent_key, robots_version, path FROM shapes_daily WHERE day < ?1 LIMIT ?2)`,
]
/**
 * Crawl-delay's last request per host and agent (migrations/0040), once
 * older than the hourly counters' retention (?1): a delay is seconds, so no
 * request that late is measured against it any more, and an agent gone for
 * that long would otherwise keep its row for ever.
 */
const DELETE_DELAY_LAST = `DELETE FROM crawl_delay_last WHERE (host, agent_key) IN (SELECT host, agent_key FROM crawl_delay_last WHERE time < ?1 LIMIT ?2)`
/** Agents nothing refers to any more: first seen before ?1, with no counter or raw row left (a seek each: the tables are keyed by agent first). */
const DELETE_AGENTS = `DELETE FROM agents WHERE agent_key IN (SELECT a.agent_key FROM agents a WHERE a.first_seen < ?1
  AND NOT EXISTS (SELECT 1 FROM counts_daily c WHERE c.agent_key = a.agent_key) AND NOT EXISTS (SELECT 1 FROM counts_hourly c WHERE c.agent_key = a.agent_key)
  AND NOT EXISTS (SELECT 1 FROM events e WHERE e.agent_key = a.agent_key) LIMIT ?2)`
const DELETE_LOSSES = `DELETE FROM ledger_losses WHERE id IN (SELECT id FROM ledger_losses WHERE to_time < ?1 LIMIT ?2)`

/**
 * The first day kept so that at most `cap` shape paths remain (0: all fit):
 * a pack's paths, and a row of the per-path shapes written before the packs.
 * Shapes are not capped when written (a cap would make the replay a guess),
 * so this is their bound beside the retention: it reads the packs' keys and
 * totals once per run (a pack holds up to thousands of paths).
 */
async function shapeCutoff(db: D1Database, from: number, cap: number): Promise<number> {
  // shapes_daily's rows of a totalled day are counted from their totals (shape_groups_daily), not read again.
  const perTable = [
    ...PACK_TABLES.map((t) => `SELECT day, sum(paths) AS n FROM ${t} WHERE day >= ?1 GROUP BY day`),
    `SELECT day, sum(paths) AS n FROM shape_groups_daily WHERE day >= ?1 GROUP BY day`,
    `SELECT day, count(*) AS n FROM shapes_daily WHERE day >= max(?1, ${GROUPS_DAY}) GROUP BY day`,
  ]
  const days = (
    await db
      .prepare(`SELECT day, sum(n) AS n FROM (${perTable.join(' UNION ALL ')}) GROUP BY day ORDER BY day DESC`)
      .bind(from)
      .all<{ day: number; n: number }>()
  ).results
  let kept = 0
  for (const d of days) {
    kept += d.n
    if (kept > cap) return d.day + DAY_MS
  }
  return 0
}
// Every class but robotsTxt: the classes of the disallowed and allowed requests whose paths are counted.
const ALL_CLASSES = JSON.stringify([...REQUEST_CLASSES.filter((c) => c !== 'robotsTxt'), TOP_PATHS_CLASS])

/** The time from which at most `cap` raw rows remain, from the counters' own tally of rows kept. */
async function budgetCutoff(db: D1Database, from: number, rolledHour: number, cap: number): Promise<number> {
  const days = (await db.prepare(`SELECT (t / 86400000) * 86400000 AS t, sum(n) AS n FROM (${KEPT}) GROUP BY 1 ORDER BY 1 DESC`).bind(dayOf(from), rolledHour).all<{ t: number; n: number }>()).results
  let kept = 0
  for (const day of days) {
    if (kept + day.n <= cap) {
      kept += day.n
      continue
    }
    // The cap falls inside this day: find the hour (hourly counters are kept for days still within the window).
    const hours = (
      await db
        .prepare(`SELECT c.hour AS t, sum(c.sampled) AS n FROM agents a CROSS JOIN counts_hourly c
        ON c.agent_key = a.agent_key AND c.hour >= ?1 AND c.hour < ?2 GROUP BY c.hour ORDER BY c.hour DESC`)
        .bind(day.t, day.t + DAY_MS)
        .all<{ t: number; n: number }>()
    ).results
    for (const hour of hours) {
      if (kept + hour.n > cap) return hour.t + HOUR_MS
      kept += hour.n
    }
    return day.t + DAY_MS
  }
  return 0
}

async function readState(db: D1Database, name: string): Promise<number | null> {
  return (await db.prepare('SELECT value FROM ledger_state WHERE name = ?1').bind(name).first<number>('value')) ?? null
}

function writeState(db: D1Database, name: string, value: number): Promise<unknown> {
  return db
    .prepare(`INSERT INTO ledger_state (name, value) VALUES (?1, ?2)
    ON CONFLICT (name) DO UPDATE SET value = max(value, excluded.value)`)
    .bind(name, value)
    .run()
}

/**
 * Deletes raw rows older than the window, then the oldest hours beyond the
 * budget, then counters past their retention, then robots.txt versions no
 * counter has used within it (never a host's newest) and hosts left without
 * any. Run it from the cron trigger, after rollUpLedger.
 *
 * @example
 * await pruneLedger(env.DB, { now: Date.now(), rawRetentionDays: 14 })
 */
export async function pruneLedger(db: D1Database, opts: PruneOptions): Promise<PruneResult> {
  const max = Math.max(1, Math.trunc(opts.maxDeletes ?? 2_000_000))
  const deadline = Date.now() + Math.max(0, opts.budgetMs ?? 60_000)
  const ageCutoff = opts.now - (opts.rawRetentionDays ?? 30) * DAY_MS
  // Hourly counters are kept until rolled up (src/ledger/rollup.ts), whatever their age.
  const rolledHour = (await readState(db, 'rolled_hour')) ?? 0
  const hourlyCutoff = Math.min(rolledHour, opts.now - (opts.hourlyRetentionDays ?? 90) * DAY_MS)
  const rollupCutoff = dayOf(opts.now - (opts.rollupRetentionDays ?? 400) * DAY_MS)
  const shapeAge = dayOf(opts.now - (opts.shapeRetentionDays ?? 30) * DAY_MS)
  const shapesCut = Math.max(shapeAge, await shapeCutoff(db, shapeAge, Math.max(0, Math.trunc(opts.maxShapeRows ?? 5_000_000))))
  const rawFrom = (await readState(db, 'raw_since')) ?? 0
  const cap = Math.max(0, Math.trunc(opts.maxRawEvents ?? 1_000_000))
  const cutoff = Math.max(ageCutoff, await budgetCutoff(db, Math.max(rawFrom, ageCutoff), rolledHour, cap))
  // Claimed before deleting: every raw row from `cutoff` on is still there.
  await writeState(db, 'raw_since', cutoff)
  // Rows older than `raw_pruned` are all gone: the search for more starts there.
  const from = dayOf((await readState(db, 'raw_pruned')) ?? 0)
  const expired = await deleteChunks(db, DELETE_RAW, [from, rolledHour, ageCutoff], max, deadline)
  const thinned = cutoff > ageCutoff && expired.complete ? await deleteChunks(db, DELETE_RAW, [from, rolledHour, cutoff], max, deadline) : { deleted: 0, complete: expired.complete }
  if (expired.complete && thinned.complete) await writeState(db, 'raw_pruned', cutoff)
  const rollups = [
    await deleteChunks(db, DELETE_COUNTS_HOURLY, [hourlyCutoff], max, deadline),
    await deleteChunks(db, DELETE_TIMELINE, [hourlyCutoff], max, deadline),
    await deleteChunks(db, DELETE_MINUTES, [opts.now - 2 * DAY_MS], max, deadline),
    await deleteChunks(db, DELETE_COUNTS_DAILY, [rollupCutoff], max, deadline),
    await deleteChunks(db, DELETE_GROUPS, [rollupCutoff], max, deadline),
    await deleteChunks(db, DELETE_RULES, [rollupCutoff], max, deadline),
    await deleteChunks(db, DELETE_PATHS, [rollupCutoff, ALL_CLASSES], max, deadline),
    await deleteChunks(db, DELETE_DELAY_LAST, [opts.now - (opts.hourlyRetentionDays ?? 90) * DAY_MS], max, deadline),
  ]
  // Claimed before deleting, as raw_since: a replay of earlier days says it is not exact, whatever is left of them.
  await writeState(db, 'shapes_since', shapesCut)
  const shapeRuns: { deleted: number; complete: boolean }[] = []
  for (const sql of DELETE_SHAPES) shapeRuns.push(await deleteChunks(db, sql, [shapesCut], max, deadline))
  const shapes = { deleted: shapeRuns.reduce((n, r) => n + r.deleted, 0), complete: shapeRuns.every((r) => r.complete) }
  const agents = await deleteChunks(db, DELETE_AGENTS, [rollupCutoff], max, deadline)
  const losses = await deleteChunks(db, DELETE_LOSSES, [rollupCutoff], max, deadline)
  await writeState(db, 'hourly_since', hourlyCutoff)
  await writeState(db, 'daily_since', rollupCutoff)
  const versions = await db.batch([
    db.prepare('DELETE FROM robots_fetches WHERE last_fetch < ?1').bind(rollupCutoff),
    // No event or counter refers to a version past its last use: every write marks the versions it
    // records (last_used), and everything that names a version is pruned by this cutoff or sooner.
    // A host's newest version goes too once the host itself is no longer served: its last use is past it.
    db
      .prepare(`DELETE FROM robots_versions WHERE coalesce(last_used, first_served) < ?1
      AND (first_served < (SELECT max(v.first_served) FROM robots_versions v WHERE v.host = robots_versions.host)
        OR NOT EXISTS (SELECT 1 FROM robots_versions v WHERE v.host = robots_versions.host AND coalesce(v.last_used, v.first_served) >= ?1))`)
      .bind(rollupCutoff),
    db.prepare('DELETE FROM robots_hosts WHERE NOT EXISTS (SELECT 1 FROM robots_versions v WHERE v.host = robots_hosts.host)'),
    // Its place under the cap on distinct hosts (src/ledger/hosts.ts) goes to the next new host.
    db.prepare('DELETE FROM ledger_hosts WHERE first_seen < ?1 AND NOT EXISTS (SELECT 1 FROM robots_versions v WHERE v.host = ledger_hosts.host)').bind(rollupCutoff),
  ])
  return {
    expired: expired.deleted,
    thinned: thinned.deleted,
    rollups: rollups.reduce((n, r) => n + r.deleted, 0),
    shapes: shapes.deleted,
    versions: (versions[1]?.meta.changes ?? 0) + (versions[2]?.meta.changes ?? 0),
    rawSince: cutoff,
    complete: expired.complete && thinned.complete && rollups.every((r) => r.complete) && shapes.complete && agents.complete && losses.complete,
  }
}
