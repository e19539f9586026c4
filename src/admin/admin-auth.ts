import type { Context, MiddlewareHandler } from 'hono'
import { sameSecret } from '../core/http/same-secret.ts'

export interface AdminAuthOptions {
  /**
   * The expected token, read per request because a Worker secret lives in
   * `c.env`. Unset or empty: every request is refused, so a deploy that
   * forgot the secret is closed, never open.
   */
  token: (c: Context) => string | undefined
  /** Realm named in both challenges. Default: `robots-edge`. */
  realm?: string
  /** Shapes the 401 (the challenges are added to it). Default: a short text/plain page that holds no data. */
  onUnauthorized?: (c: Context) => Response | Promise<Response>
  /** Where the one "no token configured" warning per isolate goes. Default: `console.warn`. */
  warn?: (message: string) => void
}

/** Longer headers are refused unread: a token this size is not one of ours. */
const MAX_AUTHORIZATION = 4096
const BEARER = /^Bearer +(\S+) *$/i
const BASIC = /^Basic +([A-Za-z0-9+/]+=*) *$/i
/** RFC 9110 §11.2: a quoted-string without quotes, backslashes or controls, so it needs no escaping. */
const SAFE_REALM = /^[\x20\x21\x23-\x5b\x5d-\x7e]+$/

/** The credential offered: a Bearer token, or the password of HTTP Basic (RFC 7617; the user name is ignored). */
export function offeredToken(header: string | undefined): string | null {
  if (!header || header.length > MAX_AUTHORIZATION) return null
  const bearer = BEARER.exec(header)
  if (bearer) return bearer[1]!
  const basic = BASIC.exec(header)
  if (!basic) return null
  let binary: string
  try {
    binary = atob(basic[1]!)
  } catch {
    return null
  }
  // RFC 7617 §2.1: charset="UTF-8" in the challenge asks the browser for UTF-8.
  const text = new TextDecoder().decode(Uint8Array.from(binary, (ch) => ch.charCodeAt(0)))
  const colon = text.indexOf(':')
  return colon < 0 ? null : text.slice(colon + 1)
}

/**
 * Lets through only requests that carry the admin token, as
 * `Authorization: Bearer <token>` or as the password of HTTP Basic (so a
 * person can open the dashboard in a browser). Anything else gets 401 with
 * a Basic and a Bearer challenge.
 *
 * @example
 * app.use('/_robots/*', adminAuth({ token: (c) => c.env.ROBOTS_ADMIN_TOKEN }))
 */
export function adminAuth(options: AdminAuthOptions): MiddlewareHandler {
  if (typeof options?.token !== 'function') throw new TypeError('adminAuth: `token` must be a function of the context, e.g. (c) => c.env.ROBOTS_ADMIN_TOKEN.')
  const realm = options.realm ?? 'robots-edge'
  if (!SAFE_REALM.test(realm)) throw new TypeError(`adminAuth: realm ${JSON.stringify(realm)} must be printable ASCII without quotes or backslashes.`)
  const warn = options.warn ?? ((m: string) => console.warn(m))
  // Basic first: browsers act on the first challenge they support.
  const challenges = [`Basic realm="${realm}", charset="UTF-8"`, `Bearer realm="${realm}"`]
  let warned = false

  const refuse = async (c: Context): Promise<Response> => {
    const res = options.onUnauthorized
      ? await options.onUnauthorized(c)
      : c.text('401 Unauthorized: this page needs the robots-edge admin token (Authorization: Bearer <token>, or sign in with the token as the password).\n', 401)
    const headers = new Headers(res.headers)
    headers.delete('www-authenticate')
    for (const challenge of challenges) headers.append('WWW-Authenticate', challenge)
    return new Response(res.body, { status: 401, headers })
  }

  return async function adminAuth(c, next) {
    const expected = options.token(c)
    if (!expected) {
      if (!warned) {
        warned = true
        warn('robots-edge: ROBOTS_ADMIN_TOKEN is not set, so /_robots/ answers 401 to everyone. Set it with `wrangler secret put ROBOTS_ADMIN_TOKEN` (or in .dev.vars).')
      }
      return refuse(c)
    }
    const offered = offeredToken(c.req.header('authorization'))
    if (offered === null || !(await sameSecret(offered, expected))) return refuse(c)
    return next()
  }
}
