// Unit tests of the per-isolate recorder (src/storage/recorder.ts) against a
// real local D1, with failing and slow databases built around it.
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { createRecorder } from '../../src/storage/recorder.ts'
import { T0, judged } from '../report/fixtures.ts'
import { clearLedger } from './ledger-tables.ts'

const db = env.DB

async function count(sql: string, ...params: unknown[]): Promise<number> {
  return (await db.prepare(sql).bind(...params).first<number>('n')) ?? -1
}

beforeEach(() => clearLedger(db))

/** env.DB with its batch calls counted. */
function countingDb() {
  const calls = { batch: 0 }
  const wrapped = {
    prepare: (sql: string) => db.prepare(sql),
    batch: (statements: D1PreparedStatement[]) => {
      calls.batch++
      return db.batch(statements)
    },
  } as unknown as D1Database
  return { db: wrapped, calls }
}

describe('createRecorder', () => {
  it('writes when the buffer reaches batchSize, without waiting for flush()', async () => {
    const { db: counted, calls } = countingDb()
    const recorder = createRecorder(() => counted, { batchSize: 10 })
    for (let i = 0; i < 9; i++) recorder.record(judged({ path: `/p/${i}` }))
    expect(calls.batch).toBe(0)
    expect(recorder.stats.buffered).toBe(9)
    recorder.record(judged({ path: '/p/9' }))
    await vi.waitFor(() => expect(recorder.stats.written).toBe(10))
    expect(calls.batch).toBe(1)
    expect(await count('SELECT count(*) AS n FROM events')).toBe(10)
  })

  it('writes what is buffered on flush()', async () => {
    const recorder = createRecorder(() => db)
    for (let i = 0; i < 3; i++) recorder.record(judged({ path: `/p/${i}` }))
    await recorder.flush()
    expect(await count('SELECT count(*) AS n FROM events')).toBe(3)
    await recorder.flush()
    expect(recorder.stats).toMatchObject({ recorded: 3, written: 3, failures: 0, dropped: 0, buffered: 0 })
  })

  it('loses and duplicates nothing under interleaved, concurrent flushes', async () => {
    const { db: counted, calls } = countingDb()
    const recorder = createRecorder(() => counted, { batchSize: 20 })
    const flushes: Promise<void>[] = []
    for (let i = 0; i < 137; i++) {
      recorder.record(judged({ time: T0 + i, path: `/p/${i}` }))
      if (i % 7 === 3) flushes.push(recorder.flush())
    }
    flushes.push(recorder.flush())
    await Promise.all(flushes)
    expect(await count('SELECT count(*) AS n FROM events')).toBe(137)
    expect(await count('SELECT count(DISTINCT path) AS n FROM events')).toBe(137)
    expect(await count('SELECT requests AS n FROM counts_hourly')).toBe(137)
    expect(recorder.stats).toMatchObject({ recorded: 137, written: 137, failures: 0, dropped: 0, buffered: 0 })
    // Twenty flushes, but writes never overlap: calls that arrive mid-write share the next batch.
    expect(calls.batch).toBeLessThan(flushes.length)
  })

  it('counts a failing database and logs once, never throwing', async () => {
    const failing = {
      prepare: (sql: string) => db.prepare(sql),
      batch: () => Promise.reject(new Error('D1_ERROR: database unavailable')),
    } as unknown as D1Database
    const log = vi.fn()
    const recorder = createRecorder(() => failing, { batchSize: 50, log })
    for (let i = 0; i < 120; i++) recorder.record(judged({ path: `/p/${i}` }))
    await expect(recorder.flush()).resolves.toBeUndefined()
    await recorder.settled()
    recorder.record(judged())
    await expect(recorder.flush()).resolves.toBeUndefined()
    await recorder.settled()
    expect(recorder.stats.failures).toBeGreaterThanOrEqual(2)
    expect(recorder.stats).toMatchObject({ recorded: 121, written: 0, dropped: 121, buffered: 0 })
    expect(log).toHaveBeenCalledTimes(1)
    expect(String(log.mock.calls[0]?.[0])).toMatch(/could not write/)
  })

  it('also survives getDb throwing (a missing binding)', async () => {
    const log = vi.fn()
    const recorder = createRecorder(() => { throw new Error('no DB binding') }, { log })
    recorder.record(judged())
    await recorder.flush()
    expect(recorder.stats).toMatchObject({ failures: 1, dropped: 1 })
    expect(log).toHaveBeenCalledTimes(1)
  })

  it('bounds the buffer while a write hangs, counting what it drops', async () => {
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    const slow = {
      prepare: (sql: string) => db.prepare(sql),
      batch: async (statements: D1PreparedStatement[]) => {
        await gate
        return db.batch(statements)
      },
    } as unknown as D1Database
    const log = vi.fn()
    const recorder = createRecorder(() => slow, { batchSize: 10, maxBuffered: 100, log })
    for (let i = 0; i < 10; i++) recorder.record(judged({ path: `/a/${i}` }))
    // The first ten are in flight; the buffer holds at most 100 more.
    for (let i = 0; i < 150; i++) recorder.record(judged({ path: `/b/${i}` }))
    expect(recorder.stats).toMatchObject({ recorded: 110, dropped: 50, buffered: 100 })
    expect(log).toHaveBeenCalledTimes(1)
    release()
    await recorder.settled()
    expect(await count('SELECT count(*) AS n FROM events')).toBe(110)
  })
})
