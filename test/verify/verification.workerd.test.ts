import { env, SELF } from 'cloudflare:test'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import googlebotRanges from '../fixtures/ip-ranges/googlebot.json?raw'
import { IP_RANGES_KEY_PREFIX, refreshIpRanges } from '../../src/verify/store/ip-ranges.ts'
import { mockedClock } from '../support/workerd/clock.ts'

// Verification through the real Worker entry (src/workers/edge-worker.ts, robots.config.ts):
// a claim checked before the ranges are loaded is `unknown`, the Worker picks
// the ranges up within a minute of the cron storing them, and the coverage
// route says what is loaded. Time moves forward with a mocked clock, which
// the Worker shares with the tests (same isolate).

const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'
const GOOGLE_IP = '66.249.66.1'
const SPOOFER_IP = '203.0.113.66'
const TOKEN = 'test-admin-token'
// A host of its own, so this file's events are told apart from any other's.
const HOST = 'stale-ranges.localhost'

const clock = mockedClock()

afterEach(() => clock.restore())

beforeAll(async () => {
  const { keys } = await env.ROBOTS_KV.list({ prefix: IP_RANGES_KEY_PREFIX })
  await Promise.all(keys.map((key) => env.ROBOTS_KV.delete(key.name)))
})

/** The cron's refresh, with Google's common crawlers served from a fixture and every other list failing. */
async function cronRefresh(): Promise<void> {
  const fetchFn = async (url: string) => (url.endsWith('/common-crawlers.json') ? new Response(googlebotRanges) : new Response('unavailable', { status: 503 }))
  await refreshIpRanges(env.ROBOTS_KV, fetchFn, Date.now(), { timeoutMs: 1000 })
}

const get = (path: string, ip: string) => SELF.fetch(`http://${HOST}:8787${path}`, { headers: { 'User-Agent': GOOGLEBOT, 'CF-Connecting-IP': ip } })
const api = async (path: string) => SELF.fetch(`http://${HOST}:8787/_robots/api/${path}`, { headers: { Authorization: `Bearer ${TOKEN}` } })

/** Requests of HOST counted per verification, once `expected` are (recording runs in waitUntil: waited for, bounded). */
async function countsOf(expected: number): Promise<Record<string, number>> {
  const read = async () =>
    (
      await env.DB.prepare("SELECT verification, sum(requests) AS n FROM counts_hourly WHERE host = ? AND class <> 'robotsTxt' GROUP BY verification")
        .bind(HOST)
        .all<{ verification: string; n: number }>()
    ).results
  let rows = await read()
  for (let i = 0; i < 150 && rows.reduce((n, r) => n + r.n, 0) < expected; i++) {
    await new Promise((resolve) => setTimeout(resolve, 20))
    rows = await read()
  }
  return Object.fromEntries(rows.map((r) => [r.verification, r.n]))
}

describe('before the cron ever ran', () => {
  it("the coverage route says plainly that Google's ranges are not loaded, and the command that loads them", async () => {
    const coverage = await (await api('verification')).json<{ fix: string; operators: { operator: string; status: string; message: string | null; fix: string | null }[] }>()
    expect(coverage.operators.find((o) => o.operator === 'Google')).toMatchObject({
      status: 'missing',
      message: `Google's IP ranges are not loaded: claims to be Google's crawlers cannot be checked. Run \`${coverage.fix}\` to load them.`,
      fix: coverage.fix,
    })
  })
})

describe("one Googlebot request before the ranges load, then spoofers after (the issue's `npm run dev` case)", () => {
  it('never says Google ignores robots.txt, and keeps the spoofed claims apart', async () => {
    // 1. Googlebot, before any range is stored: the claim cannot be checked.
    expect((await get('/private/x', GOOGLE_IP)).status).toBe(200)

    // 2. The cron stores the ranges; within a minute the Worker has them.
    await cronRefresh()
    clock.advance(60_000)

    // 3. A spoofer sends 30 disallowed requests as Googlebot.
    const paths = Array.from({ length: 30 }, (_, i) => `/private/drafts/${i}`)
    for (const path of paths) expect((await get(path, SPOOFER_IP)).status).toBe(200)

    // Counted per verification (raw rows are only a sample): the first before the ranges loaded, the rest after.
    expect(await countsOf(31)).toEqual({ unknown: 1, spoofed: paths.length })

    // The report's clock is its own (the real one): the range is given explicitly.
    const report = await (await api(`report?host=${HOST}&until=${Date.now() + 3_600_000}`)).json<{
      agents: { agentKey: string; verdict: string }[]
      spoofed: { agentKey: string; requests: number }[]
    }>()
    const googlebot = report.agents.find((a) => a.agentKey === 'googlebot')
    expect(googlebot?.verdict).not.toBe('ignores robots.txt')
    expect(report.spoofed).toContainEqual(expect.objectContaining({ agentKey: 'googlebot', requests: 30 }))
  }, 20_000)
})

describe('GET /_robots/api/verification', () => {
  it('needs the admin token, like the report', async () => {
    const res = await SELF.fetch(`http://${HOST}:8787/_robots/api/verification`)
    expect(res.status).toBe(401)
    expect(res.headers.get('cache-control')).toBe('no-store')
  })

  it('says, per operator, which lists are loaded, fetched when, and what the last refresh could not fetch', async () => {
    await cronRefresh()
    clock.advance(60_000)
    const res = await api('verification')
    expect(res.status).toBe(200)
    const coverage = await res.json<{
      refreshedAt: number
      operators: { operator: string; status: string; lists: { url: string; loaded: boolean; fetchedAt: number | null; error: string | null }[] }[]
    }>()
    expect(coverage.refreshedAt).toBeGreaterThan(0)
    const google = coverage.operators.find((o) => o.operator === 'Google')!
    expect(google.status).toBe('partial')
    expect(google.lists.find((l) => l.url.endsWith('/common-crawlers.json'))).toMatchObject({ loaded: true, error: null })
    expect(google.lists.find((l) => l.url.endsWith('/special-crawlers.json'))).toMatchObject({ loaded: false, fetchedAt: null, error: 'HTTP 503' })
    expect(coverage.operators.find((o) => o.operator === 'Microsoft')).toMatchObject({ status: 'missing' })
  })
})
