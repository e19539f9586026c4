import { registry, type AgentEntry } from '../core/agents/index.ts'

/**
 * Verification coverage per operator: which of its published
 * IP-range lists this Worker has loaded, when the cron fetched each, and
 * whether that copy is stale or the package's dated snapshot. A claim
 * checked against a missing list is `unknown`; the report and the dashboard
 * say so in a plain sentence that names the command that fixes it.
 */

const HOUR = 3_600_000
/**
 * A copy older than this is stale. The cron refreshes every hour and Google
 * rebuilds its lists daily, so a day-old copy means the refresh has been
 * failing for a day.
 */
export const STALE_AFTER_MS = 24 * HOUR

/** One published list. */
export interface ListCoverage {
  readonly url: string
  /** Loaded in this isolate, with at least one entry. */
  readonly loaded: boolean
  /** When the cron fetched the loaded copy; null when not loaded. */
  readonly fetchedAt: number | null
  /** Entries in the loaded copy; null when not loaded. */
  readonly entries: number | null
  readonly stale: boolean
  /** Why the last refresh could not fetch it, if it could not. */
  readonly error: string | null
  /** Where the loaded copy came from: the operator's URL (`live`) or the package's dated `snapshot`; null when not loaded. */
  readonly source: 'live' | 'snapshot' | null
}

/** `ok`: every list loaded and fresh. `stale`: loaded, but some copy is old. `partial`: some list missing. `missing`: none loaded. */
export type CoverageStatus = 'ok' | 'stale' | 'partial' | 'missing'

export interface OperatorCoverage {
  readonly operator: string
  /** Registry ids of the agents checked against these lists. */
  readonly agents: readonly string[]
  readonly status: CoverageStatus
  readonly lists: readonly ListCoverage[]
  /** A plain sentence for the dashboard's banner; null when all is well. */
  readonly message: string | null
  /** The command that fixes what `message` says (it names it too); null when all is well. */
  readonly fix: string | null
}

export interface VerificationCoverage {
  /** When this answer was made. */
  readonly time: number
  /** When the cron last refreshed the lists; null if it never has. */
  readonly refreshedAt: number | null
  /** When this isolate last read them from KV; null if it never has. */
  readonly loadedAt: number | null
  readonly staleAfterMs: number
  /** Why the last read from KV failed or was incomplete, if it did. */
  readonly error: string | null
  /** The command that loads the lists into this Worker's KV now, e.g. `npx robots-edge ranges`. */
  readonly fix: string
  readonly operators: readonly OperatorCoverage[]
}

/**
 * What one isolate has loaded: `IpRangeLoader#snapshot()` (storage/ip-range-loader.ts)
 * has this shape. Declared here, structurally, so this module needs no
 * Workers type and runs in plain Node too.
 */
export interface LoadedRanges {
  readonly ranges: ReadonlyMap<string, { readonly size: number }>
  readonly metadata: ReadonlyMap<string, { readonly fetchedAt: number; readonly count: number; readonly source?: 'live' | 'snapshot' }>
  readonly index: { readonly updatedAt: number; readonly failures: readonly { readonly url: string; readonly error: string }[] } | null
  readonly loadedAt: number | null
  readonly error: string | null
}

interface OperatorLists {
  readonly agents: string[]
  readonly urls: string[]
}

function operatorsWithLists(): ReadonlyMap<string, OperatorLists> {
  const byOperator = new Map<string, OperatorLists>()
  for (const entry of registry as readonly AgentEntry[]) {
    const lists = entry.verification?.ipRanges ?? []
    if (lists.length === 0) continue
    let op = byOperator.get(entry.operator)
    if (op === undefined) byOperator.set(entry.operator, (op = { agents: [], urls: [] }))
    op.agents.push(entry.id)
    for (const list of lists) if (!op.urls.includes(list.url)) op.urls.push(list.url)
  }
  return byOperator
}

const OPERATORS = operatorsWithLists()

const possessive = (name: string) => `${name}'${name.endsWith('s') ? '' : 's'}`
const fileOf = (url: string) => url.slice(url.lastIndexOf('/') + 1) || url

function age(ms: number): string {
  const hours = Math.floor(ms / HOUR)
  return hours < 48 ? `${hours} hours` : `${Math.floor(hours / 24)} days`
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10)

/** The command that loads the lists, as `robots-edge ranges` takes it. */
export const LOAD_COMMAND = 'npx robots-edge ranges'
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]'])

/**
 * The command that loads the lists into the KV of the Worker answering
 * `url`: the local KV for a Worker on this machine (`npm run dev`), the
 * deployed one through its admin API otherwise.
 *
 * @example
 * loadCommandFor('https://example.com/_robots/api/verification') // → 'npx robots-edge ranges --remote https://example.com'
 */
export function loadCommandFor(url: string): string {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return LOAD_COMMAND
  }
  return LOCAL_HOSTS.has(parsed.hostname) ? LOAD_COMMAND : `${LOAD_COMMAND} --remote ${parsed.origin}`
}

function messageFor(operator: string, status: CoverageStatus, lists: readonly ListCoverage[], now: number, fix: string): string | null {
  const who = possessive(operator)
  const run = `Run \`${fix}\``
  const snapshots = lists.filter((l) => l.source === 'snapshot' && l.fetchedAt !== null)
  const dates = [...new Set(snapshots.map((l) => day(l.fetchedAt!)))].sort().join(', ')
  switch (status) {
    case 'ok':
      if (snapshots.length === 0) return null
      break
    case 'missing':
      return `${who} IP ranges are not loaded: claims to be ${who} crawlers cannot be checked. ${run} to load them.`
    case 'partial': {
      const missing = lists.filter((l) => !l.loaded).map((l) => fileOf(l.url))
      const copies = snapshots.length > 0 ? ` The loaded ones come from the snapshot of ${dates}, not the live lists.` : ''
      return `Some of ${who} IP ranges are not loaded (${missing.join(', ')}): claims they would settle cannot be checked.${copies} ${run} to load them.`
    }
    case 'stale':
      if (snapshots.length > 0) break
      return `${who} IP ranges are stale (fetched ${age(now - Math.min(...lists.map((l) => l.fetchedAt ?? now)))} ago): claims to be ${who} crawlers are checked against an old copy. ${run} to load fresh copies; the cron's log line says why its hourly refresh failed.`
  }
  // Loaded, but from the dated snapshot the package ships, not the operator's site.
  return `${who} IP ranges come from the snapshot of ${dates}, not the live lists: claims are checked against that copy. ${run} where the operators' sites are reachable to load the live lists.`
}

/**
 * Coverage per operator that publishes IP ranges, in registry order, from
 * what one isolate has loaded (`IpRangeLoader#snapshot()`).
 *
 * @example
 * verificationCoverage(loader.snapshot(), Date.now()).operators.find((o) => o.operator === 'Google')?.message
 * // → "Google's IP ranges are not loaded: claims to be Google's crawlers cannot be checked. Run `npx robots-edge ranges` to load them."
 */
export function verificationCoverage(snapshot: LoadedRanges, now: number, staleAfterMs: number = STALE_AFTER_MS, fix: string = LOAD_COMMAND): VerificationCoverage {
  const failures = new Map((snapshot.index?.failures ?? []).map((f) => [f.url, f.error]))
  const operators: OperatorCoverage[] = []
  for (const [operator, { agents, urls }] of OPERATORS) {
    const lists = urls.map((url): ListCoverage => {
      const set = snapshot.ranges.get(url)
      const loaded = set !== undefined && set.size > 0
      const fetchedAt = loaded ? (snapshot.metadata.get(url)?.fetchedAt ?? null) : null
      return {
        url,
        loaded,
        fetchedAt,
        entries: loaded ? (snapshot.metadata.get(url)?.count ?? null) : null,
        stale: fetchedAt !== null && now - fetchedAt > staleAfterMs,
        error: failures.get(url) ?? null,
        source: loaded ? (snapshot.metadata.get(url)?.source ?? 'live') : null,
      }
    })
    const loaded = lists.filter((l) => l.loaded).length
    const status: CoverageStatus = loaded === 0 ? 'missing' : loaded < lists.length ? 'partial' : lists.some((l) => l.stale) ? 'stale' : 'ok'
    const message = messageFor(operator, status, lists, now, fix)
    operators.push({ operator, agents, status, lists, message, fix: message === null ? null : fix })
  }
  return {
    time: now,
    refreshedAt: snapshot.index?.updatedAt ?? null,
    loadedAt: snapshot.loadedAt,
    staleAfterMs,
    error: snapshot.error,
    fix,
    operators,
  }
}
