/**
 * POST /_robots/api/ip-ranges: stores operators' IP-range lists that
 * `robots-edge ranges` fetched (or took from the package's dated snapshot)
 * into this Worker's KV, behind the admin token like every route under
 * /_robots/api. It is how the CLI loads the lists into the deployed KV
 * (`--remote URL`); locally the CLI runs this same route in-process over the
 * local KV, so both paths parse and store alike.
 */
import type { Hono } from 'hono'
import type { AdminEnv } from './env.ts'
import { readBoundedText } from '../core/http/bounded-body.ts'
import { kvOf } from '../verify/store/kv.ts'
import { parseUploads, storeIpRanges } from '../verify/store/ip-ranges-store.ts'

/** Every published list at once, each well under Google's largest (about 60 KiB) times a margin. */
export const MAX_IP_RANGES_BODY = 8 * 1024 * 1024

export function ipRangeRoutes(app: Hono<AdminEnv>, api: string): void {
  app.post(`${api}/ip-ranges`, async (c) => {
    const kv = kvOf(c.env)
    if (kv === undefined) return c.json({ error: 'this Worker has no KV binding "ROBOTS_KV": add [[kv_namespaces]] with binding = "ROBOTS_KV" to its wrangler config' }, 503)
    const text = await readBoundedText(c.req.raw, MAX_IP_RANGES_BODY)
    if (text === null) return c.json({ error: `body: is over ${MAX_IP_RANGES_BODY} bytes, the most this route reads`, param: 'body' }, 413)
    let body: unknown
    try {
      body = JSON.parse(text)
    } catch {
      return c.json({ error: 'body: is not JSON', param: 'body' }, 400)
    }
    const parsed = parseUploads(body)
    if ('error' in parsed) return c.json({ error: `body: ${parsed.error}`, param: 'body' }, 400)
    try {
      return c.json({ stored: await storeIpRanges(kv, parsed.uploads) })
    } catch (error) {
      console.error(`robots-edge: IP ranges could not be stored in KV: ${error instanceof Error ? error.message : String(error)}`)
      return c.json({ error: 'KV could not be written, so some lists may not be stored: run the command again' }, 503)
    }
  })
}
