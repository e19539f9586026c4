import { UPKEEP_PATH } from '../core/report-base.ts'
import type { ReportFactory, Upkeep } from './edge.ts'
import type { RobotsEdgeEnv } from './env.ts'

/** A service binding, checked by shape: a consumer's `env` may hold anything under that name. */
function adminOf(env: unknown): Fetcher | undefined {
  const admin = (env as RobotsEdgeEnv | undefined)?.ROBOTS_ADMIN
  return typeof admin?.fetch === 'function' ? admin : undefined
}

/** Said on every /_robots/ request while the binding is missing: the report cannot be served from here. */
const UNBOUND = {
  error:
    'robots-edge: this Worker has no service binding "ROBOTS_ADMIN", so the report and dashboard under /_robots/ cannot be reached. ' +
    'Deploy the admin Worker (wrangler.admin.toml) and add to wrangler.toml: [[services]] binding = "ROBOTS_ADMIN", service = "robots-edge-admin".',
}

/**
 * /_robots and everything under it, handed to the admin Worker through the
 * `ROBOTS_ADMIN` service binding, as the request came (the admin Worker
 * checks the token itself). The edge Worker stays small: the report's code
 * is in the admin Worker's bundle only.
 */
export const forwardToAdmin: ReportFactory = () => ({
  fetch(request, env) {
    const admin = adminOf(env)
    if (admin !== undefined) return admin.fetch(request)
    return Response.json(UNBOUND, { status: 503, headers: { 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex, nofollow' } })
  },
})

/**
 * The cron's upkeep for `createEdgeWorker`: run by the admin Worker, asked
 * through the same binding, so the code for IP lists, roll-ups and pruning
 * is in its bundle rather than in this one. A missing binding or a failed
 * run is said in one log line; the next cron run asks again.
 */
export const upkeepThroughAdmin: Upkeep = async (env) => {
  const admin = adminOf(env)
  if (admin === undefined) {
    console.log(JSON.stringify({ robotsEdge: 'cron', error: "no ROBOTS_ADMIN service binding: the admin Worker runs the ledger's upkeep (IP lists, roll-ups, pruning)", retry: 'next run' }))
    return
  }
  // The host is a placeholder: a service binding delivers to its Worker whatever the URL names.
  const res = await admin.fetch(new Request(`https://robots-edge-admin.internal${UPKEEP_PATH}`, { method: 'POST' }))
  if (!res.ok) console.log(JSON.stringify({ robotsEdge: 'cron', error: `the admin Worker answered ${res.status} to the upkeep`, retry: 'next run' }))
  await res.body?.cancel()
}
