// An alert reaches a local webhook receiver, signed, once: the admin
// Worker, bundled and run by Miniflare, is started by its cron trigger and
// posts over the network to an HTTP server of this test, which checks the
// signature as the README's Node snippet does. A second run posts nothing.
import { createHmac, timingSafeEqual } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { Miniflare } from 'miniflare'
import { unstable_readConfig } from 'wrangler'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bundledWorker, discardStdio, LOCAL, migrationStatements } from '../../dev/miniflare.ts'

const KEY = 'e2e-alert-signing-key'
const ENTRY = fileURLToPath(new URL('../support/workerd/alerts-admin-worker.ts', import.meta.url))

interface Received {
  readonly method: string
  readonly path: string
  readonly signature: string | undefined
  readonly body: string
}

/** The README's check, with Node's crypto: t within 5 minutes, HMAC-SHA256 of "t.body", compared in constant time. */
function verified(secret: string, header: string | undefined, body: string): boolean {
  const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header ?? '') ?? []
  if (!t || Math.abs(Date.now() / 1000 - Number(t)) > 300) return false
  const mac = createHmac('sha256', secret).update(`${t}.${body}`).digest()
  return timingSafeEqual(mac, Buffer.from(v1!, 'hex'))
}

let dir: string
let server: Server
let mf: Miniflare
/** The D1 calls made here, typed here: Miniflare's own D1 types need the Workers types, which Node's tsconfig leaves out. */
interface Db {
  prepare(sql: string): { bind(...values: unknown[]): { run(): Promise<unknown> }; run(): Promise<unknown> }
}
let db: Db

/** A count of events an isolate could not store, as the ledger writes it (src/ledger/losses.ts). */
async function lose(id: string, events: number): Promise<void> {
  const now = Date.now()
  await db
    .prepare('INSERT INTO ledger_losses (id, from_time, to_time, events, recorded_at) VALUES (?1, ?2, ?3, ?4, ?5)')
    .bind(id, now - 60_000, now - 50_000, events, now)
    .run()
}
const received: Received[] = []

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'robots-edge-alerts-e2e-'))
  server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      received.push({ method: req.method ?? '', path: req.url ?? '', signature: req.headers['x-robots-edge-signature'] as string | undefined, body: Buffer.concat(chunks).toString('utf8') })
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  const script = join(dir, 'admin.js')
  await build({
    entryPoints: [ENTRY],
    outfile: script,
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['module', 'main'],
    logLevel: 'silent',
  })
  mf = new Miniflare({
    ...LOCAL,
    // On the runtime the template's wrangler.admin.toml names; modules named from the bundle's own folder.
    ...bundledWorker(unstable_readConfig({ config: 'wrangler.admin.toml' }, { hideWarnings: true }), script),
    // No ROBOTS_KV: the upkeep's IP-list refresh is off, so the only request the Worker makes is the alert, straight to the receiver.
    d1Databases: { DB: 'alerts-e2e' },
    d1Persist: join(dir, 'd1'),
    bindings: { ROBOTS_ENV: 'production', ROBOTS_ALERT_WEBHOOK: `http://127.0.0.1:${port}/hooks/robots-edge`, ROBOTS_ALERT_SECRET: KEY },
    handleRuntimeStdio: discardStdio,
  })
  await mf.ready
  db = (await mf.getD1Database('DB')) as unknown as Db
  for (const sql of await migrationStatements()) await db.prepare(sql).run()
  await lose('isolate-1', 42)
}, 120_000)

afterAll(async () => {
  await mf?.dispose()
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()))
  if (dir) await rm(dir, { recursive: true, force: true })
})

/** One cron run, as Cloudflare's trigger starts it; resolves once its work (waitUntil) is done. */
async function cron(): Promise<void> {
  // Typed here: Miniflare's Fetcher type needs the Workers types.
  const worker = (await mf.getWorker()) as unknown as { scheduled(options: { cron: string; scheduledTime: Date }): Promise<unknown> }
  await worker.scheduled({ cron: '17 * * * *', scheduledTime: new Date() })
}

describe('alerts to a local webhook receiver', { timeout: 120_000 }, () => {
  it('posts the alert over the network, signed, and not again on the next run', async () => {
    await cron()
    expect(received).toHaveLength(1)
    const [hook] = received
    expect(hook).toMatchObject({ method: 'POST', path: '/hooks/robots-edge' })
    expect(verified(KEY, hook!.signature, hook!.body)).toBe(true)
    expect(verified('another-key', hook!.signature, hook!.body)).toBe(false)
    expect(verified(KEY, hook!.signature, hook!.body.replace('42', '43'))).toBe(false)
    expect(JSON.parse(hook!.body)).toMatchObject({ kind: 'events-lost', counts: { events: 42 } })
    await cron()
    expect(received).toHaveLength(1)
    // A new event before the third run: that one alone is posted (so the second run did run, and found nothing new).
    await lose('isolate-2', 12)
    await cron()
    expect(received).toHaveLength(2)
    expect(JSON.parse(received[1]!.body)).toMatchObject({ kind: 'events-lost', counts: { events: 12 } })
    expect(verified(KEY, received[1]!.signature, received[1]!.body)).toBe(true)
  })
})
