import { execFileSync, spawn, spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import autocannon from 'autocannon'
import { Miniflare } from 'miniflare'
import { table } from '../dev/harness.ts'
import { discardStdio, LOCAL } from '../dev/miniflare.ts'

/**
 * The cost of the guard: the built Worker in Miniflare, with the guard in
 * `log` mode and `off`, same config (robots.config.ts) and same request
 * mix, in one run. The production bundle's size is bench/bundle.ts.
 */

const OFFLINE = { ...process.env, WRANGLER_SEND_METRICS: 'false', WRANGLER_SEND_ERROR_REPORTS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false' }

function build(entry: string, outdir: string): string {
  execFileSync('npx', ['wrangler', 'deploy', entry, '--dry-run', '--outdir', outdir, '--minify'], { env: OFFLINE, stdio: 'pipe' })
  return `${outdir}/${entry.split('/').pop()!.replace(/\.ts$/, '.js')}`
}

const BROWSERS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:128.0) Gecko/20100101 Firefox/128.0',
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
]
const BOTS = [
  'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)',
  'Mozilla/5.0 (compatible; ClaudeBot/1.0; +claudebot@anthropic.com)',
  'Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)',
]
const PATHS = ['/', '/articles/2026/robots', '/admin/login', '/private/report.pdf', '/search?q=edge', '/private/press/kit', '/docs/guide.pdf']

/** A realistic mix: mostly people, a fifth crawlers, some tools and robots.txt fetches. */
function requestMix(): autocannon.Request[] {
  const out: autocannon.Request[] = []
  for (let i = 0; i < 200; i++) {
    const r = i % 20
    const ua = r < 14 ? BROWSERS[i % BROWSERS.length]! : r < 18 ? BOTS[i % BOTS.length]! : r === 18 ? 'curl/8.5.0' : BOTS[(i >> 1) % BOTS.length]!
    const path = r === 19 ? '/robots.txt' : PATHS[(i * 7) % PATHS.length]!
    out.push({ method: 'GET', path, headers: { 'user-agent': ua } })
  }
  return out
}

interface Run {
  rps: number
  p50: number
  p99: number
  requests: number
  errors: number
}

/** wrk (C, from Debian's `wrk` package) takes far less CPU than a JS load generator on a 2-core machine. */
const HAS_WRK = spawnSync('wrk', ['--version']).error === undefined

function wrkScript(): string {
  const reqs = requestMix().map((r) => `{${JSON.stringify(r.path)},${JSON.stringify((r.headers as Record<string, string>)['user-agent'])}}`)
  const file = 'dist/bench-mix.lua'
  writeFileSync(
    file,
    `local reqs = {${reqs.join(',')}}
local i = 0
request = function()
  i = i % #reqs + 1
  return wrk.format("GET", reqs[i][1], { ["User-Agent"] = reqs[i][2] })
end
done = function(summary, latency, requests)
  io.write(string.format("RESULT %d %d %d %f %f\\n", summary.requests, summary.errors.status, summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout, latency:percentile(50) / 1000, latency:percentile(99) / 1000))
end
`,
  )
  return file
}

/** Runs the load generator without blocking this process, which drains the Worker's output. */
function wrk(url: string, seconds: number, script: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn('wrk', ['-t1', '-c16', `-d${seconds}s`, '-s', script, url])
    let out = ''
    child.stdout.on('data', (d: Buffer) => (out += d))
    child.on('error', reject)
    child.on('close', () => {
      const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1])
      const m = /RESULT (\d+) (\d+) (\d+) ([\d.]+) ([\d.]+)/.exec(out)
      // Status "errors" in wrk are non-2xx/3xx: the 403 refusals are expected, counted apart by the caller.
      resolve({ rps, requests: Number(m?.[1]), errors: Number(m?.[3]), p50: Number(m?.[4]), p99: Number(m?.[5]) })
    })
  })
}

async function load(url: string, seconds: number, script: string | undefined): Promise<Run> {
  if (script !== undefined) return wrk(url, seconds, script)
  // In a worker thread: the load generator must not share an event loop with
  // Miniflare draining the Worker's log output.
  const r = await autocannon({ url, connections: 16, duration: seconds, requests: requestMix(), workers: 1 })
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, requests: r.requests.total, errors: r.errors + r.timeouts }
}

async function start(script: string): Promise<{ mf: Miniflare; url: string }> {
  const mf = new Miniflare({
    modules: true,
    scriptPath: script,
    compatibilityDate: '2026-04-20',
    compatibilityFlags: ['nodejs_compat'],
    d1Databases: { DB: 'bench-db' },
    kvNamespaces: ['ROBOTS_KV'],
    bindings: { ROBOTS_ENV: 'production', ORIGIN: '' },
    ...LOCAL,
    // The guard's JSON log lines are part of its cost; printing them is not.
    handleRuntimeStdio: discardStdio,
  })
  const url = (await mf.ready).toString()
  return { mf, url }
}

/** Runs the Worker benchmark; resolves to whether every goal was met. */
export async function runWorkerBench(seconds = 5): Promise<boolean> {
  console.log("\n## The guard's cost: built Worker in Miniflare, guard log vs off (same config, same mix)\n")
  const log = build('bench/entries/log.ts', 'dist/bench-log')
  const off = build('bench/entries/off.ts', 'dist/bench-off')
  const before = build('bench/entries/log-before-wba.ts', 'dist/bench-log-before-wba')

  const script = HAS_WRK ? wrkScript() : undefined
  console.log(
    `load generator: ${HAS_WRK ? 'wrk (16 connections)' : 'autocannon in a worker thread (16 connections; `apt-get install wrk` for steadier numbers)'}; 5 interleaved rounds of ${seconds} s per mode\n`,
  )
  const ROUNDS = 5
  const modes = ['off', 'before', 'log'] as const
  const runs: Record<(typeof modes)[number], Run[]> = { off: [], before: [], log: [] }
  const servers = { off: await start(off), before: await start(before), log: await start(log) }
  try {
    // Warm all, then alternate so drift on a shared machine hits all alike.
    for (const mode of modes) await load(servers[mode].url, 1, script)
    // The order turns each round, so no mode always runs first or last.
    for (let round = 0; round < ROUNDS; round++) {
      for (let i = 0; i < modes.length; i++) {
        const mode = modes[(i + round) % modes.length]!
        runs[mode].push(await load(servers[mode].url, seconds, script))
      }
    }
  } finally {
    for (const mode of modes) await servers[mode].mf.dispose()
  }
  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!
  const summary = (rs: Run[]) => ({
    // The median round: one round disturbed by the shared machine moves it least.
    rps: median(rs.map((r) => r.rps)),
    p50: median(rs.map((r) => r.p50)),
    p99: median(rs.map((r) => r.p99)),
    errors: rs.reduce((n, r) => n + r.errors, 0),
    total: rs.reduce((n, r) => n + r.requests, 0),
  })
  const a = summary(runs.off)
  const w = summary(runs.before)
  const b = summary(runs.log)
  table([
    ['guard', 'req/s (median of 5)', 'p50 ms', 'p99 ms', 'requests', 'errors'],
    ['off (baseline)', a.rps.toFixed(0), a.p50.toFixed(1), a.p99.toFixed(1), String(a.total), String(a.errors)],
    ['log, without Web Bot Auth', w.rps.toFixed(0), w.p50.toFixed(1), w.p99.toFixed(1), String(w.total), String(w.errors)],
    ['log', b.rps.toFixed(0), b.p50.toFixed(1), b.p99.toFixed(1), String(b.total), String(b.errors)],
  ])
  const share = b.rps / a.rps
  console.log(`\n${share >= 0.9 ? 'PASS' : 'FAIL'} throughput with the guard in log mode: ${(share * 100).toFixed(1)}% of off (goal >= 90%)`)
  // The mix carries no signature: Web Bot Auth must cost it nothing but a
  // header lookup. Compared round by round (runs seconds apart), then the
  // median, so load from other processes on a shared machine cancels out.
  const ratios = runs.log.map((r, i) => r.rps / runs.before[i]!.rps)
  const unsigned = median(ratios)
  console.log(`per-round log / log without Web Bot Auth: ${ratios.map((r) => `${(r * 100).toFixed(0)}%`).join(' ')}`)
  console.log(`${unsigned >= 0.95 ? 'PASS' : 'FAIL'} unsigned requests with Web Bot Auth: ${(unsigned * 100).toFixed(1)}% of the guard without it, median of per-round ratios (goal >= 95%)`)
  if (unsigned < 0.95) process.exitCode = 1
  return share >= 0.9
}
