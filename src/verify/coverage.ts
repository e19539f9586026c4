import { registry, type AgentEntry } from '../core/agents/index.ts'

/**
 * Verification coverage per operator: which of its published
 * IP-range lists this Worker has loaded, when the cron fetched each, and
 * whether that copy is stale. A claim checked against a missing list is
 * `unknown`; the report and the dashboard say so in a plain sentence.
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
  readonly operators: readonly OperatorCoverage[]
}

/**
 * What one isolate has loaded: `IpRangeLoader#snapshot()` (storage/ip-range-loader.ts)
 * has this shape. Declared here, structurally, so this module needs no
 * Workers type and runs in plain Node too.
 */
export interface LoadedRanges {
  readonly ranges: ReadonlyMap<string, { readonly size: number }>
  readonly metadata: ReadonlyMap<string, { readonly fetchedAt: number; readonly count: number }>
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

function messageFor(operator: string, status: CoverageStatus, lists: readonly ListCoverage[], now: number): string | null {
  const who = possessive(operator)
  switch (status) {
    case 'ok':
      return null
    case 'missing':
      return `${who} IP ranges are not loaded: claims to be ${who} crawlers cannot be checked`
    case 'partial': {
      const missing = lists.filter((l) => !l.loaded).map((l) => fileOf(l.url))
      return `Some of ${who} IP ranges are not loaded (${missing.join(', ')}): claims they would settle cannot be checked`
    }
    case 'stale': {
      const oldest = Math.min(...lists.map((l) => l.fetchedAt ?? now))
      return `${who} IP ranges are stale (fetched ${age(now - oldest)} ago): claims to be ${who} crawlers are checked against an old copy`
    }
  }
}

/**
 * Coverage per operator that publishes IP ranges, in registry order, from
 * what one isolate has loaded (`IpRangeLoader#snapshot()`).
 *
 * @example
 * verificationCoverage(loader.snapshot(), Date.now()).operators.find((o) => o.operator === 'Google')?.message
 * // → "Google's IP ranges are not loaded: claims to be Google's crawlers cannot be checked"
 */
export function verificationCoverage(snapshot: LoadedRanges, now: number, staleAfterMs: number = STALE_AFTER_MS): VerificationCoverage {
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
      }
    })
    const loaded = lists.filter((l) => l.loaded).length
    const status: CoverageStatus = loaded === 0 ? 'missing' : loaded < lists.length ? 'partial' : lists.some((l) => l.stale) ? 'stale' : 'ok'
    operators.push({ operator, agents, status, lists, message: messageFor(operator, status, lists, now) })
  }
  return {
    time: now,
    refreshedAt: snapshot.index?.updatedAt ?? null,
    loadedAt: snapshot.loadedAt,
    staleAfterMs,
    error: snapshot.error,
    operators,
  }
}
