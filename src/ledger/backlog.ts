/**
 * The recorder's memory: events waiting for D1, bounded in count and in
 * bytes, and the count of those it had to drop, kept as one open episode
 * until D1 has it. Plain data and arithmetic, no I/O and no Workers types,
 * so the load test can size the backlog exactly as the Worker does, and the
 * tests in Node read what isolates leave in KV by the same names.
 */
import type { JudgedRequest } from '../core/events.ts'

/** A count of events not stored, and when they happened (ms since the epoch, both inclusive). */
export interface Loss {
  readonly from: number
  readonly to: number
  readonly events: number
}

/** One isolate's loss over one episode of failures; `id` is unique per isolate and episode. */
export interface LossEpisode extends Loss {
  readonly id: string
}

/**
 * What an isolate keeps in KV while D1 refuses its writes: the events it
 * dropped, and those it still holds in memory (lost too, should the isolate
 * stop before D1 is back). `from` and `to` cover both.
 */
export interface LossStash extends LossEpisode {
  readonly held: number
  /** When the isolate last wrote it, ms since the epoch. */
  readonly updated: number
}

/** Prefix of the KV keys holding stashes; one key per isolate and episode. */
export const LOSS_STASH_PREFIX = 'ledger-losses:v1:'

/**
 * A stash not updated for this long belongs to an isolate that has stopped
 * (a live isolate in an outage rewrites it every few seconds, and removes it
 * once its loss is in D1), so the cron counts what it held as lost.
 */
export const STALE_STASH_MS = 15 * 60_000

/** Prefix of the KV keys holding journal entries: `<prefix><isolate>~<sequence>`. */
export const HELD_PREFIX = 'ledger-held:v1:'

/** The recorder's default bounds on what it holds in memory: an isolate has 128 MB for everything. */
export const BACKLOG_LIMITS = { events: 20_000, bytes: 8 * 1024 * 1024 } as const

/** Rough bytes one event holds in memory: its strings (UTF-16) and the object around them. */
export function eventBytes(event: JudgedRequest): number {
  return 400 + 2 * (event.path.length + event.userAgent.length + event.host.length)
}

/** Events waiting to be written, oldest first. */
export class Backlog {
  private events: JudgedRequest[] = []
  private bytes = 0
  /** Events taken by the writer and not yet confirmed: they still count against the bounds. */
  private inFlight = { count: 0, bytes: 0 }

  constructor(
    readonly maxEvents: number,
    readonly maxBytes: number,
  ) {}

  get length(): number {
    return this.events.length
  }

  /** Events in memory, waiting or being written. */
  get held(): number {
    return this.events.length + this.inFlight.count
  }

  /** Adds an event; false (and nothing added) when the bounds are reached. */
  push(event: JudgedRequest): boolean {
    const size = eventBytes(event)
    if (this.held >= this.maxEvents || this.bytes + this.inFlight.bytes + size > this.maxBytes) return false
    this.events.push(event)
    this.bytes += size
    return true
  }

  /** Takes up to `n` of the oldest events for a write. */
  take(n: number): JudgedRequest[] {
    const batch = this.events.length <= n ? this.events : this.events.slice(0, n)
    this.events = this.events.length <= n ? [] : this.events.slice(n)
    const bytes = batch.reduce((sum, e) => sum + eventBytes(e), 0)
    this.bytes -= bytes
    this.inFlight = { count: this.inFlight.count + batch.length, bytes: this.inFlight.bytes + bytes }
    return batch
  }

  /** The write of `batch` is over: written, dropped, or (`putBack`) to be tried again first. */
  settle(batch: readonly JudgedRequest[], putBack: readonly JudgedRequest[] = []): void {
    const bytes = batch.reduce((sum, e) => sum + eventBytes(e), 0)
    this.inFlight = { count: this.inFlight.count - batch.length, bytes: this.inFlight.bytes - bytes }
    if (putBack.length === 0) return
    this.events = [...putBack, ...this.events]
    this.bytes += putBack.reduce((sum, e) => sum + eventBytes(e), 0)
  }

  /** Forgets a batch whose writer stopped mid-write: neither written nor waiting. */
  abandon(batch: readonly JudgedRequest[]): void {
    this.settle(batch)
  }

  /** The events waiting (not those being written), oldest first. */
  waiting(): readonly JudgedRequest[] {
    return this.events
  }

  /** Times of the oldest and newest event waiting, if any. */
  span(): { from: number; to: number } | undefined {
    const first = this.events[0]
    const last = this.events.at(-1)
    return first === undefined || last === undefined ? undefined : { from: Math.min(first.time, last.time), to: Math.max(first.time, last.time) }
  }
}

/**
 * The open episode: from the first failed write (or first drop) until D1
 * holds the count of everything dropped meanwhile.
 */
export class Episode {
  events = 0
  from = Number.POSITIVE_INFINITY
  to = Number.NEGATIVE_INFINITY
  /** The count D1 holds for this episode. */
  persisted = 0
  /** When the stash in KV was last written; 0: never. */
  stashedAt = 0
  /** Whether a write failed in this episode (and the failure was logged). */
  failing = false
  /** Whether events were dropped in this episode (and that was logged). */
  dropping = false

  constructor(
    readonly id: string,
    readonly since: number,
  ) {}

  drop(times: readonly number[]): void {
    this.events += times.length
    for (const t of times) {
      if (t < this.from) this.from = t
      if (t > this.to) this.to = t
    }
  }

  /** The loss as D1 stores it. */
  loss(): LossEpisode {
    return { id: this.id, from: this.from, to: this.to, events: this.events }
  }

  /** The stash: dropped events plus those still held (`held`: unless a journal counts them), over both spans. */
  stash(backlog: Backlog, now: number, held = backlog.held): LossStash {
    const span = backlog.span()
    const from = Math.min(this.from, span?.from ?? Number.POSITIVE_INFINITY, this.since)
    const to = Math.max(this.to, span?.to ?? Number.NEGATIVE_INFINITY, from)
    return { id: this.id, from, to, events: this.events, held, updated: now }
  }
}
