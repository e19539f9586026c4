import { env, SELF } from 'cloudflare:test'
import { afterEach, describe, expect, it } from 'vitest'
import { mockedClock } from '../support/workerd/clock.ts'

// Through the real Worker entry (robots.config.ts, the guard, the recorder,
// the report API): a crawler that never reads robots.txt, on a host
// robots-edge has just started serving, is "pending" while the host's first
// 24 h last (RFC 9309 §2.4: it may hold the site's previous copy), never
// "complies"; once they are over, the same behaviour reads "ignores
// robots.txt". Time moves forward with a mocked clock, which the Worker
// shares with the test (same isolate).

const TOKEN = 'test-admin-token'
// A host of its own: its first request starts its first day.
const HOST = 'pending-grace.localhost'
// A self-named crawler no registry lists, never fetching robots.txt; `*` disallows /admin/.
const CRAWLER = 'Mozilla/5.0 (compatible; Gracelessbot/1.0; +https://graceless.example/bot)'
const HOUR = 3_600_000
const GRACE_MS = 24 * HOUR

const clock = mockedClock()

afterEach(() => clock.restore())

interface PendingAgent {
  agentKey: string
  verdict: string
  reason: string
  evidence: { requests: number; violations: { newHost: number; neverFetched: number; counted: number }; pendingUntil: number | null; pendingHost: string | null }
}

const crawl = (path: string, host = HOST) => SELF.fetch(`http://${host}:8787${path}`, { headers: { 'User-Agent': CRAWLER, 'CF-Connecting-IP': '203.0.113.31' } })

async function report(since: number, host = HOST): Promise<{ agents: PendingAgent[]; totals: { pending: number; ignoring: number } }> {
  // The range is given explicitly: it must hold both the real and the mocked clock's requests.
  const res = await SELF.fetch(`http://${host}:8787/_robots/api/report?host=${host}&since=${since}&until=${Date.now() + HOUR}`, { headers: { Authorization: `Bearer ${TOKEN}` } })
  expect(res.status).toBe(200)
  return res.json()
}

/** Recording runs in waitUntil: waits, bounded, until `expected` requests of the host are counted (raw rows are only a sample). */
async function stored(expected: number, host = HOST): Promise<number> {
  const count = async () => (await env.DB.prepare("SELECT coalesce(sum(requests), 0) AS n FROM counts_hourly WHERE host = ? AND class <> 'robotsTxt'").bind(host).first<{ n: number }>())?.n ?? 0
  for (let i = 0; i < 150 && (await count()) < expected; i++) await new Promise((resolve) => setTimeout(resolve, 20))
  return count()
}

/** "2026-11-28 02:10 UTC", rounded up to the minute as the report writes it. */
const utcMinute = (ms: number) => `${new Date(Math.ceil(ms / 60_000) * 60_000).toISOString().slice(0, 16).replace('T', ' ')} UTC`

describe('a never-fetching crawler on a new host', () => {
  it("is pending during the host's first 24 h, then ignores robots.txt once they are over", async () => {
    const start = Date.now() - HOUR
    for (let i = 0; i < 30; i++) expect((await crawl(`/admin/first-day/${i}`)).status).toBe(200)
    expect(await stored(30)).toBe(30)
    const served = (await env.DB.prepare('SELECT first_served AS t FROM robots_hosts WHERE host = ?').bind(HOST).first<{ t: number }>())?.t
    expect(served).toBeTypeOf('number')

    const during = (await report(start)).agents.find((a) => a.agentKey === 'gracelessbot')
    expect(during).toMatchObject({
      verdict: 'pending',
      reason: `30 disallowed requests in the host's first 24 h; judged from ${utcMinute(served! + GRACE_MS)} if they go on`,
      evidence: { requests: 30, violations: { newHost: 30, neverFetched: 0, counted: 0 }, pendingUntil: served! + GRACE_MS, pendingHost: HOST },
    })

    // A day and an hour later, the same crawler keeps going.
    clock.advance(GRACE_MS + HOUR)
    for (let i = 0; i < 30; i++) expect((await crawl(`/admin/second-day/${i}`)).status).toBe(200)
    expect(await stored(60)).toBe(60)

    const after = await report(start)
    expect(after.agents.find((a) => a.agentKey === 'gracelessbot')).toMatchObject({
      verdict: 'ignores robots.txt',
      reason: '30 disallowed requests in 60 judged requests, without fetching robots.txt for that host first',
      evidence: { violations: { newHost: 30, neverFetched: 30, counted: 30 }, pendingUntil: null, pendingHost: null },
    })
    expect(after.totals).toMatchObject({ pending: 0, ignoring: 1 })
  }, 30_000)

  it('complies once it is seen on the host after the first day without a disallowed request: only a cached copy explains the first', async () => {
    const host = 'pending-settled.localhost'
    const start = Date.now() - HOUR
    for (let i = 0; i < 10; i++) expect((await crawl(`/admin/first-day/${i}`, host)).status).toBe(200)
    expect(await stored(10, host)).toBe(10)
    expect((await report(start, host)).agents.find((a) => a.agentKey === 'gracelessbot')?.verdict).toBe('pending')

    clock.advance(GRACE_MS + HOUR)
    for (let i = 0; i < 20; i++) expect((await crawl(`/articles/${i}`, host)).status).toBe(200)
    expect(await stored(30, host)).toBe(30)
    expect((await report(start, host)).agents.find((a) => a.agentKey === 'gracelessbot')).toMatchObject({
      verdict: 'complies',
      reason: "30 judged requests and no counted violation; 10 disallowed requests in the host's first 24 h not counted, none since",
      evidence: { violations: { newHost: 10, counted: 0 }, pendingUntil: null },
    })
  }, 30_000)
})
