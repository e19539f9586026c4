/** Every table of the ledger (migrations/), emptied between tests. */
export const LEDGER_TABLES = [
  'events',
  'agents',
  'counts_hourly',
  'counts_daily',
  'timeline_hourly',
  'paths_daily',
  'rules_daily',
  'agent_groups',
  'robots_fetches',
  'robots_versions',
  'robots_hosts',
  'ledger_state',
  'ledger_losses',
  'ledger_hosts',
  'shapes_daily',
  'shape_inbox',
  'shape_packs',
  'shape_groups_daily',
  'ledger_held',
  'crawl_times',
  'crawl_delay_daily',
  'crawl_delay_last',
  'referrals_daily',
  'ledger_queue_applied',
  'alert_state',
  'alert_outbox',
  'timeline_minutes',
] as const

export async function clearLedger(db: D1Database): Promise<void> {
  await db.batch(LEDGER_TABLES.map((t) => db.prepare(`DELETE FROM ${t}`)))
}
