import { env, SELF } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import googlebotRanges from '../fixtures/ip-ranges/googlebot.json?raw'
import { refreshIpRanges } from '../../src/verify/store/ip-ranges.ts'

// Through the real Worker entry: judged requests and robots.txt fetches land
// in the D1 ledger (off the response path), with the verification of each
// claim against the operator's published ranges in KV.

const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'
const GPTBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)'
const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
const GOOGLE_IP = '66.249.64.5'
const OTHER_IP = '203.0.113.9'

type Row = { type: string; agent_key: string; path: string; allowed: number; action: string; verification: string; ip_hash: string | null; robots_version: string }

async function rows(expected: number): Promise<Row[]> {
  // Recording runs in waitUntil: wait for it, bounded.
  for (let i = 0; i < 100; i++) {
    const { results } = await env.DB.prepare('SELECT * FROM events ORDER BY time, id').all<Row>()
    if (results.length >= expected) return results
    await new Promise((r) => setTimeout(r, 20))
  }
  return (await env.DB.prepare('SELECT * FROM events ORDER BY time, id').all<Row>()).results
}

const get = (path: string, ua: string, ip: string) => SELF.fetch(`http://localhost${path}`, { headers: { 'User-Agent': ua, 'CF-Connecting-IP': ip } })

beforeAll(async () => {
  // The cron's refresh, with Google's list served from a fixture.
  const fetchFn = async (url: string) => (url.endsWith('/common-crawlers.json') ? new Response(googlebotRanges) : new Response('not found', { status: 404 }))
  const summary = await refreshIpRanges(env.ROBOTS_KV, fetchFn)
  expect(summary.find((s) => s.url.endsWith('/common-crawlers.json'))?.ok).toBe(true)
})

describe('the ledger, through the real Worker', () => {
  it('records fetches and judged requests, with verification, and nothing for people', async () => {
    expect((await get('/robots.txt', GOOGLEBOT, GOOGLE_IP)).status).toBe(200)
    expect((await get('/private/memo', GOOGLEBOT, GOOGLE_IP)).status).toBe(200)
    expect((await get('/private/memo', GOOGLEBOT, OTHER_IP)).status).toBe(200)
    expect((await get('/articles/1', GPTBOT, OTHER_IP)).status).toBe(403)
    expect((await get('/private/memo', CHROME, OTHER_IP)).status).toBe(200)

    const recorded = await rows(4)
    expect(recorded.map((r) => [r.type, r.agent_key, r.path, r.allowed, r.action, r.verification])).toEqual([
      ['robots-txt', 'googlebot', '/robots.txt', 1, 'pass', 'verified'],
      ['request', 'googlebot', '/private/memo', 0, 'pass', 'verified'],
      ['request', 'googlebot', '/private/memo', 0, 'pass', 'spoofed'],
      // OpenAI's list is not loaded here: the claim cannot be checked.
      ['request', 'gptbot', '/articles/1', 0, 'block', 'unknown'],
    ])
    // A salted hash, never the address.
    for (const r of recorded) expect(r.ip_hash).toMatch(/^[0-9a-f]{16}$/)
    const dump = JSON.stringify((await env.DB.prepare('SELECT * FROM events').all()).results)
    expect(dump).not.toContain(GOOGLE_IP)
    expect(dump).not.toContain(OTHER_IP)
    // The version in force is recorded with its text, for the report.
    const version = await env.DB.prepare('SELECT hash, host, text FROM robots_versions').first<{ hash: string; host: string; text: string }>()
    expect(version?.hash).toBe(recorded[0]!.robots_version)
    expect(version?.text).toContain('User-agent: GPTBot')
  })
})

describe('the ledger under concurrent requests', () => {
  // Each request records in its own context. A write started by one request
  // must never be continued by another: workerd refuses such I/O, and the
  // recorder once lost whole batches that way under load.
  // Raw rows are samples: what was recorded is what the counters count.
  const recorded = async () => (await env.DB.prepare('SELECT coalesce(sum(requests), 0) AS n FROM counts_hourly').first<{ n: number }>())!.n

  it('loses no event when many crawler requests arrive at once', async () => {
    const before = await recorded()
    const sent = 300
    const responses = await Promise.all(Array.from({ length: sent }, (_, i) => get(`/articles/${i}`, i % 2 ? GOOGLEBOT : GPTBOT, GOOGLE_IP)))
    expect(responses.every((r) => r.status === 200 || r.status === 403)).toBe(true)
    let count = 0
    for (let i = 0; i < 1000 && count < before + sent; i++) {
      count = await recorded()
      if (count < before + sent) await new Promise((r) => setTimeout(r, 20))
    }
    expect(count - before).toBe(sent)
  }, 60_000) // 300 requests through the test runtime: seconds on a busy 2-core machine
})
