/**
 * The writer's side of the Crawl-delay measurement (src/ledger/crawl-delay.ts):
 * the time of each request under a crawl delay, stored in the same
 * transaction as its event. Kept apart so the edge's bundle holds only this.
 */
import type { JudgedRequest } from '../core/events.ts'
import { agentKey } from './rollups.ts'

/** The rows crawl_times gets from `events`: [host, agent_key, time, delay_ms]. */
export function crawlTimeRows(events: readonly JudgedRequest[]): [string, string, number, number][] {
  const rows: [string, string, number, number][] = []
  for (const e of events) {
    if (e.crawlDelay === undefined || !(e.crawlDelay > 0) || (e.verification !== 'verified' && e.verification !== 'unverified')) continue
    rows.push([e.host, agentKey(e.agent), e.time, Math.round(e.crawlDelay * 1000)])
  }
  return rows
}

const INSERT_TIMES = `INSERT INTO crawl_times (host, agent_key, time, delay_ms)
  SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3 FROM json_each(?1)`

/** The statement that stores `events`' crawl times, for the writer's transaction; null when none has a crawl delay. */
export function crawlTimesStatement(db: D1Database, events: readonly JudgedRequest[]): D1PreparedStatement | null {
  const rows = crawlTimeRows(events)
  return rows.length === 0 ? null : db.prepare(INSERT_TIMES).bind(JSON.stringify(rows))
}
