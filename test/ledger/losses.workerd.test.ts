// What the ledger could not store (src/ledger/losses.ts): the D1 rows, the
// KV stashes the cron moves, and the report's `losses` and `hostCap`.
import { env, SELF } from 'cloudflare:test'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { MAX_STORED_HOSTS } from '../../src/ledger/hosts.ts'
import { collectStashedLosses, getStorageNotes, kvLossStash, LOSS_STASH_PREFIX, readLosses, recordLoss, STALE_STASH_MS } from '../../src/ledger/losses.ts'
import { runUpkeep } from '../../src/admin/upkeep.ts'
import { HOUR, MINUTE, T0 } from '../support/report-fixtures.ts'

const db = env.DB
const kv = env.ROBOTS_KV

beforeEach(async () => {
  await db.batch(['ledger_losses', 'ledger_hosts'].map((t) => db.prepare(`DELETE FROM ${t}`)))
  for (const key of (await kv.list({ prefix: LOSS_STASH_PREFIX })).keys) await kv.delete(key.name)
})

describe('readLosses', () => {
  it('returns the losses in the range, oldest first, one outage seen by several isolates as one', async () => {
    await recordLoss(db, { id: 'a-1', from: T0, to: T0 + 10_000, events: 40 }, T0)
    await recordLoss(db, { id: 'b-1', from: T0 + 2_000, to: T0 + 12_000, events: 2 }, T0)
    await recordLoss(db, { id: 'a-2', from: T0 + 3 * HOUR, to: T0 + 3 * HOUR + MINUTE, events: 7 }, T0)
    await recordLoss(db, { id: 'c-1', from: T0 - 5 * HOUR, to: T0 - 4 * HOUR, events: 1 }, T0)
    expect(await readLosses(db, { since: T0 - HOUR, until: T0 + 4 * HOUR })).toEqual([
      { from: T0, to: T0 + 12_000, events: 42 },
      { from: T0 + 3 * HOUR, to: T0 + 3 * HOUR + MINUTE, events: 7 },
    ])
  })

  it("takes an isolate's later count of the same episode as the count", async () => {
    await recordLoss(db, { id: 'a-1', from: T0, to: T0 + 1000, events: 5 }, T0)
    await recordLoss(db, { id: 'a-1', from: T0, to: T0 + 9000, events: 12 }, T0 + 1)
    expect(await readLosses(db, { since: T0, until: T0 + HOUR })).toEqual([{ from: T0, to: T0 + 9000, events: 12 }])
  })
})

describe('collectStashedLosses (the cron)', () => {
  it('moves stale stashes, counting what their isolate still held, and leaves fresh ones to their isolate', async () => {
    const stash = kvLossStash(kv)
    const now = T0 + HOUR
    await stash.put({ id: 'gone-1', from: T0, to: T0 + 5000, events: 30, held: 20, updated: now - STALE_STASH_MS - 1 })
    await stash.put({ id: 'live-1', from: T0, to: T0 + 5000, events: 9, held: 100, updated: now - 1000 })
    await kv.put(`${LOSS_STASH_PREFIX}garbled`, '{not json')
    expect(await collectStashedLosses(kv, db, now)).toEqual({ moved: 2, events: 50 })
    expect(await readLosses(db, { since: T0, until: now })).toEqual([{ from: T0, to: T0 + 5000, events: 50 }])
    expect((await kv.list({ prefix: LOSS_STASH_PREFIX })).keys.map((k) => k.name)).toEqual([`${LOSS_STASH_PREFIX}live-1`])
  })

  it('keeps the count an isolate already wrote for that episode', async () => {
    await recordLoss(db, { id: 'x-1', from: T0, to: T0 + 1000, events: 3 }, T0)
    await kvLossStash(kv).put({ id: 'x-1', from: T0, to: T0 + 1000, events: 3, held: 500, updated: T0 })
    await collectStashedLosses(kv, db, T0 + STALE_STASH_MS + 1)
    expect(await readLosses(db, { since: T0, until: T0 + HOUR })).toEqual([{ from: T0, to: T0 + 1000, events: 3 }])
    expect((await kv.list({ prefix: LOSS_STASH_PREFIX })).keys).toEqual([])
  })

  it("runs in the cron's upkeep", async () => {
    const now = Date.now()
    await kvLossStash(kv).put({ id: 'gone-2', from: now - 2 * HOUR, to: now - HOUR, events: 4, held: 0, updated: now - HOUR })
    // The cron's other work (the operators' IP ranges) gets no network here.
    const fetch = vi.spyOn(globalThis, 'fetch').mockImplementation(async () => new Response('not here', { status: 404 }))
    const lines: string[] = []
    const log = vi.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(line))
    try {
      await runUpkeep(env, now)
    } finally {
      fetch.mockRestore()
      log.mockRestore()
    }
    const line = lines.find((l) => l.includes('"robotsEdge":"cron"'))!
    expect(JSON.parse(line).losses).toEqual({ moved: 1, events: 4 })
    expect(await readLosses(db, { since: now - 3 * HOUR, until: now })).toEqual([{ from: now - 2 * HOUR, to: now - HOUR, events: 4 }])
  })
})

describe('the report says what was not stored', () => {
  it('lists losses in the JSON report, and the host cap once it is reached', async () => {
    const now = Date.now()
    await recordLoss(db, { id: 'a-1', from: now - 2 * HOUR, to: now - HOUR, events: 1234 }, now)
    const report = async () => (await (await SELF.fetch('http://localhost/_robots/api/report?since=24h', { headers: { Authorization: 'Bearer test-admin-token' } })).json()) as Record<string, unknown>
    expect(await report()).toMatchObject({ losses: [{ from: now - 2 * HOUR, to: now - HOUR, events: 1234 }], hostCap: null })
    await db.batch(Array.from({ length: MAX_STORED_HOSTS }, (_, i) => db.prepare('INSERT INTO ledger_hosts (host, first_seen) VALUES (?, ?)').bind(`h${i}.example`, now)))
    expect((await report()).hostCap).toEqual({ limit: MAX_STORED_HOSTS, stored: MAX_STORED_HOSTS, reached: true })
    expect(await getStorageNotes(db, { since: now - 3 * HOUR, until: now - 2.5 * HOUR })).toMatchObject({ losses: [] })
  })
})
