/**
 * One size of the ledger bench: a fresh D1 in its own folder, the workload
 * written through the bench Worker, then the report, the drill-down and a
 * prune, each timed from here (over HTTP, as the dashboard sees them) with
 * the rows D1 says they read and wrote.
 */
import { execFileSync } from 'node:child_process'
import { copyFileSync, mkdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { Miniflare } from 'miniflare'
import { createWorkload, SPAN, START } from './workload.ts'
import { createVariedWorkload } from './varied.ts'
import { migrationStatements } from '../../dev/miniflare.ts'

/** The replay's candidate: the week's robots.txt with /articles/ disallowed for everyone. */
const CANDIDATE = 'User-agent: *\nDisallow: /admin/\nDisallow: /private/\nDisallow: /drafts/\nDisallow: /articles/\nAllow: /\n'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const DAY = 86_400_000

export interface Bench {
  readonly script: string
  readonly migrations: string
}

/** Bundles the bench Worker against the current sources, or against those of commit `ref` (for the baseline). */
export async function buildBench(work: string, ref: string | null): Promise<Bench> {
  let root = ROOT
  if (ref !== null) {
    root = join(work, `src-${ref}`)
    mkdirSync(join(root, 'bench', 'ledger'), { recursive: true })
    mkdirSync(join(root, 'dev'), { recursive: true })
    // The baseline's src/ must have the current layout (src/ledger, src/admin): the bench Worker imports by those paths.
    const archive = execFileSync('git', ['archive', ref, 'src', 'migrations'], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 })
    execFileSync('tar', ['-x', '-C', root], { input: archive })
    for (const file of ['worker.ts', 'workload.ts', 'varied.ts']) copyFileSync(join(ROOT, 'bench', 'ledger', file), join(root, 'bench', 'ledger', file))
    copyFileSync(join(ROOT, 'dev', 'harness.ts'), join(root, 'dev', 'harness.ts'))
  }
  const script = join(work, `worker-${ref ?? 'current'}.js`)
  await build({
    entryPoints: [join(root, 'bench', 'ledger', 'worker.ts')],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['module', 'main'],
    nodePaths: [join(ROOT, 'node_modules')],
    // The baseline's bench Worker asks for rollUpLedger, which the first version lacks: quiet about it.
    outfile: script,
    logLevel: ref === null ? 'warning' : 'error',
  })
  return { script, migrations: join(root, 'migrations') }
}

interface Timed {
  ms: number
  rowsRead: number
}

export interface SizeResult {
  writeRate: number
  rowsWrittenPerEvent: number
  /** Rows D1 read while writing (classification, sampling and upserts), per event. */
  writeRowsReadPerEvent: number
  bytesPerEvent: number
  report24h: Timed
  report7d: Timed
  drill: Timed
  drillOtherHost: Timed
  /** The cron's roll-up and pruning after the week was written. */
  cron: Timed
  /** POST /_robots/api/impact over the week: a candidate disallowing /articles/ for everyone (null for the baseline, which has no replay). */
  replay: (Timed & { shapes: number; lost: number; requests: number; replayed: number; exact: boolean }) | null
  /** Distinct violating (agent, path) pairs in the stream (the varied workload's). */
  pairs: number | null
  coverage: string
  checks: { key: string; seeded: number; counted: number; verdict: string; expected: string; verdictOk: boolean }[]
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

interface AgentJson {
  agentKey: string
  verdict: string
  evidence: { violations: { counted: number } }
}

export async function runSize(bench: Bench, total: number, batch: number, dir: string, opts: { baseline: boolean; varied?: boolean }): Promise<SizeResult> {
  const mf = new Miniflare({
    // Module names are paths relative to this root; the bundle lives outside the project.
    modules: true,
    scriptPath: bench.script,
    modulesRoot: dirname(bench.script),
    compatibilityDate: '2026-04-20',
    compatibilityFlags: ['nodejs_compat'],
    d1Databases: { DB: 'ledger-bench' },
    d1Persist: dir,
    cf: false,
  })
  try {
    const db = await mf.getD1Database('DB')
    const statements = await migrationStatements(bench.migrations)
    await db.batch(statements.map((sql) => db.prepare(sql)))
    const call = async (path: string, payload?: object): Promise<{ body: Record<string, unknown>; ms: number; rowsRead: number }> => {
      const started = performance.now()
      const init = payload === undefined ? {} : { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(payload) }
      const res = await mf.dispatchFetch(`http://bench${path}`, init)
      const text = await res.text()
      const ms = performance.now() - started
      if (!res.ok) throw new Error(`${path}: ${res.status} ${text.slice(0, 300)}`)
      const body = JSON.parse(text) as Record<string, unknown>
      return { body, ms, rowsRead: Number(res.headers.get('x-rows-read') ?? body.rowsRead ?? 0) }
    }
    await call(`/setup?total=${total}${opts.varied ? '&shape=varied' : ''}`)
    let written = 0
    let rowsWritten = 0
    let writeRowsRead = 0
    let size = 0
    let writeMs = 0
    process.stdout.write(`${opts.baseline ? 'first version' : 'robots-edge'}, ${opts.varied ? 'varied' : 'today'}, ${total.toLocaleString('en-US')} events: writing`)
    while (written < total) {
      const { body, ms } = await call(`/seed?count=${Math.min(25_000, total - written)}&batch=${batch}`)
      written += Number(body.written)
      rowsWritten += Number(body.rowsWritten)
      writeRowsRead += Number(body.rowsRead)
      size = Number(body.sizeAfter) || size
      writeMs += ms
      process.stdout.write('.')
      if (Number(body.written) === 0) break
    }
    process.stdout.write(` ${(writeMs / 1000).toFixed(0)} s; reading\n`)
    if (process.env.BENCH_BREAKDOWN) console.log('write breakdown', JSON.stringify((await call('/breakdown')).body, null, 1))
    const timed = async (path: string, runs = 3, body?: object): Promise<Timed & { body: Record<string, unknown> }> => {
      const results = []
      for (let i = 0; i < runs; i++) results.push(await call(path, body))
      return { ms: median(results.map((r) => r.ms)), rowsRead: results[0]!.rowsRead, body: results[0]!.body }
    }
    const end = START + SPAN
    // The cron runs hourly in production: its roll-up and pruning come before the dashboard is opened.
    const cron = await call(`/cron?now=${end}`)
    // The fold of the week's shape inbox, once (hourly in production: the same deletions, a page rewritten per run and key beside).
    rowsWritten += Number(cron.body.mergeRowsWritten ?? 0)
    if (process.env.BENCH_BREAKDOWN) await call('/breakdown')
    const week = await timed(`/_robots/api/report?since=${START}&until=${end}`)
    if (process.env.BENCH_BREAKDOWN) console.log('report breakdown', JSON.stringify((await call('/breakdown')).body, null, 1))
    const day = await timed(`/_robots/api/report?since=${end - DAY}&until=${end}`)
    const drill = await timed(`/_robots/api/agents/${opts.varied ? 'ignorer-0' : 'googlebot'}/requests?limit=50`)
    const other = await timed(`/_robots/api/agents/${opts.varied ? 'stale-0' : 'facebookexternalhit'}/requests?limit=50&host=b.example`)
    const impact = opts.baseline ? null : await timed(`/_robots/api/impact?since=${START}&until=${end}`, 3, { robotsTxt: CANDIDATE })
    const summary = impact?.body.summary as { shapes: number; lost: number; requests: number; replayed: number } | undefined
    const estimate = impact?.body.estimate as { exact?: boolean } | undefined

    const workload = opts.varied ? createVariedWorkload(total) : createWorkload(total)
    while (workload.remaining > 0) workload.take(50_000)
    const report = week.body as { agents: AgentJson[]; tools?: AgentJson[]; coverage?: { summary: string } }
    const listed = new Map<string, AgentJson>()
    for (const a of report.agents) listed.set(`agents\n${a.agentKey}`, a)
    for (const a of report.tools ?? []) listed.set(`tools\n${a.agentKey}`, a)
    // The first version lists tools with the crawlers.
    for (const a of report.agents) if (!listed.has(`tools\n${a.agentKey}`)) listed.set(`tools\n${a.agentKey}`, a)
    const checks = [...workload.expected].map(([key, expected]) => {
      const a = listed.get(key)
      const seeded = workload.truth.get(key)?.counted ?? 0
      const counted = a?.evidence.violations.counted ?? 0
      return { key: key.replace('\n', ': '), seeded, counted, verdict: a?.verdict ?? '(missing)', expected, verdictOk: a?.verdict === expected }
    })
    return {
      writeRate: total / (writeMs / 1000),
      rowsWrittenPerEvent: rowsWritten / total,
      writeRowsReadPerEvent: writeRowsRead / total,
      bytesPerEvent: size / total,
      report24h: day,
      report7d: week,
      drill,
      drillOtherHost: other,
      cron: { ms: cron.ms, rowsRead: Number(cron.body.rowsRead) },
      replay:
        impact && summary
          ? { ms: impact.ms, rowsRead: impact.rowsRead, shapes: summary.shapes, lost: summary.lost, requests: summary.requests, replayed: summary.replayed, exact: estimate?.exact === true }
          : null,
      pairs: 'pairs' in workload ? (workload as { pairs: number }).pairs : null,
      coverage: report.coverage?.summary ?? '(not stated)',
      checks,
    }
  } finally {
    await mf.dispose()
  }
}
