// The queue path end to end (integration): the built edge and admin Workers
// in Miniflare, which runs Queues locally, with the bindings `npm run deploy
// -- --queue` gives them: crawler requests at the edge -> LEDGER_QUEUE ->
// the admin Worker's consumer -> D1. Every request is counted once; a
// message delivered twice is counted once; a message that always fails
// ends in the dead-letter queue, is counted as not stored, and the report
// says so.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { JudgedRequest } from '../../src/core/events.ts'
import { countEvents, startWorker, type LedgerDb, type LocalWorker } from '../../dev/worker.ts'
import { builtWorkers } from '../support/built-workers.ts'

const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'
const GPTBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)'
const TOKEN = 'queue-flow-token'

/** src/ledger/queue.ts's LedgerMessage, restated: that module's types need the Workers types, which the Node tsconfig leaves out. */
interface LedgerMessage {
  readonly id: string
  readonly events: readonly JudgedRequest[]
  readonly versions: readonly unknown[]
  readonly gate: boolean
}

const sum = async (db: LedgerDb, sql: string) => (await db.prepare(sql).first<{ n: number }>())?.n ?? 0
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Polls until `read` returns `want` (or `timeoutMs` passes); returns the last value. */
async function until(read: () => Promise<number>, want: number, timeoutMs = 30_000): Promise<number> {
  const start = Date.now()
  let value = await read()
  while (value !== want && Date.now() - start < timeoutMs) {
    await sleep(100)
    value = await read()
  }
  return value
}

let worker: LocalWorker
beforeAll(async () => {
  // Quick retries and two of them, so a message that always fails reaches the dead-letter queue within seconds.
  worker = await startWorker({ outdir: 'unused', bundles: await builtWorkers(), adminToken: TOKEN, queue: { batchTimeoutSeconds: 1, maxRetries: 2, retrySeconds: 0 } })
}, 180_000)
afterAll(async () => {
  await worker?.dispose()
}, 60_000)

describe('the ledger queue (built Workers, Miniflare Queues)', () => {
  it('counts every crawler request exactly, written by the consumer', { timeout: 120_000 }, async () => {
    const n = 60
    const statuses = await Promise.all(
      Array.from({ length: n }, async (_, i) => {
        const res = await fetch(new URL(`/articles/${i}`, worker.url), { headers: { 'user-agent': i % 3 === 0 ? GPTBOT : GOOGLEBOT } })
        await res.arrayBuffer()
        return res.status
      }),
    )
    expect(statuses.every((s) => s === 200 || s === 403)).toBe(true)
    expect(await until(() => countEvents(worker.db), n)).toBe(n)
    // Through the queue: the consumer recorded the messages it applied.
    expect(await sum(worker.db, 'SELECT count(*) AS n FROM ledger_queue_applied')).toBeGreaterThan(0)
    await sleep(1500)
    expect(await countEvents(worker.db)).toBe(n)
  })

  it('counts a message delivered twice once', { timeout: 60_000 }, async () => {
    const before = await countEvents(worker.db)
    const queue = await worker.mf.getQueueProducer<LedgerMessage>('LEDGER_QUEUE', 'robots-edge')
    const event = await aRecordedEvent(worker.db)
    const body: LedgerMessage = { id: `${Date.now().toString(36).padStart(9, '0')}${crypto.randomUUID()}`, events: [event, { ...event, path: '/again' }], versions: [], gate: false }
    await queue.send(body)
    expect(await until(() => countEvents(worker.db), before + 2)).toBe(before + 2)
    // Redelivered, as Queues may: the same id again, in another batch.
    await queue.send(body)
    await queue.send({ ...body, id: `${Date.now().toString(36).padStart(9, '0')}${crypto.randomUUID()}`, events: [event] })
    expect(await until(() => countEvents(worker.db), before + 3)).toBe(before + 3)
    await sleep(2500)
    expect(await countEvents(worker.db)).toBe(before + 3)
  })

  it('sends a message that always fails to the dead-letter queue, counts it as not stored, and the report says so', { timeout: 90_000 }, async () => {
    const queue = await worker.mf.getQueueProducer<LedgerMessage>('LEDGER_QUEUE', 'robots-edge')
    const event = await aRecordedEvent(worker.db)
    const before = await countEvents(worker.db)
    // An event no write can take (no agent): every delivery fails, and its retries run out.
    const poison = { ...event, time: event.time + 1, agent: null } as unknown as JudgedRequest
    const id = `${Date.now().toString(36).padStart(9, '0')}${crypto.randomUUID()}`
    await queue.send({ id, events: [poison, poison, poison], versions: [], gate: false })
    expect(await until(() => sum(worker.db, 'SELECT coalesce(sum(events), 0) AS n FROM ledger_losses'), 3, 60_000)).toBe(3)
    expect(await sum(worker.db, `SELECT count(*) AS n FROM ledger_losses WHERE id = 'dead-letter:${id}'`)).toBe(1)
    expect(await countEvents(worker.db)).toBe(before)

    const since = event.time - 3_600_000
    const res = await fetch(new URL(`/_robots/api/report?since=${since}&until=${event.time + 3_600_000}`, worker.url), { headers: { authorization: `Bearer ${TOKEN}` } })
    expect(res.status).toBe(200)
    const report = (await res.json()) as { losses: { events: number; deadLettered?: number }[] }
    expect(report.losses).toEqual([expect.objectContaining({ events: 3, deadLettered: 3 })])
  })
})

/** An event as the edge recorded it: its fields read back from the ledger's raw sample. */
async function aRecordedEvent(db: LedgerDb): Promise<JudgedRequest> {
  const row = await db.prepare("SELECT time, host, robots_version FROM events WHERE agent_key = 'googlebot' LIMIT 1").first<{ time: number; host: string; robots_version: string }>()
  if (row === null) throw new Error('no recorded event to copy')
  return {
    type: 'request',
    time: row.time,
    host: row.host,
    method: 'GET',
    path: '/copied',
    userAgent: GOOGLEBOT,
    agent: { id: 'googlebot', tokens: ['googlebot'], kind: 'bot', operator: 'Google', category: 'Search Engine Crawler', obeysRobotsTxt: true },
    verification: 'unverified',
    group: '*',
    allowed: true,
    rule: null,
    mode: 'block',
    action: 'pass',
    status: 0,
    robotsVersion: row.robots_version,
  } as JudgedRequest
}
