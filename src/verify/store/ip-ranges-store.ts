import { parseIpRanges } from '../ip-ranges.ts'
import type { IpRangeFormat } from '../../core/agents/types.ts'
import { ipRangeLists } from '../verify.ts'
import { IP_RANGES_INDEX_KEY, IP_RANGES_VERSION_KEY, ipRangesKey, readIpRangesIndex, type IpRangesIndex, type IpRangesMetadata } from './ip-ranges.ts'

/**
 * Lists fetched elsewhere, stored as the cron would store them: what
 * `robots-edge ranges` hands the admin API (POST /_robots/api/ip-ranges),
 * from the operators' URLs or from the package's dated snapshot. Each list
 * is parsed here, in the Worker, so KV only ever holds what the Worker's own
 * parser compiled, whoever fetched the text.
 */

/** One list to store. */
export interface IpRangesUpload {
  /** The list's URL in the registry (`ipRangeLists`); any other is refused. */
  readonly url: string
  /** How `text` is written: the operator's own format, or `ip-lines` for the snapshot's entries. */
  readonly format: IpRangeFormat
  readonly text: string
  readonly source: 'live' | 'snapshot'
  /** When it was fetched (for a snapshot, the snapshot's date), in milliseconds since the epoch. */
  readonly fetchedAt: number
}

/** The outcome for one list: stored (with its counts), or why not (the stored copy, if any, stays). */
export interface IpRangesStored {
  readonly url: string
  readonly ok: boolean
  readonly source: 'live' | 'snapshot'
  readonly fetchedAt: number
  readonly count?: number
  readonly skipped?: number
  readonly error?: string
}

const FORMATS: readonly IpRangeFormat[] = ['google-json', 'cidr-lines', 'ip-lines']
const KNOWN = new Set(ipRangeLists.map((list) => list.url))
/** Larger than any list published today (Google's biggest is about 60 KiB), small enough to hold in an isolate. */
const MAX_TEXT = 2 * 1024 * 1024

/**
 * Reads an upload's body (`{ lists: [...] }`) into uploads, or says what is
 * wrong with it in one sentence. Bad input is an answer, never an exception.
 */
export function parseUploads(body: unknown): { uploads: IpRangesUpload[] } | { error: string } {
  const lists = typeof body === 'object' && body !== null ? (body as Record<string, unknown>).lists : undefined
  if (!Array.isArray(lists) || lists.length === 0) return { error: 'the body must be JSON { "lists": [{ "url", "format", "text", "source", "fetchedAt" }, ...] } with at least one list' }
  if (lists.length > KNOWN.size) return { error: `at most ${KNOWN.size} lists, one per published list` }
  const uploads: IpRangesUpload[] = []
  for (const [i, item] of lists.entries()) {
    const { url, format, text, source, fetchedAt } = (typeof item === 'object' && item !== null ? item : {}) as Record<string, unknown>
    const at = `lists[${i}]`
    if (typeof url !== 'string' || !KNOWN.has(url))
      return { error: `${at}.url must be one of the published lists robots-edge checks (robots-edge/bots ipRangeLists), got ${JSON.stringify(String(url)).slice(0, 200)}` }
    if (!FORMATS.includes(format as IpRangeFormat)) return { error: `${at}.format must be one of ${FORMATS.join(', ')}` }
    if (typeof text !== 'string' || text.length > MAX_TEXT) return { error: `${at}.text must be the list's text, at most ${MAX_TEXT} characters` }
    if (source !== 'live' && source !== 'snapshot') return { error: `${at}.source must be "live" or "snapshot"` }
    if (typeof fetchedAt !== 'number' || !Number.isFinite(fetchedAt) || fetchedAt < 0) return { error: `${at}.fetchedAt must be a time in milliseconds since the epoch` }
    if (uploads.some((u) => u.url === url)) return { error: `${at}.url is given twice: ${url}` }
    uploads.push({ url, format: format as IpRangeFormat, text, source, fetchedAt })
  }
  return { uploads }
}

/**
 * Parses and stores each list, then the index and the version key, as the
 * cron's refresh does, so every isolate picks the lists up on its next
 * check. A list that parses to nothing is refused and its stored copy kept;
 * a stored list's failure from the last cron run is cleared. Throws only
 * when KV cannot be written.
 */
export async function storeIpRanges(kv: KVNamespace, uploads: readonly IpRangesUpload[], now: number = Date.now()): Promise<IpRangesStored[]> {
  const results = await Promise.all(
    uploads.map(async (upload): Promise<IpRangesStored> => {
      const { url, source, fetchedAt } = upload
      const { set, count, skipped } = parseIpRanges(upload.text, upload.format)
      if (count === 0) return { url, ok: false, source, fetchedAt, skipped, error: `no address parsed (${skipped} entries skipped)` }
      const metadata: IpRangesMetadata = { fetchedAt, count, skipped, source }
      await kv.put(ipRangesKey(url), JSON.stringify(set), { metadata })
      return { url, ok: true, source, fetchedAt, count, skipped }
    }),
  )
  const stored = new Set(results.filter((r) => r.ok).map((r) => r.url))
  const previous = await readIpRangesIndex(kv).catch(() => null)
  const index: IpRangesIndex = {
    updatedAt: now,
    urls: [...new Set([...(previous?.urls ?? []), ...stored])],
    failures: (previous?.failures ?? []).filter((f) => !stored.has(f.url)),
  }
  await kv.put(IP_RANGES_INDEX_KEY, JSON.stringify(index))
  // Last, so an isolate that sees the new version finds the lists it names.
  await kv.put(IP_RANGES_VERSION_KEY, `${now}-${crypto.randomUUID()}`)
  return results
}
