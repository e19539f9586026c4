/**
 * The Durable Object that enforces Crawl-delay (`guard: { crawlDelay:
 * 'enforce' }`): one object per host and agent, so every isolate and every
 * location asks the same one, and its requests are answered one at a time
 * by a single clock. It keeps the time of the last request it let through
 * in memory (and in its storage for a delay over 10 s); a request sooner than the
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
/**
 * An idle Durable Object leaves memory no sooner than 10 s after its last
 * request (Cloudflare's "Lifecycle of a Durable Object": hibernation after
 * 10 s of inactivity, eviction after 70-140 s): a shorter delay has always
 * passed by then, so it needs no storage.
 */
const PERSIST_ABOVE_MS = 10_000

export class CrawlDelayGate {
  #last = 0
  readonly #storage: DurableObjectStorage
  constructor(state: DurableObjectState) {
    this.#storage = state.storage
    void state.blockConcurrencyWhile(async () => {
      this.#last = (await state.storage.get<number>('last')) ?? 0
    })
  }

  /** `?d=<delay ms>`: answers the seconds to wait (rounded up) before a request is on time, or 0: on time, and now the last one. */
  fetch(request: Request): Response {
    const now = Date.now()
    const delayMs = Number(new URL(request.url).searchParams.get('d'))
    const wait = this.#last + delayMs - now
    if (wait > 0) return new Response(`${Math.ceil(wait / 1000)}`)
    this.#last = now
    // Stored only for a delay an idle object could outlive. Unconfirmed, so the answer does not
    // wait for it: a write per request cost 6-20 ms more in bench/crawl-delay.ts. At worst a
    // restarted object (a deploy, a lost machine) forgets one request, and the next one passes.
    if (delayMs > PERSIST_ABOVE_MS) this.#storage.put('last', now, { allowUnconfirmed: true }).catch(() => {})
    return new Response('0')
  }
}
