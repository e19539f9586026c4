// Through the real Worker entry: the Host a client sends never decides what
// is stored. Spellings of one host are one host; what is no host name is one
// key; without a `hosts` list the ledger stores a bounded number of hosts.
import { env, SELF } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { INVALID_HOST, OTHER_HOSTS } from '../../src/core/config/index.ts'
import { MAX_STORED_HOSTS } from '../../src/ledger/hosts.ts'
import { clearLedger } from '../support/workerd/ledger-tables.ts'

const GPTBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)'
const db = env.DB

beforeEach(() => clearLedger(db))

async function eventsPerHost(expected: number): Promise<Record<string, number>> {
  // Recording runs in waitUntil: wait for it, bounded.
  let rows: { host: string; n: number }[] = []
  for (let i = 0; i < 200; i++) {
    // Counted, not sampled: raw rows are only a sample (SAMPLE_BUDGET).
    rows = (await db.prepare("SELECT host, sum(requests) AS n FROM counts_hourly WHERE class <> 'robotsTxt' GROUP BY host").all<{ host: string; n: number }>()).results
    if (rows.reduce((s, r) => s + r.n, 0) >= expected) break
    await new Promise((r) => setTimeout(r, 25))
  }
  return Object.fromEntries(rows.map((r) => [r.host, r.n]))
}

const send = async (host: string, path = '/articles/1') => {
  const res = await SELF.fetch(`http://${host}${path}`, { headers: { 'User-Agent': GPTBOT } })
  await res.arrayBuffer()
  return res.status
}

describe('hosts as the ledger stores them', () => {
  it('stores example.com., example.com.. and EXAMPLE.com:8443 as example.com, with one version row', async () => {
    for (const host of ['example.com', 'example.com.', 'example.com..', 'EXAMPLE.com:8443']) expect(await send(host)).toBe(403)
    expect(await eventsPerHost(4)).toEqual({ 'example.com': 4 })
    const versions = await db.prepare('SELECT host FROM robots_versions').all<{ host: string }>()
    expect(versions.results).toEqual([{ host: 'example.com' }])
  })

  it('stores a 7,933-character Host under the one invalid-host key, which the report can select', async () => {
    expect(await send('x'.repeat(7933))).toBeLessThan(500)
    expect(await send(`${'a'.repeat(64)}.example`)).toBeLessThan(500)
    expect(await eventsPerHost(2)).toEqual({ [INVALID_HOST]: 2 })
    const stored = await db.prepare('SELECT max(length(host)) AS n FROM robots_versions').first<{ n: number }>()
    expect(stored?.n).toBeLessThanOrEqual(253)
    const res = await SELF.fetch(`http://localhost/_robots/api/report?since=1h&host=${INVALID_HOST}`, { headers: { Authorization: 'Bearer test-admin-token' } })
    expect(res.status).toBe(200)
    // OpenAI publishes GPTBot's ranges and none are loaded here: the claims are
    // reported apart, as claims that could not be checked, still under that host.
    const { totals } = (await res.json()) as { totals: { requests: number; uncheckedRequests: number } }
    expect(totals.requests + totals.uncheckedRequests).toBe(2)
  })

  it('serves an invalid Host the disallow-all file, never a 5xx', async () => {
    const res = await SELF.fetch(`http://${'x'.repeat(300)}/robots.txt`)
    expect(res.status).toBe(200)
    expect(await res.text()).toContain('# Not production (the Host header is no host name)')
  })

  it(`stores at most ${MAX_STORED_HOSTS} distinct hosts, and the rest under other-hosts.invalid`, async () => {
    const sent = MAX_STORED_HOSTS + 8
    for (let i = 0; i < sent; i++) expect(await send(`site-${i}.cap.example`)).toBe(403)
    const perHost = await eventsPerHost(sent)
    const named = Object.keys(perHost).filter((h) => h !== OTHER_HOSTS)
    expect(named.length).toBeLessThanOrEqual(MAX_STORED_HOSTS)
    expect(perHost[OTHER_HOSTS]).toBe(sent - named.length)
    expect(Object.values(perHost).reduce((s, n) => s + n, 0)).toBe(sent)
    const versionHosts = await db.prepare('SELECT count(DISTINCT host) AS n FROM robots_versions').first<{ n: number }>()
    expect(versionHosts?.n).toBe(named.length + 1)
    const report = await SELF.fetch('http://localhost/_robots/api/report?since=1h', { headers: { Authorization: 'Bearer test-admin-token' } })
    expect(((await report.json()) as { hostCap: unknown }).hostCap).toEqual({ limit: MAX_STORED_HOSTS, stored: MAX_STORED_HOSTS, reached: true })
  }, 60_000)
})
