// Its own module so that the edge Worker, which forwards these paths to the
// admin Worker, names them without importing the report (src/admin/routes.ts).

/** Where the report lives. botGuard's default `exclude` leaves this prefix unjudged. */
export const REPORT_BASE = '/_robots'
