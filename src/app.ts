import { Hono, type Context } from 'hono'
import type { AgentIdentity } from './bots/index.ts'
import { createPolicies, type ConfigInput, type Policies, type Policy } from './config/index.ts'
import type { JudgedRequest, Verification } from './events.ts'
import { botGuard, cloudflareVerification, recordRobotsFetch, type BotGuardEnv } from './middleware/bot-guard.ts'
import { passThrough } from './middleware/origin.ts'
import { robotsTxt } from './middleware/robots-txt.ts'
import { reportRoutes } from './report/routes.ts'
import { createWiring } from './wiring.ts'

export type AppEnv = { Bindings: Env } & BotGuardEnv

/** What the Worker does with judged requests and how it checks identities; injected so tests can pass functions. */
export interface AppDeps {
  record?: (event: JudgedRequest, c: Context<AppEnv>, policy: Policy) => Promise<void> | void
  verify?: (c: Context<AppEnv>, identity: AgentIdentity) => Verification | Promise<Verification>
  /** Extra routes mounted after the guard and before pass-through (the report, the dashboard). */
  routes?: (app: Hono<AppEnv>, policies: Policies) => void
}

/**
 * Composes the Worker from a config: /robots.txt first, then the guard, then
 * the project's own routes, then everything else to the site. The config is
 * checked here, once per isolate: a bad one throws at start-up.
 */
export function createApp(config: ConfigInput, deps: AppDeps = {}): Hono<AppEnv> {
  const policies = createPolicies(config)
  const verify = deps.verify ?? cloudflareVerification
  const ipSalt = (c: Context) => (c.env as Env | undefined)?.IP_HASH_SALT
  const app = new Hono<AppEnv>()
  app.use(robotsTxt({ policies, onFetch: recordRobotsFetch({ record: deps.record, verify, ipSalt }) }))
  app.use(botGuard({ policies, record: deps.record, verify, ipSalt }))
  deps.routes?.(app, policies)
  app.all('*', passThrough({ policies }))
  return app
}

/**
 * The Worker for a config: fetch (the app, recording into D1 and verifying
 * claims against the operators' published ranges) and scheduled (the cron:
 * refresh those ranges, prune the ledger). `deps` replaces any part.
 */
export function createWorker(config: ConfigInput, deps: AppDeps = {}): ExportedHandler<Env> {
  const wiring = createWiring()
  // The report and dashboard (/_robots/) come with every Worker; deps.routes adds to them.
  const routes: AppDeps['routes'] = (app, policies) => {
    reportRoutes(app, { coverage: wiring.coverage })
    deps.routes?.(app, policies)
  }
  const app = createApp(config, { record: wiring.record, verify: wiring.verify, ...deps, routes })
  return {
    fetch: (request, env, ctx) => app.fetch(request, env, ctx),
    scheduled: (_controller, env, ctx) => ctx.waitUntil(wiring.scheduled(env)),
  }
}
