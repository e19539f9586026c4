/**
 * Writes the dated snapshot `ranges` falls back to (ip-ranges-snapshot.ts
 * reads it): every list in the registry fetched from its operator's URL with
 * the same bounded fetch-and-parse as the cron and `ranges`
 * (src/storage/ip-range-fetch.ts), so the snapshot holds only what those
 * would have accepted. Run at release time on a machine with internet
 * (`npm run ranges:snapshot`); never during a build, so packing stays
 * offline-safe.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { parseIpRanges } from '../verify/ip-ranges.ts'
import type { IpRangeFormat, IpRangeList } from '../core/agents/types.ts'
import { ipRangeLists } from '../verify/verify.ts'
import { fetchIpRangeList, type FetchFn } from '../verify/store/ip-range-fetch.ts'
import type { IpRangesSnapshot, SnapshotList } from './ip-ranges-snapshot.ts'

export interface SnapshotWriterOptions {
  /** How each list is fetched. Default: the global `fetch`. */
  readonly fetch?: FetchFn | undefined
  /** Per-list limit, headers and body together. Default: 10 000 ms. */
  readonly timeoutMs?: number | undefined
  /** The clock, for each list's `retrieved` time and the snapshot's date. Default: `Date.now`. */
  readonly now?: (() => number) | undefined
  /** The lists to fetch. Default: every list in the registry. */
  readonly lists?: readonly IpRangeList[] | undefined
}

/** The file's own explanation, for a reader who opens it without the README. */
const ABOUT =
  'Operators\' published crawler IP-range lists, each fetched from its own URL by `npm run ranges:snapshot` at the time it gives. `robots-edge ranges --snapshot` loads these copies on a machine without internet, and `robots-edge ranges` falls back to them for a list it cannot fetch; every place that shows a copy labels it "snapshot of" its date. Not live data.'

const MAX_BYTES = 2 * 1024 * 1024

type Outcome = { readonly copy: SnapshotList } | { readonly missing: { readonly url: string; readonly reason: string } }

/** The entries as the operator wrote them, in the order given: each list's format read the way src/bots/ip-ranges.ts reads it. */
function entriesOf(text: string, format: IpRangeFormat): string[] {
  if (format === 'google-json') {
    const doc = JSON.parse(text) as { prefixes?: unknown }
    const prefixes = Array.isArray(doc.prefixes) ? doc.prefixes : []
    return prefixes.flatMap((p: unknown) => {
      const { ipv4Prefix, ipv6Prefix } = (typeof p === 'object' && p !== null ? p : {}) as Record<string, unknown>
      return [ipv4Prefix, ipv6Prefix].filter((v): v is string => typeof v === 'string').map((v) => v.trim())
    })
  }
  return text
    .split('\n')
    .map((line) => (line.includes('#') ? line.slice(0, line.indexOf('#')) : line).trim())
    .filter((e) => e.length > 0)
}

/** Fetches every list; a list that cannot be fetched or parsed is recorded in `missing` with the reason. Never throws. */
export async function buildSnapshot(o: SnapshotWriterOptions = {}): Promise<IpRangesSnapshot> {
  const fetchFn = o.fetch ?? ((url, init) => fetch(url, init))
  const now = o.now ?? Date.now
  const outcomes = await Promise.all(
    (o.lists ?? ipRangeLists).map(async (list): Promise<Outcome> => {
      const fetched = await fetchIpRangeList(list, fetchFn, o.timeoutMs ?? 10_000, MAX_BYTES)
      const retrieved = new Date(now()).toISOString()
      if (!fetched.ok) return { missing: { url: list.url, reason: fetched.error } }
      // Only entries the Worker parses on their own, so a reader of the snapshot never meets one it would skip.
      const entries = entriesOf(fetched.text, list.format).filter((e) => parseIpRanges(e, 'ip-lines').count === 1)
      if (entries.length === 0) return { missing: { url: list.url, reason: 'no address parsed' } }
      return { copy: { url: list.url, retrieved, entries } }
    }),
  )
  return {
    snapshot: new Date(now()).toISOString().slice(0, 10),
    lists: outcomes.flatMap((r) => ('copy' in r ? [r.copy] : [])),
    missing: outcomes.flatMap((r) => ('missing' in r ? [r.missing] : [])),
  }
}

/** Writes `snapshot` to `path` as JSON, creating its folder. */
export function writeSnapshot(path: string, snapshot: IpRangesSnapshot): void {
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, `${JSON.stringify({ about: ABOUT, ...snapshot }, null, 1)}\n`)
}
