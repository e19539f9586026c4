// Unit tests of the per-isolate recorder (src/ledger/recorder.ts) against a
// real local D1, with failing, refusing and slow databases built around it.
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { OTHER_HOSTS } from '../../src/core/config/index.ts'
import { createHostGate, readHostCap } from '../../src/ledger/hosts.ts'
import { kvLossStash, LOSS_STASH_PREFIX, readLosses } from '../../src/ledger/losses.ts'
import { createRecorder, type RecorderOptions } from '../../src/ledger/recorder.ts'
import { T0, judged } from '../support/report-fixtures.ts'
import { clearLedger } from '../support/workerd/ledger-tables.ts'
import { switchableDb } from '../support/workerd/switchable-db.ts'
import { SHAPE_PATHS_SQL } from '../../src/ledger/shape-packs.ts'

const db = env.DB
/** Events D1 stored, from the counters (raw rows are only a sample, SAMPLE_BUDGET an hour per agent and class). */
const COUNTED = 'SELECT coalesce(sum(requests), 0) AS n FROM counts_hourly'

async function count(sql: string, ...params: unknown[]): Promise<number> {
  return (
    (await db
      .prepare(sql)
      .bind(...params)
      .first<number>('n')) ?? -1
  )
}

beforeEach(async () => {
  await clearLedger(db)
  const { keys } = await env.ROBOTS_KV.list({ prefix: LOSS_STASH_PREFIX })
  for (const key of keys) await env.ROBOTS_KV.delete(key.name)
})

/** Quick retries, so an outage of a few tens of milliseconds is one. */
const FAST: RecorderOptions = { retryMs: [5, 20], maxDrainMs: 60 }

describe('createRecorder', () => {
  it('writes when the buffer reaches batchSize, without waiting for flush()', async () => {
    const { db: counted, state } = switchableDb()
    const recorder = createRecorder(() => counted, { batchSize: 10 })
    for (let i = 0; i < 9; i++) recorder.record(judged({ path: `/p/${i}` }))
    expect(state.batches).toBe(0)
    expect(recorder.stats.buffered).toBe(9)
    recorder.record(judged({ path: '/p/9' }))
    await vi.waitFor(() => expect(recorder.stats.written).toBe(10))
    expect(state.batches).toBe(1)
    expect(await count(COUNTED)).toBe(10)
  })

  it('writes what is buffered on flush()', async () => {
    const recorder = createRecorder(() => db)
    for (let i = 0; i < 3; i++) recorder.record(judged({ path: `/p/${i}` }))
    await recorder.flush()
    expect(await count(COUNTED)).toBe(3)
    await recorder.flush()
    expect(recorder.stats).toMatchObject({ recorded: 3, written: 3, failures: 0, dropped: 0, buffered: 0 })
  })

  it('loses and duplicates nothing under interleaved, concurrent flushes', async () => {
    const { db: counted, state } = switchableDb()
    const recorder = createRecorder(() => counted, { batchSize: 20 })
    const flushes: Promise<void>[] = []
    for (let i = 0; i < 137; i++) {
      recorder.record(judged({ time: T0 + i, path: `/p/${i}` }))
      if (i % 7 === 3) flushes.push(recorder.flush())
    }
    flushes.push(recorder.flush())
    await Promise.all(flushes)
    expect(await count(COUNTED)).toBe(137)
    expect(await count(`SELECT count(DISTINCT path) AS n FROM (${SHAPE_PATHS_SQL})`)).toBe(137)
    expect(await count('SELECT requests AS n FROM counts_hourly')).toBe(137)
    expect(recorder.stats).toMatchObject({ recorded: 137, written: 137, failures: 0, dropped: 0, buffered: 0 })
    // Twenty flushes, but writes never overlap: calls that arrive mid-write share the next batch.
    expect(state.batches).toBeLessThan(flushes.length)
  })
})

describe('createRecorder while D1 is down', () => {
  it('holds the events of twenty requests, logs the outage once, and writes them all when D1 is back', async () => {
    const { db: switchable, state } = switchableDb()
    const log = vi.fn()
    const recorder = createRecorder(() => switchable, { ...FAST, log })
    state.down = true
    // Twenty requests, each recording its robots.txt version and its event, then flushing.
    for (let i = 0; i < 20; i++) {
      recorder.recordVersion({ host: 'example.com', hash: 'v1', text: 'User-agent: *\nDisallow: /admin/\n', time: T0 })
      recorder.record(judged({ time: T0 + i, path: `/p/${i}` }))
      await recorder.flush()
    }
    expect(recorder.stats).toMatchObject({ recorded: 20, written: 0, dropped: 0, buffered: 20 })
    expect(recorder.stats.failures).toBeGreaterThan(20)
    expect(log).toHaveBeenCalledTimes(1)
    expect(String(log.mock.calls[0]![0])).toMatch(/D1 refuses writes; holding up to 20000 events in memory and retrying/)
    state.down = false
    recorder.record(judged({ time: T0 + 20, path: '/p/20' }))
    await recorder.flush()
    expect(recorder.stats).toMatchObject({ recorded: 21, written: 21, dropped: 0, buffered: 0 })
    expect(await count(COUNTED)).toBe(21)
    // The version row the report needs was retried too.
    expect(await count("SELECT count(*) AS n FROM robots_versions WHERE host = 'example.com' AND hash = 'v1'")).toBe(1)
    expect(log).toHaveBeenCalledTimes(2)
    expect(String(log.mock.calls[1]![0])).toMatch(/D1 takes writes again after [\d.]+ s; 0 events could not be stored/)
    expect(await count('SELECT count(*) AS n FROM ledger_losses')).toBe(0)
  })

  it('retries a failed batch with backoff within one flush', async () => {
    const { db: switchable, state } = switchableDb()
    const log = vi.fn()
    const recorder = createRecorder(() => switchable, { retryMs: [10, 10], maxDrainMs: 5_000, log })
    state.down = true
    for (let i = 0; i < 5; i++) recorder.record(judged({ path: `/p/${i}` }))
    const flushed = recorder.flush()
    await vi.waitFor(() => expect(recorder.stats.failures).toBeGreaterThanOrEqual(3))
    state.down = false
    await flushed
    expect(recorder.stats).toMatchObject({ written: 5, dropped: 0, buffered: 0 })
    expect(log.mock.calls.map((c) => String(c[0]).slice(0, 40))).toEqual(['robots-edge ledger: D1 refuses writes; h', 'robots-edge ledger: D1 takes writes agai'])
  })

  // Found by \`loadtest --fault d1\`: the writer slept out its backoff (up to
  // 4 s) after D1 came back while every new event was dropped, losing 2.7
  // times what the backlog forced. Dropping cuts the backoff short.
  it('stops backing off once events are being dropped: the next try follows at the shortest wait', async () => {
    const { db: switchable, state } = switchableDb()
    const recorder = createRecorder(() => switchable, { retryMs: [20, 60_000], maxDrainMs: 120_000, maxBuffered: 100, log: () => {} })
    state.down = true
    for (let i = 0; i < 100; i++) recorder.record(judged({ path: `/p/${i}` }))
    const flushed = recorder.flush()
    // Eight failures: 20 + 40 + ... + 1,280 ms waited between them, and the wait after the eighth is 2,560 ms.
    await vi.waitFor(() => expect(recorder.stats.failures).toBeGreaterThanOrEqual(8), { timeout: 20_000, interval: 10 })
    state.down = false
    recorder.record(judged({ path: '/dropped' }))
    expect(recorder.stats.dropped).toBe(1)
    // Within a few 20 ms steps, not after the rest of a 2,560 ms wait.
    await vi.waitFor(() => expect(recorder.stats.written).toBe(100), { timeout: 1_000, interval: 10 })
    await flushed
    expect(recorder.stats).toMatchObject({ written: 100, dropped: 1, buffered: 0 })
  }, 30_000)

  it('drops only beyond the backlog, counts each event, and stores the count with its span once D1 is back', async () => {
    const { db: switchable, state } = switchableDb()
    const log = vi.fn()
    const recorder = createRecorder(() => switchable, { ...FAST, maxBuffered: 100, log })
    state.down = true
    for (let i = 0; i < 150; i++) recorder.record(judged({ time: T0 + i * 1000, path: `/p/${i}` }))
    await recorder.settled()
    expect(recorder.stats).toMatchObject({ recorded: 100, dropped: 50, buffered: 100 })
    state.down = false
    await recorder.flush()
    expect(recorder.stats).toMatchObject({ written: 100, dropped: 50, buffered: 0 })
    expect(await count(COUNTED)).toBe(100)
    // sent == stored + counted as not stored
    expect(await readLosses(db, { since: T0 - 1, until: T0 + 3_600_000 })).toEqual([{ from: T0 + 100_000, to: T0 + 149_000, events: 50 }])
    expect(log.mock.calls.map((c) => String(c[0]))).toEqual([
      expect.stringMatching(/dropping events \(the backlog is full \(100 events or 8 MiB\)\)/),
      expect.stringMatching(/D1 refuses writes/),
      expect.stringMatching(/D1 takes writes again after .*; 50 events could not be stored \(counted in ledger_losses\)/),
    ])
  })

  it('bounds the backlog in bytes too', async () => {
    const { db: switchable, state } = switchableDb()
    const recorder = createRecorder(() => switchable, { ...FAST, maxBufferedBytes: 64 * 1024, log: () => {} })
    state.down = true
    const long = 'x'.repeat(2000)
    for (let i = 0; i < 40; i++) recorder.record(judged({ path: `/${long}/${i}`, userAgent: long.slice(0, 500) }))
    expect(recorder.stats.recorded).toBeLessThan(40)
    expect(recorder.stats.recorded + recorder.stats.dropped).toBe(40)
  })

  it('keeps the count in KV while D1 is down, and removes it once D1 has it', async () => {
    const { db: switchable, state } = switchableDb()
    const recorder = createRecorder(() => switchable, { ...FAST, batchSize: 5, maxBuffered: 10, stash: kvLossStash(env.ROBOTS_KV), log: () => {} })
    state.down = true
    for (let i = 0; i < 15; i++) recorder.record(judged({ time: T0 + i, path: `/p/${i}` }))
    await recorder.settled()
    const { keys } = await env.ROBOTS_KV.list({ prefix: LOSS_STASH_PREFIX })
    expect(keys).toHaveLength(1)
    const stash = JSON.parse((await env.ROBOTS_KV.get(keys[0]!.name))!) as Record<string, number>
    expect(stash).toMatchObject({ events: 5, held: 10, from: T0, to: T0 + 14 })
    state.down = false
    await recorder.flush()
    expect((await env.ROBOTS_KV.list({ prefix: LOSS_STASH_PREFIX })).keys).toHaveLength(0)
    expect(await count('SELECT events AS n FROM ledger_losses')).toBe(5)
  })

  it('finds the one row D1 refuses by halving the batch, and drops only that row', async () => {
    const log = vi.fn()
    const recorder = createRecorder(() => db, { log })
    // The bad row is the first of its own counter key, so it is within the sampling budget: its raw row is written, and refused.
    for (let i = 0; i < 40; i++) recorder.record(judged({ path: `/p/${i}`, ...(i === 23 ? { method: null as unknown as string, verification: 'unverified' as const } : {}) }))
    await recorder.flush()
    expect(recorder.stats).toMatchObject({ written: 39, dropped: 1, buffered: 0 })
    expect(await count(COUNTED)).toBe(39)
    expect(await count('SELECT events AS n FROM ledger_losses')).toBe(1)
    expect(String(log.mock.calls[0]![0])).toMatch(/dropping events \(D1 refused them: .*NOT NULL/)
  })

  it('drops (and counts) a batch D1 cannot take at all, without retrying it', async () => {
    const { db: switchable, state } = switchableDb()
    const recorder = createRecorder(() => switchable, { ...FAST, log: () => {} })
    state.down = true
    state.error = 'D1_ERROR: no such table: events: SQLITE_ERROR'
    for (let i = 0; i < 3; i++) recorder.record(judged({ path: `/p/${i}` }))
    await recorder.flush()
    expect(recorder.stats).toMatchObject({ written: 0, dropped: 3, buffered: 0, failures: 0 })
  })

  it('says once, in one line without a stack, how to create missing tables, however many writes fail', async () => {
    const { db: switchable, state } = switchableDb()
    const log = vi.fn()
    const recorder = createRecorder(() => switchable, { ...FAST, log, hosts: createHostGate(3) })
    state.down = true
    state.error = 'D1_ERROR: no such table: ledger_hosts: SQLITE_ERROR'
    for (let round = 0; round < 3; round++) {
      recorder.recordVersion({ host: 'example.com', hash: `h${round}`, text: 'User-agent: *', time: T0 })
      recorder.record(judged({ path: `/p/${round}` }))
      await recorder.flush()
    }
    expect(recorder.stats).toMatchObject({ written: 0, dropped: 3, buffered: 0 })
    expect(log).toHaveBeenCalledTimes(1)
    expect(log.mock.calls[0]).toHaveLength(1)
    const line = String(log.mock.calls[0]![0])
    expect(line).not.toContain('\n')
    expect(line).toContain('no table ledger_hosts')
    expect(line).toContain('npx wrangler d1 migrations apply DB --local')
    expect(line).toContain('--remote')
  })

  it('survives getDb throwing (a missing binding), counting what it drops', async () => {
    const log = vi.fn()
    const recorder = createRecorder(
      () => {
        throw new Error('no DB binding')
      },
      { ...FAST, log },
    )
    recorder.record(judged())
    await recorder.flush()
    expect(recorder.stats).toMatchObject({ dropped: 1, buffered: 0 })
    expect(log).toHaveBeenCalledTimes(1)
  })

  it('bounds what it holds while a write hangs, in flight included', async () => {
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    const slow = { prepare: (sql: string) => db.prepare(sql), batch: async (s: D1PreparedStatement[]) => (await gate, db.batch(s)) } as unknown as D1Database
    const log = vi.fn()
    const recorder = createRecorder(() => slow, { batchSize: 10, maxBuffered: 100, log })
    for (let i = 0; i < 10; i++) recorder.record(judged({ path: `/a/${i}` }))
    // The first ten are in flight; ninety more fit.
    for (let i = 0; i < 150; i++) recorder.record(judged({ path: `/b/${i}` }))
    expect(recorder.stats).toMatchObject({ recorded: 100, dropped: 60, buffered: 100 })
    expect(log).toHaveBeenCalledTimes(1)
    release()
    await recorder.settled()
    expect(await count(COUNTED)).toBe(100)
    expect(await count('SELECT events AS n FROM ledger_losses')).toBe(60)
  })

  it('takes over from a writer whose request was cut off, counting its batch as not stored', async () => {
    const { db: switchable, state } = switchableDb()
    let clock = T0
    const recorder = createRecorder(() => switchable, { now: () => clock, log: () => {} })
    state.hang = true
    for (let i = 0; i < 4; i++) recorder.record(judged({ path: `/a/${i}` }))
    void recorder.flush() // never returns: its write hangs, as when waitUntil's time runs out
    await vi.waitFor(() => expect(state.batches).toBe(1))
    recorder.record(judged({ path: '/b' }))
    state.hang = false
    await recorder.flush()
    expect(recorder.stats.written).toBe(0) // a live writer is left alone
    clock += 60_000
    await recorder.flush()
    expect(recorder.stats).toMatchObject({ written: 1, dropped: 4, buffered: 0 })
  })
})

describe('the cap on distinct hosts', () => {
  it('stores the first hosts as themselves and later ones under other-hosts.invalid, across isolates', async () => {
    const [a, b] = [createRecorder(() => db, { hosts: createHostGate(3) }), createRecorder(() => db, { hosts: createHostGate(3) })]
    for (const [recorder, hosts] of [
      [a, ['h1.example', 'h2.example']],
      [b, ['h3.example', 'h4.example']],
      [a, ['h5.example', 'h1.example']],
    ] as const) {
      for (const host of hosts) {
        recorder.recordVersion({ host, hash: 'v1', text: 'User-agent: *\n', time: T0 })
        recorder.record(judged({ host }))
      }
      await recorder.flush()
    }
    const { results } = await db.prepare('SELECT host, sum(requests) AS n FROM counts_hourly GROUP BY host ORDER BY host').all<{ host: string; n: number }>()
    expect(results).toEqual([
      { host: 'h1.example', n: 2 },
      { host: 'h2.example', n: 1 },
      { host: 'h3.example', n: 1 },
      { host: OTHER_HOSTS, n: 2 },
    ])
    const versions = (await db.prepare('SELECT DISTINCT host FROM robots_versions ORDER BY host').all<{ host: string }>()).results.map((r) => r.host)
    expect(versions).toEqual(['h1.example', 'h2.example', 'h3.example', OTHER_HOSTS])
    expect(await readHostCap(db, 3)).toEqual({ limit: 3, stored: 3, reached: true })
  })
})
