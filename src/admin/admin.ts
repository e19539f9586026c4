import type { ConfigInput } from '../core/config/index.ts'
import { UPKEEP_PATH } from '../core/report-base.ts'
import { alertsFor } from './alerts.ts'
import { createCoverageReader } from '../verify/store/coverage.ts'
import { countDeadLetters, createLedgerConsumer } from '../ledger/queue-consumer.ts'
import { d1Of } from '../ledger/d1.ts'
import { runUpkeep, upkeepHandler } from './upkeep.ts'
import type { AdminBindings } from './env.ts'
import { createReportApp } from './routes.ts'

/**
 * The admin half of the template's two Workers: the report, the dashboard
 * and the /_robots/api/* routes, behind the `ROBOTS_ADMIN_TOKEN` secret,
 * reached from the edge Worker (`createEdgeWorker`) through its
 * `ROBOTS_ADMIN` service binding. It reads the ledger the edge writes
 * (same D1 `DB`) and the operators' IP ranges the edge's cron keeps (same
 * KV `ROBOTS_KV`, for /_robots/api/verification). The report needs no
 * config (it reads the robots.txt versions the edge recorded); `config`,
 * when given, is read for its `alerts` only, which the cron posts from here
 * (an invalid `alerts` throws at start-up, so the deploy fails).
 *
 * Bindings: `DB`, `ROBOTS_KV`, `ROBOTS_ADMIN_TOKEN` (secret), for the
 * Analytics Engine report `AE_ACCOUNT_ID`, `AE_API_TOKEN`, `AE_DATASET`, and
 * for alerts the secrets `alerts` names (`ROBOTS_ALERT_WEBHOOK`, `ROBOTS_ALERT_SECRET`).
 * Paths outside /_robots/ answer 404, but one: the edge Worker's cron asks
 * for the ledger's upkeep (IP lists, roll-ups, pruning, counts left in KV)
 * with a POST to UPKEEP_PATH, and a cron trigger here runs the same.
 *
 * With the ledger queue (`npm run deploy -- --queue`), it is also the
 * queue's consumer: batches of the edge's events are written to D1
 * (src/ledger/queue-consumer.ts), and the dead-letter queue's (a queue
 * whose name ends in `-dlq`) are counted as not stored.
 *
 * @example
 * // src/workers/admin-worker.js (wrangler.admin.toml: name = "robots-edge-admin")
 * import { createAdminWorker } from 'robots-edge'
 * import config from '../../robots.config.ts'
 * export default createAdminWorker(config)
 */
export function createAdminWorker(config?: ConfigInput): ExportedHandler<AdminBindings> {
  // Checked once, at start-up, in the production context; the cron reads it again for its environment.
  alertsFor(config, undefined)
  const options = config === undefined ? {} : { config }
  // Its own IP-range loader: the edge's wiring (the recorder, Web Bot Auth) stays out of this bundle.
  const readCoverage = createCoverageReader()
  const app = createReportApp({ coverage: (c) => readCoverage(c.env, c.req.url) })
  const upkeep = upkeepHandler(options)
  let consumer: ReturnType<typeof createLedgerConsumer> | undefined
  return {
    fetch(request, env, ctx) {
      // The edge Worker's cron, through the service binding; never a client's (the edge forwards only /_robots/).
      if (request.method === 'POST' && new URL(request.url).pathname === UPKEEP_PATH) return upkeep(env)
      return app.fetch(request, env, ctx)
    },
    // A cron trigger on this Worker instead of the edge's runs the same upkeep.
    scheduled(_controller, env, ctx) {
      ctx.waitUntil(runUpkeep(env, Date.now(), options))
    },
    async queue(batch, env) {
      if (batch.queue.endsWith('-dlq')) {
        await countDeadLetters(batch, d1Of(env))
        return
      }
      const retrySeconds = Number(env.LEDGER_RETRY_SECONDS)
      consumer ??= createLedgerConsumer(Number.isFinite(retrySeconds) && env.LEDGER_RETRY_SECONDS !== '' ? { retrySeconds } : {})
      const result = await consumer.consume(batch, d1Of(env))
      console.log(JSON.stringify({ robotsEdge: 'ledger-queue', queue: batch.queue, messages: batch.messages.length, ...result }))
    },
  }
}
