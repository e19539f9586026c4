/**
 * The per-isolate event buffer in front of the D1 ledger: judged requests
 * are gathered off the response path and written in batches (writeEvents),
 * with the robots.txt versions they refer to. When D1 fails, nothing is lost
 * unseen: failed batches are retried with backoff, held in a bounded backlog
 * across requests, and only dropped (and counted, see losses.ts) when that
 * backlog is full. Should the isolate die meanwhile (evicted, crashed), what
 * it held is not lost unseen either: during an outage each event is counted
 * in KV before it is held (journal.ts, which states the bound).
 */
import type { JudgedRequest } from '../core/events.ts'
import { Backlog, BACKLOG_LIMITS, Episode } from './backlog.ts'
import { classify, RetryLater } from './failures.ts'
import type { HostGate } from './hosts.ts'
import { Journal, type HeldStore } from './journal.ts'
import { recordRobotsVersion, writeEvents } from './ledger.ts'
import { recordLoss, type LossStashStore } from './losses.ts'
import { isCounterEvent } from './served.ts'
import type { Deployment } from './versions.ts'

/** Counters of one isolate's recorder. */
export interface RecorderStats {
  /** Events accepted into the buffer. */
  recorded: number
  /** Events D1 confirmed, or the ledger queue accepted. */
  written: number
  /** Write attempts D1 rejected (each retry counts). */
  failures: number
  /** Events given up on: refused because the backlog was full, rejected by D1 as invalid, or in a write cut off mid-way. Each is counted in `ledger_losses`. */
  dropped: number
  /** Events held in memory, waiting for a write or being written (the backlog while D1 is down). */
  readonly buffered: number
}

/** A robots.txt version as the ledger stores it (recordRobotsVersion). */
export interface RobotsVersion {
  readonly host: string
  readonly hash: string
  readonly text: string
  readonly time: number
  /** The deployment serving it (the version metadata binding), when the Worker has one. */
  readonly deployment?: Deployment | undefined
}

/** A per-isolate event buffer in front of writeEvents. */
export interface Recorder {
  /** Buffers `event`; starts a write when the buffer reaches `batchSize`. Never throws, never does I/O. */
  record(event: JudgedRequest): void
  /** Queues a robots.txt version for the next write, unless it is already stored. Never throws, never does I/O. */
  recordVersion(version: RobotsVersion): void
  /**
   * Writes what is buffered, and what gathers meanwhile, until nothing is
   * left, retrying failed writes with backoff, for at most `maxDrainMs`; if
   * another caller is already writing, returns at once, since that writer
   * takes these events too. Never rejects, and never waits on another
   * request's promise. Pass it to `ctx.waitUntil` after `record`.
   */
  flush(): Promise<void>
  /** Resolves once nothing is buffered or being written, or once a flush ends with D1 refusing writes (for tests and scripts, within one context). */
  settled(): Promise<void>
  /**
   * Resolves once every event recorded so far during an outage is durable
   * (KV acknowledged its journal entry, see journal.ts), or at once when
   * D1 takes writes or there is no `held` store. Never rejects.
   */
  held(): Promise<void>
  /** Whether D1 is refusing writes: events are journaled in `held` before they are held. */
  readonly outage: boolean
  readonly stats: RecorderStats
}

/** Options of createRecorder. */
export interface RecorderOptions {
  /** Buffered events that start a write without waiting for flush(). Default 50. */
  batchSize?: number
  /** Most events held in memory (the backlog while D1 is down); beyond it events are dropped and counted. Default 20,000. */
  maxBuffered?: number
  /** Most bytes the held events may take (estimated from their strings). Default 8 MiB: an isolate has 128 MB. */
  maxBufferedBytes?: number
  /** How long one flush() keeps writing and retrying: within `waitUntil`'s 30 s after the response. Default 15,000 ms. */
  maxDrainMs?: number
  /** The first and the longest wait between retries of a failed write; each retry doubles it. Default [250, 4000] ms. */
  retryMs?: readonly [number, number]
  /** Keeps the count of dropped events in KV while D1 is down. Default: none (the count waits in memory). */
  stash?: LossStashStore
  /** Where events held during an outage are counted before they are held, so that an isolate that dies loses none unseen (journal.ts). Default: none. */
  held?: HeldStore
  /** Caps the distinct hosts stored (config without `hosts`). Default: none. */
  hosts?: HostGate
  /** Where the one message per outage goes (its start, then its end). Default console.error. */
  log?: (message: string, error?: unknown) => void
  /** The clock. Default Date.now. */
  now?: () => number
  /**
   * Sends events and their robots.txt versions to the ledger queue instead
   * of D1 (queue.ts `queueSink`), at most SEND_EVENTS per write; should it
   * reject, that write goes to D1 as without it. Default: none, D1 directly.
   */
  queue?: ((events: readonly JudgedRequest[], versions: readonly RobotsVersion[]) => Promise<unknown>) | undefined
}

/** Below this many waiting events, the writer gathers for GATHER_MS before writing them: a D1 round trip costs more than its rows. */
const GATHER_BELOW = 100
const GATHER_MS = 50
/** On the queue path, below GATHER_BELOW events the writer gathers this long first: a message then carries a second of the isolate's events, not one. */
const QUEUE_GATHER_MS = 1000
/** Most events in one write on the queue path: one sendBatch of four messages (queue.ts). */
export const SEND_EVENTS = 80
/** Most events in one write: one D1 transaction stays small while a backlog drains. */
const MAX_WRITE = 1000
/** A writer holding the recorder longer than this was cut off (its request's waitUntil ended mid-write). */
const LEASE_MS = 45_000
/**
 * Past maxDrainMs, a writer whose writes succeed goes on without gathering
 * until nothing waits, for at most this long more (still within waitUntil's
 * 30 s): events left behind would wait for a next request that may never
 * come, and an isolate evicted meanwhile would lose them unseen.
 */
const SWEEP_MS = 10_000
/** While D1 is down, the KV stash is rewritten at most this often. */
const STASH_EVERY_MS = 10_000
/** Robots.txt versions remembered as stored; the set starts over beyond it (a version write is an idempotent upsert). */
const MAX_VERSIONS = 1024

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Buffers judged requests per isolate and writes them with writeEvents, one
 * batch at a time: while a write is in flight, new events gather and go in
 * the next batch, so a busy isolate writes in batches.
 *
 * When a write fails, the batch goes back to the front of the backlog and
 * is retried with backoff for the rest of this flush's time; later requests'
 * flushes take the backlog over. Only when the backlog is full are events
 * dropped: each one is counted, the count is written to `ledger_losses` as
 * soon as D1 takes writes again, and kept in `stash` (KV) meanwhile. One
 * message is logged when an outage starts and one when it ends, whatever
 * the number of requests in between.
 *
 * @example
 * const recorder = createRecorder(() => env.DB, { stash: kvLossStash(env.ROBOTS_KV), held: kvHeldStore(env.ROBOTS_KV) })
 * // in the guard, after judging:
 * recorder.recordVersion({ host: event.host, hash: policy.version, text: policy.text, time: event.time })
 * recorder.record(event)
 * c.executionCtx.waitUntil(recorder.flush())
 */
export function createRecorder(getDb: () => D1Database, opts: RecorderOptions = {}): Recorder {
  const batchSize = Math.max(1, opts.batchSize ?? 50)
  const backlog = new Backlog(Math.max(batchSize, opts.maxBuffered ?? BACKLOG_LIMITS.events), Math.max(64 * 1024, opts.maxBufferedBytes ?? BACKLOG_LIMITS.bytes))
  const maxDrainMs = opts.maxDrainMs ?? 15_000
  const [firstRetry, longestRetry] = opts.retryMs ?? [250, 4000]
  // Without an error, the message alone: console.error(message, undefined) would end it with "undefined".
  const log = opts.log ?? ((message: string, error?: unknown) => (error === undefined ? console.error(message) : console.error(message, error)))
  const now = opts.now ?? Date.now
  // Random values are refused in a Worker's global scope, where a recorder may be created: drawn on first use.
  let isolate: string | undefined
  let episodes = 0
  let episode: Episode | null = null
  /** The writer holding the recorder, and the batch it is writing. */
  let writer: { since: number; batch: JudgedRequest[] } | null = null
  const versions = new Map<string, RobotsVersion>()
  const storedVersions = new Set<string>()
  const journal = opts.held ? new Journal(opts.held, () => (isolate ??= crypto.randomUUID().slice(0, 8)), now) : null
  const stats = {
    recorded: 0,
    written: 0,
    failures: 0,
    dropped: 0,
    get buffered() {
      return backlog.held
    },
  }

  const complaints = new Set<string>()
  /** A failure no retry mends is logged once per isolate, whatever the number of requests. */
  const once = (what: string, error: unknown) => {
    if (unmigrated(error) || complaints.has(what)) return
    complaints.add(what)
    log(`robots-edge ledger: ${what} (logged once)`, error)
  }
  /** A missing table means the migrations were never applied: one line saying how, with no stack, per isolate. */
  function unmigrated(error: unknown): boolean {
    const table = /no such table: (\w+)/.exec(String((error as Error)?.message ?? error))?.[1]
    if (table === undefined) return false
    if (complaints.has('')) return true
    complaints.add('')
    log(`robots-edge ledger: no table ${table} in D1: run \`npx wrangler d1 migrations apply DB --local\` (or --remote, deployed); until then events are counted as not stored`)
    return true
  }

  const open = (): Episode => (episode ??= new Episode(`${(isolate ??= crypto.randomUUID().slice(0, 8))}-${++episodes}`, now()))

  /** `journaled`: the journal counted them already; otherwise it counts those it journaled, and the episode the rest. */
  function drop(all: readonly JudgedRequest[], why: string, journaled = false, quiet = false): void {
    // A counter's event (a referral, a streamed body's bytes) is no request: not counted as one lost.
    const events = all.filter((e) => !isCounterEvent(e))
    if (events.length === 0) return
    stats.dropped += events.length
    const e = open()
    if (!e.dropping && !quiet) log(`robots-edge ledger: dropping events (${why}); each one is counted and reported as not stored`)
    e.dropping = true
    if (!journaled) e.drop((journal?.settle(events) ?? events).map((event) => event.time))
  }

  /** A version the ledger has (or the queue took): not sent again by this isolate. */
  function stored(key: string): void {
    versions.delete(key)
    if (storedVersions.size >= MAX_VERSIONS) storedVersions.clear()
    storedVersions.add(key)
  }

  /** One attempt: the queue, else the host gate, pending versions, then the batch. Throws RetryLater. */
  async function write(batch: JudgedRequest[]): Promise<void> {
    if (opts.queue && batch.length > 0) {
      try {
        await opts.queue(batch, [...versions.values()])
        for (const key of versions.keys()) stored(key)
        stats.written += batch.length
        return
      } catch (error) {
        once('the ledger queue refuses events: they go to D1 directly', error)
      }
    }
    let db: D1Database
    try {
      db = getDb()
    } catch (error) {
      drop(batch, `no D1 binding: ${(error as Error)?.message ?? String(error)}`)
      return
    }
    let events = batch
    const pending = [...versions]
    let placed: Map<string, string> | undefined
    if (opts.hosts) {
      try {
        placed = await opts.hosts.place(db, new Set([...batch.map((e) => e.host), ...pending.map(([, v]) => v.host)]), now())
        events = batch.map((e) => {
          if (placed!.get(e.host) === e.host) return e
          const copy = { ...e, host: placed!.get(e.host)! }
          journal?.alias(e, copy)
          return copy
        })
      } catch (error) {
        if (classify(error) === 'retry') throw new RetryLater(batch, error)
        // No ledger_hosts table (migration 0010 not applied): store under the hosts as they are.
        once('the cap on distinct hosts cannot be applied', error)
      }
    }
    try {
      // The report needs each event's version row: written first, retried like the events.
      for (const [key, version] of pending) {
        await recordRobotsVersion(db, { ...version, host: placed?.get(version.host) ?? version.host })
        stored(key)
      }
    } catch (error) {
      if (classify(error) === 'retry') throw new RetryLater(batch, error)
      // A schema D1 cannot take: retrying would hold the backlog for nothing.
      for (const [key] of pending) versions.delete(key)
      once('D1 refuses robots.txt versions', error)
    }
    await writeRows(db, events)
  }

  /** writeEvents, halving a batch D1 refuses as invalid until the row it refuses stands alone (then dropped). */
  async function writeRows(db: D1Database, events: JudgedRequest[]): Promise<void> {
    const parts = [events]
    while (parts.length > 0) {
      const part = parts.shift()!
      try {
        // The journal's entries learn, in the same transaction, how many of theirs D1 now holds.
        stats.written += await writeEvents(db, part, { also: journal?.retirements(db, part) })
        journal?.settle(part)
      } catch (error) {
        const failure = classify(error)
        if (failure === 'retry') throw new RetryLater([part, ...parts].flat(), error)
        if (failure === 'schema' || part.length === 1) drop(part, `D1 refused them: ${(error as Error)?.message ?? String(error)}`, false, unmigrated(error))
        else parts.unshift(part.slice(0, part.length >> 1), part.slice(part.length >> 1))
      }
    }
  }

  /** After a write D1 took: the outage's end logged, the loss count to D1, the stash removed. */
  async function recover(): Promise<void> {
    await journal?.retire(getDb()).catch(() => {}) // retried after the next write D1 takes
    const e = episode
    if (e === null) return
    if (e.failing) {
      e.failing = false
      log(`robots-edge ledger: D1 takes writes again after ${((now() - e.since) / 1000).toFixed(1)} s; ${e.events} events could not be stored (counted in ledger_losses)`)
    }
    if (e.events > e.persisted) {
      const loss = e.loss()
      try {
        await recordLoss(getDb(), loss, now())
        e.persisted = loss.events
      } catch {
        return // counted on the next write that succeeds; the stash still holds it
      }
    }
    if (e.stashedAt > 0) await opts.stash?.remove(e.id).catch(() => {})
    if (episode === e && e.events === e.persisted) episode = null
  }

  async function stash(force: boolean): Promise<void> {
    const e = episode
    if (e === null || opts.stash === undefined || (!force && now() - e.stashedAt < STASH_EVERY_MS)) return
    e.stashedAt = now()
    // With a journal, the held events are counted in their entries.
    await opts.stash.put(e.stash(backlog, e.stashedAt, journal ? 0 : backlog.held)).catch(() => {})
  }

  /**
   * Waits `ms` before the next try, in steps of the first retry's wait, and
   * stops waiting once events are being dropped: with the backlog full,
   * every moment D1 is back but not yet written to loses events, so the
   * backoff gives way to trying at the shortest interval. (Steps are
   * counted, not timed with `now`, which a test may hold still.)
   */
  async function backoff(ms: number): Promise<void> {
    const dropped = stats.dropped
    for (let left = ms; left > 0; left -= firstRetry) {
      await sleep(Math.min(firstRetry, left))
      if (stats.dropped > dropped) return
    }
  }

  async function drain(me: NonNullable<typeof writer>): Promise<void> {
    const started = now()
    let delay = firstRetry
    let overtime = false
    while (writer === me) {
      if (opts.queue && !overtime && backlog.length < GATHER_BELOW) await sleep(QUEUE_GATHER_MS)
      const batch = backlog.take(opts.queue ? SEND_EVENTS : MAX_WRITE)
      me.batch = batch
      let ok = true
      try {
        await write(batch)
        if (writer !== me) return // taken over meanwhile: that writer counted this batch
        backlog.settle(batch)
      } catch (error) {
        if (writer !== me) return
        const retry = error instanceof RetryLater ? error : new RetryLater(batch, error)
        backlog.settle(batch, retry.rest)
        ok = false
        stats.failures++
        const e = open()
        if (!e.failing) {
          log(`robots-edge ledger: D1 refuses writes; holding up to ${backlog.maxEvents} events in memory and retrying (one message per outage)`, retry.reason)
          // From now on each event is journaled before it is held; those held already, at once.
          if (journal) for (const event of backlog.waiting()) journal.note(event, true)
        }
        e.failing = true
      }
      me.batch = []
      if (writer !== me) return
      if (ok) {
        delay = firstRetry
        await recover()
        if (backlog.length === 0 && versions.size === 0) break
        if (!overtime && backlog.length < GATHER_BELOW) await sleep(GATHER_MS)
      } else {
        await journal?.sync()
        await stash(false)
        if (now() - started + delay > maxDrainMs) break
        await backoff(delay)
        delay = Math.min(delay * 2, longestRetry)
      }
      if (now() - started >= maxDrainMs) {
        if (!ok || now() - started >= maxDrainMs + SWEEP_MS) break
        overtime = true
      }
    }
    // Handing over with an outage under way: the next request's flush takes the backlog.
    if (episode?.failing && backlog.held > 0) await stash(true)
  }

  async function flush(): Promise<void> {
    // One writer at a time, and it drains: the caller that finds the
    // recorder idle writes the buffer, then whatever gathered during that
    // write, and so on until nothing is left, all in its own context. Other
    // callers return at once: their events are in the buffer, which the
    // writer will take (the check and the hand-back to idle happen with no
    // await between them, so no event can fall in a gap). Nobody ever
    // continues another request's promise: workerd binds I/O to the request
    // that started it, and a D1 call made in a continuation of another
    // request's write is refused ("Cannot perform I/O on behalf of a
    // different request"), which once lost whole batches under load. The
    // timers (gathering, backoff) run in the writer's own context. The drain
    // is bounded in time to stay within waitUntil's limit; past it, the next
    // request to flush takes over.
    await held()
    if (backlog.length === 0 && versions.size === 0) return
    const t = now()
    if (writer !== null) {
      if (t - writer.since < LEASE_MS) return
      // The writer's request was cut off mid-write: whether D1 took its batch is unknowable, so it is counted as not stored.
      const cut = writer.batch
      backlog.abandon(cut)
      drop(cut, 'a write was cut off before D1 confirmed it')
    }
    const me = { since: t, batch: [] as JudgedRequest[] }
    writer = me
    try {
      await drain(me)
    } finally {
      if (writer === me) writer = null
    }
  }

  function record(event: JudgedRequest): void {
    const pushed = backlog.push(event)
    const journaled = journal !== null && episode?.failing === true
    if (journaled) journal.note(event, pushed)
    if (!pushed) {
      drop([event], `the backlog is full (${backlog.maxEvents} events or ${backlog.maxBytes >> 20} MiB)`, journaled)
      return
    }
    stats.recorded++
    // Only on reaching the threshold: a write already waiting takes the rest.
    // Not on the queue path, whose writer first gathers for a second: it must
    // be flush()'s, which the request's waitUntil holds, or workerd may end it.
    if (!opts.queue && backlog.length === batchSize) void flush()
  }

  function recordVersion(version: RobotsVersion): void {
    const key = `${version.host}\n${version.hash}`
    if (storedVersions.has(key) || versions.has(key)) return
    // Bounded: versions come from hosts, which the policy cache and the host gate bound too.
    if (versions.size < MAX_VERSIONS) versions.set(key, version)
  }

  // With nothing counted since the last sync (always, while D1 takes writes), no KV write.
  async function held(): Promise<void> {
    await journal?.sync()
  }

  async function settled(): Promise<void> {
    for (;;) {
      if (writer !== null) await sleep(5)
      else if (backlog.length === 0 && versions.size === 0) return
      else {
        await flush()
        // D1 refuses writes: what is held waits for a later flush.
        if (episode?.failing) return
      }
    }
  }

  return {
    record,
    recordVersion,
    flush,
    settled,
    held,
    stats,
    get outage() {
      return episode?.failing === true
    },
  }
}
