import type { Context } from 'hono'
import type { RobotsEdgeEnv } from './env.ts'

/**
 * botGuard's `pace` for `guard: { crawlDelay: 'enforce' }`: asks the
 * CRAWL_DELAY Durable Object of the host and agent (src/edge/crawl-delay-gate.ts)
 * whether the request is early. Without the binding, or when the object
 * fails, the request passes (measured, never a 5xx); a missing binding is
 * said once per isolate, as other missing bindings are.
 */
export function createPacer(warn: (message: string) => void): (c: Context, key: string, delayMs: number) => Promise<number> {
  let warned = false
  return async (c, key, delayMs) => {
    const gates = (c.env as RobotsEdgeEnv | undefined)?.CRAWL_DELAY
    if (!gates) {
      if (!warned) warn('robots-edge: guard.crawlDelay is "enforce" but no Durable Object binding "CRAWL_DELAY": measured, not enforced.')
      warned = true
      return 0
    }
    try {
      return Number(await (await gates.get(gates.idFromName(key)).fetch(`https://gate/?d=${delayMs}`)).text()) || 0
    } catch (error) {
      console.error('robots-edge: Crawl-delay unchecked', error)
      return 0
    }
  }
}
