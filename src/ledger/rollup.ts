/**
 * The cron's roll-up: hourly counters of hours that ended over an hour ago
 * are added up into counts_daily and timeline_hourly, once. Writing them at
 * every batch would cost a row per agent, host and class per batch; rolled
 * up, each costs one row per day (or hour). A request recorded later for an
 * hour already rolled up is added to both directly by the write path
 * (ledger_state `rolled_hour` says which hours those are). The run also
 * adds up the violations per rule from the request shapes (DERIVE_RULES).
 */
import { COUNTED_SQL } from './classes.ts'
import { HOUR_MS, hourOf } from './rollups.ts'
import { DERIVE_RULES } from './rules-sql.ts'

/** Options of rollUpLedger. */
export interface RollUpOptions {
  /** The current time, ms. */
  now: number
  /** Most hours in one span of a run (a run rolls up to 8 spans, skipping hours with nothing counted); the next run goes on. Default 168 (a week). */
  maxHours?: number
}

/** What rollUpLedger did. */
export interface RollUpResult {
  /** Hours before this are rolled up. */
  readonly rolledHour: number
  /** Hours rolled up by this run. */
  readonly hours: number
}

/** The first counted hour from ?1 on: a seek per agent. */
const NEXT_HOUR = `SELECT min((SELECT min(c.hour) FROM counts_hourly c WHERE c.agent_key = a.agent_key AND c.hour >= ?1)) AS hour FROM agents a`

const SPANS_PER_RUN = 8

const HOURS = `FROM agents a CROSS JOIN counts_hourly c ON c.agent_key = a.agent_key AND c.hour >= ?1 AND c.hour < ?2`

const ROLL_DAILY = `INSERT INTO counts_daily (agent_key, day, host, verification, class, requests, blocked, sampled, first_time, last_time, bytes, pages)
  SELECT c.agent_key, (c.hour / 86400000) * 86400000, c.host, c.verification, c.class, sum(c.requests), sum(c.blocked), sum(c.sampled),
    min(c.first_time), max(c.last_time), sum(c.bytes), sum(c.pages)
  ${HOURS} WHERE true GROUP BY c.agent_key, (c.hour / 86400000) * 86400000, c.host, c.verification, c.class
  ON CONFLICT (agent_key, day, host, verification, class) DO UPDATE SET requests = requests + excluded.requests,
    blocked = blocked + excluded.blocked, sampled = sampled + excluded.sampled, bytes = bytes + excluded.bytes, pages = pages + excluded.pages,
    first_time = min(first_time, excluded.first_time), last_time = max(last_time, excluded.last_time)`

/** Crawlers only (tools apart), genuine claims only: what the timeline shows. */
const ROLL_TIMELINE = `INSERT INTO timeline_hourly (hour, host, category, requests, violations)
  SELECT c.hour, c.host, coalesce(a.category, ''), sum(c.requests), sum(CASE WHEN c.class IN (${COUNTED_SQL}) THEN c.requests ELSE 0 END)
  ${HOURS} WHERE a.kind = 'bot' AND c.verification IN ('verified', 'unverified') AND c.class <> 'robotsTxt'
  GROUP BY c.hour, c.host, coalesce(a.category, '')
  ON CONFLICT (hour, host, category) DO UPDATE SET requests = requests + excluded.requests, violations = violations + excluded.violations`

/**
 * Rolls up the hours that ended over an hour ago and are not rolled up yet,
 * in one transaction. Run it from the cron trigger, before pruning.
 *
 * @example
 * await rollUpLedger(env.DB, { now: Date.now() })
 */
export async function rollUpLedger(db: D1Database, opts: RollUpOptions): Promise<RollUpResult> {
  const maxHours = Math.max(1, Math.trunc(opts.maxHours ?? 168))
  const due = hourOf(opts.now) - HOUR_MS
  let rolled = (await db.prepare("SELECT value FROM ledger_state WHERE name = 'rolled_hour'").first<number>('value')) ?? 0
  let hours = 0
  // A few spans per run, each up to maxHours; hours with nothing counted are
  // skipped, so a long quiet stretch costs one seek.
  for (let span = 0; span < SPANS_PER_RUN && rolled < due; span++) {
    const next = await db.prepare(NEXT_HOUR).bind(rolled).first<number>('hour')
    const from = next === null || next === undefined ? due : Math.max(rolled, Math.min(next, due))
    const until = Math.min(due, from + maxHours * HOUR_MS)
    await db.batch([
      db.prepare(ROLL_DAILY).bind(from, until),
      db.prepare(ROLL_TIMELINE).bind(from, until),
      db.prepare(`INSERT INTO ledger_state (name, value) VALUES ('rolled_hour', ?1) ON CONFLICT (name) DO UPDATE SET value = excluded.value`).bind(until),
    ])
    hours += (until - from) / HOUR_MS
    rolled = until
  }
  // One transaction: RULES_DAY moves only with the derivation that covers the days it leaves.
  await db.batch(DERIVE_RULES.map((sql) => db.prepare(sql)))
  return { rolledHour: rolled, hours }
}
