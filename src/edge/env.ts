export { kvOf } from '../verify/store/kv.ts'
export { d1Of } from '../ledger/d1.ts'
import type { LedgerMessage } from '../ledger/queue.ts'

/**
 * The bindings, vars and secrets robots-edge reads from a Worker's `env`.
 * Every one is optional: a Worker that declares none still serves
 * /robots.txt and guards requests in production; each missing binding turns
 * one feature off (`bindingNotices` says which, once per isolate).
 *
 * It is written here rather than taken from `wrangler types`, because a
 * consumer's own `Env` names its own bindings: robots-edge accepts any `env`
 * and reads these names from it.
 */
export interface RobotsEdgeEnv {
  /** The compliance ledger (D1, with the package's migrations). Unset: nothing is recorded. */
  DB?: D1Database
  /** Operators' published IP ranges, refreshed by the cron. Unset: claims are checked only by Cloudflare's verified-bot signal. */
  ROBOTS_KV?: KVNamespace
  /** Optional second sink for busy sites (Workers Analytics Engine). Unset: D1 only. */
  ROBOTS_AE?: AnalyticsEngineDataset
  /** The ledger queue (Cloudflare Queues producer; the admin Worker consumes it). Unset: the edge writes to D1 directly. */
  LEDGER_QUEUE?: Queue<LedgerMessage>
  /** The deployment's environment. Unset: `production`. */
  ROBOTS_ENV?: string
  /** Where the template Worker sends requests that pass. Unset: the zone's origin. Not read by `withRobotsEdge` or `robotsEdge()`. */
  ORIGIN?: string
  /** The admin Worker, which serves /_robots/ for `createEdgeWorker`. Unset: those paths answer 503. */
  ROBOTS_ADMIN?: Fetcher
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
  /** The Crawl-delay gates (Durable Object class `CrawlDelayGate`), for `guard: { crawlDelay: 'enforce' }`. Unset: Crawl-delay is measured only. */
  CRAWL_DELAY?: DurableObjectNamespace
  /** `[version_metadata]`: names the deployment that first served each robots.txt version. Unset: not recorded. */
  CF_VERSION_METADATA?: { readonly id: string; readonly tag?: string }
}
