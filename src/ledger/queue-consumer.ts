/**
 * The consumer of the ledger queue (queue.ts is the edge's side), run by
 * the admin Worker: a batch of up to 100 messages, many isolates' events,
 * is written to D1 in one transaction (writeEvents), where the counters of
 * all its events are summed per key before they are upserted. Delivery is
 * at least once, so each message id is applied once: the transaction that
 * writes a message's events also inserts its id into
 * `ledger_queue_applied` (migrations/0020), whose primary key refuses a
 * second insert, and a batch first skips the ids already there. The cron
 * prunes the ids after APPLIED_RETENTION_MS (pruneAppliedIds).
 *
 * A batch D1 refuses is retried by the queue, later each time; what still
 * fails after the consumer's `max_retries` goes to the dead-letter queue,
 * whose consumer (countDeadLetters) counts its events in `ledger_losses`,
 * shown by the report like every other loss.
 */
import type { JudgedRequest } from '../core/events.ts'
import { classify } from './failures.ts'
import { createHostGate } from './hosts.ts'
import { recordRobotsVersion, writeEvents } from './ledger.ts'
import type { LedgerMessage } from './queue.ts'
import type { RobotsVersion } from './recorder.ts'
import { learnVersions } from './versions.ts'

/**
 * How long applied ids are kept: longer than a message can come back. A
 * message is delivered only within the queue's retention period (4 days,
 * the default `npm run deploy -- --queue` keeps), and its id begins with
 * the time it was sent; a day more covers clocks and the cron's hour. A
 * queue given a longer retention needs this raised with it.
 */
export const APPLIED_RETENTION_MS = 5 * 86_400_000

/** The prefix of `ledger_losses` ids the dead-letter queue's events are counted under: the report names them. */
export const DEAD_LETTER_PREFIX = 'dead-letter:'

/** A message id as queue.ts makes it: 9 base-36 digits of ms, then a UUID. */
const ID = /^[0-9a-z]{9}[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/** The first retry waits this long, each later one twice as long, up to MAX_RETRY_SECONDS: an outage of D1 of hours is outlasted. */
const FIRST_RETRY_SECONDS = 5
const MAX_RETRY_SECONDS = 900

/** The smallest id that is at least `time` old: ids sort by the time they begin with. */
export const idAt = (time: number): string => Math.max(0, Math.trunc(time)).toString(36).padStart(9, '0')

const APPLIED = 'SELECT id FROM ledger_queue_applied WHERE id IN (SELECT value FROM json_each(?1))'
// No ON CONFLICT: an id applied meanwhile fails the whole transaction, which the next delivery then skips.
const APPLY = 'INSERT INTO ledger_queue_applied (id) SELECT value FROM json_each(?1)'

/** What one batch did. */
export interface ConsumeResult {
  /** Messages written to D1 by this call. */
  readonly applied: number
  /** Their events. */
  readonly events: number
  /** Messages skipped: applied before (a redelivery), or twice in the batch. */
  readonly duplicates: number
  /** Messages that are not the edge's (no id or no events): acknowledged, logged, not written. */
  readonly malformed: number
  /** Messages handed back to the queue for a later retry. */
  readonly retried: number
}

/** Options of createLedgerConsumer. */
export interface ConsumerOptions {
  /** The first retry's delay in seconds; each later one doubles, up to 900. Default 5. */
  retrySeconds?: number
  /** Where failures are logged. Default console.error. */
  log?: (message: string, error?: unknown) => void
  /** The clock. Default Date.now. */
  now?: () => number
}

interface Valid {
  readonly message: Message<unknown>
  readonly body: LedgerMessage
}

function isLedgerMessage(body: unknown): body is LedgerMessage {
  const b = body as Partial<LedgerMessage> | null
  return typeof b?.id === 'string' && ID.test(b.id) && Array.isArray(b.events) && (b.versions === undefined || Array.isArray(b.versions))
}

/**
 * The admin Worker's consumer, per isolate (it remembers the robots.txt
 * versions it has stored, and the hosts admitted under the cap).
 *
 * @example
 * const consumer = createLedgerConsumer()
 * export default { async queue(batch, env) { await consumer.consume(batch, env.DB) } }
 */
export function createLedgerConsumer(opts: ConsumerOptions = {}) {
  const now = opts.now ?? Date.now
  const log = opts.log ?? ((message: string, error?: unknown) => (error === undefined ? console.error(message) : console.error(message, error)))
  const firstRetry = Math.max(0, opts.retrySeconds ?? FIRST_RETRY_SECONDS)
  const gate = createHostGate()
  /** Versions stored by this isolate, with the deployment that sent them: a new deployment's are stored again (its first-served time may be earlier). */
  const storedVersions = new Set<string>()

  const delay = (message: Message<unknown>) => Math.min(MAX_RETRY_SECONDS, firstRetry * 2 ** Math.max(0, message.attempts - 1))

  /** Writes `valid` in one transaction with their ids. Throws what D1 throws. */
  async function write(db: D1Database, valid: readonly Valid[]): Promise<number> {
    const gated = new Set<string>()
    for (const { body } of valid) if (body.gate) for (const e of [...body.events, ...(body.versions ?? [])]) gated.add(e.host)
    const placed = gated.size > 0 ? await gate.place(db, gated, now()) : new Map<string, string>()
    const place = <T extends { host: string }>(x: T, gateIt: boolean): T => {
      const host = gateIt ? placed.get(x.host) : undefined
      return host === undefined || host === x.host ? x : { ...x, host }
    }
    const versions = new Map<string, RobotsVersion>()
    for (const { body } of valid)
      for (const v of body.versions ?? []) {
        const version = place(v, body.gate)
        versions.set(`${version.host}\n${version.hash}\n${version.deployment?.id ?? ''}`, version)
      }
    // The report needs each event's version row: written first, in its own transaction (rarely: once per version and isolate).
    for (const [key, version] of versions) {
      if (storedVersions.has(key)) continue
      await recordRobotsVersion(db, version)
      if (storedVersions.size >= 1024) storedVersions.clear()
      storedVersions.add(key)
    }
    const events: JudgedRequest[] = valid.flatMap(({ body }) => body.events.map((e) => place(e, body.gate)))
    await learnVersions(db, events)
    return writeEvents(db, events, { also: [db.prepare(APPLY).bind(JSON.stringify(valid.map((v) => v.body.id)))] })
  }

  return {
    /**
     * Writes a batch of the ledger queue to D1. Never throws: each message is
     * acknowledged (written, a duplicate, or malformed) or retried.
     */
    async consume(batch: MessageBatch<unknown>, db: D1Database | undefined): Promise<ConsumeResult> {
      let malformed = 0
      let duplicates = 0
      const seen = new Set<string>()
      const valid: Valid[] = []
      for (const message of batch.messages) {
        const body = message.body
        if (!isLedgerMessage(body)) {
          malformed++
          message.ack()
          continue
        }
        if (seen.has(body.id)) {
          duplicates++
          message.ack()
          continue
        }
        seen.add(body.id)
        valid.push({ message, body })
      }
      if (malformed > 0) log(`robots-edge ledger: ${malformed} message(s) on ${batch.queue} are not the edge's ledger messages; acknowledged and not written`)
      const retry = (messages: readonly Valid[], error: unknown) => {
        for (const { message } of messages) message.retry({ delaySeconds: delay(message) })
        log(`robots-edge ledger: D1 refused a batch of the ledger queue (${messages.length} messages); the queue retries it`, error)
        return messages.length
      }
      if (valid.length === 0) return { applied: 0, events: 0, duplicates, malformed, retried: 0 }
      if (db === undefined) return { applied: 0, events: 0, duplicates, malformed, retried: retry(valid, new Error('no DB binding')) }
      let fresh = valid
      try {
        const { results } = await db
          .prepare(APPLIED)
          .bind(JSON.stringify(valid.map((v) => v.body.id)))
          .all<{ id: string }>()
        const applied = new Set(results.map((r) => r.id))
        fresh = valid.filter((v) => {
          if (!applied.has(v.body.id)) return true
          duplicates++
          v.message.ack()
          return false
        })
        const events = fresh.length > 0 ? await write(db, fresh) : 0
        for (const { message } of fresh) message.ack()
        return { applied: fresh.length, events, duplicates, malformed, retried: 0 }
      } catch (error) {
        if (classify(error) === 'retry' || fresh.length === 1) return { applied: 0, events: 0, duplicates, malformed, retried: retry(fresh, error) }
        // A row D1 refuses, or an id applied meanwhile: each message alone, so one cannot hold the others back.
        let applied = 0
        let events = 0
        let retried = 0
        for (const one of fresh) {
          try {
            events += await write(db, [one])
            one.message.ack()
            applied++
          } catch (e) {
            retried += retry([one], e)
          }
        }
        return { applied, events, duplicates, malformed, retried }
      }
    },
  }
}

/**
 * The dead-letter queue's consumer: the events of messages the ledger queue
 * gave up on are counted in `ledger_losses` (one row per message, id
 * `dead-letter:<message id>`, so a redelivery counts once), unless the
 * message's id shows it was applied after all. Retried while D1 refuses.
 *
 * @returns the events counted as not stored.
 */
export async function countDeadLetters(
  batch: MessageBatch<unknown>,
  db: D1Database | undefined,
  { now = Date.now(), log = console.error }: { now?: number; log?: (message: string, error?: unknown) => void } = {},
): Promise<number> {
  const rows: { id: string; from: number; to: number; events: number; message: Message<unknown> }[] = []
  for (const message of batch.messages) {
    const body = message.body as Partial<LedgerMessage> | null
    // Requests and robots.txt fetches only: referral and streamed-bytes counters are no lost requests (as in losses.ts).
    const events = (Array.isArray(body?.events) ? body.events : []).filter((e) => {
      const type = (e as { type?: unknown } | null)?.type
      return type !== 'referral' && type !== 'bytes'
    })
    const times = events.map((e) => Number((e as { time?: unknown })?.time)).filter(Number.isFinite)
    const id = typeof body?.id === 'string' ? body.id : message.id
    if (events.length === 0) {
      message.ack()
      continue
    }
    rows.push({ id, from: times.length ? Math.min(...times) : now, to: times.length ? Math.max(...times) : now, events: events.length, message })
  }
  if (rows.length === 0) return 0
  try {
    if (db === undefined) throw new Error('no DB binding')
    const insert = db.prepare(
      `INSERT INTO ledger_losses (id, from_time, to_time, events, recorded_at) SELECT ?1, ?2, ?3, ?4, ?5
       WHERE NOT EXISTS (SELECT 1 FROM ledger_queue_applied WHERE id = ?6) ON CONFLICT (id) DO NOTHING`,
    )
    const results = await db.batch(rows.map((r) => insert.bind(`${DEAD_LETTER_PREFIX}${r.id}`.slice(0, 200), Math.trunc(r.from), Math.trunc(r.to), r.events, Math.trunc(now), r.id)))
    const counted = rows.reduce((sum, r, i) => sum + ((results[i]?.meta.changes ?? 0) > 0 ? r.events : 0), 0)
    for (const r of rows) r.message.ack()
    if (counted > 0) log(`robots-edge ledger: ${counted} events reached the dead-letter queue (D1 refused them through every retry); counted in ledger_losses as not stored`)
    return counted
  } catch (error) {
    for (const r of rows) r.message.retry({ delaySeconds: Math.min(MAX_RETRY_SECONDS, FIRST_RETRY_SECONDS * 2 ** Math.max(0, r.message.attempts - 1)) })
    log('robots-edge ledger: could not count the dead-letter queue in ledger_losses; the queue retries', error)
    return 0
  }
}

/** The cron's part: forgets applied ids older than APPLIED_RETENTION_MS. Returns how many. */
export async function pruneAppliedIds(db: D1Database, now: number): Promise<number> {
  const result = await db
    .prepare('DELETE FROM ledger_queue_applied WHERE id < ?')
    .bind(idAt(now - APPLIED_RETENTION_MS))
    .run()
  return result.meta.changes ?? 0
}
