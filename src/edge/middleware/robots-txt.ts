import type { Context, MiddlewareHandler } from 'hono'
import { canonicalHost, type Policies, type Policy } from '../../core/config/index.ts'

export interface RobotsTxtOptions {
  /** The per-isolate policy store (`createPolicies(config)`). */
  policies: Policies
  /**
   * Called for each GET or HEAD of /robots.txt with the policy served, e.g.
   * to record which agents fetched which version. Default: none.
   */
  onFetch?: (c: Context, policy: Policy) => Promise<void> | void
}

/** `If-None-Match` uses the weak comparison (RFC 9110 §13.1.2): `W/` is ignored, `*` matches. */
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false
  return header.split(',').some((tag) => {
    const t = tag.trim()
    return t === '*' || t === etag || t === `W/${etag}`
  })
}

/** The environment a request is served in: `ROBOTS_ENV`, production unless set. */
export function deploymentEnvOf(c: Context): string | undefined {
  const vars = c.env as { ROBOTS_ENV?: unknown } | undefined
  return typeof vars?.ROBOTS_ENV === 'string' ? vars.ROBOTS_ENV : undefined
}

/** The request's host, canonical (see canonicalHost): lower case, no port, no trailing dot. */
export function hostOf(c: Context): string {
  return canonicalHost(new URL(c.req.url).hostname)
}

/**
 * Serves `/robots.txt` for the request's host and environment, from the
 * policy rendered once per isolate. Mount it first, before any guard.
 *
 * @example
 * app.use(robotsTxt({ policies: createPolicies(config) }))
 */
export function robotsTxt(options: RobotsTxtOptions): MiddlewareHandler {
  const { policies, onFetch } = options
  if (typeof policies?.get !== 'function') throw new TypeError('robotsTxt: `policies` must come from createPolicies(config).')
  return async function robotsTxt(c, next) {
    if (c.req.path !== '/robots.txt') return next()
    const method = c.req.method
    if (method !== 'GET' && method !== 'HEAD') {
      return c.text('Method Not Allowed\n', 405, { Allow: 'GET, HEAD' })
    }
    const policy = policies.get(hostOf(c), deploymentEnvOf(c))
    // A promise only when the response must wait for it (the ledger's outage, see botGuard's `hold`).
    await onFetch?.(c, policy)
    const headers: Record<string, string> = {
      'Content-Type': 'text/plain; charset=utf-8',
      ETag: policy.etag,
      'Cache-Control': policy.config.cacheControl,
    }
    if (matchesEtag(c.req.header('If-None-Match'), policy.etag)) return c.body(null, 304, headers)
    if (method === 'HEAD') {
      return c.body(null, 200, { ...headers, 'Content-Length': String(new TextEncoder().encode(policy.text).length) })
    }
    return c.body(policy.text, 200, headers)
  }
}
