import { applyD1Migrations } from 'cloudflare:test'
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

/**
 * Empties `db` and applies the migrations before `name` (e.g. '0080'): the
 * ledger as a site had it before that migration. Returns how many were
 * applied; the caller asserts some are left to apply.
 */
export async function migrateBefore(db: D1Database, migrations: Parameters<typeof applyD1Migrations>[1], name: string): Promise<number> {
  await db.batch([...LEDGER_TABLES, 'agent_hourly', 'd1_migrations'].map((t) => db.prepare(`DROP TABLE IF EXISTS ${t}`)))
  const before = migrations.filter((m) => m.name < name)
  await applyD1Migrations(db, before)
  return before.length
}
