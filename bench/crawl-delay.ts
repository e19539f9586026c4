import { execFileSync } from 'node:child_process'
import { Miniflare } from 'miniflare'
import { table } from '../dev/harness.ts'
import { discardStdio, LOCAL } from '../dev/miniflare.ts'

/**
 * What `guard: { crawlDelay: 'enforce' }` adds to a verified crawler's
 * request: the round trip to its host's and agent's Durable Object
 * (src/edge/crawl-delay-gate.ts), against the same request only measured.
 * The built Worker in Miniflare, one request at a time (latency, not
 * throughput), the two modes alternating in rounds so drift hits both.
 * Locally the object runs in the same process; on Cloudflare it runs in one
 * location, so a crawler far from it pays the network's round trip on top.
 * `npm run bench -- crawl-delay` runs this part alone.
 */

const OFFLINE = { ...process.env, WRANGLER_SEND_METRICS: 'false', WRANGLER_SEND_ERROR_REPORTS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false' }
const BINGBOT = 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)'
/** The goal: the median request pays at most this much more with enforcement, locally. */
const GOAL_MS = 2

/** Each request through Miniflare's own dispatch, which keeps the URL's host (a Host header set on Node's fetch is dropped). */
async function timed(mf: Miniflare, host: string, n: number): Promise<{ times: number[]; statuses: Map<number, number> }> {
  const times: number[] = []
  const statuses = new Map<number, number>()
  for (let i = 0; i < n; i++) {
    const t = performance.now()
    const res = await mf.dispatchFetch(`http://${host}/articles/${i}`, { headers: { 'User-Agent': BINGBOT } })
    await res.arrayBuffer()
    times.push(performance.now() - t)
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1)
  }
  return { times, statuses }
}

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))]!

/** Runs the benchmark; resolves to whether the goal was met. */
export async function runCrawlDelayBench(rounds = 5, perRound = 400): Promise<boolean> {
  console.log("\n## Crawl-delay enforcement's cost: a verified crawler's request, enforce vs measure (built Worker in Miniflare)\n")
  execFileSync('npx', ['wrangler', 'deploy', 'bench/entries/crawl-delay.ts', '--dry-run', '--outdir', 'dist/bench-crawl-delay', '--minify'], { env: OFFLINE, stdio: 'pipe' })
  const mf = new Miniflare({
    modules: true,
    scriptPath: 'dist/bench-crawl-delay/crawl-delay.js',
    compatibilityDate: '2026-04-20',
    compatibilityFlags: ['nodejs_compat'],
    d1Databases: { DB: 'bench-crawl-delay-db' },
    durableObjects: { CRAWL_DELAY: { className: 'CrawlDelayGate', useSQLite: true } },
    bindings: { ROBOTS_ENV: 'production', ORIGIN: '' },
    ...LOCAL,
    handleRuntimeStdio: discardStdio,
  })
  await mf.ready
  const modes = ['measure', 'enforce'] as const
  const times: Record<(typeof modes)[number], number[]> = { measure: [], enforce: [] }
  const statuses: Record<(typeof modes)[number], Map<number, number>> = { measure: new Map(), enforce: new Map() }
  try {
    for (const mode of modes) await timed(mf, `${mode}.localhost`, 50)
    for (let round = 0; round < rounds; round++) {
      for (let i = 0; i < modes.length; i++) {
        const mode = modes[(i + round) % modes.length]!
        const r = await timed(mf, `${mode}.localhost`, perRound)
        times[mode].push(...r.times)
        for (const [s, n] of r.statuses) statuses[mode].set(s, (statuses[mode].get(s) ?? 0) + n)
      }
    }
    // That the gate answers: under a 60 s delay, requests sent at once are early, bar the first, and get 429.
    const burst = await Promise.all(Array.from({ length: 20 }, (_, i) => mf.dispatchFetch(`http://burst.localhost/burst/${i}`, { headers: { 'User-Agent': BINGBOT } })))
    statuses.enforce.set(-429, burst.filter((r) => r.status === 429).length)
  } finally {
    await mf.dispose()
  }
  const refused = statuses.enforce.get(-429) ?? 0
  statuses.enforce.delete(-429)
  const shown = (m: Map<number, number>) => [...m].map(([s, n]) => `${s}: ${n}`).join(', ')
  table([
    ['guard.crawlDelay', 'p50 ms', 'p90 ms', 'p99 ms', 'requests (status: count)'],
    ...modes.map((mode) => [
      `${mode}${mode === 'measure' ? ' (baseline)' : ''}`,
      quantile(times[mode], 0.5).toFixed(2),
      quantile(times[mode], 0.9).toFixed(2),
      quantile(times[mode], 0.99).toFixed(2),
      shown(statuses[mode]),
    ]),
  ])
  const added = quantile(times.enforce, 0.5) - quantile(times.measure, 0.5)
  const pass = added <= GOAL_MS && refused > 0
  console.log(`${refused > 0 ? 'PASS' : 'FAIL'} the gate answers: ${refused} of 20 requests sent at once were refused with 429`)
  console.log(`\n${pass ? 'PASS' : 'FAIL'} added median latency with enforcement: ${added.toFixed(2)} ms (goal <= ${GOAL_MS} ms, locally)`)
  return pass
}
