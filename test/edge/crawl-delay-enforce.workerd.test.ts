// `guard: { crawlDelay: 'enforce' }` through the Worker entry: an early
// request from a verified agent gets 429 with Retry-After and the RateLimit
// fields, shared across isolates by the CRAWL_DELAY Durable Object (one per
// host and agent); on-time requests, unverified claims and agents whose
// group sets no delay pass; without the binding, one line says so and
// everything passes.
import { createExecutionContext, env, runInDurableObject, waitOnExecutionContext } from 'cloudflare:test'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { CrawlDelayGate, createWorker, defineConfig, type RobotsEdgeEnv, type Verification } from 'robots-edge'
import { clearLedger } from '../support/workerd/ledger-tables.ts'

const BINGBOT = 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)'
const GPTBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)'

const CONFIG = defineConfig({
  rules: [
    { userAgent: '*', allow: '/' },
    { userAgent: 'Bingbot', crawlDelay: 30, disallow: '/private/' },
  ],
  guard: { mode: 'log', crawlDelay: 'enforce' },
})

let verification: Verification = 'verified'
const worker = createWorker(CONFIG, { verify: () => verification })

async function get(url: string, ua: string, bindings: RobotsEdgeEnv = env as RobotsEdgeEnv): Promise<Response> {
  const ctx = createExecutionContext()
  const res = await worker.fetch!(new Request(url, { headers: { 'User-Agent': ua } }) as never, bindings, ctx)
  await res.arrayBuffer()
  await waitOnExecutionContext(ctx)
  return res
}

// Each test its own host: each (host, agent) has its own gate.
let n = 0
const host = () => `t${++n}-${Date.now()}.localhost`

describe("guard: { crawlDelay: 'enforce' }", () => {
  beforeEach(async () => {
    verification = 'verified'
    await clearLedger(env.DB)
  })
  afterEach(() => vi.restoreAllMocks())

  it('answers an early request from a verified agent with 429, Retry-After and RateLimit fields, and records it', async () => {
    const h = host()
    expect((await get(`http://${h}/a`, BINGBOT)).status).toBe(200)
    const early = await get(`http://${h}/b`, BINGBOT)
    expect(early.status).toBe(429)
    const retry = Number(early.headers.get('retry-after'))
    expect(retry).toBeGreaterThan(0)
    expect(retry).toBeLessThanOrEqual(30)
    expect(early.headers.get('ratelimit-policy')).toBe('"crawl-delay";q=1;w=30')
    expect(early.headers.get('ratelimit')).toBe(`"crawl-delay";r=0;t=${retry}`)
    expect(early.headers.get('cache-control')).toBe('no-store')
    // Another host has its own gate; another agent (no delay in its group) is never paced.
    expect((await get(`http://${host()}/a`, BINGBOT)).status).toBe(200)
    expect((await get(`http://${h}/c`, GPTBOT)).status).toBe(200)
    expect((await get(`http://${h}/d`, GPTBOT)).status).toBe(200)
    // The refusal is in the ledger as what it was: a 429, and a request measured as early.
    const rows = await env.DB.prepare("SELECT path, action, status FROM events WHERE agent_key = 'bingbot' ORDER BY time, path").all<{ path: string; action: string; status: number }>()
    expect(rows.results).toContainEqual({ path: '/b', action: 'block', status: 429 })
    expect(rows.results.filter((r) => r.status === 429)).toHaveLength(1)
    const times = await env.DB.prepare("SELECT count(*) AS n FROM crawl_times WHERE agent_key = 'bingbot'").first<{ n: number }>()
    expect(times?.n).toBe(3)
  })

  it('lets through a request once the delay has passed, measured from the last request let through', async () => {
    const h = host()
    const start = Date.now()
    let now = start
    vi.spyOn(Date, 'now').mockImplementation(() => now)
    expect((await get(`http://${h}/1`, BINGBOT)).status).toBe(200)
    now = start + 29_000
    const early = await get(`http://${h}/2`, BINGBOT)
    expect(early.status).toBe(429)
    expect(early.headers.get('retry-after')).toBe('1')
    // The refused request did not move the gate: 30 s after the first, on time.
    now = start + 30_000
    expect((await get(`http://${h}/3`, BINGBOT)).status).toBe(200)
    now = start + 45_000
    expect((await get(`http://${h}/4`, BINGBOT)).status).toBe(429)
  })

  it('never paces an unverified claim: anyone can send that User-Agent', async () => {
    verification = 'unverified'
    const h = host()
    for (let i = 0; i < 3; i++) expect((await get(`http://${h}/${i}`, BINGBOT)).status).toBe(200)
  })

  it('without the CRAWL_DELAY binding, says so once and lets everything through', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const { CRAWL_DELAY: _gates, ...rest } = env as RobotsEdgeEnv
    const h = host()
    for (let i = 0; i < 3; i++) expect((await get(`http://${h}/${i}`, BINGBOT, rest)).status).toBe(200)
    const lines = warn.mock.calls.map((c) => String(c[0])).filter((l) => l.includes('CRAWL_DELAY'))
    expect(lines).toEqual(['robots-edge: guard.crawlDelay is "enforce" but no Durable Object binding "CRAWL_DELAY": measured, not enforced.'])
  })

  it('keeps the time of a delay over 10 s in storage, so a restarted object still refuses; a shorter one in memory only', async () => {
    const gates = (env as RobotsEdgeEnv).CRAWL_DELAY!
    const ask = (gate: CrawlDelayGate, delayMs: number) => gate.fetch(new Request(`https://gate/?d=${delayMs}`)).text()
    const long = gates.get(gates.idFromName(`long-${Date.now()}`))
    const stored = await runInDurableObject(long, async (gate: CrawlDelayGate, state) => {
      expect(await ask(gate, 30_000)).toBe('0')
      // A new instance over the same storage: what the object is after an eviction or a deploy.
      const restarted = new CrawlDelayGate(state)
      await state.blockConcurrencyWhile(async () => {})
      return { last: await state.storage.get<number>('last'), answer: await ask(restarted, 30_000) }
    })
    expect(typeof stored.last).toBe('number')
    expect(Number(stored.answer)).toBeGreaterThan(0)
    const short = gates.get(gates.idFromName(`short-${Date.now()}`))
    const kept = await runInDurableObject(short, async (gate: CrawlDelayGate, state) => {
      expect(await ask(gate, 5_000)).toBe('0')
      expect(Number(await ask(gate, 5_000))).toBeGreaterThan(0)
      return state.storage.get<number>('last')
    })
    expect(kept).toBeUndefined()
  })
})
