import type { ConfigInput } from '../core/config/index.ts'
import { d1Of } from '../ledger/d1.ts'
import { collectHeldLosses } from '../ledger/journal.ts'
import { rollUpCrawlDelay } from '../ledger/crawl-delay.ts'
import { mergeShapePacks, pruneLedger, rollUpLedger } from '../ledger/ledger.ts'
import { collectStashedLosses } from '../ledger/losses.ts'
import { pruneReferrals } from '../ledger/referrals.ts'
import { pruneAppliedIds } from '../ledger/queue-consumer.ts'
import { kvOf } from '../verify/store/kv.ts'
import { refreshIpRanges } from '../verify/store/ip-ranges.ts'
import { alertsFor, runAlerts } from './alerts.ts'

/**
 * The ledger's upkeep, what the cron runs: the operators' IP lists fetched
 * again, hourly counters rolled up and old rows pruned, the counts that
 * isolates left in KV (loss stashes, journal entries of held events) moved
 * into D1, then, when the config has `alerts`, the webhook alerts
 * (src/admin/alerts.ts). It lives with the admin Worker, not the edge: none of it is on a
 * request's path, and the edge bundle, which every request runs, stays
 * small. The edge's cron hands it over through the service binding
 * (`UPKEEP_PATH`); the in-process forms (`createWorker`, `withRobotsEdge`,
 * `robotsEdge()`) call it directly.
 */

/** Both kinds of counts isolates left in KV: loss stashes, and journal entries of events they held. */
async function collectLosses(kv: KVNamespace, db: D1Database, now: number): Promise<{ moved: number; events: number }> {
  const [stashed, held] = [await collectStashedLosses(kv, db, now), await collectHeldLosses(kv, db, now)]
  return { moved: stashed.moved + held.moved, events: stashed.events + held.events }
}

/** The alerts' part of the run: undefined when the config sets none; a failure, as the line writes it. */
async function alertsOf(env: unknown, database: D1Database | undefined, now: number, options: UpkeepOptions) {
  try {
    const settings = alertsFor(options.config, env)
    if (settings === null) return undefined
    return database ? await runAlerts(env, database, settings, now) : reasonOf(new Error('no DB binding'))
  } catch (error) {
    return reasonOf(error)
  }
}

/** Runs `task`, turning a synchronous throw into a rejection, so Promise.allSettled sees every failure. */
async function settle<T>(task: () => T | Promise<T>): Promise<T> {
  return task()
}

// As the cron's log line has always written a failure: "Error: no DB binding".
const reasonOf = (reason: unknown): string => String(reason)

/** What the upkeep reads beyond its bindings. */
export interface UpkeepOptions {
  /** The site's config: its `alerts` turn on the webhook alerts (src/admin/alerts.ts). Default: none, so no alerts. */
  readonly config?: ConfigInput
}

/** The cron run's one log line, as it is written. */
export type UpkeepLine = Record<string, unknown> & { readonly robotsEdge: 'cron' }

/**
 * One upkeep run. Never throws: a cron run that throws is only "exception"
 * in the dashboard, with the other tasks' results lost. Each task's failure
 * is caught and named in the run's one log line (`"retry":"next run"`); a
 * list that could not be fetched keeps its stored copy and is fetched again
 * on the next run. A Worker without one of the bindings has that task off.
 */
export async function runUpkeep(env: unknown, now: number = Date.now(), options: UpkeepOptions = {}): Promise<UpkeepLine> {
  let line: UpkeepLine
  try {
    const kv = kvOf(env)
    const database = d1Of(env)
    const missing = (binding: string) => Promise.reject(new Error(`no ${binding} binding`))
    // Roll the hourly counters up first: pruning keeps hourly rows until they are.
    const ledger = async (d: D1Database) => ({
      rollUp: await rollUpLedger(d, { now }),
      // Before pruning: the cap on shapes counts a page's paths once, not once per inbox pack.
      packs: await mergeShapePacks(d, { budgetMs: 60_000 }),
      crawlDelay: await rollUpCrawlDelay(d, { now }),
      ...(await pruneLedger(d, { now })),
      referrals: await pruneReferrals(d, { now }),
      queueIds: await pruneAppliedIds(d, now),
    })
    const [refresh, prune, losses] = await Promise.allSettled([
      settle(() => (kv ? refreshIpRanges(kv) : missing('ROBOTS_KV'))),
      settle(() => (database ? ledger(database) : missing('DB'))),
      // Counts left in KV by isolates that stopped before D1 was back.
      settle(() => (kv && database ? collectLosses(kv, database, now) : missing(kv ? 'DB' : 'ROBOTS_KV'))),
    ])
    // After the others: the losses just moved into D1 and the hours just rolled up are in what it reads.
    const alerts = await alertsOf(env, database, now, options)
    const failed = refresh.status === 'fulfilled' ? refresh.value.filter((r) => !r.ok) : []
    const anyFailed = failed.length > 0 || [refresh, prune, losses].some((r) => r.status === 'rejected') || (alerts !== undefined && (typeof alerts === 'string' || alerts.failed > 0))
    line = {
      robotsEdge: 'cron',
      ipRanges: refresh.status === 'fulfilled' ? { lists: refresh.value.length, failed: failed.map((f) => ({ url: f.url, error: f.error })) } : reasonOf(refresh.reason),
      prune: prune.status === 'fulfilled' ? prune.value : reasonOf(prune.reason),
      losses: losses.status === 'fulfilled' ? losses.value : reasonOf(losses.reason),
      ...(alerts === undefined ? {} : { alerts }),
      ...(anyFailed ? { retry: 'next run' } : {}),
    }
  } catch (error) {
    line = { robotsEdge: 'cron', error: reasonOf(error), retry: 'next run' }
  }
  console.log(JSON.stringify(line))
  return line
}

/** How often the admin Worker runs an upkeep its edge asks for: a cron is hourly; more is a caller in a loop. */
const UPKEEP_EVERY_MS = 60_000

/**
 * The admin Worker's answer at `UPKEEP_PATH`: the run's log line as JSON,
 * or 429 when one ran in this isolate within the last minute. Only the edge
 * reaches it (the admin Worker has no route; the edge forwards clients only
 * under /_robots/), and the throttle keeps even a misrouted caller from
 * turning it into load.
 */
export function upkeepHandler(options: UpkeepOptions = {}): (env: unknown) => Promise<Response> {
  let last = -Infinity
  return async (env) => {
    const now = Date.now()
    if (now - last < UPKEEP_EVERY_MS) {
      return Response.json({ error: 'an upkeep ran less than a minute ago' }, { status: 429, headers: { 'Retry-After': String(Math.ceil((last + UPKEEP_EVERY_MS - now) / 1000)) } })
    }
    last = now
    return Response.json(await runUpkeep(env, now, options))
  }
}
