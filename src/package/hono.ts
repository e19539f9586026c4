/**
 * robots-edge for Hono apps: `robotsEdge(config, options?)` is the whole
 * of it as one middleware in front of the app's own routes; `robotsTxt()`,
 * `botGuard()` and `responseSignals()` (Content-Usage and X-Robots-Tag on
 * the app's responses) are its parts, sharing one `createPolicies(config)`.
 *
 * @example
 * import { Hono } from 'hono'
 * import { robotsEdge } from 'robots-edge/hono'
 * import config from './robots.config.ts'
 *
 * const edge = robotsEdge(config)
 * const app = new Hono()
 * app.use(edge)
 * app.get('/', (c) => c.text(c.get('robotsJudgment')?.action === 'pass' ? 'Hello, crawler' : 'Hello'))
 * export default { fetch: app.fetch, scheduled: edge.scheduled }
 *
 * @example
 * // The parts: robots.txt and the guard, without storage or the report.
 * import { botGuard, createPolicies, robotsTxt } from 'robots-edge/hono'
 * const policies = createPolicies(config)
 * app.use(responseSignals({ policies }))
 * app.use(robotsTxt({ policies }))
 * app.use(botGuard({ policies, record: (event) => console.log(event) }))
 */
import type { RobotsJudgment } from '../edge/middleware/bot-guard.ts'

export { robotsEdge, type RobotsEdgeMiddleware } from './robots-edge.ts'
export type { AppEnv, RecordFn, RobotsEdgeOptions, ScheduledFn, VerifyFn } from '../edge/edge.ts'
export { robotsTxt, type RobotsTxtOptions } from '../edge/middleware/robots-txt.ts'
export { botGuard, type BotGuardEnv, type BotGuardOptions, type RobotsJudgment } from '../edge/middleware/bot-guard.ts'
export { responseSignals, type ResponseSignalsOptions } from '../edge/middleware/response-signals.ts'
export { createPolicies, type Policies, type Policy } from '../core/config/index.ts'
export type { RobotsEdgeEnv } from '../edge/env.ts'

declare module 'hono' {
  // Every app that imports robots-edge/hono can read the judgment with
  // `c.get('robotsJudgment')`, whatever its own Variables (as hono's own
  // middleware declare theirs).
  interface ContextVariableMap {
    /** The guard's judgment of this request: set for each crawler it judged; unset for people. */
    robotsJudgment?: RobotsJudgment
    /** @deprecated Read `robotsJudgment`: the same object, under the name it had first. */
    robotsVerdict?: RobotsJudgment
  }
}
