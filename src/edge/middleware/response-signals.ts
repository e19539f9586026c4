import type { MiddlewareHandler } from 'hono'
import { mergeUsageHeader } from '../../core/config/content-usage.ts'
import type { Policies } from '../../core/config/index.ts'
import type { RobotsTag } from '../../core/config/signals.ts'
import type { BotGuardEnv } from './bot-guard.ts'
import { deploymentEnvOf } from './robots-txt.ts'

export interface ResponseSignalsOptions {
  /** The per-isolate policy store (`createPolicies(config)`), shared with `robotsTxt()` and `botGuard()`. */
  policies: Policies
  /** A path prefix whose responses are robots-edge's own, never the site's (in production). Default: `'/_robots/'`. */
  exclude?: string
}

/** The part of workerd's HTMLRewriter used here, typed locally: this module also runs in Node (robots-edge/hono), which has none. */
interface Rewriter {
  on(selector: string, handlers: { element(element: { prepend(content: string, options: { html: boolean }): unknown }): void }): Rewriter
  transform(response: Response): Response
}

/**
 * `X-Robots-Tag`: the config's directives as fields of their own, after the
 * origin's fields, which stay as they came. Google reads a directive after
 * `agent:` in a field as that agent's, and each field on its own ("Multiple
 * X-Robots-Tag headers can be combined", Google Search Central, robots meta
 * tag specifications): joining the origin's fields into one would hand the
 * directives after `googlebot: nofollow` to Googlebot alone. Directives the
 * origin already sends to every crawler (before any `agent:` in its value)
 * are not repeated.
 */
function appendRobotsTag(headers: Headers, tag: RobotsTag): void {
  const sent: string[] = []
  for (const d of (headers.get('X-Robots-Tag') ?? '').split(',')) {
    if (d.includes(':')) break
    sent.push(d.trim().toLowerCase())
  }
  const all = tag.all.filter((d) => !sent.includes(d))
  if (all.length > 0) headers.append('X-Robots-Tag', all.join(', '))
  if (tag.named.length > 0) headers.append('X-Robots-Tag', tag.named.join(', '))
}

/** `<meta name="robots">` (and `name="googlebot"`…) for what the header says; names are product tokens, directives a fixed list. */
function metaTags(tag: RobotsTag): string {
  let html = tag.all.length > 0 ? `<meta name="robots" content="${tag.all.join(', ')}">` : ''
  for (const named of tag.named) html += named.replace(/(.+): (.+)/, '<meta name="$1" content="$2">')
  return html
}

/**
 * Adds the config's response headers beyond robots.txt, from the same
 * policy that serves it: on pages passed through to the site, the
 * `Content-Usage` preferences (draft-ietf-aipref-attach-05 §2) of the group
 * the guard judged the request by (the `*` group when it judged none: people,
 * unidentified clients, guard off) and the `X-Robots-Tag` of the matching
 * `noindex` rules; with `noindexMeta`, the same as `<meta name="robots">`
 * in HTML. On staging and preview hosts, `X-Robots-Tag: noindex` on every
 * response. Refusals, /robots.txt and `exclude` get nothing in production.
 *
 * Only the response is read: no request header can add, change or remove
 * these. The origin's own values are merged, never dropped, and its
 * `X-Robots-Tag` fields stay separate fields. The headers never depend on
 * the body: HTML that HTMLRewriter cannot read gets them, without the
 * `<meta>` tags. A response
 * whose headers cannot be rewritten (a WebSocket upgrade) passes unchanged.
 * Mount it before `robotsTxt()` and `botGuard()`, so it sees their verdict.
 *
 * @example
 * app.use(responseSignals({ policies }))
 * app.use(robotsTxt({ policies }))
 * app.use(botGuard({ policies }))
 */
export function responseSignals<E extends BotGuardEnv = BotGuardEnv>(options: ResponseSignalsOptions): MiddlewareHandler<E> {
  const { policies } = options
  const exclude = options.exclude ?? '/_robots/'
  return async function responseSignals(c, next) {
    await next()
    try {
      const url = c.req.url
      const policy = policies.get(new URL(url).hostname, deploymentEnvOf(c))
      if (!policy.signals.any) return
      const judgment = c.get('robotsJudgment')
      if (policy.config.indexable) {
        const path = c.req.path
        if (path === '/robots.txt' || judgment?.action === 'block' || `${path}/`.startsWith(exclude)) return
      }
      const preferences = policy.signals.contentUsage(judgment?.verdict.group ?? '*', url)
      const tag = policy.signals.robotsTag(url)
      if ((preferences === undefined && tag === undefined) || c.res.status === 101) return
      // A fetched response's headers are immutable: copy it.
      let res = new Response(c.res.body, c.res)
      if (preferences !== undefined) res.headers.set('Content-Usage', mergeUsageHeader(res.headers.get('Content-Usage'), preferences))
      if (tag !== undefined) {
        appendRobotsTag(res.headers, tag)
        // Only where the runtime has HTMLRewriter (workerd); elsewhere the header alone.
        const Rewriter = (globalThis as { HTMLRewriter?: new () => Rewriter }).HTMLRewriter
        if (policy.config.noindexMeta && Rewriter !== undefined && res.body !== null && /^text\/html\b/i.test(res.headers.get('Content-Type') ?? '')) {
          const html = metaTags(tag)
          // The headers are set already and never depend on the body: a
          // charset HTMLRewriter cannot read (UTF-16, ISO-2022-JP, an unknown
          // label) makes transform() throw, and the page goes out as it came.
          try {
            res = new Rewriter().on('head', { element: (head) => void head.prepend(html, { html: true }) }).transform(res)
          } catch {}
        }
      }
      // Hono's setter copies the old response's headers over a new one, which
      // would put back the values merged here: clear it first.
      c.res = undefined
      c.res = res
    } catch (error) {
      console.error('robots-edge: response headers not added', error)
    }
  }
}
