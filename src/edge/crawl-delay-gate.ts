/**
 * The Durable Object that enforces Crawl-delay (`guard: { crawlDelay:
 * 'enforce' }`): one object per host and agent, so every isolate and every
 * location asks the same one, and its requests are answered one at a time
 * by a single clock. It keeps the time of the last request it let through
 * in its own storage (eviction forgets nothing); a request sooner than the
 * delay after it is early. Refused requests do not move it: a crawler that
 * waits the `Retry-After` it was given gets through.
 *
 * The Workers Rate Limiting binding was the other engine: its periods are
 * 10 or 60 s only and it counts per Cloudflare location, so it cannot hold
 * an exact delay of any length across locations.
 *
 * A plain class answering `fetch` (not `extends DurableObject` with RPC):
 * the package's entry stays importable in Node, where robots.config.ts is
 * read, without `cloudflare:workers`. Export it from the Worker and bind it
 * as `CRAWL_DELAY` (see the README's Crawl-delay section).
 */
export class CrawlDelayGate {
  readonly #kv: SyncKvStorage
  constructor(state: DurableObjectState) {
    this.#kv = state.storage.kv
  }

  /** `?d=<delay ms>`: answers the seconds to wait (rounded up) before a request is on time, or 0: on time, and now the last one. */
  fetch(request: Request): Response {
    const now = Date.now()
    const wait = (this.#kv.get<number>('last') ?? 0) + Number(new URL(request.url).searchParams.get('d')) - now
    if (wait > 0) return new Response(`${Math.ceil(wait / 1000)}`)
    this.#kv.put('last', now)
    return new Response('0')
  }
}
