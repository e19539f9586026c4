import { IpRangeSet, parseIpRanges } from '../bots/ip-ranges.ts'
import { ipRangeLists } from '../bots/verify.ts'
import type { IpRangeList } from '../bots/types.ts'

/**
 * Operators' published IP-range lists in Workers KV: the cron trigger fetches
 * and compiles them (`refreshIpRanges`), requests read the compiled sets
 * (`loadIpRanges`), at most once per isolate per TTL.
 *
 * Layout: `ip-ranges:v1:<list url>` holds one list's `IpRangeSet#toJSON()`
 * with metadata `{ fetchedAt, count, skipped }`; `ip-ranges:v1:index` holds
 * `{ updatedAt, urls }`, the lists that have a stored value, so a load reads
 * only keys that exist. The `v1` changes whenever the stored form does.
 */

/** Prefix of every key this module writes. */
export const IP_RANGES_KEY_PREFIX = 'ip-ranges:v1:'
/** The key listing which lists are stored. */
export const IP_RANGES_INDEX_KEY = `${IP_RANGES_KEY_PREFIX}index`

/** The KV key of one list's compiled set. */
export function ipRangesKey(url: string): string {
  return `${IP_RANGES_KEY_PREFIX}${url}`
}

/** Metadata stored with each list. */
export interface IpRangesMetadata {
  /** Milliseconds since the epoch. */
  readonly fetchedAt: number
  /** Entries parsed from the list. */
  readonly count: number
  /** Malformed entries skipped. */
  readonly skipped: number
}

/** The outcome of refreshing one list. On failure the previously stored value stays in force. */
export interface IpRangeRefresh {
  readonly url: string
  readonly ok: boolean
  readonly count?: number
  readonly skipped?: number
  readonly error?: string
}

/** How the refresh fetches a list; the global `fetch` by default, injected in tests. */
export type FetchFn = (url: string, init: RequestInit) => Promise<Response>

/** Options of {@link refreshIpRanges}. */
export interface RefreshOptions {
  /** Lists to fetch. Default: every list the registry names ({@link ipRangeLists}). */
  readonly lists?: readonly IpRangeList[]
  /** Per-list time limit, headers and body together. Default: 10 000 ms. */
  readonly timeoutMs?: number
  /** Largest body accepted. Default: 2 MiB (Google's googlebot.json is about 60 KiB). */
  readonly maxBytes?: number
}

interface Index {
  readonly updatedAt: number
  readonly urls: readonly string[]
}

/**
 * Fetch every published list, compile it and store it in KV. A list that
 * fails (HTTP error, timeout, oversized body, nothing parsable) keeps its
 * previous value, and the failure is reported in the summary. Never throws:
 * it runs from the cron trigger, where an exception would only hide the
 * other lists' results.
 *
 * @example
 * // in the Worker's scheduled() handler
 * ctx.waitUntil(refreshIpRanges(env.ROBOTS_KV).then((summary) => console.log(JSON.stringify(summary))))
 */
export async function refreshIpRanges(kv: KVNamespace, fetchFn: FetchFn = (url, init) => fetch(url, init), now: number = Date.now(), options: RefreshOptions = {}): Promise<IpRangeRefresh[]> {
  const { lists = ipRangeLists, timeoutMs = 10_000, maxBytes = 2 * 1024 * 1024 } = options
  const previous = await readIndex(kv).catch(() => null)
  const summary = await Promise.all(lists.map((list) => refreshList(kv, list, fetchFn, now, timeoutMs, maxBytes)))
  // A failed list stays listed if it was stored before: its old value is still good.
  const urls = summary.filter((result) => result.ok || previous?.urls.includes(result.url) === true).map((result) => result.url)
  try {
    await kv.put(IP_RANGES_INDEX_KEY, JSON.stringify({ updatedAt: now, urls } satisfies Index))
  } catch (error) {
    return summary.map((result) => (result.ok ? { ...result, ok: false, error: `index not written: ${describe(error, timeoutMs)}` } : result))
  }
  return summary
}

async function refreshList(kv: KVNamespace, list: IpRangeList, fetchFn: FetchFn, now: number, timeoutMs: number, maxBytes: number): Promise<IpRangeRefresh> {
  const { url } = list
  try {
    const response = await fetchFn(url, { signal: AbortSignal.timeout(timeoutMs), headers: { accept: list.format === 'google-json' ? 'application/json' : 'text/plain' } })
    if (!response.ok) {
      await response.body?.cancel()
      return { url, ok: false, error: `HTTP ${response.status}` }
    }
    const { set, count, skipped } = parseIpRanges(await readText(response, maxBytes), list.format)
    // An empty result is almost always a changed format or an error page served
    // with 200: the last good copy is worth more than nothing.
    if (count === 0) return { url, ok: false, skipped, error: `no address parsed (${skipped} entries skipped)` }
    const metadata: IpRangesMetadata = { fetchedAt: now, count, skipped }
    await kv.put(ipRangesKey(url), JSON.stringify(set), { metadata })
    return { url, ok: true, count, skipped }
  } catch (error) {
    return { url, ok: false, error: describe(error, timeoutMs) }
  }
}

// Reads the body up to `maxBytes`, so a runaway response cannot exhaust the isolate's memory.
async function readText(response: Response, maxBytes: number): Promise<string> {
  const tooBig = `body larger than ${maxBytes} bytes`
  if (Number(response.headers.get('content-length')) > maxBytes) {
    await response.body?.cancel()
    throw new Error(tooBig)
  }
  if (response.body === null) return ''
  const reader = response.body.getReader()
  const chunks: Uint8Array[] = []
  let total = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    total += value.byteLength
    if (total > maxBytes) {
      await reader.cancel()
      throw new Error(tooBig)
    }
    chunks.push(value)
  }
  const bytes = new Uint8Array(total)
  let at = 0
  for (const chunk of chunks) {
    bytes.set(chunk, at)
    at += chunk.byteLength
  }
  return new TextDecoder().decode(bytes)
}

function describe(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && error.name === 'TimeoutError') return `timed out after ${timeoutMs} ms`
  return error instanceof Error ? error.message : String(error)
}

async function readIndex(kv: KVNamespace): Promise<Index | null> {
  const value: unknown = await kv.get(IP_RANGES_INDEX_KEY, 'json')
  if (typeof value !== 'object' || value === null) return null
  const { updatedAt, urls } = value as Record<string, unknown>
  if (typeof updatedAt !== 'number' || !Array.isArray(urls) || !urls.every((url) => typeof url === 'string')) return null
  return { updatedAt, urls }
}

async function readAll(kv: KVNamespace): Promise<ReadonlyMap<string, IpRangeSet>> {
  const index = await readIndex(kv)
  const ranges = new Map<string, IpRangeSet>()
  if (index === null) return ranges
  const values = await Promise.all(
    index.urls.map(async (url) => {
      try {
        const value: unknown = await kv.get(ipRangesKey(url), 'json')
        return value === null ? undefined : IpRangeSet.fromJSON(value)
      } catch {
        // One unreadable list leaves its agents unverified; the others still count.
        return undefined
      }
    }),
  )
  values.forEach((set, i) => {
    if (set !== undefined) ranges.set(index.urls[i]!, set)
  })
  return ranges
}

/** Options of {@link createIpRangeLoader}. */
export interface IpRangeLoaderOptions {
  /** How long a loaded copy serves before KV is read again. Default: 10 minutes (the cron refreshes hourly). */
  readonly ttlMs?: number
  /** After a failed read, how long to serve the last good copy (or nothing) before trying again. Default: 30 s. */
  readonly retryMs?: number
  /** Longest a request waits for a load; past it, it goes on with the last good copy or nothing. Default: 1000 ms. */
  readonly waitMs?: number
  /** Age past which a load still in flight is presumed lost and a new one starts. Default: 10 s. */
  readonly abandonAfterMs?: number
}

/** Reads the stored lists, memoised; see {@link loadIpRanges}. */
export type IpRangeLoader = (kv: KVNamespace, now?: number) => Promise<ReadonlyMap<string, IpRangeSet>>

type Ranges = ReadonlyMap<string, IpRangeSet>
interface Load {
  readonly promise: Promise<Ranges>
  readonly startedAt: number
}

/**
 * Make a memoising loader with its own cache. The Worker uses the shared
 * {@link loadIpRanges}; a separate loader suits a test or a second namespace.
 */
export function createIpRangeLoader(options: IpRangeLoaderOptions = {}): IpRangeLoader {
  const { ttlMs = 10 * 60_000, retryMs = 30_000, waitMs = 1000, abandonAfterMs = 10_000 } = options
  let cached: { ranges: Ranges; expiresAt: number } | undefined
  let inflight: Load | undefined
  const fallback = (): Ranges => cached?.ranges ?? new Map<string, IpRangeSet>()

  function start(kv: KVNamespace, now: number): Load {
    const load: Load = {
      startedAt: now,
      promise: readAll(kv).then(
        (ranges) => commit(load, ranges, now + ttlMs),
        // A KV outage must not fail requests: keep the last good copy, or
        // nothing (every claim then reads as unverified), and retry soon.
        () => commit(load, fallback(), now + retryMs),
      ),
    }
    return load
  }

  function commit(load: Load, ranges: Ranges, expiresAt: number): Ranges {
    // A load that was given up on and finishes late changes nothing.
    if (inflight !== load) return ranges
    cached = { ranges, expiresAt }
    inflight = undefined
    return ranges
  }

  return async function loadIpRanges(kv, now = Date.now()) {
    if (cached !== undefined && now < cached.expiresAt) return cached.ranges
    // Concurrent requests share the one load in flight rather than each reading
    // KV. That load belongs to the request that started it: workerd cancels a
    // request's I/O when the request ends early (a client disconnect), leaving
    // the promise unsettled for good. So a load is abandoned once it is old,
    // and nobody waits on one for more than `waitMs`.
    if (inflight === undefined || now - inflight.startedAt >= abandonAfterMs) inflight = start(kv, now)
    let timer: ReturnType<typeof setTimeout> | undefined
    const giveUp = new Promise<Ranges>((resolve) => {
      timer = setTimeout(() => resolve(fallback()), waitMs)
    })
    try {
      return await Promise.race([inflight.promise, giveUp])
    } finally {
      if (timer !== undefined) clearTimeout(timer)
    }
  }
}

/**
 * The compiled lists from KV as `VerificationRanges` for `verifyClaim`,
 * loaded once per isolate and re-read after 10 minutes. Never throws: a KV
 * failure or a load slower than a second yields the last good copy or empty
 * ranges (claims then read as unverified).
 *
 * @example
 * const verification = verifyClaim(identity.id, c.req.header('cf-connecting-ip') ?? null, c.req.raw.cf, await loadIpRanges(c.env.ROBOTS_KV))
 */
export const loadIpRanges: IpRangeLoader = createIpRangeLoader()
