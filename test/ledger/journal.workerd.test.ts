// Unit tests of the journal of held events (src/storage/journal.ts) through
// the recorder, against a real local D1 and KV: during an outage each event
// is counted in KV before it is held; D1 writes retire the counts; the cron
// settles what an isolate that is gone left behind. Whatever the order,
// stored + counted equals the events recorded, never more.
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { collectHeldLosses, HELD_PREFIX, kvHeldStore, type HeldEntry } from '../../src/ledger/journal.ts'
import { kvLossStash, LOSS_STASH_PREFIX, STALE_STASH_MS } from '../../src/ledger/losses.ts'
import { createRecorder } from '../../src/ledger/recorder.ts'
import { T0, judged } from '../support/report-fixtures.ts'
import { clearLedger } from '../support/workerd/ledger-tables.ts'
import { switchableDb } from '../support/workerd/switchable-db.ts'

const db = env.DB
const kv = env.ROBOTS_KV

async function count(sql: string): Promise<number> {
  return (await db.prepare(sql).first<number>('n')) ?? -1
}

async function entries(): Promise<{ name: string; metadata: HeldEntry }[]> {
  return (await kv.list<HeldEntry>({ prefix: HELD_PREFIX })).keys.map((k) => ({ name: k.name, metadata: k.metadata! }))
}

beforeEach(async () => {
  await clearLedger(db)
  for (const prefix of [HELD_PREFIX, LOSS_STASH_PREFIX]) {
    for (const key of (await kv.list({ prefix })).keys) await kv.delete(key.name)
  }
})

describe('journal: an outage seen by a live isolate', () => {
  it('counts every event in KV before it is held, drops included, and nothing twice once D1 is back', async () => {
    const { db: switchable, state } = switchableDb()
    const recorder = createRecorder(() => switchable, {
      retryMs: [5, 20],
      maxDrainMs: 60,
      batchSize: 5,
      maxBuffered: 10,
      stash: kvLossStash(kv),
      held: kvHeldStore(kv),
      log: () => {},
    })
    // D1 healthy: no KV write.
    recorder.record(judged({ time: T0, path: '/before' }))
    await recorder.flush()
    expect(recorder.outage).toBe(false)
    expect(await entries()).toEqual([])

    state.down = true
    for (let i = 0; i < 3; i++) recorder.record(judged({ time: T0 + 1 + i, path: `/p/${i}` }))
    await recorder.flush()
    expect(recorder.outage).toBe(true)
    // Held before the first failure: counted as soon as it is seen.
    expect((await entries()).reduce((n, e) => n + e.metadata.count, 0)).toBe(3)
    // 7 more fit in the backlog of 10, 5 are dropped: all 12 counted before `held` resolves.
    for (let i = 3; i < 15; i++) recorder.record(judged({ time: T0 + 1 + i, path: `/p/${i}` }))
    await recorder.held()
    expect(recorder.stats).toMatchObject({ buffered: 10, dropped: 5 })
    expect((await entries()).reduce((n, e) => n + e.metadata.count, 0)).toBe(15)

    state.down = false
    // The writer may still be in its backoff: settled() waits for it, then writes the rest.
    await recorder.settled()
    expect(recorder.stats.buffered).toBe(0)
    const stored = await count('SELECT sum(requests) AS n FROM counts_hourly')
    const counted = await count('SELECT coalesce(sum(events), 0) AS n FROM ledger_losses')
    expect(stored).toBe(1 + 10)
    expect(counted).toBe(5)
    // The journal's keys are retired; the cron finds nothing to count again.
    expect(await entries()).toEqual([])
    expect(await collectHeldLosses(kv, db, T0 + STALE_STASH_MS * 2)).toEqual({ moved: 0, events: 0 })
  })
})

describe('journal: KV failing too', () => {
  it('a put that never answers holds `held` for at most 2 s, and D1 writes go on once it is back', async () => {
    const { db: switchable, state } = switchableDb()
    const hung = { put: () => new Promise<void>(() => {}), remove: async () => {} }
    const recorder = createRecorder(() => switchable, { retryMs: [5, 20], maxDrainMs: 60, held: hung, log: () => {} })
    state.down = true
    recorder.record(judged({ time: T0, path: '/a' }))
    await recorder.flush()
    recorder.record(judged({ time: T0 + 1, path: '/b' }))
    const started = Date.now()
    await recorder.held()
    expect(Date.now() - started).toBeLessThan(5000)
    state.down = false
    await recorder.settled()
    expect(await count('SELECT sum(requests) AS n FROM counts_hourly')).toBe(2)
  }, 20_000)
})

describe('journal: the cron, for an isolate that is gone', () => {
  const store = kvHeldStore(kv)
  const now = Date.now()
  const old = now - STALE_STASH_MS - 1

  it('counts a stale entry less what D1 stored of it, once; leaves live isolates and fresh entries alone', async () => {
    await store.put('deadbeef~1', { count: 10, from: T0, to: T0 + 900, at: old })
    await db.prepare('INSERT INTO ledger_held VALUES (?, ?, ?)').bind('deadbeef~1', 4, old).run()
    await store.put('deadbeef~2', { count: 3, from: T0 + 1000, to: T0 + 1100, at: old })
    // An isolate still in its outage rewrites its loss stash: its entries are its own to settle.
    await store.put('a1i2v3e4~1', { count: 5, from: T0, to: T0 + 10, at: old })
    await kvLossStash(kv).put({ id: 'a1i2v3e4-1', from: T0, to: T0 + 10, events: 0, held: 0, updated: now - 1000 })
    await store.put('f5r6e7s8~1', { count: 2, from: T0, to: T0 + 10, at: now - 1000 })

    expect(await collectHeldLosses(kv, db, now)).toEqual({ moved: 2, events: 6 + 3 })
    const rows = (await db.prepare('SELECT id, events FROM ledger_losses ORDER BY id').all<{ id: string; events: number }>()).results
    expect(rows).toEqual([
      { id: 'deadbeef~1', events: 6 },
      { id: 'deadbeef~2', events: 3 },
    ])
    expect((await entries()).map((e) => e.name).sort()).toEqual([`${HELD_PREFIX}a1i2v3e4~1`, `${HELD_PREFIX}f5r6e7s8~1`])
    // Run again (or the key seen again where KV lags): the rows stand as they are.
    await store.put('deadbeef~1', { count: 10, from: T0, to: T0 + 900, at: old })
    expect(await collectHeldLosses(kv, db, now)).toEqual({ moved: 1, events: 0 })
    expect(await count('SELECT sum(events) AS n FROM ledger_losses')).toBe(9)
  })
})
