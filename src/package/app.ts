// hono/tiny: the same Hono with its smallest router (PatternRouter), about
// 2.4 KiB gzip less than the default preset; the routes here are few and fixed.
import { Hono } from 'hono/tiny'
import type { ConfigInput, Policies } from '../core/config/index.ts'
import { forwardToAdmin, upkeepThroughAdmin } from '../edge/admin-forward.ts'
import { inProcessReport, inProcessUpkeep } from './robots-edge.ts'
import { assembleEdge, createEdge, type AppEnv, type RecordFn, type ReportFactory, type Upkeep, type VerifyFn } from '../edge/edge.ts'
import type { RobotsEdgeEnv } from '../edge/env.ts'
import { cloudflareVerification } from '../edge/middleware/bot-guard.ts'
import { passThrough } from '../edge/middleware/origin.ts'

export type { AppEnv } from '../edge/edge.ts'

/** What the Worker does with judged requests and how it checks identities; injected so tests can pass functions. */
export interface AppDeps {
  /** Receives each judged request. Default: `createApp`, none; `createWorker`, the D1 ledger in `env.DB`. */
  record?: RecordFn
  /** Confirms a claimed identity. Default: `createApp`, Cloudflare's signal; `createWorker`, that and the IP ranges in `env.ROBOTS_KV`. */
  verify?: VerifyFn
  /** Extra routes mounted after the guard and before pass-through. Default: none. */
  routes?: (app: Hono<AppEnv>, policies: Policies) => void
}

/**
 * Composes a Worker from a config without storage: /robots.txt first, then
 * the guard, then `deps.routes`, then everything else to the site. The
 * config is checked here, once per isolate: a bad one throws at start-up.
 */
export function createApp(config: ConfigInput, deps: AppDeps = {}): Hono<AppEnv> {
  const { policies, middleware } = assembleEdge(config, { record: deps.record, verify: deps.verify ?? cloudflareVerification })
  const app = new Hono<AppEnv>()
  app.use(middleware)
  deps.routes?.(app, policies)
  app.all('*', passThrough({ policies }))
  return app
}

/**
 * Today's whole Worker for a config, standing in front of a site: serves
 * /robots.txt, guards every request, records into D1, serves the report and
 * dashboard under /_robots/, and sends everything else on to the origin (or
 * `ORIGIN`). Its `scheduled` runs the cron: refresh the operators' IP
 * ranges, prune the ledger. `deps` replaces any part.
 *
 * @example
 * // src/workers/edge-worker.ts
 * import { createWorker } from 'robots-edge'
 * import config from '../../robots.config.ts'
 * export default createWorker(config)
 */
export function createWorker(config: ConfigInput, deps: AppDeps = {}): ExportedHandler<RobotsEdgeEnv> {
  return standaloneWorker(config, deps, inProcessReport, inProcessUpkeep(config))
}

/**
 * The edge half of the template's two Workers: as `createWorker` (serves
 * /robots.txt, guards, records into D1, runs the cron, sends the rest to the
 * origin), but /_robots and everything under it go, unchanged, to the admin
 * Worker (`createAdminWorker`) through the service binding `ROBOTS_ADMIN`;
 * without that binding, those paths answer 503 saying what to add. The
 * report's code stays out of this Worker's bundle, which every request runs.
 *
 * Bindings: those of `createWorker`, and `ROBOTS_ADMIN` (a service binding
 * to the admin Worker). `deps` replaces any part, as for `createWorker`.
 *
 * @example
 * // src/workers/edge-worker.ts; wrangler.toml: [[services]] binding = "ROBOTS_ADMIN", service = "robots-edge-admin"
 * import { createEdgeWorker } from 'robots-edge'
 * import config from '../../robots.config.ts'
 * export default createEdgeWorker(config)
 */
export function createEdgeWorker(config: ConfigInput, deps: AppDeps = {}): ExportedHandler<RobotsEdgeEnv> {
  return standaloneWorker(config, deps, forwardToAdmin, upkeepThroughAdmin)
}

/** The Worker in front of an origin, with what serves /_robots/ and what runs the cron's upkeep. */
function standaloneWorker(config: ConfigInput, deps: AppDeps, report: ReportFactory, upkeep: Upkeep): ExportedHandler<RobotsEdgeEnv> {
  const edge = createEdge(config, { record: deps.record, verify: deps.verify }, report, upkeep)
  const app = new Hono<AppEnv>()
  app.use(edge.middleware)
  deps.routes?.(app, edge.policies)
  app.all('*', passThrough({ policies: edge.policies }))
  return {
    fetch: (request, env, ctx) => app.fetch(request, env, ctx),
    scheduled: edge.scheduled,
  }
}

/**
 * Wraps any module Worker (Astro, SvelteKit, React Router, OpenNext, your
 * own): /robots.txt comes from the config, every request is guarded, and
 * what passes goes to the handler's own `fetch`. The handler's other
 * members are kept; its `scheduled` runs beside robots-edge's cron (the
 * Worker needs a cron trigger for that, e.g. `crons = ["17 * * * *"]`).
 *
 * Bindings, each optional: `DB` (D1, the ledger), `ROBOTS_KV` (KV, IP
 * ranges), `ROBOTS_ADMIN_TOKEN` and `IP_HASH_SALT` (secrets).
 *
 * @example
 * import { withRobotsEdge } from 'robots-edge'
 * import handler from './dist/_worker.js'
 * import config from './robots.config.ts'
 * export default withRobotsEdge(config, handler)
 */
export function withRobotsEdge<Env = RobotsEdgeEnv, QueueMessage = unknown, CfHostMetadata = unknown>(
  config: ConfigInput,
  handler: ExportedHandler<Env, QueueMessage, CfHostMetadata>,
): ExportedHandler<Env, QueueMessage, CfHostMetadata> {
  if (handler === null || typeof handler !== 'object') {
    throw new TypeError("withRobotsEdge: the second argument must be a module Worker's handler, an object with fetch(), e.g. withRobotsEdge(config, { fetch: (request, env, ctx) => ... }).")
  }
  const edge = createEdge(config, {}, inProcessReport, inProcessUpkeep(config))
  const app = new Hono<AppEnv>()
  app.use(edge.middleware)
  app.all('*', (c) => {
    if (handler.fetch === undefined) return c.text('Not Found\n', 404)
    // The original request, untouched: the guard reads only its headers.
    const request = c.req.raw as Parameters<NonNullable<typeof handler.fetch>>[0]
    return handler.fetch(request, c.env as Env, c.executionCtx as ExecutionContext)
  })
  return {
    ...handler,
    fetch: (request, env, ctx) => app.fetch(request, env as RobotsEdgeEnv, ctx),
    async scheduled(controller, env, ctx) {
      edge.scheduled(controller, env, ctx)
      await handler.scheduled?.(controller, env, ctx)
    },
  }
}
