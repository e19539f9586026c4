import { Hono } from 'hono'
import type { ConfigInput, Policies } from './config/index.ts'
import { assembleEdge, createEdge, type AppEnv, type RecordFn, type VerifyFn } from './edge.ts'
import type { RobotsEdgeEnv } from './env.ts'
import { cloudflareVerification } from './middleware/bot-guard.ts'
import { passThrough } from './middleware/origin.ts'

export type { AppEnv } from './edge.ts'

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
  const { policies, middleware } = assembleEdge(config, { record: deps.record, verify: deps.verify ?? cloudflareVerification, report: false })
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
 * // src/index.ts
 * import { createWorker } from 'robots-edge'
 * import config from '../robots.config.ts'
 * export default createWorker(config)
 */
export function createWorker(config: ConfigInput, deps: AppDeps = {}): ExportedHandler<RobotsEdgeEnv> {
  const edge = createEdge(config, { record: deps.record, verify: deps.verify })
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
    throw new TypeError('withRobotsEdge: the second argument must be a module Worker\'s handler, an object with fetch(), e.g. withRobotsEdge(config, { fetch: (request, env, ctx) => ... }).')
  }
  const edge = createEdge(config)
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
