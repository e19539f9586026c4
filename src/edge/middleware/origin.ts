import type { Context, Handler } from 'hono'
import { canonicalHost, DEFAULTS, INVALID_HOST, type Policies } from '../../core/config/index.ts'
import { applyForwardingPolicy, HOP_HEADER, isLoop, loopMarker, stripHopByHop } from './origin-headers.ts'
import { deploymentEnvOf } from './robots-txt.ts'

export { HOP_HEADER }

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`)

function isDevelopmentHost(host: string): boolean {
  return host === 'localhost' || host === '127.0.0.1' || host === '[::1]' || host.endsWith('.localhost') || host.endsWith('.workers.dev')
}

function infoPage(c: Context, host: string): Response {
  const body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex">
<title>robots-edge</title></head><body style="font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem">
<h1>robots-edge is running</h1>
<p>This Worker serves <a href="/robots.txt">/robots.txt</a> for <code>${escapeHtml(host)}</code> from <code>robots.config.ts</code>
and checks each crawler's requests against the same rules.</p>
<p>No origin is configured here, so other paths show this page. On a Cloudflare route, requests go on to your
site; set <code>ORIGIN</code> in <code>wrangler.toml</code> to send them elsewhere.</p>
</body></html>`
  return c.html(body, 200, { 'X-Robots-Tag': 'noindex' })
}

export interface PassThroughOptions {
  /** The policy store, for each host's `forwardedHeaders`. Default: none, and every host gets `'overwrite'`. */
  policies?: Policies
}

/**
 * The last handler: everything the guard lets through goes to the site.
 * With `ORIGIN` set, to that origin (same path and query); on a Cloudflare
 * route, to the zone's origin with `fetch(request)`; on workers.dev or
 * locally there is no origin, and a small page says what is running.
 *
 * On the way, hop-by-hop headers are dropped (RFC 9110 §7.6.1), forwarding
 * headers follow the config's `forwardedHeaders`, and the Worker's loop
 * marker replaces any copy the client sent: a request that comes back with
 * the real marker gets 508; a client's copy is never the real one.
 *
 * @example
 * app.all('*', passThrough({ policies }))
 */
export function passThrough(options: PassThroughOptions = {}): Handler {
  let warned = false
  return async function passThrough(c) {
    const url = new URL(c.req.url)
    const env = c.env as { ORIGIN?: string; IP_HASH_SALT?: string } | undefined
    const marker = await loopMarker(env?.IP_HASH_SALT)
    if (await isLoop(c.req.header(HOP_HEADER), marker)) return c.text('Loop detected: this request already passed through robots-edge.\n', 508)
    const origin = env?.ORIGIN
    if (!origin && isDevelopmentHost(url.hostname)) return infoPage(c, url.hostname)
    // RFC 9112 §3.2: a Host that is no host name is a 400; forwarding it to the zone could only fail (a 502).
    if (!origin && canonicalHost(url.hostname) === INVALID_HOST) return c.text('Bad Request: the Host header is not a valid host name.\n', 400)
    let target = url
    if (origin) {
      const base = originUrl(origin)
      if (base === null) {
        if (!warned) console.error(`robots-edge: ORIGIN ${JSON.stringify(origin)} is not an absolute http(s) URL; answering 502.`)
        warned = true
        return c.text('Bad Gateway: the origin is misconfigured.\n', 502)
      }
      // Path and query go onto the configured origin as they are. Resolving
      // them against it instead (`new URL(path, origin)`) would read a path
      // such as `//evil.example/x` as another host, and send it the visitor's
      // cookies: an open proxy.
      target = new URL(base.href)
      target.pathname = url.pathname
      target.search = url.search
      if (target.origin !== base.origin) return c.text('Bad Request\n', 400)
    }
    const request = new Request(target, c.req.raw)
    const forwarded = options.policies?.get(url.hostname, deploymentEnvOf(c)).config.forwardedHeaders ?? DEFAULTS.forwardedHeaders
    stripHopByHop(request.headers)
    applyForwardingPolicy(request.headers, forwarded, url, c.req.header('cf-connecting-ip') ?? null)
    request.headers.set(HOP_HEADER, marker)
    try {
      return await fetch(request)
    } catch (error) {
      console.error('robots-edge: origin unreachable', error)
      return c.text('Bad Gateway: the origin could not be reached.\n', 502)
    }
  }
}

/** `ORIGIN` as a URL, or null unless it is an absolute http(s) URL. */
export function originUrl(origin: string): URL | null {
  try {
    const url = new URL(origin)
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null
  } catch {
    return null
  }
}
