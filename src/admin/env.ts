/**
 * What the admin Worker reads from its `env`: the ledger and the IP ranges
 * the edge Worker keeps (the same D1 and KV), its own token, and the
 * Analytics Engine SQL API's account. Declared here, apart from the edge's
 * `RobotsEdgeEnv`, so the admin Worker names only what it uses.
 */
export interface AdminBindings {
  /** The compliance ledger the edge Worker writes. Unset: the report answers 503. */
  DB?: D1Database
  /** The operators' IP ranges the edge's cron keeps, for /_robots/api/verification. */
  ROBOTS_KV?: KVNamespace
  /** Bearer token for /_robots/ (the report and dashboard). Unset: those paths answer 401. */
  ROBOTS_ADMIN_TOKEN?: string
  /** Account id for reading the Analytics Engine dataset through its SQL API. Unset: that report is off. */
  AE_ACCOUNT_ID?: string
  /** API token with Account Analytics Read, for the same. */
  AE_API_TOKEN?: string
  /** The dataset name, when not `robots_edge_events`. */
  AE_DATASET?: string
  /** Seconds before the ledger queue's consumer retries a batch D1 refused (doubling each time, up to 900). Unset: 5. */
  LEDGER_RETRY_SECONDS?: string
}

/** The Hono environment of the report's routes. */
export type AdminEnv = { Bindings: AdminBindings }
