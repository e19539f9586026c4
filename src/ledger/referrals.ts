/**
 * People who arrived on an HTML page from an operator's product (events of
 * type `referral`, src/edge/middleware/bot-guard.ts): one counter per UTC
 * day, site host and referring host, written in the same batch as the judged
 * requests (writeEvents), and pruned by the cron. Nothing else of the visit
 * is stored: no path, no User-Agent, no IP or hash of one.
 */
import type { JudgedRequest } from '../core/events.ts'
import { DAY_MS, dayOf } from './rollups.ts'

/** Days of referral counters kept, as the daily counters (pruneLedger's `rollupRetentionDays`). */
export const REFERRAL_RETENTION_DAYS = 400

/** Added up per day, host and referrer in SQL, from the events as they are (a referral event holds nothing else of the visit). */
const UPSERT_REFERRALS = `INSERT INTO referrals_daily (day, host, referrer, visits)
  SELECT (CAST(value ->> '$.time' AS INTEGER) / 86400000) * 86400000, value ->> '$.host', value ->> '$.referrer', count(*) FROM json_each(?1)
  WHERE value ->> '$.referrer' IS NOT NULL GROUP BY 1, 2, 3
  ON CONFLICT (day, host, referrer) DO UPDATE SET visits = visits + excluded.visits`

/** The one statement counting the referrals among `events`, or undefined when there are none. */
export function referralStatement(db: D1Database, events: readonly JudgedRequest[]): D1PreparedStatement | undefined {
  const referrals = events.filter((e) => e.type === 'referral')
  return referrals.length > 0 ? db.prepare(UPSERT_REFERRALS).bind(JSON.stringify(referrals)) : undefined
}

/** Deletes referral counters of days before the retention, at most `maxDeletes` rows a run. Returns the rows deleted. */
export async function pruneReferrals(db: D1Database, opts: { now: number; retentionDays?: number; maxDeletes?: number }): Promise<number> {
  const before = dayOf(opts.now) - (opts.retentionDays ?? REFERRAL_RETENTION_DAYS) * DAY_MS
  const result = await db
    .prepare('DELETE FROM referrals_daily WHERE (day, host, referrer) IN (SELECT day, host, referrer FROM referrals_daily WHERE day < ?1 LIMIT ?2)')
    .bind(before, opts.maxDeletes ?? 100_000)
    .run()
  return result.meta.changes ?? 0
}
