import { parseIpRanges, type ParsedIpRanges } from '../ip-ranges.ts'
import type { IpRangeList } from '../../core/agents/types.ts'
import { readBoundedText } from '../../core/http/bounded-body.ts'

/**
 * Fetching one operator's published list, bounded in time and size, and
 * parsing it: shared by the cron (storage/ip-ranges.ts, in the Worker) and
 * `robots-edge ranges` (in Node), so both accept and refuse a list alike.
 * Needs only `fetch`, no binding.
 */

/** How a list is fetched; the global `fetch` by default, injected in tests. */
export type FetchFn = (url: string, init: RequestInit) => Promise<Response>

/** A parsed list with its text, or why it was refused. */
export type FetchedIpRanges = ({ readonly ok: true; readonly text: string } & ParsedIpRanges) | { readonly ok: false; readonly error: string; readonly skipped?: number }

/**
 * Fetches `list` and parses it in its format. Never throws: an HTTP error, a
 * timeout (headers and body together), a body over `maxBytes` or one with no
 * address in it (a changed format, an error page served with 200) is a
 * refusal with its reason.
 */
export async function fetchIpRangeList(list: IpRangeList, fetchFn: FetchFn, timeoutMs: number, maxBytes: number): Promise<FetchedIpRanges> {
  try {
    const response = await fetchFn(list.url, { signal: AbortSignal.timeout(timeoutMs), headers: { accept: list.format === 'google-json' ? 'application/json' : 'text/plain' } })
    if (!response.ok) {
      await response.body?.cancel()
      return { ok: false, error: `HTTP ${response.status}` }
    }
    // Bounded, so a runaway response cannot exhaust the isolate's memory.
    const text = await readBoundedText(response, maxBytes)
    if (text === null) return { ok: false, error: `body larger than ${maxBytes} bytes` }
    const parsed = parseIpRanges(text, list.format)
    if (parsed.count === 0) return { ok: false, skipped: parsed.skipped, error: `no address parsed (${parsed.skipped} entries skipped)` }
    return { ok: true, text, ...parsed }
  } catch (error) {
    return { ok: false, error: describeFetchError(error, timeoutMs) }
  }
}

/** A failure in one line: a timeout as such, and the cause Node's fetch hides behind "fetch failed" (a DNS error, say). */
export function describeFetchError(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && error.name === 'TimeoutError') return `timed out after ${timeoutMs} ms`
  if (!(error instanceof Error)) return String(error)
  return error.cause instanceof Error ? `${error.message}: ${error.cause.message}` : error.message
}
