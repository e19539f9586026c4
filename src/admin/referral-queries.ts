/** The report's read of referrals_daily (src/ledger/referrals.ts), for the operators' crawl-to-refer ratio (src/admin/operators.ts). */
import { DAY_MS, dayOf } from '../ledger/rollups.ts'
import type { ReferralCount, ReportFilter } from './types.ts'

/**
 * Referral counts over the whole UTC days the filter's range touches (the
 * counters are daily), for its host when it names one.
 */
export async function readReferrals(db: D1Database, filter: ReportFilter, onMeta: (meta: D1Meta) => void = () => {}): Promise<ReferralCount[]> {
  const since = dayOf(filter.since)
  const until = dayOf(filter.until - 1) + DAY_MS
  const result = await db
    .prepare('SELECT referrer, sum(visits) AS visits FROM referrals_daily WHERE day >= ?1 AND day < ?2 AND (?3 IS NULL OR host = ?3) GROUP BY referrer')
    .bind(since, until, filter.host?.toLowerCase() ?? null)
    .all<ReferralCount>()
  onMeta(result.meta)
  return result.results
}
