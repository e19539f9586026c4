// Worker secrets (`wrangler secret put NAME`; `.dev.vars` locally). They are
// not in wrangler.toml, so `wrangler types` cannot generate them; bindings
// and vars come from worker-configuration.d.ts.
declare namespace Cloudflare {
  interface Env {
    /** Bearer token for /_robots/ (the report and dashboard). Unset: those paths answer 401. */
    ROBOTS_ADMIN_TOKEN?: string
    /** Salt for hashing client IPs in the ledger. Unset: no IP hash is stored. */
    IP_HASH_SALT?: string
    /** Account id for reading the Analytics Engine dataset through its SQL API. Unset: that report is off. */
    AE_ACCOUNT_ID?: string
    /** API token with Account Analytics Read, for the same. */
    AE_API_TOKEN?: string
    /** The dataset name, when not `robots_edge_events`. */
    AE_DATASET?: string
  }
}
