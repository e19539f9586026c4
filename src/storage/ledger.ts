/**
 * The compliance ledger in D1: robots.txt versions, raw events, hourly
 * rollups and who read which version. Functions take a D1Database, not the
 * Env. Every value is bound, never spliced into SQL text.
 */
import type { JudgedRequest } from '../events.ts'
import { EVENT_COLUMNS, rollUp, summariseFetches, toEventRow, type EventRow } from './rollups.ts'

const DAY_MS = 86_400_000

/**
 * Rows are bound as one JSON array per statement and unpacked with
 * `json_each`: D1 allows at most 100 bound parameters per statement, which a
 * multi-row VALUES list of 26 columns would exhaust at three rows. A chunk
 * bounds the size of one bound string (an event is at most about 3 KB).
 */
const ROWS_PER_STATEMENT = 100

/** `INSERT INTO table (cols) SELECT value ->> '$.col', ... FROM json_each(?)`, built from constant names only. */
function insertFromJson(table: string, columns: readonly string[], tail = ''): string {
  const values = columns.map((c) => `value ->> '$.${c}'`).join(', ')
  // `WHERE true` lets SQLite tell an upsert's ON CONFLICT from a join's ON.
  return `INSERT INTO ${table} (${columns.join(', ')}) SELECT ${values} FROM json_each(?) WHERE true ${tail}`
}

const INSERT_EVENTS = insertFromJson('events', EVENT_COLUMNS)
const UPSERT_HOURLY = insertFromJson(
  'agent_hourly',
  ['host', 'hour', 'agent_key', 'verification', 'operator', 'category', 'requests', 'disallowed', 'blocked', 'robots_fetches'],
  `ON CONFLICT (host, hour, agent_key, verification) DO UPDATE SET
     requests = requests + excluded.requests,
     disallowed = disallowed + excluded.disallowed,
     blocked = blocked + excluded.blocked,
     robots_fetches = robots_fetches + excluded.robots_fetches,
     operator = coalesce(excluded.operator, operator),
     category = coalesce(excluded.category, category)`,
)
const UPSERT_FETCHES = insertFromJson(
  'robots_fetches',
  ['host', 'agent_key', 'robots_version', 'operator', 'first_fetch', 'last_fetch', 'fetches'],
  `ON CONFLICT (host, agent_key, robots_version) DO UPDATE SET
     first_fetch = min(first_fetch, excluded.first_fetch),
     last_fetch = max(last_fetch, excluded.last_fetch),
     fetches = fetches + excluded.fetches`,
)

/**
 * Stores a served robots.txt version. The first-served time is kept: a later
 * call (another isolate serving the same file) never moves it forward.
 */
export async function recordRobotsVersion(
  db: D1Database,
  version: { host: string; hash: string; text: string; time: number },
): Promise<void> {
  await db
    .prepare(
      `INSERT INTO robots_versions (host, hash, text, first_served) VALUES (?, ?, ?, ?)
       ON CONFLICT (host, hash) DO UPDATE SET first_served = min(first_served, excluded.first_served)`,
    )
    .bind(version.host, version.hash, version.text, Math.trunc(version.time))
    .run()
}

/** Options of writeEvents. */
export interface WriteEventsOptions {
  /** Rows bound per INSERT statement. Default 100. */
  rowsPerStatement?: number
}

/**
 * Writes `events` in ONE `db.batch` (one transaction): the raw rows, the
 * hourly rollups they add up to, and who fetched which robots.txt version.
 * Rejects when D1 does; createRecorder turns that into a counted failure.
 *
 * @returns the number of events written.
 */
export async function writeEvents(db: D1Database, events: readonly JudgedRequest[], opts: WriteEventsOptions = {}): Promise<number> {
  if (events.length === 0) return 0
  const perStatement = Math.max(1, opts.rowsPerStatement ?? ROWS_PER_STATEMENT)
  const rows: EventRow[] = events.map(toEventRow)
  const statements: D1PreparedStatement[] = []
  for (let i = 0; i < rows.length; i += perStatement) {
    statements.push(db.prepare(INSERT_EVENTS).bind(JSON.stringify(rows.slice(i, i + perStatement))))
  }
  statements.push(db.prepare(UPSERT_HOURLY).bind(JSON.stringify(rollUp(events))))
  const fetches = summariseFetches(events)
  if (fetches.length > 0) statements.push(db.prepare(UPSERT_FETCHES).bind(JSON.stringify(fetches)))
  await db.batch(statements)
  return events.length
}

/** Options of pruneLedger. */
export interface PruneOptions {
  /** The current time, ms. */
  now: number
  /** Raw events older than this many days are deleted. Default 30. */
  rawRetentionDays?: number
  /** At most this many raw events are kept; the oldest beyond it are deleted. Default 1,000,000. */
  maxRawEvents?: number
  /** Hourly rollups older than this many days are deleted. Default 400. */
  rollupRetentionDays?: number
}

/** What pruneLedger deleted. */
export interface PruneResult {
  /** Raw events past the retention window. */
  expired: number
  /** Raw events beyond the cap. */
  thinned: number
  /** Hourly rollups past their window. */
  rollups: number
}

/**
 * Deletes raw events older than the window, then the oldest beyond the cap,
 * then old rollups. robots.txt versions and the fetch summary are kept: they
 * are small, and the report needs them to judge what remains. Run it from
 * the cron trigger.
 */
export async function pruneLedger(db: D1Database, opts: PruneOptions): Promise<PruneResult> {
  const rawCutoff = opts.now - (opts.rawRetentionDays ?? 30) * DAY_MS
  const cap = Math.max(0, Math.trunc(opts.maxRawEvents ?? 1_000_000))
  const rollupCutoff = opts.now - (opts.rollupRetentionDays ?? 400) * DAY_MS
  const expired = await db.prepare('DELETE FROM events WHERE time < ?').bind(rawCutoff).run()
  // The newest `cap` rows stay; everything ranked after them goes.
  const thinned = await db
    .prepare('DELETE FROM events WHERE id IN (SELECT id FROM events ORDER BY time DESC, id DESC LIMIT -1 OFFSET ?)')
    .bind(cap)
    .run()
  const rollups = await db.prepare('DELETE FROM agent_hourly WHERE hour < ?').bind(rollupCutoff).run()
  return { expired: expired.meta.changes, thinned: thinned.meta.changes, rollups: rollups.meta.changes }
}
