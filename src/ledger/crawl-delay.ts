/**
 * Crawl-delay, measured exactly where the events of every isolate meet: the
 * writer stores the time of each request by an agent whose group sets a
 * crawl delay (crawl_times), and the cron rolls settled hours up into
 * per (host, agent, day) counts of requests and early ones, ordered by
 * time and carried across runs (crawl_delay_last), then drops the times.
 *
 * Crawl-delay is no part of RFC 9309 (its §2.2.4 leaves other records to
 * crawlers): an extension Bing and Yandex read as the seconds to wait
 * between requests to a host; Google ignores it.
 *
 * What counts: every request of the agent to the host that the ledger
 * records (judged requests, refused ones included, and its robots.txt
 * fetches: each is a request the delay spaces), verified or unverified;
 * spoofed and unchecked claims are not the agent and are left out. A
 * request is early when it came less than the delay in force for it after
 * the agent's previous request to the same host; the first is never early.
 * The writer's side is src/ledger/crawl-times.ts (in the edge's bundle);
 * this file is the cron's and the report's.
 */
import { DAY_MS, HOUR_MS, hourOf } from './rollups.ts'

/**
 * Each stored time of crawl_times matching `where`, with `before` (the
 * agent's previous request to the host: among these rows, else the last one
 * rolled up) and `late` (it precedes a request already rolled up, so its
 * interval is unknown). Rows of one (host, agent) are ordered by time,
 * whatever order they arrived in; late ones are ordered apart.
 */
export function measuredTimes(where: string): string {
  return `SELECT host, agent_key, time, delay_ms, carried IS NOT NULL AND time < carried AS late,
      CASE WHEN carried IS NULL THEN prev WHEN prev IS NULL OR prev < carried THEN carried ELSE prev END AS before
    FROM (SELECT t.host, t.agent_key, t.time, t.delay_ms, l.time AS carried,
        lag(t.time) OVER (PARTITION BY t.host, t.agent_key, l.time IS NOT NULL AND t.time < l.time ORDER BY t.time) AS prev
      FROM crawl_times t LEFT JOIN crawl_delay_last l ON l.host = t.host AND l.agent_key = t.agent_key WHERE ${where})`
}

/** Per host, agent and day, from measuredTimes: the longest delay, requests, early and late ones. */
export function perDay(measured: string): string {
  return `SELECT host, agent_key, (time / ${DAY_MS}) * ${DAY_MS} AS day, max(delay_ms) AS delay_ms, count(*) AS requests,
      sum(NOT late AND before IS NOT NULL AND time - before < delay_ms) AS early, sum(late) AS late
    FROM (${measured}) WHERE true GROUP BY host, agent_key, (time / ${DAY_MS}) * ${DAY_MS}`
}

const ROLL = `INSERT INTO crawl_delay_daily (host, agent_key, day, delay_ms, requests, early, late)
  ${perDay(measuredTimes('t.time < ?1'))}
  ON CONFLICT (host, agent_key, day) DO UPDATE SET delay_ms = max(delay_ms, excluded.delay_ms),
    requests = requests + excluded.requests, early = early + excluded.early, late = late + excluded.late`

const CARRY = `INSERT INTO crawl_delay_last (host, agent_key, time)
  SELECT host, agent_key, max(time) FROM crawl_times WHERE time < ?1 GROUP BY host, agent_key
  ON CONFLICT (host, agent_key) DO UPDATE SET time = max(time, excluded.time)`

/** Options of rollUpCrawlDelay. */
export interface CrawlDelayRollUpOptions {
  /** The current time, ms. */
  now: number
  /** Days the daily rows are kept, as counts_daily's. Default 400. */
  retentionDays?: number
}

/**
 * Rolls the crawl times of hours that ended over an hour ago (the ledger's
 * settled hours, src/ledger/rollup.ts) into crawl_delay_daily, carries each
 * agent's last time on, and drops the rolled times, in one transaction.
 * A time recorded later for such an hour is rolled by the next run: exact
 * unless a later request of the same agent was already rolled (then `late`).
 *
 * @example
 * await rollUpCrawlDelay(env.DB, { now: Date.now() })
 */
export async function rollUpCrawlDelay(db: D1Database, opts: CrawlDelayRollUpOptions): Promise<{ rolled: number }> {
  const due = hourOf(opts.now) - HOUR_MS
  const keepFrom = opts.now - (opts.retentionDays ?? 400) * DAY_MS
  const results = await db.batch([
    db.prepare(ROLL).bind(due),
    db.prepare(CARRY).bind(due),
    db.prepare('DELETE FROM crawl_times WHERE time < ?1').bind(due),
    db.prepare('DELETE FROM crawl_delay_daily WHERE day < ?1').bind(keepFrom),
  ])
  return { rolled: results[2]?.meta.changes ?? 0 }
}
