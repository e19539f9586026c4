import { statSync } from 'node:fs'
import autocannon from 'autocannon'
import config from '../../robots.config.ts'
import { createPolicies } from '../../src/core/config/index.ts'
import { fixtureRanges } from '../../dev/ip-ranges.ts'
import { d1File, d1Lock, minimumDropped, runFault, type FaultOptions, type FaultWindow } from '../../dev/d1-fault.ts'
import { buildWorkload, describeWorkload, type Template } from './workload.ts'
import { countEvents, startWorker, waitForLedger, type Bundles, type LocalWorker } from '../../dev/worker.ts'

/**
 * `npm run loadtest`: the built Worker in Miniflare under a mixed workload,
 * at the highest rate it sustains, and then two questions: did anything
 * fail (errors == 0), and did every crawler request reach the ledger
 * (sent == recorded)?
 *
 * The rate is found by a short ramp (connections 1, 2, 4 ... 32, a few
 * seconds each). The measured phase then runs in chunks of a fixed request
 * count (autocannon's `amount`), so every request sent is answered before a
 * chunk ends and "sent" is an exact count, never cut off mid-flight.
 */

export interface LoadtestOptions {
  /** Length of the measured phase. */
  readonly seconds: number
  /** Connection counts of the ramp. Default 1, 2, 4, 8, 16, 32. */
  readonly steps?: readonly number[]
  /** Measure at this many connections: the ramp is one step, to estimate the rate. */
  readonly connections?: number
  /** Seconds per ramp step. Default 3. */
  readonly stepSeconds?: number
  /** Where the bundle goes. Default dist/loadtest. */
  readonly outdir?: string
  /** Bundles already built from this checkout: `outdir` is not used. */
  readonly bundles?: Bundles
  /** Progress lines. Default: none. */
  readonly print?: (line: string) => void
  /** Make D1 unavailable for a while in the measured phase (`--fault d1`). Default: none. */
  readonly fault?: FaultOptions
  /** The ledger queue in front of D1 (`--queue`), as `npm run deploy -- --queue` sets it up. Default: the edge writes to D1 directly. */
  readonly queue?: boolean
}

export interface Step {
  readonly connections: number
  readonly rps: number
  readonly p50: number
  readonly p99: number
  readonly errors: number
  readonly healthy: boolean
}

export interface Measured {
  readonly connections: number
  readonly seconds: number
  readonly requests: number
  readonly rps: number
  readonly p50: number
  readonly p99: number
  readonly socketErrors: number
  readonly timeouts: number
  /** Responses whose status was not the expected one (403 for a refusal, 200 otherwise), by status. */
  readonly unexpected: Readonly<Record<string, number>>
  readonly refused: number
  /** Requests sent that got no answer (only after an error). */
  readonly unanswered: number
}

export interface LedgerCheck {
  /** Answered requests that the Worker must record (crawler and tool requests, and their robots.txt fetches). */
  readonly sent: number
  readonly sentRobotsTxt: number
  /** Events the measured phase added to the ledger. */
  readonly recorded: number
  readonly recordedRobotsTxt: number
  readonly waitedMs: number
}

/** The `--fault d1` run: sent == stored + counted as not stored, and how many had to be dropped. */
export interface FaultReport {
  readonly window: FaultWindow
  /** Crawler requests answered while D1 was locked (each one an event the Worker had to keep or count). */
  readonly sentDuring: number
  /** Events the Worker counted as not stored (`ledger_losses`). */
  readonly dropped: number
  /** The fewest it had to drop: those beyond what its backlog holds. */
  readonly minimumDropped: number
  /** The Worker's stderr during the run: its ledger messages, and lines naming SQLITE_BUSY. */
  readonly logs: { readonly ledger: number; readonly busy: number }
}

export interface LoadtestResult {
  readonly url: string
  readonly bundleBytes: number
  readonly workload: string
  readonly ramp: readonly Step[]
  readonly measured: Measured
  readonly ledger: LedgerCheck
  /** The Worker's stderr: storage failures show up here. */
  readonly stderr: readonly string[]
  readonly errors: number
  /** With `fault`: what the outage cost. `ledger.recorded + fault.dropped` must equal `ledger.sent`. */
  readonly fault?: FaultReport
  /** With `queue`: what the consumer did (from D1: the messages it applied). */
  readonly queue?: { readonly messages: number }
  readonly passed: { readonly errors: boolean; readonly ledger: boolean }
}

/** p99 beyond this many times the single-connection p99 (and beyond P99_FLOOR_MS) counts as latency exploding. */
const P99_GROWTH = 10
const P99_FLOOR_MS = 50
const TIMEOUT_S = 10
/** On the queue path, how long the count must rest after the ramp: the edge's gathering (1 s) and the queue's batch timeout (1 s here), with room for a busy machine. */
const RAMP_QUIET_QUEUE_MS = 5000

/** Per-template answers, counted as they arrive. */
class Tally {
  readonly answered: number[]
  readonly statuses: Map<number, number>[]
  constructor(readonly templates: readonly Template[]) {
    this.answered = templates.map(() => 0)
    this.statuses = templates.map(() => new Map())
  }
  requests(): autocannon.Request[] {
    return this.templates.map((t, i) => ({
      method: 'GET',
      path: t.path,
      headers: { 'user-agent': t.userAgent, 'cf-connecting-ip': t.ip },
      onResponse: (status: number) => {
        this.answered[i]!++
        this.statuses[i]!.set(status, (this.statuses[i]!.get(status) ?? 0) + 1)
      },
    }))
  }
  unexpected(): Record<string, number> {
    const out: Record<string, number> = {}
    this.templates.forEach((t, i) => {
      for (const [status, n] of this.statuses[i]!) if (status !== (t.refused ? 403 : 200)) out[status] = (out[status] ?? 0) + n
    })
    return out
  }
  sum(pick: (t: Template) => boolean): number {
    return this.templates.reduce((s, t, i) => s + (pick(t) ? this.answered[i]! : 0), 0)
  }
}

function fire(options: autocannon.Options, latencies?: number[], limitMs?: number): Promise<{ result: autocannon.Result; stopped: boolean }> {
  return new Promise((resolve, reject) => {
    let stopped = false
    const instance = autocannon({ timeout: TIMEOUT_S, ...options }, (error, result) => {
      clearTimeout(watchdog)
      if (error) reject(error instanceof Error ? error : new Error(String(error)))
      else resolve({ result, stopped })
    })
    if (latencies) instance.on('response', (_client, _status, _bytes, ms) => void latencies.push(ms))
    const watchdog = setTimeout(() => {
      stopped = true
      instance.stop()
    }, limitMs ?? 600_000)
  })
}

const total = (record: Record<string, number>) => Object.values(record).reduce((s, n) => s + n, 0)

function percentile(sorted: readonly number[], p: number): number {
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
}

/** The ramp's steps, and the requests it had answered that the Worker records (warm-up included): the ledger must hold them before the measured phase counts from it. */
async function ramp(url: string, templates: readonly Template[], steps: readonly number[], stepSeconds: number, print: (line: string) => void): Promise<{ steps: Step[]; recorded: number }> {
  const warmUp = new Tally(templates)
  await fire({ url, connections: 4, duration: 1, requests: warmUp.requests() }) // warm-up: JIT, first D1 writes
  let recorded = warmUp.sum((t) => t.recorded)
  const out: Step[] = []
  for (const connections of steps) {
    const tally = new Tally(templates)
    const latencies: number[] = []
    const { result } = await fire({ url, connections, duration: stepSeconds, requests: tally.requests() }, latencies, (stepSeconds + 30) * 1000)
    recorded += tally.sum((t) => t.recorded)
    latencies.sort((a, b) => a - b)
    const [p50, p99] = [percentile(latencies, 50), percentile(latencies, 99)]
    const errors = result.errors + total(tally.unexpected())
    const limit = Math.max(P99_FLOOR_MS, P99_GROWTH * (out[0]?.p99 ?? p99))
    const step: Step = { connections, rps: result.requests.total / result.duration, p50, p99, errors, healthy: errors === 0 && p99 <= limit }
    out.push(step)
    print(
      `  ${String(connections).padStart(11)}  ${step.rps.toFixed(0).padStart(6)}  ${step.p50.toFixed(1).padStart(6)}  ${step.p99.toFixed(1).padStart(6)}  ${String(errors).padStart(6)}${step.healthy ? '' : '  (stop: ' + (errors > 0 ? 'errors' : `p99 over ${limit.toFixed(0)} ms`) + ')'}`,
    )
    if (!step.healthy) break
  }
  return { steps: out, recorded }
}

/** The connection count to measure at: the fewest that reach 95% of the best healthy throughput. */
export function chooseConnections(steps: readonly Step[]): number {
  const healthy = steps.filter((s) => s.healthy)
  if (healthy.length === 0) return 1
  const best = Math.max(...healthy.map((s) => s.rps))
  return healthy.find((s) => s.rps >= 0.95 * best)!.connections
}

/** `list` from index `from` (modulo its length) round to where it began. */
function rotate<T>(list: readonly T[], from: number): T[] {
  const at = from % list.length
  return [...list.slice(at), ...list.slice(0, at)]
}

async function measure(url: string, tally: Tally, connections: number, seconds: number, estimate: number): Promise<Measured> {
  const latencies: number[] = []
  const requests = tally.requests()
  const chunkSeconds = Math.max(1, Math.min(10, seconds / 3))
  let sent = 0,
    answered = 0,
    socketErrors = 0,
    timeouts = 0,
    rate = estimate
  // autocannon starts every connection of every run at the first request:
  // a short or slow run would send only the head of the rotation. Each
  // connection starts at its own share of the rotation instead, and each
  // chunk goes on where the last one stopped, so any run sends the mix.
  const stride = Math.ceil(requests.length / connections)
  let cursor = 0
  const start = Date.now()
  // Bounded: the loop ends once `seconds` have passed, and each chunk has its own watchdog.
  while (Date.now() - start < seconds * 1000) {
    const remaining = seconds - (Date.now() - start) / 1000
    const amount = Math.max(connections, Math.round(rate * Math.min(chunkSeconds, Math.max(remaining, 0.2))))
    let client = 0
    const setupClient = (c: autocannon.Client) => c.setRequests(rotate(requests, cursor + client++ * stride))
    const { result, stopped } = await fire({ url, connections, amount, requests, setupClient }, latencies, (chunkSeconds * 5 + TIMEOUT_S + 10) * 1000)
    cursor += Math.ceil(result.requests.sent / connections)
    sent += result.requests.sent
    answered += result.requests.total
    socketErrors += result.errors - result.timeouts
    timeouts += result.timeouts
    if (result.duration > 0 && result.requests.total > 0) rate = result.requests.total / result.duration
    if (stopped || result.errors > 0) break // a failing Worker is not pushed further
  }
  const elapsed = (Date.now() - start) / 1000
  latencies.sort((a, b) => a - b)
  return {
    connections,
    seconds: elapsed,
    requests: answered,
    rps: answered / elapsed,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    socketErrors,
    timeouts,
    unexpected: tally.unexpected(),
    refused: tally.sum((t) => t.refused),
    unanswered: Math.max(0, sent - answered),
  }
}

/** Builds and starts the Worker, ramps, measures, checks the ledger. Never leaves the Worker running. */
export async function loadtest(options: LoadtestOptions): Promise<LoadtestResult> {
  const print = options.print ?? (() => {})
  const outdir = options.outdir ?? 'dist/loadtest'
  const templates = buildWorkload(createPolicies(config).get('127.0.0.1', 'production'), await fixtureRanges())
  print(options.bundles ? 'Starting the built Workers in Miniflare...' : `Building the Worker (wrangler deploy --dry-run --outdir ${outdir} --minify) and starting it in Miniflare...`)
  const fault = options.fault
  const worker: LocalWorker = await startWorker({
    outdir,
    d1OnDisk: fault !== undefined,
    ...(options.bundles ? { bundles: options.bundles } : {}),
    // Retries from 1 s, doubling: a 10 s lock is outlasted after a few, far from the 20 before the dead-letter queue.
    ...(options.queue ? { queue: { batchTimeoutSeconds: 1, retrySeconds: 1 } } : {}),
  })
  const lock =
    fault === undefined || worker.d1Dir === undefined
      ? undefined
      : await d1Lock(await d1File(worker.d1Dir)).catch(async (error: unknown) => {
          await worker.dispose()
          throw error
        })
  try {
    const bundleBytes = statSync(worker.scriptPath).size
    const workload = describeWorkload(templates)
    print(`  ${worker.url}  (bundle ${(bundleBytes / 1024).toFixed(1)} KiB; D1 migrated; KV holds the fixture IP ranges)`)
    print(`  workload: ${workload}`)
    print('')
    print(`Ramp (${options.stepSeconds ?? 3} s per step, after 1 s of warm-up):`)
    print('  connections   req/s  p50 ms  p99 ms  errors')
    const forced = options.connections
    const { steps, recorded: rampRecorded } = await ramp(worker.url, templates, forced === undefined ? (options.steps ?? [1, 2, 4, 8, 16, 32]) : [forced], options.stepSeconds ?? 3, print)
    const connections = forced ?? chooseConnections(steps)
    const estimate = steps.find((s) => s.connections === connections)?.rps ?? 100
    print(
      forced === undefined ? `Chosen: ${connections} connections (the fewest within 5% of the best throughput with no errors and p99 under control).` : `Connections: ${connections} (--connections).`,
    )

    // The ramp's events are not part of the count: wait for them, then note where the ledger stands.
    // A count that merely stops moving is not enough on the queue path: the edge gathers its events
    // for a second before it sends them, and the queue a second more before its consumer writes them,
    // so the ramp's last events could land after this baseline and be counted as the measured phase's
    // (a surplus of a few hundred once). First every request the ramp had answered, then a quiet
    // window longer than that pipeline, for those answered as autocannon stopped (not in its tally).
    await waitForLedger(worker.db, { expected: rampRecorded, stableMs: options.queue ? 20_000 : 3000, timeoutMs: 60_000 })
    await waitForLedger(worker.db, { stableMs: options.queue ? RAMP_QUIET_QUEUE_MS : 1500 })
    const fetchesBefore = await countEvents(worker.db, 'robotsTxt')
    const before = await countEvents(worker.db)
    print('')
    print(`Measuring for ${options.seconds} s at ${connections} connections...`)
    if (fault) print(`  D1 is locked from ${fault.startSeconds} s to ${fault.startSeconds + fault.seconds} s (another process holds an exclusive lock on its SQLite file).`)
    const tally = new Tally(templates)
    let finished!: () => void
    const stop = new Promise<void>((resolve) => (finished = resolve))
    const outage = lock && fault ? runFault(lock, fault, () => [...tally.answered], stop) : undefined
    const measured = await measure(worker.url, tally, connections, options.seconds, estimate).finally(finished)
    const window = await outage
    const sent = tally.sum((t) => t.recorded)
    const sentRobotsTxt = tally.sum((t) => t.recorded && t.path === '/robots.txt')
    // On the queue path a batch D1 refused comes back after its retry delay (up to 16 s here): the count may rest that long.
    const drained = await waitForLedger(worker.db, { expected: before + sent, stableMs: options.queue ? 20_000 : 3000, timeoutMs: options.queue ? 120_000 : 60_000 })
    const ledger: LedgerCheck = {
      sent,
      sentRobotsTxt,
      recorded: drained.count - before,
      recordedRobotsTxt: (await countEvents(worker.db, 'robotsTxt')) - fetchesBefore,
      waitedMs: drained.waitedMs,
    }
    const errors = measured.socketErrors + measured.timeouts + total(measured.unexpected)
    const faultReport =
      window === undefined
        ? undefined
        : {
            window,
            sentDuring: window.answered.reduce((sum, n, i) => sum + (templates[i]!.recorded ? n : 0), 0),
            dropped: (await worker.db.prepare('SELECT COALESCE(SUM(events), 0) AS n FROM ledger_losses').first<{ n: number }>())?.n ?? 0,
            // On the queue path the queue holds what D1 refuses: none has to be dropped.
            minimumDropped: options.queue ? 0 : minimumDropped(templates, window.answered, '127.0.0.1'),
            logs: { ledger: worker.stderrCounts.ledger, busy: worker.stderrCounts.busy },
          }
    const stored = ledger.recorded + (faultReport?.dropped ?? 0)
    return {
      url: worker.url,
      bundleBytes,
      workload,
      ramp: steps,
      measured,
      ledger,
      stderr: worker.stderr,
      errors,
      ...(faultReport === undefined ? {} : { fault: faultReport }),
      ...(options.queue ? { queue: { messages: (await worker.db.prepare('SELECT count(*) AS n FROM ledger_queue_applied').first<{ n: number }>())?.n ?? 0 } } : {}),
      passed: { errors: errors === 0, ledger: (options.queue ? ledger.recorded === ledger.sent : ledger.sent === stored) && measured.unanswered === 0 },
    }
  } finally {
    lock?.close()
    await worker.dispose()
  }
}
