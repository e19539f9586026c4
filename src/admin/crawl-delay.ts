/**
 * The Crawl-delay counts the report reads: what the cron rolled up
 * (crawl_delay_daily) plus the times not rolled up yet, measured the same
 * way (src/ledger/crawl-delay.ts). The verdict is src/admin/crawl-delay-verdict.ts's.
 */
import { measuredTimes, perDay } from '../ledger/crawl-delay.ts'
import { DAY_MS } from '../ledger/rollups.ts'
import type { CrawlDelayRow, ReportFilter } from './types.ts'

interface DayRow {
  agent_key: string
  delay_ms: number
  requests: number
  early: number
  late: number
}

/**
 * Crawl-delay counts per agent over the filter's whole UTC days (as the
 * report's paths): rolled-up days, plus the times the cron has not rolled
 * up yet. No table (migration 0040 not applied): none.
 */
export async function getCrawlDelays(db: D1Database, filter: ReportFilter): Promise<CrawlDelayRow[]> {
  const host = filter.host === undefined ? '' : ' AND host = ?3'
  const range = `day >= ?1 AND day < ?2${host}`
  const sql = `SELECT agent_key, delay_ms, requests, early, late FROM crawl_delay_daily WHERE ${range}
    UNION ALL SELECT agent_key, delay_ms, requests, early, late FROM (${perDay(measuredTimes('true'))}) WHERE ${range}`
  const binds: unknown[] = [Math.floor(filter.since / DAY_MS) * DAY_MS, filter.until]
  if (filter.host !== undefined) binds.push(filter.host)
  let rows: DayRow[]
  try {
    rows = (
      await db
        .prepare(sql)
        .bind(...binds)
        .all<DayRow>()
    ).results
  } catch (error) {
    if (/no such table/.test(String((error as Error)?.message ?? error))) return []
    throw error
  }
  const agents = new Map<string, { agentKey: string; delayMs: number; requests: number; early: number; late: number }>()
  const agent = filter.agent?.toLowerCase()
  for (const r of rows) {
    if (agent !== undefined && r.agent_key.toLowerCase() !== agent) continue
    const a = agents.get(r.agent_key) ?? { agentKey: r.agent_key, delayMs: 0, requests: 0, early: 0, late: 0 }
    a.delayMs = Math.max(a.delayMs, r.delay_ms)
    a.requests += r.requests
    a.early += r.early
    a.late += r.late
    agents.set(r.agent_key, a)
  }
  return [...agents.values()]
}
