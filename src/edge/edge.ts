/**
 * robots-edge as one Hono middleware: /robots.txt, the guard, the report
 * under /_robots/ (when one is given), then `next()` to whatever the app
 * does. Every form of the package is built on it: `robotsEdge()`
 * (robots-edge/hono), `withRobotsEdge` and `createWorker` (robots-edge) with
 * the report in-process, and `createEdgeWorker`, which hands /_robots/ to
 * the admin Worker. The report is a parameter: this folder never imports the
 * admin's code, so the edge Worker's bundle holds none of it whatever the
 * bundler shakes (package/robots-edge.ts passes the in-process report).
 */
import type { Context, MiddlewareHandler } from 'hono'
import type { AgentIdentity } from '../core/agents/index.ts'
import { ConfigError, createPolicies, type ConfigInput, type Policies } from '../core/config/index.ts'
import { d1Of, kvOf, type RobotsEdgeEnv } from './env.ts'
import type { Verification } from '../core/events.ts'
import { botGuard, recordRobotsFetch, type BotGuardEnv, type RecordFn } from './middleware/bot-guard.ts'
import { responseSignals } from './middleware/response-signals.ts'
import { robotsTxt } from './middleware/robots-txt.ts'
import { REPORT_BASE } from '../core/report-base.ts'
import type { IpRangeLoader } from '../verify/store/ip-range-loader.ts'
import { createWiring } from './wiring.ts'
import { createPacer } from './crawl-delay.ts'

/** The Hono environment of every robots-edge app: its bindings, and the verdict for later handlers. */
export type AppEnv = { Bindings: RobotsEdgeEnv } & BotGuardEnv

export type { RecordFn }
/** Confirms a claimed identity: `verified`, `unverified`, `spoofed` or `unknown`. */
export type VerifyFn = (c: Context<AppEnv>, identity: AgentIdentity) => Verification | Promise<Verification>
/** The cron's handler: the isolate's own backlog, then the ledger's upkeep (`Upkeep`). */
export type ScheduledFn = (controller: ScheduledController, env: unknown, ctx: ExecutionContext) => void
/**
 * The ledger's upkeep for the cron (IP lists, roll-ups, pruning, counts left
 * in KV): the admin side's `runUpkeep` in the one-Worker forms, a request to
 * the admin Worker for `createEdgeWorker`.
 */
export type Upkeep = (env: unknown) => Promise<unknown>

export interface RobotsEdgeOptions {
  /**
   * Receives each judged request and each robots.txt fetch, through
   * `ctx.waitUntil`. Default: the D1 ledger in `env.DB` (and Workers
   * Analytics Engine in `env.ROBOTS_AE` beside it); without `DB`, nothing.
   */
  record?: RecordFn
  /**
   * Confirms a claimed identity. Default: Cloudflare's verified-bot signal,
   * then the operators' published IP ranges kept in `env.ROBOTS_KV`; without
   * `ROBOTS_KV`, Cloudflare's signal alone.
   */
  verify?: VerifyFn
  /** Serve the report and the dashboard under /_robots/ (behind `ROBOTS_ADMIN_TOKEN`). Default: true. */
  report?: boolean
  /** Writes the guard's JSON log line for each judged request. Default: `console.log` (Workers Logs, Logpush). */
  log?: (line: string) => void
  /** Where the one-time notices about missing bindings go. Default: `console.warn`. */
  warn?: (message: string) => void
}

/** What a report needs from the edge: the IP-range loader it verifies with, when it does. */
export interface ReportDeps {
  /** The isolate's IP ranges, for verification coverage at /_robots/api/verification; without it that route is a 404. */
  ipRanges?: IpRangeLoader
}

/** Builds the report's handler once per isolate; it serves every path under /_robots/. */
export type ReportFactory = (deps: ReportDeps) => {
  fetch(request: Request, env: unknown, ctx?: ExecutionContext): Response | Promise<Response>
}

/** What `createEdge` builds once per isolate. */
export interface Edge {
  readonly policies: Policies
  readonly middleware: MiddlewareHandler<AppEnv>
  readonly scheduled: ScheduledFn
}

/** The execution context, or undefined where there is none (`app.request()` in a unit test). */
function executionCtxOf(c: Context): ExecutionContext | undefined {
  try {
    return c.executionCtx as ExecutionContext
  } catch {
    return undefined
  }
}

/**
 * Says once per isolate, on the first request, which default features a
 * Worker's bindings leave off: a missing binding is a choice, not an error,
 * but it must not be silent.
 */
function bindingNotices(options: RobotsEdgeOptions): (env: unknown) => void {
  const warn = options.warn ?? ((message: string) => console.warn(message))
  let checked = false
  return (env) => {
    if (checked) return
    checked = true
    if (options.record === undefined && d1Of(env) === undefined) {
      warn(
        'robots-edge: no D1 binding "DB", so recording is off (robots.txt and the guard work). Add [[d1_databases]] with binding = "DB" and migrations_dir = "node_modules/robots-edge/migrations" to keep the ledger.',
      )
    }
    if (options.verify === undefined && kvOf(env) === undefined) {
      warn(
        'robots-edge: no KV binding "ROBOTS_KV", so crawler IPs are not checked against the operators\' published ranges (Cloudflare\'s verified-bot signal still is). Add [[kv_namespaces]] with binding = "ROBOTS_KV".',
      )
    }
  }
}

/** Hands a refusal from the guard to Hono: the guard returns it rather than calling `next()`. */
function guardThen(guard: MiddlewareHandler, c: Context<AppEnv>, next: () => Promise<void>): () => Promise<void> {
  return async () => {
    const refusal = await guard(c, next)
    if (refusal instanceof Response) c.res = refusal
  }
}

/**
 * robots.txt, the guard and (when `report` is given) everything under
 * /_robots/, as one middleware, with record and verify given. `createApp`
 * uses it bare; the package's forms through `createEdge`, with storage.
 */
export function assembleEdge(
  config: ConfigInput,
  deps: {
    record?: RecordFn | undefined
    /** Whether a response waits for `record` (botGuard's `hold`). Default: never. */
    hold?: ((c: Context) => boolean) | undefined
    verify: VerifyFn
    /** Serves /_robots and everything under it. Default: none (those paths go on like any other). */
    report?: ReportFactory | undefined
    log?: ((line: string) => void) | undefined
    /** The IP-range loader `verify` reads, handed to the report for verification coverage. */
    ipRanges?: IpRangeLoader
    /** Crawl-delay enforcement (botGuard's `pace`). Default: none. */
    pace?: ((c: Context, key: string, delayMs: number) => Promise<number>) | undefined
  },
): Omit<Edge, 'scheduled'> {
  const policies = createPolicies(config)
  const { record, verify, hold } = deps
  const ipSalt = (c: Context) => (c.env as RobotsEdgeEnv | undefined)?.IP_HASH_SALT
  const txt = robotsTxt({ policies, onFetch: recordRobotsFetch({ record, verify, ipSalt, hold }) })
  const guard = botGuard({ policies, record, verify, ipSalt, hold, log: deps.log, pace: deps.pace })
  const report = deps.report ? deps.report(deps.ipRanges ? { ipRanges: deps.ipRanges } : {}) : null
  const signals = responseSignals<AppEnv>({ policies, exclude: `${REPORT_BASE}/` })
  const serve = async (c: Context<AppEnv>, next: () => Promise<void>): Promise<Response | void> => {
    const path = c.req.path
    if (report !== null && (path === REPORT_BASE || path.startsWith(`${REPORT_BASE}/`))) {
      return report.fetch(c.req.raw, c.env, executionCtxOf(c))
    }
    return txt(c, guardThen(guard, c, next))
  }
  // Content-Usage and X-Robots-Tag go on whatever the rest answers.
  const middleware: MiddlewareHandler<AppEnv> = async function robotsEdge(c, next) {
    return signals(c, async () => {
      const res = await serve(c, next)
      // As Hono's compose does with a handler's Response.
      if (res instanceof Response && !c.finalized) c.res = res
    })
  }
  return { policies, middleware }
}

// Replaced at build time by wrangler (and most bundlers): "development"
// under `wrangler dev`, "production" for deploy. Declared here because the
// Workers runtime types do not declare Node's `process`.
declare const process: { env: { NODE_ENV?: string } | null | undefined } | null | undefined

/**
 * `wrangler dev` after an edit broke the config: rather than a runtime that
 * fails to start (and takes the dev server down with it), one clear message
 * in the log and a 503 saying the same, until the next good save reloads the
 * Worker. Deploys, builds and tests still fail on a bad config.
 */
function brokenConfigEdge(error: ConfigError): Edge {
  console.error(`robots-edge: ${error.message}\nEvery request answers 503 until robots.config.ts is fixed (a deploy would fail).`)
  const policies: Policies = {
    get() {
      throw error
    },
  }
  const middleware: MiddlewareHandler<AppEnv> = async function robotsEdge(c) {
    return c.text(`robots-edge: ${error.message}\n`, 503, { 'Cache-Control': 'no-store' })
  }
  return { policies, middleware, scheduled: () => {} }
}

/**
 * Builds robots-edge for a config, once per isolate: the policies (a bad
 * config throws here, at start-up), the middleware, with the D1 ledger and
 * KV IP ranges as defaults, and the cron handler. `report` serves /_robots/
 * (unless `options.report` is false); without it, this edge has none.
 */
export function createEdge(config: ConfigInput, options: RobotsEdgeOptions = {}, report?: ReportFactory, upkeep?: Upkeep): Edge {
  const wiring = createWiring()
  let assembled: Omit<Edge, 'scheduled'>
  try {
    assembled = assembleEdge(config, {
      record: options.record ?? wiring.record,
      // While D1 is down, the ledger counts each event in KV before its response leaves.
      ...(options.record === undefined ? { hold: wiring.holding } : {}),
      verify: options.verify ?? wiring.verify,
      report: options.report === false ? undefined : report,
      log: options.log,
      pace: createPacer(options.warn ?? ((message: string) => console.warn(message))),
      // What this isolate's IP-range loader holds: only meaningful when it verifies.
      ...(options.verify === undefined ? { ipRanges: wiring.ipRanges } : {}),
    })
  } catch (error) {
    // Whether `wrangler dev` built this bundle; false wherever nothing replaced
    // `process.env.NODE_ENV` and there is no such variable. Written inline, with
    // no function around it, so that a production build folds it to false and
    // leaves brokenConfigEdge out of the bundle.
    if (error instanceof ConfigError && typeof process === 'object' && process !== null && typeof process.env === 'object' && process.env !== null && process.env.NODE_ENV === 'development')
      return brokenConfigEdge(error)
    throw error
  }
  const { policies, middleware: edge } = assembled
  const notice = bindingNotices(options)
  const middleware: MiddlewareHandler<AppEnv> = async function robotsEdge(c, next) {
    notice(c.env)
    return edge(c, next)
  }
  // The cron: this isolate's own backlog, then the ledger's upkeep, which
  // logs its own failures; the catch only keeps a bug from turning the run
  // into an unlogged "exception".
  const scheduled: ScheduledFn = (_controller, env, ctx) =>
    ctx.waitUntil(
      (async () => {
        await wiring.flush()
        await upkeep?.(env)
      })().catch((error: unknown) => {
        console.error(`robots-edge: the cron run failed and runs again at its next time: ${error instanceof Error ? error.message : String(error)}`)
      }),
    )
  return { policies, middleware, scheduled }
}
