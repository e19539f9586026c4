// The ledger queue (src/ledger/queue.ts, queue-consumer.ts) against a real
// local D1: the recorder's messages, the consumer's one transaction per
// batch, ids applied once, retries while D1 refuses, and the dead-letter
// queue's events counted as not stored. Batches are built here as Queues
// hands them over; test/workers/queue.e2e.test.ts runs the real queue.
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import type { JudgedRequest } from '../../src/core/events.ts'
import { getStorageNotes } from '../../src/ledger/losses.ts'
import type { LedgerMessage } from '../../src/ledger/queue.ts'
import { MESSAGE_EVENTS, queueSink } from '../../src/ledger/queue.ts'
import { APPLIED_RETENTION_MS, countDeadLetters, createLedgerConsumer, idAt, pruneAppliedIds } from '../../src/ledger/queue-consumer.ts'
import { createRecorder, SEND_EVENTS } from '../../src/ledger/recorder.ts'
import { HOUR, T0, fetched, gptbot, judged } from '../support/report-fixtures.ts'
import { clearLedger } from '../support/workerd/ledger-tables.ts'
import { switchableDb } from '../support/workerd/switchable-db.ts'

const db = env.DB
const V1 = { host: 'example.com', hash: 'v1', text: 'User-agent: *\nDisallow: /admin/\n', time: T0 - 30 * 86_400_000 }

const count = async (sql: string): Promise<number> => (await db.prepare(sql).first<number>('n')) ?? -1
const requests = () => count('SELECT coalesce(sum(requests), 0) AS n FROM counts_hourly')

let seq = 0
const message = (events: JudgedRequest[], extra: Partial<LedgerMessage> = {}): LedgerMessage => ({
  id: `${(T0 + seq++).toString(36).padStart(9, '0')}${crypto.randomUUID()}`,
  events,
  versions: [],
  gate: false,
  ...extra,
})

/** A MessageBatch as Queues hands it to a consumer, recording what was acknowledged and retried. */
function batchOf(bodies: unknown[], queue = 'robots-edge-ledger', attempts = 1) {
  const state = { acked: [] as number[], retried: [] as { i: number; delay: number | undefined }[] }
  const messages = bodies.map((body, i) => ({
    id: `queue-${i}`,
    timestamp: new Date(T0),
    body,
    attempts,
    ack: () => void state.acked.push(i),
    retry: (o?: { delaySeconds?: number }) => void state.retried.push({ i, delay: o?.delaySeconds }),
  }))
  return { batch: { queue, messages, ackAll() {}, retryAll() {} } as unknown as MessageBatch<unknown>, state }
}

const quiet = () => {}

beforeEach(async () => {
  await clearLedger(db)
})

describe('the consumer', () => {
  it('writes every message of a batch in one D1 transaction, with the versions first, and counts exactly', async () => {
    const { db: counted, state } = switchableDb()
    const consumer = createLedgerConsumer({ log: quiet })
    const bodies = Array.from({ length: 30 }, (_, m) =>
      message(
        Array.from({ length: 7 }, (_, i) => judged({ agent: gptbot, time: T0 + m * 1000 + i, path: i === 0 ? `/admin/${m}` : `/p/${m}-${i}`, allowed: i !== 0 })),
        m === 0 ? { versions: [V1] } : {},
      ),
    )
    const { batch, state: acks } = batchOf(bodies)
    const result = await consumer.consume(batch, counted)
    expect(result).toEqual({ applied: 30, events: 210, duplicates: 0, malformed: 0, retried: 0 })
    expect(acks.acked).toHaveLength(30)
    expect(await requests()).toBe(210)
    expect(await count("SELECT count(*) AS n FROM robots_versions WHERE hash = 'v1'")).toBe(1)
    expect(await count('SELECT count(*) AS n FROM ledger_queue_applied')).toBe(30)
    // The version (its own batch, once per isolate), then the one write of all 210 events.
    expect(state.batches).toBe(2)
  })

  it('counts a redelivered batch once, and a message twice in one batch once', async () => {
    const consumer = createLedgerConsumer({ log: quiet })
    const bodies = [message([judged({ time: T0 })]), message([judged({ time: T0 + 1 }), judged({ time: T0 + 2 })])]
    expect((await consumer.consume(batchOf(bodies).batch, db)).events).toBe(3)
    // Redelivered (the ack was lost): every id is applied already.
    const again = batchOf(bodies)
    expect(await consumer.consume(again.batch, db)).toEqual({ applied: 0, events: 0, duplicates: 2, malformed: 0, retried: 0 })
    expect(again.state.acked).toEqual([0, 1])
    // A fresh consumer (another isolate) knows nothing in memory: D1's record decides.
    const other = createLedgerConsumer({ log: quiet })
    const twice = message([judged({ time: T0 + 3 })])
    expect(await other.consume(batchOf([bodies[0], twice, twice]).batch, db)).toMatchObject({ applied: 1, events: 1, duplicates: 2 })
    expect(await requests()).toBe(4)
  })

  it("counts a request once, never its streamed bytes' or a referral's events, also when their messages come back", async () => {
    // The loadtest's sequence on the queue path: each crawler request's event, and its body's bytes in
    // a later message once streamed; a person's referral; then, D1 locked, the batch handed back and
    // delivered again, with the counter-only message first this time.
    const consumer = createLedgerConsumer({ log: quiet })
    const request = judged({ time: T0, page: true })
    const first = message([request, { ...request, type: 'referral', path: '', userAgent: '', referrer: 'claude.ai' }])
    const counters = message([{ ...request, type: 'bytes', bytes: 10 }])
    expect(await consumer.consume(batchOf([first]).batch, db)).toMatchObject({ applied: 1, events: 2 })
    expect(await consumer.consume(batchOf([counters]).batch, db)).toMatchObject({ applied: 1, events: 1 })
    expect(await consumer.consume(batchOf([counters, first], 'robots-edge-ledger', 2).batch, db)).toMatchObject({ applied: 0, events: 0, duplicates: 2 })
    expect(await requests()).toBe(1)
    expect(await count('SELECT coalesce(sum(bytes), 0) AS n FROM counts_hourly')).toBe(10)
    expect(await count('SELECT coalesce(sum(visits), 0) AS n FROM referrals_daily')).toBe(1)
    expect(await count('SELECT count(*) AS n FROM ledger_queue_applied')).toBe(2)
  })

  it('an id applied by another consumer meanwhile fails the transaction, and the message is skipped on its next delivery', async () => {
    const consumer = createLedgerConsumer({ log: quiet })
    const body = message([judged({ time: T0 })])
    // As if another consumer committed the same id between this one's check and its write.
    await db.prepare('INSERT INTO ledger_queue_applied (id) VALUES (?)').bind(body.id).run()
    const racing = switchableDb()
    const real = racing.db.prepare.bind(racing.db)
    // The check reads nothing (the other commit lands after it): only the write sees the id.
    const blind = { ...racing.db, prepare: (sql: string) => real(sql.startsWith('SELECT id FROM ledger_queue_applied') ? "SELECT '' AS id WHERE ?1 IS NULL" : sql) } as unknown as D1Database
    const { batch, state } = batchOf([body])
    expect(await consumer.consume(batch, blind)).toMatchObject({ applied: 0, retried: 1 })
    expect(state.acked).toEqual([])
    expect(await requests()).toBe(0)
    expect(await consumer.consume(batchOf([body]).batch, db)).toMatchObject({ applied: 0, duplicates: 1 })
    expect(await requests()).toBe(0)
  })

  it('hands a batch back while D1 refuses it, later each attempt, and writes it once D1 is back', async () => {
    const { db: down, state } = switchableDb()
    state.down = true
    const consumer = createLedgerConsumer({ log: quiet, retrySeconds: 5 })
    const bodies = [message([judged({ time: T0 })]), message([judged({ time: T0 + 1 })])]
    const first = batchOf(bodies, 'robots-edge-ledger', 1)
    expect(await consumer.consume(first.batch, down)).toMatchObject({ applied: 0, retried: 2 })
    expect(first.state).toEqual({
      acked: [],
      retried: [
        { i: 0, delay: 5 },
        { i: 1, delay: 5 },
      ],
    })
    const fourth = batchOf(bodies, 'robots-edge-ledger', 4)
    await consumer.consume(fourth.batch, down)
    expect(fourth.state.retried.map((r) => r.delay)).toEqual([40, 40])
    const late = batchOf(bodies, 'robots-edge-ledger', 30)
    await consumer.consume(late.batch, down)
    expect(late.state.retried.map((r) => r.delay)).toEqual([900, 900])
    expect(await consumer.consume(batchOf([]).batch, undefined)).toMatchObject({ retried: 0 })
    state.down = false
    expect(await consumer.consume(batchOf(bodies).batch, down)).toMatchObject({ applied: 2, events: 2 })
    expect(await requests()).toBe(2)
  })

  it('acknowledges what is not a ledger message without writing it, and says so', async () => {
    const logged: string[] = []
    const consumer = createLedgerConsumer({ log: (m) => void logged.push(m) })
    const { batch, state } = batchOf(['hello', { id: 'not-an-id', events: [] }, null, message([judged({ time: T0 })])])
    expect(await consumer.consume(batch, db)).toMatchObject({ applied: 1, malformed: 3 })
    expect(state.acked.sort()).toEqual([0, 1, 2, 3])
    expect(logged.join('\n')).toMatch(/3 message\(s\) on robots-edge-ledger are not the edge's ledger messages/)
  })

  it('caps the distinct hosts for messages whose config lists none', async () => {
    const consumer = createLedgerConsumer({ log: quiet })
    const events = [judged({ host: 'a.example', time: T0 }), judged({ host: 'b.example', time: T0 + 1 })]
    await consumer.consume(batchOf([message(events, { gate: true })]).batch, db)
    expect(await count("SELECT count(*) AS n FROM ledger_hosts WHERE host IN ('a.example', 'b.example')")).toBe(2)
    await consumer.consume(batchOf([message([judged({ host: 'c.example', time: T0 + 2 })])]).batch, db)
    expect(await count("SELECT count(*) AS n FROM ledger_hosts WHERE host = 'c.example'")).toBe(0)
    expect(await requests()).toBe(3)
  })
})

describe('the dead-letter queue', () => {
  it('counts its events in ledger_losses once, unless the message was applied, and the report names them', async () => {
    const applied = message([judged({ time: T0 })])
    await createLedgerConsumer({ log: quiet }).consume(batchOf([applied]).batch, db)
    const lost = message(Array.from({ length: 5 }, (_, i) => judged({ time: T0 + HOUR + i * 1000 })))
    const dead = batchOf([lost, applied, { nothing: true }], 'robots-edge-ledger-dlq')
    expect(await countDeadLetters(dead.batch, db, { now: T0 + 2 * HOUR, log: quiet })).toBe(5)
    expect(dead.state.acked.sort()).toEqual([0, 1, 2])
    // Redelivered: the same rows, counted once.
    expect(await countDeadLetters(batchOf([lost], 'robots-edge-ledger-dlq').batch, db, { now: T0 + 3 * HOUR, log: quiet })).toBe(0)
    const notes = await getStorageNotes(db, { since: T0, until: T0 + 4 * HOUR })
    expect(notes.losses).toEqual([{ from: T0 + HOUR, to: T0 + HOUR + 4000, events: 5, deadLettered: 5 }])
  })

  it('retries while D1 refuses', async () => {
    const { db: down, state } = switchableDb()
    state.down = true
    const dead = batchOf([message([judged({ time: T0 })])], 'robots-edge-ledger-dlq', 2)
    expect(await countDeadLetters(dead.batch, down, { now: T0, log: quiet })).toBe(0)
    expect(dead.state).toEqual({ acked: [], retried: [{ i: 0, delay: 10 }] })
  })
})

describe('the applied ids', () => {
  it('are pruned by age, by the range their time prefix gives', async () => {
    const now = T0 + 30 * 86_400_000
    const old = `${idAt(now - APPLIED_RETENTION_MS - 1)}${crypto.randomUUID()}`
    const young = `${idAt(now - APPLIED_RETENTION_MS + 60_000)}${crypto.randomUUID()}`
    await db.batch([old, young].map((id) => db.prepare('INSERT INTO ledger_queue_applied (id) VALUES (?)').bind(id)))
    expect(await pruneAppliedIds(db, now)).toBe(1)
    expect((await db.prepare('SELECT id FROM ledger_queue_applied').all<{ id: string }>()).results.map((r) => r.id)).toEqual([young])
  })
})

describe('the recorder on the queue path', () => {
  /** A producer binding that keeps what it is sent, or refuses while `down`. */
  function fakeQueue() {
    const sent: LedgerMessage[][] = []
    const state = { down: false }
    const queue = {
      send: () => Promise.reject(new Error('use sendBatch')),
      sendBatch: async (messages: Iterable<MessageSendRequest<LedgerMessage>>) => {
        if (state.down) throw new Error('Queue is unavailable')
        sent.push([...messages].map((m) => m.body))
      },
    } as unknown as Queue<LedgerMessage>
    return { queue, sent, state }
  }

  it('sends its events and versions to the queue in messages of at most MESSAGE_EVENTS, and writes nothing to D1 itself', async () => {
    const { queue, sent } = fakeQueue()
    const { db: counted, state } = switchableDb()
    const recorder = createRecorder(() => counted, { queue: queueSink(queue, true), batchSize: 1000, log: quiet })
    recorder.recordVersion(V1)
    for (let i = 0; i < 150; i++) recorder.record(judged({ time: T0 + i, path: `/p/${i}` }))
    await recorder.settled()
    expect(state.batches).toBe(0)
    expect(recorder.stats).toMatchObject({ recorded: 150, written: 150, dropped: 0 })
    const messages = sent.flat()
    // One sendBatch per write, of at most SEND_EVENTS events in messages of MESSAGE_EVENTS.
    expect(sent.map((b) => b.reduce((n, m) => n + m.events.length, 0))).toEqual([SEND_EVENTS, 150 - SEND_EVENTS])
    expect(Math.max(...messages.map((m) => m.events.length))).toBe(MESSAGE_EVENTS)
    expect(new Set(messages.map((m) => m.id)).size).toBe(messages.length)
    expect(messages.every((m) => /^[0-9a-z]{9}[0-9a-f-]{36}$/.test(m.id) && m.gate === true)).toBe(true)
    expect(messages.flatMap((m) => m.versions)).toEqual([V1])
    for (const m of messages) expect(JSON.stringify(m).length).toBeLessThan(64_000)

    // Through the consumer: every event counted, once.
    const consumer = createLedgerConsumer({ log: quiet })
    for (const b of sent) await consumer.consume(batchOf(b).batch, db)
    expect(await requests()).toBe(150)
    expect(await count("SELECT count(*) AS n FROM robots_versions WHERE hash = 'v1'")).toBe(1)
  })

  it('past its drain time, sends what is left at once rather than leave it for a request that may never come', async () => {
    const { queue, sent } = fakeQueue()
    const { db: counted } = switchableDb()
    // Each send takes longer than the whole drain time: the old writer stopped after its first send with 220 events left.
    const slow = {
      send: queue.send,
      sendBatch: async (messages: Iterable<MessageSendRequest<LedgerMessage>>) => {
        await new Promise((r) => setTimeout(r, 30))
        return queue.sendBatch(messages)
      },
    } as unknown as Queue<LedgerMessage>
    const recorder = createRecorder(() => counted, { queue: queueSink(slow, true), batchSize: 1000, maxDrainMs: 10, log: quiet })
    for (let i = 0; i < 300; i++) recorder.record(judged({ time: T0 + i, path: `/p/${i}` }))
    await recorder.flush()
    expect(sent.flat().reduce((n, m) => n + m.events.length, 0)).toBe(300)
    expect(recorder.stats).toMatchObject({ recorded: 300, written: 300, dropped: 0, buffered: 0 })
  })

  it('writes to D1 directly what the queue refuses, and says so once', async () => {
    const { queue, sent, state } = fakeQueue()
    state.down = true
    const logged: string[] = []
    const recorder = createRecorder(() => db, { queue: queueSink(queue, false), log: (m) => void logged.push(m) })
    recorder.recordVersion(V1)
    for (let i = 0; i < 30; i++) recorder.record(fetched({ agent: gptbot, time: T0 + i }))
    await recorder.settled()
    for (let i = 0; i < 30; i++) recorder.record(judged({ time: T0 + 100 + i }))
    await recorder.settled()
    expect(sent).toEqual([])
    expect(recorder.stats).toMatchObject({ recorded: 60, written: 60, dropped: 0 })
    expect(await requests()).toBe(60)
    expect(await count("SELECT count(*) AS n FROM robots_versions WHERE hash = 'v1'")).toBe(1)
    expect(logged.filter((m) => m.includes('queue'))).toHaveLength(1)
    // The queue back: the next events go to it.
    state.down = false
    recorder.record(judged({ time: T0 + 200 }))
    await recorder.settled()
    expect(sent.flat().flatMap((m) => m.events)).toHaveLength(1)
  })
})
