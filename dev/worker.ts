import { execFile } from 'node:child_process'
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { Miniflare } from 'miniflare'
import { unstable_readConfig } from 'wrangler'
import { checkedConfigDefines } from './checked-config.ts'
import { ipRangeEntries } from './ip-ranges.ts'
import { bundledWorker, LOCAL, migrationStatements } from './miniflare.ts'

/**
 * The built Workers in Miniflare, as production runs them: the bundles
 * `wrangler deploy --dry-run --minify` makes of the edge Worker (served) and
 * the admin Worker (behind the edge's ROBOTS_ADMIN service binding, serving
 * /_robots/), one in-memory D1 with every migration applied and one KV
 * holding the operators' IP ranges (fixtures), shared by both, the
 * production environment and its secrets. On 127.0.0.1, a free port.
 */

const ROOT = fileURLToPath(new URL('../', import.meta.url))
const OFFLINE = { ...process.env, WRANGLER_SEND_METRICS: 'false', WRANGLER_SEND_ERROR_REPORTS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false' }
const run = promisify(execFile)

/** The D1 calls the scripts make, typed here: Miniflare's own types need the Workers types, which the Node tsconfig leaves out. */
export interface LedgerDb {
  prepare(sql: string): LedgerStatement
}
export interface LedgerStatement {
  bind(...values: unknown[]): LedgerStatement
  first<T>(): Promise<T | null>
  all<T>(): Promise<{ results: T[] }>
  run(): Promise<unknown>
}
interface KvPut {
  put(key: string, value: string, options?: { metadata?: unknown }): Promise<void>
}

export interface LocalWorker {
  readonly url: string
  /** The Miniflare instance running both Workers (its queues, D1, KV). */
  readonly mf: Miniflare
  /** The bundle it runs. */
  readonly scriptPath: string
  readonly db: LedgerDb
  /** With `d1OnDisk`: the directory Miniflare keeps D1 in. */
  readonly d1Dir?: string
  /** What the Worker wrote to stderr (its storage failures among them), at most 100 lines. */
  readonly stderr: readonly string[]
  /** Lines of stderr in all: the recorder's messages (`robots-edge ledger:`), and mentions of SQLITE_BUSY (one per stack trace). */
  readonly stderrCounts: { readonly lines: number; readonly ledger: number; readonly busy: number }
  dispose(): Promise<void>
}

/** The two bundles `wrangler deploy --dry-run --minify` makes: the edge Worker's script and the admin Worker's. */
export interface Bundles {
  readonly edge: string
  readonly admin: string
}

export interface StartOptions {
  /** Where the bundles go, relative to the repository. Each caller its own: tests run in parallel. */
  readonly outdir: string
  /** Bundles already built from this checkout (the tests build them once per change): nothing is built into `outdir`. */
  readonly bundles?: Bundles
  readonly adminToken?: string
  readonly ipHashSalt?: string
  /** Keep D1 in a SQLite file (in a fresh temporary directory, removed on dispose) rather than in memory: the fault test locks it. Default false. */
  readonly d1OnDisk?: boolean
  /**
   * The ledger queue in front of D1, as `npm run deploy -- --queue` sets it
   * up (scripts/queue-config.mjs): the edge's LEDGER_QUEUE producer, the
   * admin Worker consuming it and its dead-letter queue. Default: none (the
   * edge writes to D1 directly).
   */
  readonly queue?: QueueOptions
}

/** The ledger queue's settings in Miniflare (Queues' own, locally). */
export interface QueueOptions {
  /** Seconds the consumer waits to fill a batch. Default 1 (deployed: 5). */
  readonly batchTimeoutSeconds?: number
  /** Retries before a message goes to the dead-letter queue. Default 20, as deployed. */
  readonly maxRetries?: number
  /** The consumer's first retry delay in seconds (LEDGER_RETRY_SECONDS). Default 1 (deployed: 5). */
  readonly retrySeconds?: number
}

/** The queue and its dead-letter queue, named as deployed for the edge Worker `robots-edge`. */
export const LEDGER_QUEUES = { queue: 'robots-edge-ledger', deadLetter: 'robots-edge-ledger-dlq' } as const

function queueWorkers(queue: QueueOptions | undefined) {
  if (queue === undefined) return { edge: {}, admin: {} }
  const consumer = { maxBatchSize: 100, maxBatchTimeout: queue.batchTimeoutSeconds ?? 1, maxRetries: queue.maxRetries ?? 20 }
  return {
    edge: { queueProducers: { LEDGER_QUEUE: { queueName: LEDGER_QUEUES.queue } } },
    admin: {
      queueConsumers: { [LEDGER_QUEUES.queue]: { ...consumer, deadLetterQueue: LEDGER_QUEUES.deadLetter }, [LEDGER_QUEUES.deadLetter]: consumer },
      bindings: { LEDGER_RETRY_SECONDS: String(queue.retrySeconds ?? 1) },
    },
  }
}

/**
 * Bundles src/workers/edge-worker.ts (or `config`'s Worker) as `npm run deploy` would
 * (offline, minified; the edge with checked-config.ts's defines) into `outdir` (relative to the repository, or
 * absolute). Returns the script's path.
 */
export async function buildWorker(outdir: string, config = 'wrangler.toml'): Promise<string> {
  const dir = resolve(ROOT, outdir)
  const defines = config === 'wrangler.toml' ? await checkedConfigDefines(ROOT) : []
  // wrangler from this checkout, not through npx: one process fewer per build.
  await run(join(ROOT, 'node_modules', '.bin', 'wrangler'), ['deploy', '--dry-run', '-c', config, '--outdir', dir, '--minify', ...defines], { cwd: ROOT, env: OFFLINE, timeout: 120_000 })
  // The bundle is named after the entry module (edge-worker.js, admin-worker.js).
  const script = (await readdir(dir)).find((f) => f.endsWith('.js'))
  if (script === undefined) throw new Error(`wrangler wrote no bundle into ${outdir}`)
  return join(dir, script)
}

/** Both Workers, built side by side: the edge into `outdir`, the admin Worker into `${outdir}-admin`. */
export async function buildWorkers(outdir: string): Promise<Bundles> {
  const [edge, admin] = await Promise.all([buildWorker(outdir), buildWorker(`${outdir}-admin`, 'wrangler.admin.toml')])
  return { edge, admin }
}

/** Builds the Worker and starts it. Dispose it when done. */
export async function startWorker(options: StartOptions): Promise<LocalWorker> {
  const config = unstable_readConfig({ config: join(ROOT, 'wrangler.toml') })
  const migrationsDir = join(ROOT, config.d1_databases.find((d: { binding: string }) => d.binding === 'DB')?.migrations_dir ?? 'migrations')
  const { edge: scriptPath, admin: adminScriptPath } = options.bundles ?? (await buildWorkers(options.outdir))
  const admin = unstable_readConfig({ config: join(ROOT, 'wrangler.admin.toml') })
  const stderr: string[] = []
  const stderrCounts = { lines: 0, ledger: 0, busy: 0 }
  // Never the dev server's state (.wrangler/state): a directory of its own.
  const d1Dir = options.d1OnDisk ? await mkdtemp(join(tmpdir(), 'robots-edge-loadtest-d1-')) : undefined
  const queued = queueWorkers(options.queue)
  const mf = new Miniflare({
    ...(d1Dir === undefined ? {} : { d1Persist: d1Dir }),
    workers: [
      // The edge, served on the port; /_robots/ goes to the admin Worker. Both open the same D1 and KV (same ids).
      {
        ...bundledWorker(config, scriptPath),
        d1Databases: { DB: 'loadtest-ledger' },
        kvNamespaces: { ROBOTS_KV: 'loadtest-kv' },
        serviceBindings: { ROBOTS_ADMIN: admin.name! },
        bindings: { ROBOTS_ENV: 'production', ORIGIN: '', IP_HASH_SALT: options.ipHashSalt ?? 'loadtest-salt' },
        ...queued.edge,
      },
      {
        ...bundledWorker(admin, adminScriptPath),
        d1Databases: { DB: 'loadtest-ledger' },
        kvNamespaces: { ROBOTS_KV: 'loadtest-kv' },
        ...queued.admin,
        bindings: { ROBOTS_ENV: 'production', ROBOTS_ADMIN_TOKEN: options.adminToken ?? 'loadtest-admin-token', ...queued.admin.bindings },
      },
    ],
    ...LOCAL,
    handleRuntimeStdio(out, err) {
      // One JSON line per judged request: its cost is the Worker's, printing it is not ours.
      out.resume()
      err.setEncoding('utf8')
      err.on('data', (chunk: string) => {
        for (const line of chunk.split('\n')) {
          if (line.trim() === '') continue
          if (stderr.length < 100) stderr.push(line)
          stderrCounts.lines++
          if (line.includes('robots-edge ledger:')) stderrCounts.ledger++
          if (line.includes('SQLITE_BUSY')) stderrCounts.busy++
        }
      })
    },
  })
  try {
    const url = (await mf.ready).toString()
    const db = (await mf.getD1Database('DB')) as unknown as LedgerDb
    for (const sql of await migrationStatements(migrationsDir)) await db.prepare(sql).run()
    const kv = (await mf.getKVNamespace('ROBOTS_KV')) as unknown as KvPut
    for (const entry of (await ipRangeEntries()).entries) {
      await kv.put(entry.key, entry.value, entry.metadata === undefined ? {} : { metadata: entry.metadata })
    }
    const dispose = async () => {
      await mf.dispose()
      if (d1Dir !== undefined) await rm(d1Dir, { recursive: true, force: true })
    }
    return { url, mf, scriptPath, db, stderr, stderrCounts, dispose, ...(d1Dir === undefined ? {} : { d1Dir }) }
  } catch (error) {
    await mf.dispose()
    if (d1Dir !== undefined) await rm(d1Dir, { recursive: true, force: true })
    throw error
  }
}

/**
 * Events the ledger recorded: its counters, which count every event (raw
 * rows are samples beyond a budget per agent and hour). With `cls`, only that
 * class (e.g. `robotsTxt`, the robots.txt fetches).
 */
export async function countEvents(db: LedgerDb, cls?: string): Promise<number> {
  const statement =
    cls === undefined ? db.prepare('SELECT coalesce(sum(requests), 0) AS n FROM counts_hourly') : db.prepare('SELECT coalesce(sum(requests), 0) AS n FROM counts_hourly WHERE class = ?').bind(cls)
  return (await statement.first<{ n: number }>())?.n ?? 0
}

export interface DrainOptions {
  /** Once the count reaches this, it need only hold for 500 ms. */
  readonly expected?: number
  /** The count must hold this long to count as settled. Default 2000 ms. */
  readonly stableMs?: number
  /** Give up after this long. Default 30 000 ms. */
  readonly timeoutMs?: number
}

/**
 * Waits for the Worker's waitUntil work (the recorder's D1 writes) to
 * finish: polls the event count until it reaches `expected` or stops
 * moving. Returns the last count and how long it took.
 */
export async function waitForLedger(db: LedgerDb, options: DrainOptions = {}): Promise<{ count: number; waitedMs: number }> {
  const { expected, stableMs = 2000, timeoutMs = 30_000 } = options
  const start = Date.now()
  let count = await countEvents(db)
  let changedAt = Date.now()
  while (Date.now() - start < timeoutMs) {
    // Reaching `expected` shortens the wait but does not end it: a surplus is a finding too.
    const settle = expected !== undefined && count >= expected ? Math.min(500, stableMs) : stableMs
    if (Date.now() - changedAt >= settle) break
    await new Promise((resolve) => setTimeout(resolve, 100))
    const next = await countEvents(db)
    if (next !== count) {
      count = next
      changedAt = Date.now()
    }
  }
  return { count, waitedMs: Date.now() - start }
}
