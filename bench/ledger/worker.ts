/**
 * The ledger bench's Worker: writes the workload (workload.ts) through the
 * real write path, and serves the real report routes, all over a D1 whose
 * calls are metered (rows read and written, from D1's own result meta).
 * Built with esbuild and run by Miniflare (bench/ledger.ts); the same file
 * is built against the first version's sources for the baseline.
 */
import { Hono } from 'hono'
import { reportRoutes } from '../../src/admin/routes.ts'
// A namespace import: the first version (the baseline) has no rollUpLedger.
import * as ledger from '../../src/ledger/ledger.ts'
import { createWorkload, VERSIONS, type Workload } from './workload.ts'
import { createVariedWorkload, VARIED_VERSIONS } from './varied.ts'

interface Meter {
  rowsRead: number
  rowsWritten: number
  sizeAfter: number
  queries: number
}
type Meta = { rows_read?: number; rows_written?: number; size_after?: number }

/** `db` with every result's meta added to `meter`. */
function metered(db: D1Database, meter: Meter): D1Database {
  const real = new WeakMap<object, D1PreparedStatement>()
  const sqlOf = new WeakMap<object, string>()
  const note = <T>(result: T, sql?: string): T => {
    const meta = (result as { meta?: Meta } | null)?.meta
    if (meta) {
      if (sql !== undefined) {
        // Per statement: which table a write or a read goes to (GET /breakdown).
        const key = sql.replace(/\s+/g, ' ').slice(0, 70)
        const b = breakdown.get(key) ?? { read: 0, written: 0, calls: 0 }
        b.read += meta.rows_read ?? 0
        b.written += meta.rows_written ?? 0
        b.calls++
        breakdown.set(key, b)
      }
      meter.queries++
      meter.rowsRead += meta.rows_read ?? 0
      meter.rowsWritten += meta.rows_written ?? 0
      meter.sizeAfter = meta.size_after ?? meter.sizeAfter
    }
    return result
  }
  const wrap = (statement: D1PreparedStatement, sql: string): D1PreparedStatement => {
    const wrapped = {
      bind: (...values: unknown[]) => wrap(statement.bind(...values), sql),
      all: async () => note(await statement.all(), sql),
      run: async () => note(await statement.run(), sql),
      raw: (options?: { columnNames?: boolean }) => statement.raw(options as never),
      first: async (column?: string) => {
        // first() has no meta: read through all() so the rows it reads are counted.
        const result = note(await statement.all<Record<string, unknown>>(), sql)
        const row = result.results[0] ?? null
        return column === undefined ? row : (row?.[column] ?? null)
      },
    } as unknown as D1PreparedStatement
    real.set(wrapped, statement)
    sqlOf.set(wrapped, sql)
    return wrapped
  }
  return {
    prepare: (sql: string) => wrap(db.prepare(sql), sql),
    batch: async (statements: D1PreparedStatement[]) => (await db.batch(statements.map((s) => real.get(s) ?? s))).map((r, i) => note(r, sqlOf.get(statements[i]!))),
    exec: (sql: string) => db.exec(sql),
    dump: () => db.dump(),
    withSession: () => db.withSession(),
  } as unknown as D1Database
}

/** Runs `f` with Date.now at `time` (the bench's simulated week; one request at a time). */
async function atTime<T>(time: number, f: () => Promise<T>): Promise<T> {
  const real = Date.now
  Date.now = () => time
  try {
    return await f()
  } finally {
    Date.now = real
  }
}

let workload: Workload | undefined
const breakdown = new Map<string, { read: number; written: number; calls: number }>()
const TOKEN = 'bench-token'
const app = new Hono<{ Bindings: Env }>()
reportRoutes(app as never, { token: () => TOKEN })

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url)
    const meter: Meter = { rowsRead: 0, rowsWritten: 0, sizeAfter: 0, queries: 0 }
    const db = metered(env.DB, meter)
    const started = Date.now()
    const answer = (body: object) => Response.json({ ...body, ...meter, ms: Date.now() - started })
    if (url.pathname === '/breakdown') {
      const out = [...breakdown].sort((a, b) => b[1].written + b[1].read - a[1].written - a[1].read)
      breakdown.clear()
      return Response.json(out)
    }
    if (url.pathname === '/setup') {
      const varied = url.searchParams.get('shape') === 'varied'
      workload = varied ? createVariedWorkload(Number(url.searchParams.get('total'))) : createWorkload(Number(url.searchParams.get('total')))
      const versions = varied ? VARIED_VERSIONS : VERSIONS
      for (const v of versions) await ledger.recordRobotsVersion(db, v)
      return answer({ versions: versions.length })
    }
    if (url.pathname === '/seed') {
      if (!workload) return new Response('call /setup first', { status: 409 })
      const count = Number(url.searchParams.get('count'))
      const batch = Number(url.searchParams.get('batch') || 100)
      let written = 0
      while (written < count && workload.remaining > 0) {
        const events = workload.take(Math.min(batch, count - written))
        // Written a second after its last request, as a recorder would: the write path tells late requests by the clock.
        written += await atTime(Math.max(...events.map((e) => e.time)) + 1000, () => ledger.writeEvents(db, events))
      }
      return answer({ written, remaining: workload.remaining })
    }
    if (url.pathname === '/cron') {
      // What the cron does (src/admin/upkeep.ts): roll the hourly counters up, fold the shapes (and total the days rolled up), then prune.
      const now = Number(url.searchParams.get('now'))
      const rollUp = 'rollUpLedger' in ledger ? await (ledger as { rollUpLedger: (db: D1Database, o: { now: number }) => Promise<unknown> }).rollUpLedger(db, { now }) : null
      // The fold of the shape inbox into pages (src/ledger/shape-packs.ts) is part of what the writes cost: metered apart, added to them.
      const folded: Meter = { rowsRead: 0, rowsWritten: 0, sizeAfter: 0, queries: 0 }
      const merge =
        'mergeShapePacks' in ledger
          ? await (ledger as { mergeShapePacks: (db: D1Database, o: { budgetMs: number }) => Promise<unknown> }).mergeShapePacks(metered(env.DB, folded), { budgetMs: 600_000 })
          : null
      return answer({ merge, mergeRowsWritten: folded.rowsWritten, rollUp, prune: await ledger.pruneLedger(db, { now }) })
    }
    const headers = new Headers(request.headers)
    headers.set('Authorization', `Bearer ${TOKEN}`)
    const res = await app.fetch(new Request(request, { headers }), { ...env, DB: db })
    const out = new Response(res.body, res)
    out.headers.set('x-rows-read', String(meter.rowsRead))
    out.headers.set('x-queries', String(meter.queries))
    return out
  },
}
