import { createCoverageReader } from '../verify/store/coverage.ts'
import type { AdminBindings } from './env.ts'
import { createReportApp } from './routes.ts'

/**
 * The admin half of the template's two Workers: the report, the dashboard
 * and the /_robots/api/* routes, behind the `ROBOTS_ADMIN_TOKEN` secret,
 * reached from the edge Worker (`createEdgeWorker`) through its
 * `ROBOTS_ADMIN` service binding. It reads the ledger the edge writes
 * (same D1 `DB`) and the operators' IP ranges the edge's cron keeps (same
 * KV `ROBOTS_KV`, for /_robots/api/verification). It needs no config: the
 * report reads the robots.txt versions the edge recorded.
 *
 * Bindings: `DB`, `ROBOTS_KV`, `ROBOTS_ADMIN_TOKEN` (secret), and, for the
 * Analytics Engine report, `AE_ACCOUNT_ID`, `AE_API_TOKEN`, `AE_DATASET`.
 * Paths outside /_robots/ answer 404.
 *
 * @example
 * // src/workers/admin-worker.js (wrangler.admin.toml: name = "robots-edge-admin")
 * import { createAdminWorker } from 'robots-edge'
 * export default createAdminWorker()
 */
export function createAdminWorker(): ExportedHandler<AdminBindings> {
  // Its own IP-range loader: the edge's wiring (the recorder, Web Bot Auth) stays out of this bundle.
  const readCoverage = createCoverageReader()
  const app = createReportApp({ coverage: (c) => readCoverage(c.env, c.req.url) })
  return { fetch: (request, env, ctx) => app.fetch(request, env, ctx) }
}
