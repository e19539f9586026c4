/**
 * The per-isolate event buffer in front of the D1 ledger: judged requests
 * are gathered off the response path and written in batches (writeEvents).
 */
import type { JudgedRequest } from '../events.ts'
import { writeEvents } from './ledger.ts'

/** Counters of one isolate's recorder. */
export interface RecorderStats {
  /** Events accepted into the buffer. */
  recorded: number
  /** Events D1 confirmed. */
  written: number
  /** Batches D1 rejected. */
  failures: number
  /** Events lost: in a rejected batch, or refused because the buffer was full. */
  dropped: number
  /** Events waiting for the next write. */
  readonly buffered: number
}

/** A per-isolate event buffer in front of writeEvents. */
export interface Recorder {
  /** Buffers `event`; starts a write when the buffer reaches `batchSize`. Never throws. */
  record(event: JudgedRequest): void
  /**
   * Writes what is buffered, and what gathers meanwhile, until nothing is
   * left; if another caller is already writing, returns at once, since that
   * writer takes these events too. Never rejects, and never waits on another
   * request's promise. Pass it to `ctx.waitUntil` after `record`.
   */
  flush(): Promise<void>
  /** Resolves once nothing is buffered or being written (for tests and scripts, within one context). */
  settled(): Promise<void>
  readonly stats: RecorderStats
}

/** Options of createRecorder. */
export interface RecorderOptions {
  /** Buffered events that start a write without waiting for flush(). Default 50. */
  batchSize?: number
  /** Most events held in memory; beyond it events are dropped and counted. Default 5000. */
  maxBuffered?: number
  /** Where the one storage-failure message per isolate goes. Default console.error. */
  log?: (message: string, error?: unknown) => void
  /** The Analytics Engine dataset each written batch also goes to (writeEvents' `analytics`). Default: none. */
  analytics?: () => AnalyticsEngineDataset | undefined
}

/**
 * Buffers judged requests per isolate and writes them with writeEvents, one
 * batch at a time: while a write is in flight, new events gather and go in
 * the next batch, so a busy isolate writes in batches. Storage failures are
 * counted and logged once per isolate, never thrown to the visitor.
 *
 * @example
 * const recorder = createRecorder(() => env.DB)
 * // in the guard, after judging:
 * recorder.record(event)
 * c.executionCtx.waitUntil(recorder.flush())
 */
/**
 * How long one request keeps draining the buffer. `waitUntil` work is cut
 * 30 s after the response; past this, the next request to record takes over.
 */
const MAX_DRAIN_MS = 15_000
/** Below this many waiting events, the writer gathers for GATHER_MS before writing them. */
const GATHER_BELOW = 100
const GATHER_MS = 50

export function createRecorder(getDb: () => D1Database, opts: RecorderOptions = {}): Recorder {
  const batchSize = Math.max(1, opts.batchSize ?? 50)
  const maxBuffered = Math.max(batchSize, opts.maxBuffered ?? 5000)
  const log = opts.log ?? ((message: string, error?: unknown) => console.error(message, error))
  let buffer: JudgedRequest[] = []
  let writing = false
  let logged = false
  const stats = { recorded: 0, written: 0, failures: 0, dropped: 0, get buffered() { return buffer.length } }

  function complain(message: string, error?: unknown): void {
    if (logged) return
    logged = true
    log(`robots-edge ledger: ${message} (further failures in this isolate are counted in stats, not logged)`, error)
  }

  async function write(batch: JudgedRequest[]): Promise<void> {
    try {
      stats.written += await writeEvents(getDb(), batch, { analytics: opts.analytics?.() })
    } catch (error) {
      stats.failures++
      stats.dropped += batch.length
      complain(`could not write ${batch.length} events`, error)
    }
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
    // different request"), which once lost whole batches under load. Nor
    // does anyone wait on timers, which cost more throughput than the writes.
    // The drain is bounded in time to stay within waitUntil's limit; past
    // it, the next request to record takes over.
    if (writing || buffer.length === 0) return
    writing = true
    const started = Date.now()
    try {
      do {
        const batch = buffer
        buffer = []
        await write(batch)
        // A D1 round trip costs far more than the rows it carries: when few
        // events are waiting, let more gather (one timer per batch, in this
        // request's own context) before the next write.
        if (buffer.length > 0 && buffer.length < GATHER_BELOW) await new Promise((resolve) => setTimeout(resolve, GATHER_MS))
      } while (buffer.length > 0 && Date.now() - started < MAX_DRAIN_MS)
    } finally {
      writing = false
    }
  }

  function record(event: JudgedRequest): void {
    if (buffer.length >= maxBuffered) {
      stats.dropped++
      complain(`buffer full (${maxBuffered} events), dropping events`)
      return
    }
    buffer.push(event)
    stats.recorded++
    // Only on reaching the threshold: a write already waiting takes the rest.
    if (buffer.length === batchSize) void flush()
  }

  async function settled(): Promise<void> {
    while (writing || buffer.length > 0) {
      if (!writing) await flush()
      else await new Promise((resolve) => setTimeout(resolve, 5))
    }
  }

  return { record, flush, settled, stats }
}
