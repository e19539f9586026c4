import { IpRangeSet } from '../ip-ranges.ts'
import { ipRangeLists } from '../verify.ts'
import type { IpRangeList } from '../../core/agents/types.ts'
import { describeFetchError, fetchIpRangeList, type FetchFn } from './ip-range-fetch.ts'

/**
 * Operators' published IP-range lists in Workers KV: the cron trigger fetches
 * and compiles them (`refreshIpRanges`), requests read the compiled sets
 * (`readIpRanges`, memoised per isolate by storage/ip-range-loader.ts).
 *
 * Layout: `ip-ranges:v1:<list url>` holds one list's `IpRangeSet#toJSON()`
 * with metadata `{ fetchedAt, count, skipped }`; `ip-ranges:v1:index` holds
 * `{ updatedAt, urls, failures }`, the lists that have a stored value (so a
 * load reads only keys that exist) and the last refresh's failures;
 * `ip-ranges:v1:version` changes with every refresh, so an isolate learns
 * that new ranges are stored by reading one small key. The `v1` changes
 * whenever the stored form does.
 */

/** Prefix of every key this module writes. */
export const IP_RANGES_KEY_PREFIX = 'ip-ranges:v1:'
/** The key listing which lists are stored. */
export const IP_RANGES_INDEX_KEY = `${IP_RANGES_KEY_PREFIX}index`
/** The key each refresh sets to a new value, written last. */
export const IP_RANGES_VERSION_KEY = `${IP_RANGES_KEY_PREFIX}version`

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
  /**
   * Where the copy came from: `live` (the operator's URL, by the cron or
   * `robots-edge ranges`) or `snapshot` (the dated copy the package ships,
   * whose date `fetchedAt` then is). Absent in copies stored before it existed: live.
   */
  readonly source?: 'live' | 'snapshot'
}

/** The outcome of refreshing one list. On failure the previously stored value stays in force. */
export interface IpRangeRefresh {
  readonly url: string
  readonly ok: boolean
  readonly count?: number
  readonly skipped?: number
  readonly error?: string
}

export type { FetchFn }

/** Options of {@link refreshIpRanges}. */
export interface RefreshOptions {
  /** Lists to fetch. Default: every list the registry names ({@link ipRangeLists}). */
  readonly lists?: readonly IpRangeList[]
  /** Per-list time limit, headers and body together. Default: 10 000 ms. */
  readonly timeoutMs?: number
  /** Largest body accepted. Default: 2 MiB (Google's common-crawlers.json is about 60 KiB). */
  readonly maxBytes?: number
}

/** What `ip-ranges:v1:index` holds. */
export interface IpRangesIndex {
  /** When the last refresh ran (milliseconds since the epoch). */
  readonly updatedAt: number
  /** Lists with a stored value. */
  readonly urls: readonly string[]
  /** Lists the last refresh could not fetch, and why (a stored older copy may still serve). */
  readonly failures: readonly { readonly url: string; readonly error: string }[]
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
  const previous = await readIpRangesIndex(kv).catch(() => null)
  const summary = await Promise.all(lists.map((list) => refreshList(kv, list, fetchFn, now, timeoutMs, maxBytes)))
  // A failed list stays listed if it was stored before: its old value is still good.
  const urls = summary.filter((result) => result.ok || previous?.urls.includes(result.url) === true).map((result) => result.url)
  const failures = summary.filter((result) => !result.ok).map((result) => ({ url: result.url, error: result.error ?? 'failed' }))
  try {
    await kv.put(IP_RANGES_INDEX_KEY, JSON.stringify({ updatedAt: now, urls, failures } satisfies IpRangesIndex))
    // Last, so an isolate that sees the new version finds the lists it names.
    await kv.put(IP_RANGES_VERSION_KEY, `${now}-${crypto.randomUUID()}`)
  } catch (error) {
    return summary.map((result) => (result.ok ? { ...result, ok: false, error: `index not written: ${describeFetchError(error, timeoutMs)}` } : result))
  }
  return summary
}

async function refreshList(kv: KVNamespace, list: IpRangeList, fetchFn: FetchFn, now: number, timeoutMs: number, maxBytes: number): Promise<IpRangeRefresh> {
  const { url } = list
  const fetched = await fetchIpRangeList(list, fetchFn, timeoutMs, maxBytes)
  // A refused list (an empty one is almost always a changed format or an
  // error page served with 200) keeps the last good copy, worth more than nothing.
  if (!fetched.ok) return { url, ok: false, ...(fetched.skipped !== undefined ? { skipped: fetched.skipped } : {}), error: fetched.error }
  const { set, count, skipped } = fetched
  try {
    const metadata: IpRangesMetadata = { fetchedAt: now, count, skipped }
    await kv.put(ipRangesKey(url), JSON.stringify(set), { metadata })
    return { url, ok: true, count, skipped }
  } catch (error) {
    return { url, ok: false, error: describeFetchError(error, timeoutMs) }
  }
}

/** The index, or null before the first refresh (or when it is not this module's shape). */
export async function readIpRangesIndex(kv: KVNamespace): Promise<IpRangesIndex | null> {
  const value: unknown = await kv.get(IP_RANGES_INDEX_KEY, 'json')
  if (typeof value !== 'object' || value === null) return null
  const { updatedAt, urls, failures } = value as Record<string, unknown>
  if (typeof updatedAt !== 'number' || !Array.isArray(urls) || !urls.every((url) => typeof url === 'string')) return null
  // Written by this module; an index from before `failures` existed has none.
  const known = Array.isArray(failures) ? failures.filter((f): f is { url: string; error: string } => typeof f?.url === 'string' && typeof f?.error === 'string') : []
  return { updatedAt, urls, failures: known }
}

/** The value of the version key, or null before the first refresh. */
export async function readIpRangesVersion(kv: KVNamespace): Promise<string | null> {
  return kv.get(IP_RANGES_VERSION_KEY, 'text')
}

/** One stored list, compiled, with the metadata the refresh stored beside it. */
export interface StoredIpRanges {
  readonly set: IpRangeSet
  readonly metadata: IpRangesMetadata | null
}

/** Everything stored, as {@link readIpRanges} returns it. */
export interface IpRangesRead {
  /** Null before the first refresh. */
  readonly index: IpRangesIndex | null
  readonly lists: ReadonlyMap<string, StoredIpRanges>
  /** Lists the index names that could not be read or decoded. */
  readonly unreadable: readonly string[]
}

/**
 * Reads the index and every list it names. Throws when the index cannot be
 * read (KV down); a single unreadable or corrupt list is reported in
 * `unreadable` and the others still count.
 */
export async function readIpRanges(kv: KVNamespace): Promise<IpRangesRead> {
  const index = await readIpRangesIndex(kv)
  const lists = new Map<string, StoredIpRanges>()
  const unreadable: string[] = []
  if (index === null) return { index, lists, unreadable }
  const values = await Promise.all(
    index.urls.map(async (url): Promise<StoredIpRanges | undefined> => {
      try {
        const { value, metadata } = await kv.getWithMetadata<unknown, IpRangesMetadata>(ipRangesKey(url), 'json')
        return value === null ? undefined : { set: IpRangeSet.fromJSON(value), metadata: isMetadata(metadata) ? metadata : null }
      } catch {
        return undefined
      }
    }),
  )
  values.forEach((stored, i) => {
    const url = index.urls[i]!
    if (stored === undefined) unreadable.push(url)
    else lists.set(url, stored)
  })
  return { index, lists, unreadable }
}

function isMetadata(value: unknown): value is IpRangesMetadata {
  const m = value as Partial<IpRangesMetadata> | null
  return typeof m?.fetchedAt === 'number' && typeof m.count === 'number' && typeof m.skipped === 'number'
}
