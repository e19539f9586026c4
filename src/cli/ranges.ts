/**
 * `robots-edge ranges`: loads the operators' published IP-range lists into
 * the KV the Worker verifies crawlers with, as the hourly cron does. Each
 * list is fetched from its operator's URL (bounded in time and size); one
 * that cannot be fetched, or every list with `--snapshot`, comes from the
 * dated snapshot (the package's, written at release by
 * `npm run ranges:snapshot`, or `--snapshot-file`), labelled "snapshot of
 * <date>"; a package without one says so in one line. The lists
 * go through the admin API's POST /_robots/api/ip-ranges: the deployed
 * Worker's with `--remote URL`, else the same route run in-process over the
 * local KV that `npm run dev` uses.
 */
import { registry } from '../core/agents/registry.ts'
import type { IpRangeList } from '../core/agents/types.ts'
import { ipRangeLists } from '../verify/verify.ts'
import { fetchIpRangeList } from '../verify/store/ip-range-fetch.ts'
import { CliError } from './errors.ts'
import { columns, printJson } from './format.ts'
import { type Io, styleFor } from './io.ts'
import { NO_SNAPSHOT, readSnapshot, type IpRangesSnapshot } from './ip-ranges-snapshot.ts'
import { withLedgerApi, type LedgerSourceOptions } from './ledger-api.ts'

export interface RangesOptions extends LedgerSourceOptions {
  /** Load the snapshot without trying the operators' URLs. */
  readonly snapshot?: boolean | undefined
  readonly json?: boolean | undefined
  /** Per-list limit on a live fetch, headers and body together. Default: 10 000 ms. */
  readonly timeoutMs?: number | undefined
  /** The snapshot file to fall back to (`--snapshot-file`). Default: the package's data/ip-ranges-snapshot.json, if it ships one. */
  readonly snapshotFile?: string | undefined
  /** The snapshot itself, already read, or null for none (tests: the Workers runtime cannot read files). Wins over `snapshotFile`. */
  readonly snapshotData?: IpRangesSnapshot | null | undefined
  readonly now?: (() => number) | undefined
}

/** What happened to one list, as printed. */
export interface RangesLine {
  readonly url: string
  readonly operator: string
  readonly loaded: boolean
  readonly source: 'live' | 'snapshot' | null
  /** When the loaded copy was fetched (for the snapshot, its date); null when not loaded. */
  readonly fetchedAt: number | null
  readonly entries: number | null
  /** Why the live list was not used, if it was tried and failed. */
  readonly liveError: string | null
  /** Why the list is not loaded; null when it is. */
  readonly error: string | null
}

interface Upload {
  readonly url: string
  readonly format: IpRangeList['format']
  readonly text: string
  readonly source: 'live' | 'snapshot'
  readonly fetchedAt: number
}

const MAX_BYTES = 2 * 1024 * 1024
const operatorOf = new Map(registry.flatMap((entry) => (entry.verification?.ipRanges ?? []).map((list) => [list.url, entry.operator] as const)))
const fileOf = (url: string) => url.slice(url.lastIndexOf('/') + 1) || url
const when = (ms: number) => `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`

/** The stored answer of the admin route, as src/storage/ip-ranges-store.ts writes it (a Workers module, so restated). */
interface Stored {
  readonly url: string
  readonly ok: boolean
  readonly count?: number
  readonly error?: string
}

async function post(o: RangesOptions, io: Io, uploads: readonly Upload[]): Promise<{ target: string; stored: Stored[] }> {
  return withLedgerApi({ ...o, binding: 'ROBOTS_KV' }, '--remote', io, async (api) => {
    const res = await api.call('/ip-ranges', { method: 'POST', body: JSON.stringify({ lists: uploads }) })
    const body = (await res.json().catch(() => null)) as { stored?: Stored[]; error?: string } | null
    if (res.status === 401) throw new CliError(`${api.source} refused the token (401): set ROBOTS_ADMIN_TOKEN to the Worker's admin token.`)
    if (res.status === 404) throw new CliError(`${api.source} has no POST /_robots/api/ip-ranges: deploy this version of robots-edge first (npm run deploy).`)
    if (!res.ok || !Array.isArray(body?.stored)) throw new CliError(`${api.source} answered ${res.status}: ${body?.error ?? res.statusText}`)
    return { target: api.source, stored: body.stored }
  })
}

/** Loads the lists; exit code 0 when at least one list was stored, 1 when none was. */
export async function ranges(o: RangesOptions, io: Io): Promise<number> {
  const snap = o.snapshotData !== undefined ? o.snapshotData : readSnapshot(o.snapshotFile)
  // Nothing to load and nothing to try: one line, not a table of failures.
  if (snap === null && o.snapshot) throw new CliError(NO_SNAPSHOT)
  const now = (o.now ?? Date.now)()
  const fetchFn = o.fetch ?? fetch
  const fromSnapshot = new Map((snap?.lists ?? []).map((l) => [l.url, l]))
  const snapshotMissing = new Map((snap?.missing ?? []).map((m) => [m.url, m.reason]))
  const tried = await Promise.all(
    ipRangeLists.map(async (list) => {
      const live = o.snapshot ? null : await fetchIpRangeList(list, fetchFn, o.timeoutMs ?? 10_000, MAX_BYTES)
      if (live !== null && live.ok) return { list, upload: { url: list.url, format: list.format, text: live.text, source: 'live', fetchedAt: now } as Upload, liveError: null, missing: null }
      const copy = fromSnapshot.get(list.url)
      const liveError = live === null ? null : live.error
      if (copy === undefined)
        return {
          list,
          upload: null,
          liveError,
          missing: snap === null ? 'no snapshot to fall back to' : `the snapshot of ${snap.snapshot} has no copy (${snapshotMissing.get(list.url) ?? 'not included'})`,
        }
      return { list, upload: { url: list.url, format: 'ip-lines', text: copy.entries.join('\n'), source: 'snapshot', fetchedAt: Date.parse(copy.retrieved) } as Upload, liveError, missing: null }
    }),
  )
  const uploads = tried.flatMap((t) => (t.upload === null ? [] : [t.upload]))
  const { target, stored } = uploads.length > 0 ? await post(o, io, uploads) : { target: 'nothing', stored: [] as Stored[] }
  const byUrl = new Map(stored.map((s) => [s.url, s]))
  const lines: RangesLine[] = tried.map(({ list, upload, liveError, missing }) => {
    const result = byUrl.get(list.url)
    const loaded = upload !== null && result?.ok === true
    const error = loaded ? null : [liveError && `live fetch failed (${liveError})`, missing ?? result?.error].filter(Boolean).join('; ') || 'not stored'
    return {
      url: list.url,
      operator: operatorOf.get(list.url) ?? '-',
      loaded,
      source: loaded ? upload.source : null,
      fetchedAt: loaded ? upload.fetchedAt : null,
      entries: loaded ? (result.count ?? null) : null,
      liveError,
      error,
    }
  })
  const count = lines.filter((l) => l.loaded).length
  if (o.json) {
    printJson(io, { ok: count > 0, target, snapshot: snap === null ? null : { date: snap.snapshot }, ...(snap === null ? { note: NO_SNAPSHOT } : {}), lists: lines })
    return count > 0 ? 0 : 1
  }
  printText(io, lines, target, snap, o)
  return count > 0 ? 0 : 1
}

function printText(io: Io, lines: readonly RangesLine[], target: string, snap: IpRangesSnapshot | null, o: RangesOptions): void {
  const style = styleFor(io)
  const count = lines.filter((l) => l.loaded).length
  io.out(style.bold(count === 0 ? `No IP-range list was loaded into ${target}.` : `Loaded ${count} of ${lines.length} IP-range lists into ${target}:`))
  const rows = lines.map((l) => [
    l.loaded ? style.green('✓') : style.red('✗'),
    l.operator,
    fileOf(l.url),
    l.loaded ? `${l.entries ?? '?'} entries` : 'not loaded',
    l.loaded
      ? l.source === 'snapshot'
        ? `snapshot of ${new Date(l.fetchedAt!).toISOString().slice(0, 10)}${l.liveError ? ` (live fetch failed: ${l.liveError})` : ''}`
        : `live, fetched ${when(l.fetchedAt!)} from ${l.url}`
      : (l.error ?? ''),
  ])
  for (const line of columns(rows, '  ')) io.out(`  ${line}`)
  if (snap !== null && lines.some((l) => l.source === 'snapshot')) {
    io.out('')
    io.out(`Snapshot of ${snap.snapshot}: copies fetched from the operators' URLs by \`npm run ranges:snapshot\`. Not live data:`)
    io.out('claims are checked against these copies until live lists replace them.')
  }
  if (snap === null && lines.some((l) => l.liveError !== null)) {
    io.out('')
    io.out(`Note: ${NO_SNAPSHOT}.`)
  }
  const missing = lines.filter((l) => !l.loaded).length
  if (missing > 0 || lines.some((l) => l.source === 'snapshot')) {
    io.out('')
    io.out(
      `To load the live lists, run \`npx robots-edge ranges${o.url ? ` --remote ${o.url}` : ''}\` where the operators' sites are reachable${o.url ? '' : ', or add --remote <Worker URL> for the deployed Worker (its hourly cron also refreshes them)'}.`,
    )
  }
}
