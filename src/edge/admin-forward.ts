import type { ReportFactory } from './edge.ts'
import type { RobotsEdgeEnv } from './env.ts'

/** A service binding, checked by shape: a consumer's `env` may hold anything under that name. */
function adminOf(env: unknown): Fetcher | undefined {
  const admin = (env as RobotsEdgeEnv | undefined)?.ROBOTS_ADMIN
  return typeof admin?.fetch === 'function' ? admin : undefined
}

/** Said on every /_robots/ request while the binding is missing: the report cannot be served from here. */
const UNBOUND = {
  error: 'robots-edge: this Worker has no service binding "ROBOTS_ADMIN", so the report and dashboard under /_robots/ cannot be reached. '
    + 'Deploy the admin Worker (wrangler.admin.toml) and add to wrangler.toml: [[services]] binding = "ROBOTS_ADMIN", service = "robots-edge-admin".',
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
