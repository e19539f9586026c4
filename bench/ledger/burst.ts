/**
 * The burst: 2,000 crawler requests a second for 30 s, dealt at random to
 * 200 isolates, each with its own recorder, on the direct path (each
 * isolate writes to D1 itself) and on the queue path (each isolate sends to
 * the ledger queue; the admin Worker's consumer writes batches of up to 100
 * messages). Time is simulated: each recorder's batching follows
 * src/ledger/recorder.ts (a writer per isolate; 50 ms of gathering between
 * writes; on the queue path a second of gathering before each send, at most
 * SEND_EVENTS per send in messages of MESSAGE_EVENTS), Queues delivers a
 * batch once 100 messages wait or 5 s after the first (max_batch_timeout),
 * and a D1 write or a send takes the round trip below. The batches it makes
 * are then written for real, through writeEvents and the consumer, in
 * workerd (Miniflare) over a fresh D1 per path, and D1's own result meta
 * gives the rows written and the write transactions of each.
 */
import { mkdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { Miniflare } from 'miniflare'
import type { JudgedRequest } from '../../src/core/events.ts'
import { migrationStatements } from '../../dev/miniflare.ts'
import { rng } from '../../dev/harness.ts'
import { createWorkload, START } from './workload.ts'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))

export const BURST = { rate: 2000, seconds: 30, isolates: 200 } as const
/**
 * The direct path's writes are tens of thousands of one-event transactions:
 * those of the burst's last seconds are written one by one and measured,
 * after the earlier ones' events were written in bulk (unmeasured), so the
 * ledger holds what it would by then.
 */
const DIRECT_SAMPLE_SECONDS = 3
/**
 * The recorder's numbers, restated (src/ledger/recorder.ts and queue.ts need
 * the Workers types, which this Node script's tsconfig leaves out): its
 * waits, and the events per write and per message on the queue path.
 */
const SEND_EVENTS = 80
const MESSAGE_EVENTS = 20
const GATHER_MS = 50
const QUEUE_GATHER_MS = 1000
const GATHER_BELOW = 100
const MAX_WRITE = 1000
/** Round trips assumed from a Worker: a D1 write transaction, a Queues sendBatch. */
const D1_WRITE_MS = 20
const SEND_MS = 10
/** The consumer's settings (scripts/queue-config.mjs). */
const BATCH_MESSAGES = 100
const BATCH_TIMEOUT_MS = 5000

interface Timed<T> {
  readonly t: number
  readonly items: T
}

/** One isolate's writes: `arrivals` (ms, sorted) batched as its recorder does. `queue`: gather a second before each send. */
function writesOf(arrivals: readonly number[], queue: boolean): Timed<[number, number]>[] {
  const out: Timed<[number, number]>[] = []
  let i = 0
  while (i < arrivals.length) {
    let t = arrivals[i]!
    for (;;) {
      const waiting = (at: number) => {
        let j = i
        while (j < arrivals.length && arrivals[j]! <= at) j++
        return j - i
      }
      if (queue && waiting(t) < GATHER_BELOW) t += QUEUE_GATHER_MS
      const n = Math.min(waiting(t), queue ? SEND_EVENTS : MAX_WRITE)
      out.push({ t, items: [i, i + n] })
      i += n
      t += queue ? SEND_MS : D1_WRITE_MS
      const left = waiting(t)
      if (left === 0) break
      if (left < GATHER_BELOW) t += GATHER_MS
    }
  }
  return out
}

export interface PathResult {
  readonly events: number
  /** Direct path: the events of its last DIRECT_SAMPLE_SECONDS, written one write at a time (rows written per event is theirs). */
  readonly sampledEvents?: number
  /** D1 write transactions in the busiest second of the burst, and on average over it. */
  readonly peakPerSecond: number
  readonly meanPerSecond: number
  /** Rows written per event: the writes', and the cron's fold of their shapes afterwards (mergeRowsPerEvent of them). */
  readonly rowsWrittenPerEvent: number
  readonly mergeRowsPerEvent: number
  /** Queue path: messages sent, and Queues operations (a write, a read and a delete each, per 64 KB). */
  readonly messages?: number
  readonly eventsPerMessage?: number
  readonly batches?: number
}

export interface BurstResult {
  readonly direct: PathResult
  readonly queue: PathResult
}

/** The burst's events, and what each path's recorders and consumer make of them. */
export function simulateBurst() {
  const total = BURST.rate * BURST.seconds
  const random = rng(23)
  const workload = createWorkload(total)
  // The week's traffic mix, in 30 s of one afternoon of it.
  const at = START + 2 * 86_400_000 + 14 * 3_600_000
  const events: JudgedRequest[] = []
  while (workload.remaining > 0) events.push(...workload.take(10_000))
  const timed = events.map((e) => ({ e, ms: random() * BURST.seconds * 1000, isolate: Math.floor(random() * BURST.isolates) })).sort((a, b) => a.ms - b.ms)
  const byIsolate: { ms: number; e: JudgedRequest }[][] = Array.from({ length: BURST.isolates }, () => [])
  for (const x of timed) byIsolate[x.isolate]!.push({ ms: x.ms, e: { ...x.e, time: at + Math.floor(x.ms) } })

  const direct: Timed<JudgedRequest[]>[] = []
  const sends: Timed<JudgedRequest[][]>[] = []
  for (const list of byIsolate) {
    const arrivals = list.map((x) => x.ms)
    for (const w of writesOf(arrivals, false)) direct.push({ t: w.t, items: list.slice(...w.items).map((x) => x.e) })
    for (const w of writesOf(arrivals, true)) {
      const batch = list.slice(...w.items).map((x) => x.e)
      const messages: JudgedRequest[][] = []
      for (let k = 0; k < batch.length; k += MESSAGE_EVENTS) messages.push(batch.slice(k, k + MESSAGE_EVENTS))
      sends.push({ t: w.t + SEND_MS, items: messages })
    }
  }
  direct.sort((a, b) => a.t - b.t)
  // Queues: a batch is delivered once it holds 100 messages, or 5 s after its first.
  const messages = sends.flatMap((s) => s.items.map((events) => ({ t: s.t, events, id: `${(at + Math.floor(s.t)).toString(36).padStart(9, '0')}${crypto.randomUUID()}` }))).sort((a, b) => a.t - b.t)
  const batches: Timed<{ id: string; events: JudgedRequest[]; versions: []; gate: false }[]>[] = []
  let open: (typeof messages)[number][] = []
  const deliver = (t: number) => {
    batches.push({ t, items: open.map((m) => ({ id: m.id, events: m.events, versions: [], gate: false as const })) })
    open = []
  }
  for (const m of messages) {
    if (open.length > 0 && m.t > open[0]!.t + BATCH_TIMEOUT_MS) deliver(open[0]!.t + BATCH_TIMEOUT_MS)
    open.push(m)
    if (open.length === BATCH_MESSAGES) deliver(m.t)
  }
  if (open.length > 0) deliver(open[0]!.t + BATCH_TIMEOUT_MS)
  return { total, direct, batches, messages: messages.length }
}

/** Transactions per 1 s bin of the burst: the busiest bin, and the mean over its seconds. */
function perSecond(times: readonly { t: number; n: number }[]): { peak: number; mean: number } {
  const bins = new Map<number, number>()
  for (const { t, n } of times) bins.set(Math.floor(t / 1000), (bins.get(Math.floor(t / 1000)) ?? 0) + n)
  const total = [...bins.values()].reduce((a, b) => a + b, 0)
  return { peak: Math.max(0, ...bins.values()), mean: total / BURST.seconds }
}

interface Answer {
  events: number
  retried: number
  perWrite: { rowsWritten: number; transactions: number }[]
  /** Rows the cron's fold of the shape inbox wrote afterwards (src/ledger/shape-packs.ts). */
  mergeRows: number
}

async function post(mf: Miniflare, path: string, writes: readonly unknown[]): Promise<Answer> {
  const out: Answer = { events: 0, retried: 0, perWrite: [], mergeRows: 0 }
  // A few hundred writes a request: the bodies stay a few MB.
  const step = path === '/queue' ? 20 : 500
  for (let i = 0; i < writes.length; i += step) {
    const res = await mf.dispatchFetch(`http://bench${path}`, { method: 'POST', body: JSON.stringify(writes.slice(i, i + step)) })
    const text = await res.text()
    if (!res.ok) throw new Error(`${path}: ${res.status} ${text.slice(0, 300)}`)
    const a = JSON.parse(text) as Answer
    out.events += a.events
    out.retried += a.retried
    out.perWrite.push(...a.perWrite)
  }
  return out
}

/** Simulates the burst, then writes both paths' batches for real. */
export async function runBurst(work: string, print: (line: string) => void = () => {}): Promise<BurstResult> {
  const script = join(work, 'burst-worker.js')
  await build({
    entryPoints: [join(ROOT, 'bench', 'ledger', 'burst-worker.ts')],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['module', 'main'],
    nodePaths: [join(ROOT, 'node_modules')],
    outfile: script,
    logLevel: 'warning',
  })
  const sim = simulateBurst()
  const statements = await migrationStatements()
  const fresh = async (name: string) => {
    const dir = join(work, `burst-${name}`)
    mkdirSync(dir, { recursive: true })
    const mf = new Miniflare({
      modules: true,
      scriptPath: script,
      modulesRoot: dirname(script),
      compatibilityDate: '2026-04-20',
      compatibilityFlags: ['nodejs_compat'],
      d1Databases: { DB: `burst-${name}` },
      d1Persist: dir,
      cf: false,
    })
    const db = await mf.getD1Database('DB')
    await db.batch(statements.map((sql) => db.prepare(sql)))
    await mf.dispatchFetch('http://bench/setup')
    return mf
  }
  const result = async (name: 'direct' | 'queue', writes: readonly Timed<unknown[]>[], warm: readonly JudgedRequest[][] = []): Promise<Answer> => {
    const what =
      name === 'direct'
        ? `the last ${DIRECT_SAMPLE_SECONDS} s's ${writes.length.toLocaleString('en-US')} isolate writes, after the earlier events in bulk`
        : `${writes.length.toLocaleString('en-US')} consumer batches of ${sim.total.toLocaleString('en-US')} events`
    print(`burst, ${name} path: writing ${what}...`)
    const mf = await fresh(name)
    const merge = async () => ((await (await mf.dispatchFetch('http://bench/merge', { method: 'POST' })).json()) as { rowsWritten: number }).rowsWritten
    try {
      await post(mf, '/direct', warm)
      // The earlier events' shapes are folded first, as an hourly cron would have: the fold after the writes is theirs alone.
      await merge()
      const answer = await post(
        mf,
        `/${name}`,
        writes.map((w) => w.items),
      )
      return { ...answer, mergeRows: await merge() }
    } finally {
      await mf.dispose()
    }
  }
  const from = (BURST.seconds - DIRECT_SAMPLE_SECONDS) * 1000
  const sampled = sim.direct.filter((w) => w.t >= from)
  const earlier = sim.direct.filter((w) => w.t < from).flatMap((w) => w.items)
  const warm: JudgedRequest[][] = []
  for (let i = 0; i < earlier.length; i += 1000) warm.push(earlier.slice(i, i + 1000))
  const direct = await result('direct', sampled, warm)
  const queue = await result('queue', sim.batches)
  const sampledEvents = sampled.reduce((n, w) => n + w.items.length, 0)
  if (direct.events !== sampledEvents || queue.events !== sim.total || queue.retried > 0) {
    throw new Error(`burst: ${direct.events} of ${sampledEvents} (direct) and ${queue.events} of ${sim.total} (queue) events written, ${queue.retried} messages retried`)
  }
  const summary = (writes: readonly Timed<unknown>[], a: Answer) => {
    const { peak, mean } = perSecond(writes.map((w, i) => ({ t: w.t, n: a.perWrite[i]?.transactions ?? 1 })))
    const rows = a.perWrite.reduce((n, w) => n + w.rowsWritten, 0) + a.mergeRows
    return { events: a.events, peakPerSecond: peak, meanPerSecond: mean, rowsWrittenPerEvent: rows / a.events, mergeRowsPerEvent: a.mergeRows / a.events }
  }
  // The direct path's writes past the sample are one transaction each, as every measured one is (writeEvents is one batch).
  return {
    direct: { ...summary(sim.direct, direct), events: sim.total, sampledEvents },
    queue: { ...summary(sim.batches, queue), messages: sim.messages, eventsPerMessage: sim.total / sim.messages, batches: sim.batches.length },
  }
}
