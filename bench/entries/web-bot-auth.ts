import config from '../../robots.config.ts'
import { createApp } from '../../src/package/app.ts'
import { cfOf, verifyClaim } from '../../src/verify/verify.ts'
import { createWiring } from '../../src/edge/wiring.ts'
import { table } from '../../dev/harness.ts'
import { withGuardMode } from './mode.ts'

/**
 * What Web Bot Auth costs a request that carries no signature, measured in
 * process (Hono's app.fetch, no network, no Miniflare; on localhost, so what passes gets the local page, not an origin), where a shared
 * machine disturbs the numbers far less than a load test: the same app with
 * the Worker's verification (`createWiring().verify`) and with the one it
 * had before (published IP ranges, then Cloudflare), crawler requests only
 * (people never reach verification), rounds interleaved. It imports the
 * Worker's modules, so bench/web-bot-auth.ts bundles and runs it apart.
 */

const CRAWLERS = [
  'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Google-Agent; +https://developers.google.com/crawling/docs/crawlers-fetchers/google-agent) Chrome/138.0.0.0 Safari/537.36',
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot',
  'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
  'Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)',
]
const PATHS = ['/', '/articles/2026/robots', '/admin/login', '/private/report.pdf', '/search?q=edge']

async function runWebBotAuthBench(rounds = 9, perRound = 3000): Promise<void> {
  console.log('\n## Web Bot Auth on unsigned crawler requests: the guard in process, with and without it (same run)\n')
  const wiring = createWiring()
  const record = () => undefined
  const logged = withGuardMode(config, 'log')
  const apps = {
    before: createApp(logged, { record, verify: (c, identity) => verifyClaim(identity.id, c.req.header('cf-connecting-ip') ?? null, cfOf(c.req.raw), new Map()) }),
    now: createApp(logged, { record, verify: wiring.verify }),
  }
  const requests = Array.from({ length: 50 }, (_, i) => new Request(`http://localhost${PATHS[i % PATHS.length]}`, { headers: { 'user-agent': CRAWLERS[i % CRAWLERS.length]! } }))
  const run = async (app: (typeof apps)['now']) => {
    const start = performance.now()
    for (let i = 0; i < perRound; i++) {
      const response = await app.fetch(requests[i % requests.length]!.clone())
      await response.arrayBuffer()
    }
    return ((performance.now() - start) * 1e6) / perRound
  }
  // The guard's log lines are part of both; printing them is not.
  const log = console.log
  const ns: Record<'before' | 'now', number[]> = { before: [], now: [] }
  try {
    console.log = () => undefined
    await run(apps.before)
    await run(apps.now)
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? (['before', 'now'] as const) : (['now', 'before'] as const)
      for (const name of order) ns[name].push(await run(apps[name]))
    }
  } finally {
    console.log = log
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
  const ratio = median(ns.now.map((t, i) => t / ns.before[i]!))
  table([
    ['verification', `µs per crawler request (median of ${rounds})`],
    ['before Web Bot Auth (baseline)', (median(ns.before) / 1000).toFixed(2)],
    ['with Web Bot Auth, unsigned', (median(ns.now) / 1000).toFixed(2)],
  ])
  const pass = ratio <= 1.05
  console.log(`\n${pass ? 'PASS' : 'FAIL'} unsigned crawler requests: ${(ratio * 100).toFixed(1)}% of the time without Web Bot Auth, median of per-round ratios (goal <= 105%)`)
  if (!pass) process.exitCode = 1
}

await runWebBotAuthBench()
