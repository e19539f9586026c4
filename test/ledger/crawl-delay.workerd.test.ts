// Crawl-delay, measured where the events meet (src/ledger/crawl-delay.ts),
// against generated traffic whose answer is known: how many requests of
// each agent came sooner than its group's delay after the one before, per
// host, across a roll-up by the cron and a UTC midnight. First through the
// Worker entry (robots.txt, the guard, the recorder, the report), then
// with batches written out of order and late, as isolates deliver them.
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createWorker, defineConfig, type RobotsEdgeEnv } from 'robots-edge'
import { getCrawlDelays } from '../../src/admin/crawl-delay.ts'
import type { Report } from '../../src/admin/types.ts'
import type { JudgedRequest } from '../../src/core/events.ts'
import { rollUpCrawlDelay } from '../../src/ledger/crawl-delay.ts'
import { writeEvents } from '../../src/ledger/ledger.ts'
import { DAY, HOUR, judged } from '../support/report-fixtures.ts'
import { clearLedger } from '../support/workerd/ledger-tables.ts'

const BINGBOT = 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)'
const GPTBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)'
const BEARER = { Authorization: 'Bearer test-admin-token' }

const CONFIG = defineConfig({
  rules: [
    { userAgent: '*', allow: '/' },
    { userAgent: 'Bingbot', crawlDelay: 10, disallow: '/private/' },
    { userAgent: 'GPTBot', crawlDelay: 2.5, allow: '/' },
  ],
})
// Every claim verified: the measurement counts verified and unverified claims alike.
const worker = createWorker(CONFIG, { verify: () => 'verified' })

/** A deterministic generator (a linear congruential one): the same traffic on every run. */
function generator(seed: number): () => number {
  let s = seed
  return () => {
    s = (s * 1103515245 + 12345) % 2 ** 31
    return s / 2 ** 31
  }
}

async function fetchVia(url: string, ua: string): Promise<Response> {
  const ctx = createExecutionContext()
  const res = await worker.fetch!(new Request(url, { headers: { 'User-Agent': ua, 'CF-Connecting-IP': '203.0.113.7' } }) as never, env as RobotsEdgeEnv, ctx)
  await res.arrayBuffer()
  // Recording runs in waitUntil: each request's event is in D1 before the next.
  await waitOnExecutionContext(ctx)
  return res
}

/** The known answer: per agent, requests and those sooner than the delay after the previous one to the same host. */
function expected(sent: readonly { agent: string; host: string; time: number; delay: number }[]) {
  const last = new Map<string, number>()
  const out = new Map<string, { requests: number; early: number }>()
  for (const s of [...sent].sort((a, b) => a.time - b.time)) {
    const key = `${s.agent}\n${s.host}`
    const before = last.get(key)
    const tally = out.get(s.agent) ?? { requests: 0, early: 0 }
    tally.requests++
    if (before !== undefined && s.time - before < s.delay * 1000) tally.early++
    out.set(s.agent, tally)
    last.set(key, s.time)
  }
  return out
}

describe('Crawl-delay through the Worker entry', () => {
  // A clock the Worker shares with the test (same isolate), standing still between steps: each request's time is known.
  let current = 0
  beforeEach(async () => {
    await clearLedger(env.DB)
    vi.spyOn(Date, 'now').mockImplementation(() => current)
  })
  afterEach(() => vi.restoreAllMocks())

  it('counts exactly the early requests per agent and host, across a roll-up and midnight', async () => {
    const random = generator(22)
    // Start 5 minutes before a UTC midnight: the traffic crosses it.
    const start = Date.UTC(2026, 10, 27) - 5 * 60_000
    current = start
    const sent: { agent: string; host: string; time: number; delay: number }[] = []
    let rolled = false
    for (let i = 0; i < 120; i++) {
      const bing = random() < 0.6
      const host = random() < 0.5 ? 'a.localhost' : 'b.localhost'
      // Now and then a robots.txt fetch: a request the delay spaces too.
      const path = random() < 0.1 ? '/robots.txt' : random() < 0.2 ? '/private/x' : `/articles/${i}`
      const before = Date.now()
      const res = await fetchVia(`http://${host}${path}`, bing ? BINGBOT : GPTBOT)
      expect(res.status).toBe(200)
      expect(Date.now()).toBe(before)
      sent.push({ agent: bing ? 'bingbot' : 'gptbot', host, time: before, delay: bing ? 10 : 2.5 })
      // Intervals from 0 to 12 s, in ms: some sooner than each delay, some not.
      const step = Math.floor(random() * 12_000)
      current += step
      if (i === 59) {
        // The cron rolls up what came so far; the rest is measured from the last rolled time.
        const result = await rollUpCrawlDelay(env.DB, { now: Date.now() + 2 * HOUR })
        expect(result.rolled).toBe(60)
        rolled = true
      }
    }
    expect(rolled).toBe(true)
    const truth = expected(sent)
    const bing = truth.get('bingbot')!
    const gpt = truth.get('gptbot')!
    // The generated traffic has both kinds of interval for both agents.
    expect(bing.early).toBeGreaterThan(10)
    expect(bing.early).toBeLessThan(bing.requests)
    expect(gpt.early).toBeGreaterThan(0)

    const since = start - DAY
    const until = Date.now() + HOUR
    const res = await worker.fetch!(new Request(`http://localhost/_robots/api/report?since=${since}&until=${until}`, { headers: BEARER }) as never, env as RobotsEdgeEnv, createExecutionContext())
    const body = (await res.json()) as Report
    expect(res.status, JSON.stringify(body)).toBe(200)
    const byKey = new Map(body.agents.map((a) => [a.agentKey, a]))
    expect(byKey.get('bingbot')?.crawlDelay).toMatchObject({ seconds: 10, requests: bing.requests, early: bing.early, late: 0 })
    expect(byKey.get('gptbot')?.crawlDelay).toMatchObject({ seconds: 2.5, requests: gpt.requests, early: gpt.early, late: 0 })
    const share = Math.round((bing.early / bing.requests) * 100)
    expect(byKey.get('bingbot')?.crawlDelay?.reason).toBe(`ignores Crawl-delay (${share}% of requests early)`)
    expect(byKey.get('bingbot')?.crawlDelay?.verdict).toBe('ignores Crawl-delay')
    // The robots.txt verdict is untouched by it.
    expect(['complies', 'isolated violations', 'ignores robots.txt', 'not enough data']).toContain(byKey.get('bingbot')?.verdict)

    // Rolled up whole, the same answer: the tail read by the report and the cron's roll-up agree.
    await rollUpCrawlDelay(env.DB, { now: Date.now() + 3 * HOUR })
    expect((await env.DB.prepare('SELECT count(*) AS n FROM crawl_times').first<{ n: number }>())?.n).toBe(0)
    const days = await env.DB.prepare('SELECT DISTINCT day FROM crawl_delay_daily').all()
    expect(days.results.length).toBe(2)
    const rows = await getCrawlDelays(env.DB, { since, until })
    expect(rows.find((r) => r.agentKey === 'bingbot')).toEqual({ agentKey: 'bingbot', delayMs: 10_000, requests: bing.requests, early: bing.early, late: 0 })
    expect(rows.find((r) => r.agentKey === 'gptbot')).toEqual({ agentKey: 'gptbot', delayMs: 2500, requests: gpt.requests, early: gpt.early, late: 0 })

    // The CSV carries it in appended columns.
    const csv = await (
      await worker.fetch!(new Request(`http://localhost/_robots/api/report.csv?since=${since}&until=${until}`, { headers: BEARER }) as never, env as RobotsEdgeEnv, createExecutionContext())
    ).text()
    const [header, ...lines] = csv.trim().split('\r\n')
    const cols = header!.split(',')
    const bingLine = lines.find((l) => l.startsWith('agent,bingbot,'))!.split(',')
    expect(bingLine[cols.indexOf('crawl_delay_seconds')]).toBe('10')
    expect(bingLine[cols.indexOf('crawl_delay_requests')]).toBe(String(bing.requests))
    expect(bingLine[cols.indexOf('crawl_delay_early')]).toBe(String(bing.early))
    expect(bingLine[cols.indexOf('crawl_delay_verdict')]).toBe('ignores Crawl-delay')
  }, 120_000)

  it('stores nothing for agents whose group sets no delay, nor for spoofed claims', async () => {
    const spoofing = createWorker(CONFIG, { verify: () => 'spoofed' })
    const ctx = createExecutionContext()
    await spoofing.fetch!(new Request('http://a.localhost/x', { headers: { 'User-Agent': BINGBOT } }) as never, env as RobotsEdgeEnv, ctx)
    await waitOnExecutionContext(ctx)
    await fetchVia('http://a.localhost/x', 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)')
    expect((await env.DB.prepare('SELECT count(*) AS n FROM events').first<{ n: number }>())?.n).toBe(2)
    expect((await env.DB.prepare('SELECT count(*) AS n FROM crawl_times').first<{ n: number }>())?.n).toBe(0)
  })
})

describe('Crawl-delay where isolates deliver out of order and late', () => {
  beforeEach(() => clearLedger(env.DB))

  const at = (time: number, host = 'example.com'): JudgedRequest => judged({ time, host, crawlDelay: 5 })

  it('orders by time whatever the order batches arrive in', async () => {
    const t0 = Date.UTC(2026, 10, 20, 10)
    // Gaps (s) 0→3 early, 3→9 not, 9→10 early, 10→20 not, 20→24 early; a second host apart.
    const times = [0, 3, 9, 10, 20, 24].map((s) => t0 + s * 1000)
    const events = [...times.map((t) => at(t)), at(t0 + 1000, 'other.example'), at(t0 + 2000, 'other.example')]
    // Three isolates' batches, each in its own order, written newest first.
    await writeEvents(env.DB, [events[4]!, events[6]!])
    await writeEvents(env.DB, [events[5]!, events[1]!, events[7]!])
    await writeEvents(env.DB, [events[3]!, events[0]!, events[2]!])
    const filter = { since: t0 - DAY, until: t0 + DAY }
    expect(await getCrawlDelays(env.DB, filter)).toEqual([{ agentKey: 'googlebot', delayMs: 5000, requests: 8, early: 4, late: 0 }])
    // Host filter: only example.com's intervals.
    expect(await getCrawlDelays(env.DB, { ...filter, host: 'example.com' })).toEqual([{ agentKey: 'googlebot', delayMs: 5000, requests: 6, early: 3, late: 0 }])
  })

  it('measures a time recorded after its hour was rolled up from the last rolled time, and counts an unmeasurable one as late', async () => {
    const t0 = Date.UTC(2026, 10, 20, 10)
    await writeEvents(env.DB, [at(t0), at(t0 + 60_000)])
    await rollUpCrawlDelay(env.DB, { now: t0 + 3 * HOUR })
    // Recorded after the roll-up: 2 s after the last rolled request (early), and one before it (late).
    await writeEvents(env.DB, [at(t0 + 62_000), at(t0 + 30_000)])
    const filter = { since: t0 - DAY, until: t0 + DAY }
    expect(await getCrawlDelays(env.DB, filter)).toEqual([{ agentKey: 'googlebot', delayMs: 5000, requests: 4, early: 1, late: 1 }])
    await rollUpCrawlDelay(env.DB, { now: t0 + 4 * HOUR })
    expect(await getCrawlDelays(env.DB, filter)).toEqual([{ agentKey: 'googlebot', delayMs: 5000, requests: 4, early: 1, late: 1 }])
  })
})
