// Optional Worker secrets (`wrangler secret put NAME`; `.dev.vars` locally).
// `wrangler types` generates the bindings, the vars and the secrets named in
// .dev.vars.example (ROBOTS_ADMIN_TOKEN, IP_HASH_SALT); these are the others.
declare namespace Cloudflare {
  interface Env {
    /** Account id for reading the Analytics Engine dataset through its SQL API. Unset: that report is off. */
    AE_ACCOUNT_ID?: string
    /** API token with Account Analytics Read, for the same. */
    AE_API_TOKEN?: string
    /** The dataset name, when not `robots_edge_events`. */
    AE_DATASET?: string
  }
}
