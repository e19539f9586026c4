// An isolate killed during a D1 outage loses nothing unseen (integration):
// the built edge and admin Workers in plain Miniflare, D1 and KV persisted in a
// temporary folder, D1 locked the way `loadtest --fault d1` locks it; crawler
// requests answered during the outage, then workerd killed with SIGKILL (no
// waitUntil, no dispose: what it held in memory is gone). A new runtime on
// the same folder, D1 unlocked, the cron run (the edge asks the admin Worker
// for the upkeep, as deployed): every request answered is
// either stored or counted in ledger_losses, exactly.
import { execFileSync } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Miniflare } from 'miniflare'
import { afterAll, describe, expect, it } from 'vitest'
import { d1File, d1Lock } from '../../dev/d1-fault.ts'
import { migrationStatements } from '../../dev/miniflare.ts'
import { countEvents, type LedgerDb } from '../../dev/worker.ts'
import { HELD_PREFIX, LOSS_STASH_PREFIX, STALE_STASH_MS } from '../../src/ledger/backlog.ts'
import { builtWorkers } from '../support/built-workers.ts'

const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'
const GPTBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)'

interface Kv {
  list(options: { prefix: string }): Promise<{ keys: { name: string; metadata?: unknown }[] }>
  get(key: string): Promise<string | null>
  put(key: string, value: string, options?: { metadata?: unknown }): Promise<void>
}

/** The pids of this process's children: workerd is one of them. */
function children(): Set<number> {
  try {
    return new Set(
      execFileSync('ps', ['--ppid', String(process.pid), '-o', 'pid='], { encoding: 'utf8' })
        .split('\n')
        .map(Number)
        .filter((n) => n > 0),
    )
  } catch {
    return new Set() // ps exits 1 when there is none
  }
}

async function start(persist: string, bundles: { edge: string; admin: string }, log: string[]): Promise<{ mf: Miniflare; url: string; pid: number | undefined }> {
  const before = children()
  // The edge Worker in front, the admin Worker behind its ROBOTS_ADMIN binding (the cron's upkeep is
  // the admin's), both on the same D1 and KV, as deployed.
  const storage = { d1Databases: { DB: 'kill-ledger' }, kvNamespaces: { ROBOTS_KV: 'kill-kv' } }
  const mf = new Miniflare({
    workers: [
      {
        name: 'robots-edge',
        modules: true,
        scriptPath: bundles.edge,
        compatibilityDate: '2026-04-20',
        compatibilityFlags: ['nodejs_compat'],
        ...storage,
        bindings: { ROBOTS_ENV: 'production', ORIGIN: '', IP_HASH_SALT: 'kill-salt' },
        serviceBindings: { ROBOTS_ADMIN: 'robots-edge-admin' },
      },
      {
        name: 'robots-edge-admin',
        modules: true,
        scriptPath: bundles.admin,
        compatibilityDate: '2026-04-20',
        compatibilityFlags: ['nodejs_compat'],
        ...storage,
        bindings: { ROBOTS_ENV: 'production', ROBOTS_ADMIN_TOKEN: 'kill-token' },
        // The upkeep's IP-range refresh: answered at once instead of a DNS lookup that fails offline.
        outboundService: () => new Response('offline', { status: 503 }),
      },
    ],
    d1Persist: join(persist, 'd1'),
    kvPersist: join(persist, 'kv'),
    cf: false,
    host: '127.0.0.1',
    port: 0,
    handleRuntimeStdio(out, err) {
      out.resume()
      err.setEncoding('utf8').on('data', (chunk: string) => log.push(chunk))
    },
  })
  const url = (await mf.ready).toString()
  const pid = [...children()].find((p) => !before.has(p))
  return { mf, url, pid }
}

/** Sends `n` crawler requests, `concurrency` at a time; resolves with the statuses and each response's latency. */
async function crawl(url: string, n: number, concurrency: number): Promise<{ statuses: number[]; ms: number[] }> {
  const statuses: number[] = []
  const ms: number[] = []
  let next = 0
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) {
        const i = next++
        const t = performance.now()
        const res = await fetch(new URL(`/articles/${i}`, url), { headers: { 'user-agent': i % 4 === 0 ? GPTBOT : GOOGLEBOT } })
        await res.arrayBuffer()
        ms.push(performance.now() - t)
        statuses.push(res.status)
      }
    }),
  )
  return { statuses, ms }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? 0

/** Moves every count an isolate left in KV back by `ms`: the cron then sees them as left `ms` ago. */
async function age(kv: Kv, ms: number): Promise<number> {
  let aged = 0
  for (const key of (await kv.list({ prefix: HELD_PREFIX })).keys) {
    const entry = key.metadata as { at: number }
    await kv.put(key.name, '', { metadata: { ...entry, at: entry.at - ms } })
    aged++
  }
  for (const key of (await kv.list({ prefix: LOSS_STASH_PREFIX })).keys) {
    const stash = JSON.parse((await kv.get(key.name)) ?? '{}') as { updated: number }
    await kv.put(key.name, JSON.stringify({ ...stash, updated: stash.updated - ms }))
  }
  return aged
}

const sum = async (db: LedgerDb, sql: string) => (await db.prepare(sql).first<{ n: number }>())?.n ?? 0

describe('an isolate killed during a D1 outage (built Worker, Miniflare, SIGKILL)', () => {
  const cleanup: (() => Promise<unknown> | unknown)[] = []
  afterAll(async () => {
    for (const fn of cleanup.reverse()) await fn()
  })

  it('every request answered is stored or counted in ledger_losses, exactly', async () => {
    const bundles = await builtWorkers()
    const persist = await mkdtemp(join(tmpdir(), 'robots-edge-kill-'))
    cleanup.push(() => rm(persist, { recursive: true, force: true }))
    const log: string[] = []

    const first = await start(persist, bundles, log)
    cleanup.push(() => first.mf.dispose().catch(() => {}))
    expect(first.pid).toBeDefined()
    const db = (await first.mf.getD1Database('DB')) as unknown as LedgerDb
    for (const sql of await migrationStatements()) await db.prepare(sql).run()

    // D1 healthy: the recorder is up and writing.
    const healthy = await crawl(first.url, 20, 4)
    for (let i = 0; i < 100 && (await countEvents(db)) < 20; i++) await new Promise((r) => setTimeout(r, 100))
    expect(await countEvents(db)).toBe(20)

    const lock = await d1Lock(await d1File(join(persist, 'd1')))
    cleanup.push(() => lock.close())
    await lock.lock()
    // The outage under way: the recorder has seen a write fail (its one message).
    const outage = await crawl(first.url, 10, 2)
    for (let i = 0; i < 200 && !log.join('').includes('D1 refuses writes'); i++) await new Promise((r) => setTimeout(r, 50))
    expect(log.join('')).toContain('D1 refuses writes')
    const during = await crawl(first.url, 300, 8)
    // Killed the moment the last response arrived: nothing after it runs.
    process.kill(first.pid!, 'SIGKILL')
    const answered = [...healthy.statuses, ...outage.statuses, ...during.statuses]
    expect(answered.every((s) => s === 200 || s === 403)).toBe(true)
    await first.mf.dispose().catch(() => {})

    const second = await start(persist, bundles, log)
    cleanup.push(() => second.mf.dispose())
    await lock.unlock()
    const kv = (await second.mf.getKVNamespace('ROBOTS_KV')) as unknown as Kv
    // Counted in KV before each response left: at least one journal entry.
    expect(await age(kv, STALE_STASH_MS + 60_000)).toBeGreaterThan(0)
    const worker = (await second.mf.getWorker()) as unknown as { scheduled(event: { cron: string; scheduledTime: Date }): Promise<{ outcome: string }> }
    expect((await worker.scheduled({ cron: '17 * * * *', scheduledTime: new Date() })).outcome).toBe('ok')

    const db2 = (await second.mf.getD1Database('DB')) as unknown as LedgerDb
    const stored = await countEvents(db2)
    const counted = await sum(db2, 'SELECT coalesce(sum(events), 0) AS n FROM ledger_losses')
    const sent = answered.length
    console.log(
      `isolate kill: sent ${sent}, stored ${stored}, counted ${counted}; median response ${median(healthy.ms).toFixed(1)} ms with D1 healthy, ${median(during.ms).toFixed(1)} ms during the outage`,
    )
    expect(counted).toBeGreaterThan(0)
    expect(stored + counted).toBe(sent)
    // Nothing left for a later cron to count twice.
    expect((await kv.list({ prefix: HELD_PREFIX })).keys).toEqual([])
  }, 120_000)
})
