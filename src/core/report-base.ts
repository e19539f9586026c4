// Its own module so that the edge Worker, which forwards these paths to the
// admin Worker, names them without importing the report (src/admin/routes.ts).

/** Where the report lives. botGuard's default `exclude` leaves this prefix unjudged. */
export const REPORT_BASE = '/_robots'

/**
 * Where the admin Worker runs the ledger's upkeep when its edge Worker's
 * cron asks, through the service binding: outside REPORT_BASE, the only
 * prefix the edge ever forwards a client's request under.
 */
export const UPKEEP_PATH = '/__robots-edge/upkeep'
