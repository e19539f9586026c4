import type { MiddlewareHandler } from 'hono'
import { createReportApp } from '../admin/routes.ts'
import { runUpkeep } from '../admin/upkeep.ts'
import { createCoverageReader } from '../verify/store/coverage.ts'
import type { ConfigInput } from '../core/config/index.ts'
import { createEdge, type AppEnv, type ReportFactory, type RobotsEdgeOptions, type ScheduledFn, type Upkeep } from '../edge/edge.ts'

/** The report and dashboard served by the same Worker (`robotsEdge`, `createWorker`, `withRobotsEdge`). */
export const inProcessReport: ReportFactory = (deps) => {
  // Built here, not in the edge's wiring: the edge Worker's bundle, which forwards the report, holds no coverage code.
  const read = deps.ipRanges && createCoverageReader(deps.ipRanges)
  return createReportApp(read ? { coverage: (c) => read(c.env, c.req.url) } : {})
}

/** The cron's upkeep run in the same Worker, with the config's `alerts` (checked when the cron reads them, and by `robots-edge validate`). */
export const inProcessUpkeep =
  (config: ConfigInput): Upkeep =>
  (env) =>
    runUpkeep(env, Date.now(), { config })

/** The middleware, with the cron handler that belongs to it. */
export type RobotsEdgeMiddleware = MiddlewareHandler<AppEnv> & {
  /** The cron's work (refresh IP ranges, prune the ledger): add it to the Worker's default export. */
  readonly scheduled: ScheduledFn
}

/**
 * robots-edge in front of a Hono app's own routes, as one middleware:
 * serves /robots.txt from the config, guards every other request (people
 * pass untouched; crawlers are judged by the rules they were served,
 * recorded, and refused where their group says `guard: 'block'`), serves
 * the report and dashboard under /_robots/, then calls `next()`. Later
 * handlers read the verdict as `c.get('robotsJudgment')`.
 *
 * Create it once, at module level: the config is checked there (a bad one
 * throws at start-up, never on a request). Bindings, each optional: `DB`
 * (D1, the ledger), `ROBOTS_KV` (KV, IP ranges), `ROBOTS_AE`, and the
 * secrets `ROBOTS_ADMIN_TOKEN` and `IP_HASH_SALT`. Options: `record`,
 * `verify`, `report` (default true), `log` (default `console.log`), `warn`
 * (default `console.warn`).
 *
 * @example
 * import { Hono } from 'hono'
 * import { robotsEdge } from 'robots-edge/hono'
 * import config from './robots.config.ts'
 *
 * const edge = robotsEdge(config)
 * const app = new Hono()
 * app.use(edge)
 * app.get('/', (c) => c.text('Hello'))
 * export default { fetch: app.fetch, scheduled: edge.scheduled }
 */
export function robotsEdge(config: ConfigInput, options: RobotsEdgeOptions = {}): RobotsEdgeMiddleware {
  const edge = createEdge(config, options, inProcessReport, inProcessUpkeep(config))
  return Object.assign(edge.middleware, { scheduled: edge.scheduled })
}
