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

/** Counters of one isolate's recorder. */
export interface RecorderStats {
  /** Events accepted into the buffer. */
  recorded: number
  /** Events D1 confirmed. */
  written: number
  /** Batches D1 rejected. */
  failures: number
  /** Events lost: in a rejected batch, or refused because the buffer was full. */
  dropped: number
  /** Events waiting for the next write. */
  readonly buffered: number
}

/** A per-isolate event buffer in front of writeEvents. */
export interface Recorder {
  /** Buffers `event`; starts a write when the buffer reaches `batchSize`. Never throws. */
  record(event: JudgedRequest): void
  /**
   * Writes what is buffered, and what gathers meanwhile, until nothing is
   * left; if another caller is already writing, returns at once, since that
   * writer takes these events too. Never rejects, and never waits on another
   * request's promise. Pass it to `ctx.waitUntil` after `record`.
   */
  flush(): Promise<void>
  /** Resolves once nothing is buffered or being written (for tests and scripts, within one context). */
  settled(): Promise<void>
  readonly stats: RecorderStats
}

/** Options of createRecorder. */
export interface RecorderOptions {
  /** Buffered events that start a write without waiting for flush(). Default 50. */
  batchSize?: number
  /** Most events held in memory; beyond it events are dropped and counted. Default 5000. */
  maxBuffered?: number
  /** Where the one storage-failure message per isolate goes. Default console.error. */
  log?: (message: string, error?: unknown) => void
}

/**
 * Buffers judged requests per isolate and writes them with writeEvents, one
 * batch at a time: while a write is in flight, new events gather and go in
 * the next batch, so a busy isolate writes in batches. Storage failures are
 * counted and logged once per isolate, never thrown to the visitor.
 *
 * @example
 * const recorder = createRecorder(() => env.DB)
 * // in the guard, after judging:
 * recorder.record(event)
 * c.executionCtx.waitUntil(recorder.flush())
 */
/**
 * How long one request keeps draining the buffer. `waitUntil` work is cut
 * 30 s after the response; past this, the next request to record takes over.
 */
const MAX_DRAIN_MS = 15_000
/** Below this many waiting events, the writer gathers for GATHER_MS before writing them. */
const GATHER_BELOW = 100
const GATHER_MS = 50

export function createRecorder(getDb: () => D1Database, opts: RecorderOptions = {}): Recorder {
  const batchSize = Math.max(1, opts.batchSize ?? 50)
  const maxBuffered = Math.max(batchSize, opts.maxBuffered ?? 5000)
  const log = opts.log ?? ((message: string, error?: unknown) => console.error(message, error))
  let buffer: JudgedRequest[] = []
  let writing = false
  let logged = false
  const stats = { recorded: 0, written: 0, failures: 0, dropped: 0, get buffered() { return buffer.length } }

  function complain(message: string, error?: unknown): void {
    if (logged) return
    logged = true
    log(`robots-edge ledger: ${message} (further failures in this isolate are counted in stats, not logged)`, error)
  }

  async function write(batch: JudgedRequest[]): Promise<void> {
    try {
      stats.written += await writeEvents(getDb(), batch)
    } catch (error) {
      stats.failures++
      stats.dropped += batch.length
      complain(`could not write ${batch.length} events`, error)
    }
  }

  async function flush(): Promise<void> {
    // One writer at a time, and it drains: the caller that finds the
    // recorder idle writes the buffer, then whatever gathered during that
    // write, and so on until nothing is left, all in its own context. Other
    // callers return at once: their events are in the buffer, which the
    // writer will take (the check and the hand-back to idle happen with no
    // await between them, so no event can fall in a gap). Nobody ever
    // continues another request's promise: workerd binds I/O to the request
    // that started it, and a D1 call made in a continuation of another
    // request's write is refused ("Cannot perform I/O on behalf of a
    // different request"), which once lost whole batches under load. Nor
    // does anyone wait on timers, which cost more throughput than the writes.
    // The drain is bounded in time to stay within waitUntil's limit; past
    // it, the next request to record takes over.
    if (writing || buffer.length === 0) return
    writing = true
    const started = Date.now()
    try {
      do {
        const batch = buffer
        buffer = []
        await write(batch)
        // A D1 round trip costs far more than the rows it carries: when few
        // events are waiting, let more gather (one timer per batch, in this
        // request's own context) before the next write.
        if (buffer.length > 0 && buffer.length < GATHER_BELOW) await new Promise((resolve) => setTimeout(resolve, GATHER_MS))
      } while (buffer.length > 0 && Date.now() - started < MAX_DRAIN_MS)
    } finally {
      writing = false
    }
  }

  function record(event: JudgedRequest): void {
    if (buffer.length >= maxBuffered) {
      stats.dropped++
      complain(`buffer full (${maxBuffered} events), dropping events`)
      return
    }
    buffer.push(event)
    stats.recorded++
    // Only on reaching the threshold: a write already waiting takes the rest.
    if (buffer.length === batchSize) void flush()
  }

  async function settled(): Promise<void> {
    while (writing || buffer.length > 0) {
      if (!writing) await flush()
      else await new Promise((resolve) => setTimeout(resolve, 5))
    }
  }

  return { record, flush, settled, stats }
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
