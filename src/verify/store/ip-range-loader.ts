import type { IpRangeSet } from '../ip-ranges.ts'
import { readIpRanges, readIpRangesVersion, type IpRangesIndex, type IpRangesMetadata } from './ip-ranges.ts'

/**
 * The operators' IP ranges as one isolate sees them: read from KV once, then
 * kept until the cron stores new ones. Every `checkMs` one small key (the
 * version the refresh bumps) is read; only when it changed are the lists read
 * again. So new ranges reach every isolate within `checkMs` of KV showing the
 * new version (Workers KV itself may take up to 60 s to show a write in
 * every location), and a request pays for a KV read at most once per
 * `checkMs` per isolate.
 *
 * Missing ranges are never cached as an answer: before the first refresh,
 * or after a failed read, the loader looks again after `retryMs`.
 */

/** Options of {@link createIpRangeLoader}. */
export interface IpRangeLoaderOptions {
  /** How often the version key is read. Default: 30 s. */
  readonly checkMs?: number
  /** After a failed read, or while nothing is stored yet, how soon to look again. Default: 10 s. */
  readonly retryMs?: number
  /** Longest a loaded copy serves without a full re-read, whatever the version says. Default: 1 hour. */
  readonly reloadMs?: number
  /** Longest a request waits for a read; past it, it goes on with what is loaded (perhaps nothing). Default: 1000 ms. */
  readonly waitMs?: number
  /** Age past which a read still in flight is presumed lost and a new one starts. Default: 10 s. */
  readonly abandonAfterMs?: number
}

type Ranges = ReadonlyMap<string, IpRangeSet>

/** What one isolate has loaded, for the coverage report (guard/coverage.ts). */
export interface IpRangeSnapshot {
  /** The compiled lists, by URL: what `verifyClaim` checks against. */
  readonly ranges: Ranges
  /** Metadata of each loaded list (when the cron fetched it, how many entries). */
  readonly metadata: ReadonlyMap<string, IpRangesMetadata>
  /** The index as last read: when the cron last ran and what failed; null before the first refresh. */
  readonly index: IpRangesIndex | null
  /** When this isolate last read the lists; null if it never has. */
  readonly loadedAt: number | null
  /** Why the last read failed or was incomplete; null when it succeeded. */
  readonly error: string | null
}

/** Reads the stored lists, memoised; `snapshot()` says what is loaded. */
export interface IpRangeLoader {
  (kv: KVNamespace, now?: number): Promise<Ranges>
  snapshot(): IpRangeSnapshot
  /** Makes the next call read the version key whatever `checkMs` says: for a rare caller that must see a fresh store (the coverage route). */
  recheck(): void
}

interface State extends IpRangeSnapshot {
  readonly version: string | null
  /** Before this time, requests use what is loaded without reading KV. */
  readonly nextCheckAt: number
}

interface Read {
  readonly promise: Promise<Ranges>
  readonly startedAt: number
}

const EMPTY: State = { ranges: new Map(), metadata: new Map(), index: null, loadedAt: null, error: null, version: null, nextCheckAt: 0 }

/**
 * Make a memoising loader with its own state. The Worker makes one per
 * isolate (src/edge/wiring.ts); a separate one suits a test or a second namespace.
 *
 * @example
 * const load = createIpRangeLoader()
 * verifyClaim(identity.id, ip, request.cf, await load(env.ROBOTS_KV))
 */
export function createIpRangeLoader(options: IpRangeLoaderOptions = {}): IpRangeLoader {
  const { checkMs = 30_000, retryMs = 10_000, reloadMs = 3_600_000, waitMs = 1000, abandonAfterMs = 10_000 } = options
  let state: State = EMPTY
  let inflight: Read | undefined

  async function refresh(kv: KVNamespace, now: number): Promise<State> {
    try {
      const version = await readIpRangesVersion(kv)
      const current = state.loadedAt !== null && state.error === null && version === state.version && now - state.loadedAt < reloadMs
      if (current) return { ...state, nextCheckAt: now + (state.index === null ? retryMs : checkMs) }
      const read = await readIpRanges(kv)
      const ranges = new Map<string, IpRangeSet>()
      const metadata = new Map<string, IpRangesMetadata>()
      for (const [url, stored] of read.lists) {
        ranges.set(url, stored.set)
        if (stored.metadata !== null) metadata.set(url, stored.metadata)
      }
      const error = read.unreadable.length === 0 ? null : `${read.unreadable.length} stored list(s) could not be read: ${read.unreadable.join(', ')}`
      // Nothing stored yet, or a list unreadable: look again soon, not in checkMs.
      const soon = error !== null || read.index === null
      return { ranges, metadata, index: read.index, loadedAt: now, error, version, nextCheckAt: now + (soon ? retryMs : checkMs) }
    } catch (error) {
      // A KV outage must not fail requests: keep what is loaded (perhaps
      // nothing, and claims then read as unknown), and look again soon.
      return { ...state, error: `KV could not be read: ${error instanceof Error ? error.message : String(error)}`, nextCheckAt: now + retryMs }
    }
  }

  function start(kv: KVNamespace, now: number): Read {
    const read: Read = {
      startedAt: now,
      promise: refresh(kv, now).then((next) => {
        // A read that was given up on and finishes late changes nothing.
        if (inflight !== read) return next.ranges
        state = next
        inflight = undefined
        return next.ranges
      }),
    }
    return read
  }

  const load = async function loadIpRanges(kv: KVNamespace, now = Date.now()): Promise<Ranges> {
    if (now < state.nextCheckAt) return state.ranges
    // Concurrent requests share the one read in flight rather than each reading
    // KV. That read belongs to the request that started it: workerd cancels a
    // request's I/O when the request ends early (a client disconnect), leaving
    // the promise unsettled for good. So a read is abandoned once it is old,
    // and nobody waits on one for more than `waitMs`.
    if (inflight === undefined || now - inflight.startedAt >= abandonAfterMs) inflight = start(kv, now)
    let timer: ReturnType<typeof setTimeout> | undefined
    const giveUp = new Promise<Ranges>((resolve) => {
      timer = setTimeout(() => resolve(state.ranges), waitMs)
    })
    try {
      return await Promise.race([inflight.promise, giveUp])
    } finally {
      if (timer !== undefined) clearTimeout(timer)
    }
  }
  return Object.assign(load, {
    snapshot: (): IpRangeSnapshot => ({ ranges: state.ranges, metadata: state.metadata, index: state.index, loadedAt: state.loadedAt, error: state.error }),
    recheck: () => {
      state = { ...state, nextCheckAt: 0 }
    },
  })
}
