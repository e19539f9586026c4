/**
 * The burst bench's Worker (burst.ts): writes the batches the simulation
 * made through the real write paths over a metered D1, the direct path's
 * (writeEvents, one call per isolate's write) or the queue path's (the
 * admin Worker's consumer, one call per batch of messages), and answers
 * with D1's own count of rows written and of write transactions; `/merge`
 * runs the cron's fold of the shape inbox and answers the same.
 */
import type { JudgedRequest } from '../../src/core/events.ts'
import * as ledger from '../../src/ledger/ledger.ts'
import type { LedgerMessage } from '../../src/ledger/queue.ts'
import { createLedgerConsumer } from '../../src/ledger/queue-consumer.ts'
import { VERSIONS } from './workload.ts'

interface Meter {
  rowsWritten: number
  /** D1 calls (a batch, or one statement) that wrote rows: each is one write transaction. */
  transactions: number
}
type Meta = { rows_written?: number }

/** `db` whose calls add to `meter` what D1's result meta says they wrote. */
function metered(db: D1Database, meter: Meter): D1Database {
  const real = new WeakMap<object, D1PreparedStatement>()
  const one = <T>(result: T): T => {
    const written = (result as { meta?: Meta } | null)?.meta?.rows_written ?? 0
    meter.rowsWritten += written
    if (written > 0) meter.transactions++
    return result
  }
  const wrap = (statement: D1PreparedStatement): D1PreparedStatement => {
    const wrapped = {
      bind: (...values: unknown[]) => wrap(statement.bind(...values)),
      all: async () => one(await statement.all()),
      run: async () => one(await statement.run()),
      first: async (column?: string) => {
        const result = one(await statement.all<Record<string, unknown>>())
        const row = result.results[0] ?? null
        return column === undefined ? row : (row?.[column] ?? null)
      },
      raw: (options?: { columnNames?: boolean }) => statement.raw(options as never),
    } as unknown as D1PreparedStatement
    real.set(wrapped, statement)
    return wrapped
  }
  return {
    prepare: (sql: string) => wrap(db.prepare(sql)),
    batch: async (statements: D1PreparedStatement[]) => {
      const results = await db.batch(statements.map((s) => real.get(s) ?? s))
      const written = results.reduce((n, r) => n + ((r.meta as Meta).rows_written ?? 0), 0)
      meter.rowsWritten += written
      if (written > 0) meter.transactions++
      return results
    },
    exec: (sql: string) => db.exec(sql),
  } as unknown as D1Database
}

/** A MessageBatch as Queues hands it to the consumer; every message is acknowledged or retried. */
function batchOf(bodies: readonly LedgerMessage[]): { batch: MessageBatch<unknown>; retried: () => number } {
  let retried = 0
  const messages = bodies.map((body, i) => ({ id: String(i), timestamp: new Date(), body, attempts: 1, ack() {}, retry: () => void retried++ }))
  return { batch: { queue: 'robots-edge-ledger', messages, ackAll() {}, retryAll() {} } as unknown as MessageBatch<unknown>, retried: () => retried }
}

const consumer = createLedgerConsumer({ log: () => {} })

export default {
  async fetch(request: Request, env: { DB: D1Database }): Promise<Response> {
    const url = new URL(request.url)
    if (url.pathname === '/merge') {
      // The cron's fold of the shape inbox into pages (src/ledger/shape-packs.ts): part of what the writes cost.
      const meter: Meter = { rowsWritten: 0, transactions: 0 }
      const result = await ledger.mergeShapePacks(metered(env.DB, meter), { budgetMs: 600_000 })
      return Response.json({ ...meter, ...result })
    }
    if (url.pathname === '/setup') {
      for (const v of VERSIONS) await ledger.recordRobotsVersion(env.DB, v)
      return Response.json({ versions: VERSIONS.length })
    }
    // Each element: one write (direct: an isolate's batch of events) or one consumer call (queue: a batch of messages).
    const writes = (await request.json()) as unknown[][]
    const perWrite: Meter[] = []
    let events = 0
    let retried = 0
    for (const write of writes) {
      const meter: Meter = { rowsWritten: 0, transactions: 0 }
      const db = metered(env.DB, meter)
      // The write path tells late requests by the clock: the simulated one, a second after an isolate's last request,
      // or, for a consumer's batch, after Queues' wait for it (max_batch_timeout, 5 s) and the sender's gathering (1 s).
      const real = Date.now
      try {
        if (url.pathname === '/direct') {
          const list = write as JudgedRequest[]
          Date.now = () => Math.max(...list.map((e) => e.time)) + 1000
          events += await ledger.writeEvents(db, list)
        } else if (url.pathname === '/queue') {
          const bodies = write as LedgerMessage[]
          Date.now = () => Math.max(...bodies.flatMap((m) => m.events.map((e) => e.time))) + 6000
          const { batch, retried: r } = batchOf(bodies)
          events += (await consumer.consume(batch, db)).events
          retried += r()
        } else return new Response('not found', { status: 404 })
      } finally {
        Date.now = real
      }
      perWrite.push(meter)
    }
    return Response.json({ events, retried, perWrite })
  },
}
