// Integration tests of the replay route and the history routes
// (src/admin/policy-routes.ts) through the real Worker entry: crawlers
// fetch robots.txt and pages from the Worker (src/workers/edge-worker.ts with the
// project's robots.config.ts), which records them in D1; the impact of a
// candidate robots.txt is then asked of the API, as the CLI asks it.
import { env, SELF } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import bingbotRanges from '../fixtures/ip-ranges/bingbot.json?raw'
import googlebotRanges from '../fixtures/ip-ranges/googlebot.json?raw'
import { contentHash } from '../../src/core/config/hash.ts'
import { recordRobotsVersion, writeEvents } from '../../src/ledger/ledger.ts'
import { refreshIpRanges } from '../../src/verify/store/ip-ranges.ts'
import { DAY, HOUR, googlebot, judged } from '../support/report-fixtures.ts'
import type { History, VersionText } from '../../src/admin/history.ts'
import { getImpact, type ImpactReport } from '../../src/admin/impact-queries.ts'
import { clearLedger } from '../support/workerd/ledger-tables.ts'
import { SHAPE_PATHS_SQL } from '../../src/ledger/shape-packs.ts'

const TOKEN = 'test-admin-token'
const BEARER = { Authorization: `Bearer ${TOKEN}` }
const CRAWLERS = {
  googlebot: { ua: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', ip: '66.249.64.5' },
  bingbot: { ua: 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)', ip: '157.55.39.1' },
  gptbot: { ua: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)', ip: '203.0.113.9' },
}

let served = ''
const lineOf = (text: string, line: string) => text.split('\n').indexOf(line) + 1

const crawl = (who: keyof typeof CRAWLERS, path: string) =>
  SELF.fetch(`http://localhost${path}`, { headers: { 'User-Agent': CRAWLERS[who].ua, 'CF-Connecting-IP': CRAWLERS[who].ip } }).then((r) => r.arrayBuffer())

function impact(body: unknown, query = '', headers: Record<string, string> = BEARER): Promise<Response> {
  return SELF.fetch(`http://localhost/_robots/api/impact${query}`, {
    method: 'POST',
    headers: { ...headers, 'Content-Type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
}

const api = (path: string) => SELF.fetch(`http://localhost/_robots/api${path}`, { headers: BEARER })

async function waitForRequests(n: number): Promise<void> {
  // Recording runs in waitUntil: wait for it, bounded.
  for (let i = 0; i < 200; i++) {
    const row = await env.DB.prepare(`SELECT coalesce(sum(requests), 0) AS n FROM (${SHAPE_PATHS_SQL})`).first<{ n: number }>()
    if ((row?.n ?? 0) >= n) return
    await new Promise((r) => setTimeout(r, 20))
  }
  throw new Error(`the ledger did not record ${n} requests`)
}

beforeAll(async () => {
  await clearLedger(env.DB)
  const lists: Record<string, string> = { '/common-crawlers.json': googlebotRanges, '/bingbot.json': bingbotRanges }
  await refreshIpRanges(env.ROBOTS_KV, async (url: string) => {
    const found = Object.entries(lists).find(([suffix]) => url.endsWith(suffix))
    return found ? new Response(found[1]) : new Response('not found', { status: 404 })
  })
  served = await (await SELF.fetch('http://localhost/robots.txt')).text()
  await crawl('googlebot', '/robots.txt')
  await crawl('bingbot', '/robots.txt')
  for (let i = 0; i < 6; i++) await crawl('googlebot', `/articles/${i % 3}`)
  for (let i = 0; i < 4; i++) await crawl('googlebot', `/products/${i}`)
  for (let i = 0; i < 2; i++) await crawl('bingbot', `/articles/${i}`)
  await crawl('bingbot', '/about')
  await crawl('gptbot', '/articles/0')
  await waitForRequests(14)
})

/** POST /_robots/api/impact's body: the replay, its agents capped, with how many were left out. */
type ImpactResponse = ImpactReport & { readonly omitted: number }

describe('POST /_robots/api/impact', () => {
  it('reports that Googlebot and Bingbot lose access to the article paths they crawled, by which rule and line', async () => {
    // /articles/ disallowed for everyone: in the `*` group, and in Googlebot's own group (robots.config.ts gives it one).
    const candidate = served.replaceAll('Disallow: /admin/\n', 'Disallow: /admin/\nDisallow: /articles/\n')
    expect(candidate.split('Disallow: /articles/')).toHaveLength(3)
    const res = await impact({ robotsTxt: candidate })
    expect(res.status).toBe(200)
    const body = (await res.json()) as ImpactResponse
    expect(body.summary).toMatchObject({ agents: 3, changed: 2, requests: 14, replayed: 14, lost: 8, gained: 0, protectedLosing: ['googlebot', 'bingbot'] })
    expect(body.hosts).toEqual([{ host: 'localhost', before: contentHash(served), after: contentHash(candidate) }])
    expect(body.estimate).toMatchObject({ exact: true, beyondCap: 0, beyondRead: 0 })
    const [google, bing, gpt] = body.agents
    expect(google).toMatchObject({ agentKey: 'googlebot', protected: true, requests: 10, lost: { requests: 6, share: 0.6, paths: 3 } })
    // Named as the registry names it.
    expect(google).toMatchObject({ agentId: 'googlebot', kind: 'bot', operator: 'Google', category: 'Search Engine Crawler' })
    // Googlebot's own group allowed them by no rule; Bingbot's, the `*` group, by `Allow: /`.
    // Its line in each group, found by the group's User-agent line above it (groups are in reader-safe order).
    const lines = candidate.split('\n')
    const articleLine = (agent: string) => {
      const start = lines.indexOf(`User-agent: ${agent}`)
      return lines.findIndex((l, i) => i > start && l === 'Disallow: /articles/') + 1
    }
    expect(google!.lost.changes[0]!).toMatchObject({
      host: 'localhost',
      before: { version: contentHash(served), group: 'googlebot', rule: null },
      after: { version: contentHash(candidate), group: 'googlebot', rule: { type: 'disallow', pattern: '/articles/', line: articleLine('Googlebot') } },
      requests: 6,
      pathCount: 3,
    })
    expect(google!.lost.changes[0]!.paths.map((p: { path: string }) => p.path).sort()).toEqual(['/articles/0', '/articles/1', '/articles/2'])
    expect(bing).toMatchObject({ agentKey: 'bingbot', protected: true, requests: 3, lost: { requests: 2, paths: 2 } })
    expect(bing!.lost.changes[0]!).toMatchObject({
      before: { group: '*', rule: { type: 'allow', pattern: '/', line: lineOf(served, 'Allow: /') } },
      after: { group: '*', rule: { type: 'disallow', pattern: '/articles/', line: articleLine('*') } },
    })
    // GPTBot's own group already disallowed everything: nothing changes for it.
    expect(gpt).toMatchObject({ agentKey: 'gptbot', protected: false, lost: { requests: 0 }, gained: { requests: 0 } })
    expect(body.rowsRead).toBeGreaterThan(0)
  })

  it('takes a candidate per host, "*" for the others, the lists of exempt and protected agents, and filters', async () => {
    const res = await impact({ robotsTxt: { 'other.example': 'User-agent: *\nDisallow: /\n', '*': 'User-agent: *\nDisallow: /products/\n' }, protect: ['GPTBot'] }, '?since=2d&agent=Googlebot')
    const body = (await res.json()) as ImpactResponse
    expect(res.status).toBe(200)
    expect(body.agents.map((a: { agentKey: string }) => a.agentKey)).toEqual(['googlebot'])
    expect(body.agents[0]).toMatchObject({ protected: false, lost: { requests: 4, paths: 4 } })
    expect(body.summary.protectedLosing).toEqual([])
  })

  it('refuses what it cannot read with a 400 naming the field, and asks for the token', async () => {
    const cases: [unknown, string, string?][] = [
      ['{', 'body'],
      [[], 'body'],
      [{}, 'robotsTxt'],
      [{ robotsTxt: 42 }, 'robotsTxt'],
      [{ robotsTxt: { 'Bad Host': 'x' } }, 'robotsTxt.Bad Host'],
      [{ robotsTxt: 'x'.repeat(600 * 1024) }, 'robotsTxt'],
      [{ robotsTxt: 'x', protect: ['google bot'] }, 'protect[0]'],
      [{ robotsTxt: 'x', exempt: 'chatgpt-user' }, 'exempt'],
      // A field of an earlier draft: refused by name, never ignored.
      [{ robotsTxt: 'x', baseline: 'recorded' }, 'baseline'],
      [{ robotsTxt: 'x', extra: 1 }, 'extra'],
      [{ robotsTxt: 'x' }, 'since', '?since=yesterday'],
      [{ robotsTxt: 'x' }, 'category', '?category=AI'],
    ]
    for (const [body, param, query] of cases) {
      const res = await impact(body, query)
      expect(res.status, param).toBe(400)
      expect(((await res.json()) as { param: string }).param, param).toBe(param)
    }
    const big = await SELF.fetch('http://localhost/_robots/api/impact', { method: 'POST', headers: { ...BEARER, 'Content-Length': String(5 * 1024 * 1024) }, body: 'x' })
    expect(big.status).toBe(400)
    await big.arrayBuffer()
    const refused = await impact({ robotsTxt: 'x' }, '', {})
    expect(refused.status).toBe(401)
    expect(await refused.text()).not.toContain('googlebot')
  })
})

describe('bounds, caps and escaping', () => {
  const HOST = 'cap.example'
  const TEXT = 'User-agent: *\nAllow: /\n'

  beforeAll(async () => {
    const now = Date.now()
    await recordRobotsVersion(env.DB, { host: HOST, hash: contentHash(TEXT), text: TEXT, time: now - DAY })
    // More distinct paths in a day than the old cap on shapes (1,000), one of them hostile.
    const paths = ['/a/\u202egnp.exe\u0007', ...Array.from({ length: 1004 }, (_, i) => `/p/${i}`)]
    await writeEvents(
      env.DB,
      paths.map((path) => judged({ host: HOST, agent: googlebot, path, robotsVersion: contentHash(TEXT), time: now - HOUR })),
    )
  })

  it('judges every path up to the cap; beyond it, a group of paths no rule tells apart once, exactly, and a group a rule splits path by path', async () => {
    const range = { since: Date.now() - 2 * DAY, until: Date.now() + HOUR, host: HOST }
    const options = (text: string, maxShapes: number) => ({ candidates: new Map([[HOST, text]]), exempt: new Set<string>(), protect: new Set<string>(), maxShapes })
    const each = await getImpact(env.DB, range, options('User-agent: *\nDisallow: /\n', 2000))
    expect(each.estimate).toMatchObject({ exact: true, beyondRead: 0, grouped: 0 })
    expect(each.summary).toMatchObject({ requests: 1005, replayed: 1005, lost: 1005, shapes: 1005 })
    const whole = await getImpact(env.DB, range, options('User-agent: *\nDisallow: /\n', 100))
    expect(whole.estimate).toMatchObject({ exact: true, beyondCap: 0, beyondRead: 0, grouped: 1004, groups: 1 })
    expect(whole.summary).toMatchObject({ requests: 1005, replayed: 1005, lost: 1005, shapes: 2 })
    expect(whole.agents[0]!.lost.changes[0]!.paths.map((p) => p.path)).toEqual(['/p/*', '/a/\u202egnp.exe\u0007'])
    // Beyond the cap, a group a rule splits is read path by path, most requested first, up to the cap: the rest is said.
    const capped = await getImpact(env.DB, range, options('User-agent: *\nDisallow: /p/1\n', 100))
    expect(capped.estimate).toMatchObject({ exact: false, beyondRead: 1004 - 100, grouped: 0 })
    // Disallow: /p/1 tells /p/1 and /p/12 from /p/2: that group is read path by path.
    const split = (await (await impact({ robotsTxt: { [HOST]: 'User-agent: *\nDisallow: /p/1\n' } }, `?host=${HOST}`)).json()) as ImpactResponse
    expect(split.estimate).toMatchObject({ exact: true, beyondRead: 0, grouped: 0, groups: 0 })
    // /p/1, /p/10 to /p/19, /p/100 to /p/199, /p/1000 to /p/1003.
    expect(split.summary).toMatchObject({ requests: 1005, replayed: 1005, lost: 115, shapes: 1005 })
    expect(split.omitted).toBe(0)
    expect(split.agents[0]!.lost.changes[0]).toMatchObject({ requests: 115, pathCount: 115 })
    // At most MAX_PATHS paths listed per change; pathCount counts them all.
    expect(split.agents[0]!.lost.changes[0]!.paths).toHaveLength(20)
  })

  it('answers as the report does: JSON with the admin headers, hostile text kept as data for the consumers to escape', async () => {
    const res = await impact({ robotsTxt: { [HOST]: 'User-agent: *\nDisallow: /a/\n' } }, `?host=${HOST}`)
    expect(res.headers.get('content-type')).toMatch(/^application\/json/)
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(res.headers.get('cache-control')).toBe('no-store')
    const raw = await res.text()
    // JSON escapes the control character; the bidi override stays data, which the CLI and the dashboard show as an escape.
    expect(raw).not.toContain('\u0007')
    expect(raw).toContain('\\u0007')
    const body = JSON.parse(raw) as ImpactResponse
    expect(body.agents[0]!.lost.changes[0]!.paths).toEqual([{ path: '/a/\u202egnp.exe\u0007', requests: 1 }])
  })

  it("refuses a range beyond the ledger's retention", async () => {
    const res = await impact({ robotsTxt: 'x' }, '?since=500d')
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ param: 'since' })
  })
})

describe('the baseline: the robots.txt served now', () => {
  const V1 = 'User-agent: *\nAllow: /\n'
  const V2 = 'User-agent: *\nDisallow: /drafts/\n'
  const CANDIDATE = 'User-agent: *\nDisallow: /drafts/\nDisallow: /old/\n'

  beforeAll(async () => {
    const now = Date.now()
    await recordRobotsVersion(env.DB, { host: 'b.example', hash: contentHash(V1), text: V1, time: now - 3 * DAY })
    await recordRobotsVersion(env.DB, { host: 'b.example', hash: contentHash(V2), text: V2, time: now - DAY, deployment: { id: 'a1b2c3d4-0000-4000-8000-000000000002', tag: 'v2' } })
    await writeEvents(env.DB, [
      judged({ host: 'b.example', agent: googlebot, path: '/drafts/a', robotsVersion: contentHash(V1), time: now - 2 * DAY }),
      judged({ host: 'b.example', agent: googlebot, path: '/old/a', robotsVersion: contentHash(V2), time: now - HOUR }),
    ])
  })

  it('compares with the version served now by default: a change already deployed is no news', async () => {
    const body = (await (await impact({ robotsTxt: CANDIDATE }, '?host=b.example')).json()) as ImpactResponse
    expect(body.agents[0]!.lost.changes.map((c) => [c.paths[0]!.path, c.before.version])).toEqual([['/old/a', contentHash(V2)]])
  })

  it('lists every version of a host with when and by which deployment it was first served, and marks rule changes', async () => {
    const history = (await (await api('/history?host=b.example')).json()) as History
    expect(history.truncated).toBe(false)
    expect(history.hosts[0]!.versions.map((v) => [v.hash, v.current, v.rulesChanged, v.deployment, v.lines])).toEqual([
      [contentHash(V1), false, true, null, 2],
      [contentHash(V2), true, true, { id: 'a1b2c3d4-0000-4000-8000-000000000002', tag: 'v2' }, 2],
    ])
    const all = (await (await api('/history')).json()) as History
    expect(all.hosts.map((h: { host: string }) => h.host)).toEqual(['b.example', 'cap.example', 'localhost'])
  })

  it("gives one version's text with the version before it, for the diff", async () => {
    const res = await api(`/history/version?host=b.example&version=${contentHash(V2)}`)
    const body = (await res.json()) as VersionText
    expect(body).toMatchObject({ host: 'b.example', text: V2, version: { hash: contentHash(V2), current: true, rulesChanged: true }, previous: { hash: contentHash(V1), text: V1 } })
    expect((await api(`/history/version?host=b.example&version=${contentHash('nope')}`)).status).toBe(404)
    const missing = await api('/history/version?host=b.example')
    expect(missing.status).toBe(400)
    expect(await missing.json()).toMatchObject({ param: 'version' })
  })
})

describe('the deployment behind each version', () => {
  it('is recorded from the version metadata binding (wrangler.toml [version_metadata]) when the Worker serves a version', async () => {
    const id = env.CF_VERSION_METADATA.id
    expect(id).toMatch(/^[0-9a-f-]{36}$/)
    const history = (await (await api('/history?host=localhost')).json()) as History
    expect(history.hosts[0]!.versions).toEqual([expect.objectContaining({ hash: contentHash(served), current: true, deployment: { id, tag: null } })])
  })
})
