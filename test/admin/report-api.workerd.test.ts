// Integration tests of the report's HTTP surface (src/admin/routes.ts)
// through the real Worker entry: the admin token, the JSON and CSV API, the
// drill-down, the dashboard shell and its headers. The ledger is seeded with
// writeEvents; times are relative to now because the API's default range is
// the last seven days.
import { createExecutionContext, env, SELF, waitOnExecutionContext } from 'cloudflare:test'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { createApp } from '../../src/package/app.ts'
import type { JudgedRequest } from '../../src/core/events.ts'
import { offeredToken } from '../../src/admin/admin-auth.ts'
import { sameSecret } from '../../src/core/http/same-secret.ts'
import { escapeHtml } from '../../src/admin/dashboard/shell.ts'
import { MAX_AGENTS, parseTime, reportRoutes } from '../../src/admin/routes.ts'
import { writeEvents } from '../../src/ledger/ledger.ts'
import { ccbot, googlebot, gptbot, HOUR, judged, fetched, DAY } from '../support/report-fixtures.ts'
import { clearLedger } from '../support/workerd/ledger-tables.ts'

const TOKEN = 'test-admin-token'
const BEARER = { Authorization: `Bearer ${TOKEN}` }
const basic = (user: string, password: string) => ({ Authorization: `Basic ${btoa(String.fromCharCode(...new TextEncoder().encode(`${user}:${password}`)))}` })
const GPTBOT_UA = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)'
/** An unknown bot (identifyAgent keys it `evilbot`) whose header carries markup. */
const EVIL_UA = 'EvilBot/1.0 (<img src=x onerror=alert(1)>; +http://x.example/bot)'

const get = (path: string, headers: Record<string, string> = {}) => SELF.fetch(`http://localhost${path}`, { headers, redirect: 'manual' })
const api = (path: string, headers: Record<string, string> = BEARER) => get(`/_robots/api${path}`, headers)

let now = 0

beforeEach(async () => {
  const db = env.DB
  await clearLedger(db)
  now = Date.now()
  const at = (hoursAgo: number, overrides: Partial<JudgedRequest>) => judged({ time: now - hoursAgo * HOUR, ...overrides })
  await writeEvents(db, [
    fetched({ agent: gptbot, time: now - 30 * HOUR, userAgent: GPTBOT_UA }),
    ...Array.from({ length: 3 }, (_, i) => at(20 - i, { agent: gptbot, path: `/admin/${i}`, allowed: false, userAgent: GPTBOT_UA })),
    at(5, { host: 'other.example', agent: ccbot, path: '/x' }),
    at(1, { agent: googlebot, path: '/' }),
    at(1, { agent: { tokens: ['evilbot'], kind: 'bot', obeysRobotsTxt: true }, path: '/admin/<b>', allowed: false, userAgent: EVIL_UA, verification: 'unverified' }),
    // Formula-looking text from the ledger, for the CSV.
    at(3, { agent: { tokens: ['formula'], kind: 'bot', obeysRobotsTxt: true, operator: '=HYPERLINK("http://evil.example")', category: '@SUM(1)' }, path: '/admin/=1+1', allowed: false }),
    // Ten days ago: outside the default range.
    at(240, { agent: gptbot, path: '/admin/old', allowed: false }),
  ])
})

describe('the admin token', () => {
  it('refuses a request without one with 401, both challenges, and no data', async () => {
    for (const path of ['/_robots/', '/_robots/api/report', '/_robots/api/report.csv', '/_robots/api/agents/gptbot/requests', '/_robots/nope']) {
      const res = await get(path)
      expect(res.status, path).toBe(401)
      const challenge = res.headers.get('www-authenticate') ?? ''
      expect(challenge).toContain('Basic realm="robots-edge", charset="UTF-8"')
      expect(challenge).toContain('Bearer realm="robots-edge"')
      const body = await res.text()
      expect(body).not.toContain('gptbot')
      expect(body).not.toContain('/admin/')
    }
  })

  it('answers the API with JSON and the dashboard with text', async () => {
    expect(await (await api('/report', {})).json()).toEqual({ error: expect.stringContaining('Bearer') })
    expect((await get('/_robots/')).headers.get('content-type')).toMatch(/^text\/plain/)
  })

  it.each([
    ['a wrong Bearer token', { Authorization: 'Bearer wrong-token' }],
    ['a Bearer token with a suffix', { Authorization: `Bearer ${TOKEN}x` }],
    ['a Bearer token cut short', { Authorization: `Bearer ${TOKEN.slice(0, -1)}` }],
    ['an empty Bearer', { Authorization: 'Bearer ' }],
    ['the token as a Basic user name', basic(TOKEN, '')],
    ['a wrong Basic password', basic('admin', 'nope')],
    ['Basic that is not base64', { Authorization: 'Basic %%%' }],
    ['Basic without a colon', { Authorization: `Basic ${btoa(TOKEN)}` }],
    ['another scheme', { Authorization: `Token ${TOKEN}` }],
    ['the bare token', { Authorization: TOKEN }],
    ['a 64 KiB header', { Authorization: `Bearer ${TOKEN}${'x'.repeat(65536)}` }],
  ])('refuses %s', async (_name, headers) => {
    expect((await api('/report', headers)).status).toBe(401)
    expect((await get('/_robots/', headers)).status).toBe(401)
  })

  it.each([
    ['Bearer', BEARER],
    ['Bearer in lower case', { Authorization: `bearer ${TOKEN}` }],
    ['Basic with any user name', basic('admin', TOKEN)],
    ['Basic with an empty user name', basic('', TOKEN)],
  ])('accepts %s', async (_name, headers) => {
    expect((await api('/report', headers)).status).toBe(200)
    expect((await get('/_robots/', headers)).status).toBe(200)
  })

  it('refuses everyone, the right token included, when no token is configured', async () => {
    const app = createApp({ rules: [{ userAgent: '*', disallow: '/admin/' }] }, { routes: (a) => reportRoutes(a), record: () => {} })
    for (const configured of [undefined, '']) {
      for (const headers of [{}, BEARER, { Authorization: 'Bearer ' }, { Authorization: 'Bearer undefined' }, basic('', '')]) {
        const ctx = createExecutionContext()
        const res = await app.fetch(new Request('http://localhost/_robots/api/report', { headers }), { ...env, ROBOTS_ADMIN_TOKEN: configured }, ctx)
        await waitOnExecutionContext(ctx)
        expect(res.status).toBe(401)
      }
    }
  })

  it('reads the Basic password as UTF-8 and compares whole secrets', async () => {
    expect(offeredToken(basic('me', 'pässwörd:with:colons').Authorization)).toBe('pässwörd:with:colons')
    expect(offeredToken('Bearer abc')).toBe('abc')
    expect(offeredToken(undefined)).toBeNull()
    expect(await sameSecret('abc', 'abc')).toBe(true)
    expect(await sameSecret('abc', 'abd')).toBe(false)
    expect(await sameSecret('abc', 'abcd')).toBe(false)
    expect(await sameSecret('', '')).toBe(true)
  })
})

describe('GET /_robots/api/report', () => {
  it('returns the last seven days by default, worst agent first, with when each was last seen', async () => {
    const res = await api('/report')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^application\/json/)
    const report = (await res.json()) as { filter: { since: number; until: number }; agents: { agentKey: string; lastSeen: number; evidence: { violations: { counted: number } } }[] }
    expect(report.filter.until - report.filter.since).toBe(7 * DAY)
    expect(Math.abs(report.filter.until - Date.now())).toBeLessThan(60_000)
    expect(report.agents.map((a) => a.agentKey).sort()).toEqual(['ccbot', 'evilbot', 'formula', 'googlebot', 'gptbot'])
    const gpt = report.agents.find((a) => a.agentKey === 'gptbot')!
    // The fetch 30 h ago came first, so its three violations count; the one ten days ago is out of range.
    expect(gpt.evidence.violations.counted).toBe(3)
    expect(gpt.lastSeen).toBe(now - 18 * HOUR)
    expect(report.agents[0]!.agentKey).toBe('gptbot')
  })

  it.each([
    ['host', '?host=other.example', ['ccbot']],
    ['host, case-insensitively', '?host=OTHER.example', ['ccbot']],
    ['agent', '?agent=gptbot', ['gptbot']],
    ['agent, case-insensitively (product tokens are)', '?agent=GPTBot', ['gptbot']],
    ['category', '?category=AI%20Crawler', ['ccbot', 'gptbot']],
    ['a relative since', '?since=2h', ['evilbot', 'googlebot']],
    ['since in ms', `?since=${Date.now() - 2.5 * HOUR}`, ['evilbot', 'googlebot']],
    ['an ISO until', `?until=${new Date(Date.now() - 10 * HOUR).toISOString()}`, ['gptbot']],
    ['an ISO range over the old request', `?since=${new Date(Date.now() - 11 * DAY).toISOString().slice(0, 10)}&until=9d`, ['gptbot']],
  ])('filters by %s', async (_name, query, expected) => {
    const res = await api(`/report${query}`)
    expect(res.status).toBe(200)
    const report = (await res.json()) as { agents: { agentKey: string }[] }
    expect(report.agents.map((a) => a.agentKey).sort()).toEqual(expected)
  })

  it.each([
    ['since', '?since=yesterday'],
    ['since', '?since=7x'],
    ['until', '?until=2026-13-45T99:00Z'],
    ['since', '?since=1h&until=2h'],
    ['since', '?since=500d'],
    ['host', '?host=exa%20mple.com'],
    ['host', `?host=${'a'.repeat(300)}`],
    ['agent', '?agent=gpt%00bot'],
    ['category', `?category=${'x'.repeat(100)}`],
    ['agnet', '?agnet=gptbot'],
    ['host', '?host=a.example&host=b.example'],
    ['source', '?source=bigquery'],
  ])('answers a bad %s with 400 and a JSON error naming it', async (param, query) => {
    for (const path of [`/report${query}`, `/report.csv${query}`]) {
      const res = await api(path)
      expect(res.status, path).toBe(400)
      const body = (await res.json()) as { error: string; param: string }
      expect(body.param).toBe(param)
      expect(body.error).toMatch(new RegExp(`^${param}: `))
    }
  })

  it('lists at most MAX_AGENTS agents, says how many it left out, and keeps them all in the CSV', async () => {
    const invented = Array.from({ length: MAX_AGENTS + 1 }, (_, i) => judged({ time: now - HOUR, agent: { tokens: [`made-up-${i}`], kind: 'bot', obeysRobotsTxt: true } }))
    await writeEvents(env.DB, invented)
    const report = (await (await api('/report')).json()) as { agents: unknown[]; omitted: Record<string, number>; totals: { agents: number } }
    expect(report.agents).toHaveLength(MAX_AGENTS)
    expect(report.omitted).toEqual({ agents: 6, spoofed: 0, tools: 0, unchecked: 0 })
    expect(report.totals.agents).toBe(MAX_AGENTS + 6)
    const csv = await (await api('/report.csv')).text()
    expect(csv.split('\r\n').filter((l) => l.startsWith('agent,'))).toHaveLength(MAX_AGENTS + 6)
  })

  it('never answers 5xx to garbage', async () => {
    for (const query of [
      '?since=%',
      '?since=%zz',
      '?since=-1',
      '?since=99999999999999999999',
      '?until=0',
      '?since=0&until=1',
      '?since=1e3',
      '?since=NaN',
      '?since=Infinity',
      '?=x',
      '?since',
      '?host=' + '%C0'.repeat(10),
    ]) {
      const res = await api(`/report${query}`)
      expect(res.status, query).toBeLessThan(500)
    }
  })
})

describe('GET /_robots/api/report.csv', () => {
  it('downloads the report as CSV', async () => {
    const res = await api('/report.csv')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="robots-edge-report.csv"')
    const lines = (await res.text()).split('\r\n')
    expect(lines[0]).toMatch(/^section,agent,operator,category,verdict/)
    expect(lines.some((l) => l.startsWith('agent,gptbot,OpenAI,AI Crawler,'))).toBe(true)
  })

  it('neutralises text a spreadsheet would run as a formula', async () => {
    const text = await (await api('/report.csv?agent=formula')).text()
    const row = text.split('\r\n').find((l) => l.startsWith('agent,formula,'))!
    expect(row).toContain(`"'=HYPERLINK(""http://evil.example"")"`)
    expect(row).toContain(`'@SUM(1)`)
    expect(row).not.toMatch(/,=|,@|,\+|,-[^,]/)
  })
})

describe('GET /_robots/api/agents/:agent/requests', () => {
  it("returns one agent's events, newest first, with the raw User-Agent", async () => {
    const res = await api('/agents/gptbot/requests')
    expect(res.status).toBe(200)
    const body = (await res.json()) as { agent: string; events: { type: string; path: string; userAgent: string; time: number }[]; next: number | null }
    expect(body.agent).toBe('gptbot')
    expect(body.events.map((e) => e.path)).toEqual(['/admin/2', '/admin/1', '/admin/0', '/robots.txt', '/admin/old'])
    expect(body.events[0]!.userAgent).toBe(GPTBOT_UA)
    expect(body.next).toBeNull()
  })

  it('shows only the requests behind the counted violations with violations=1, and takes the agent in any case', async () => {
    const body = (await (await api('/agents/GPTBot/requests?violations=1')).json()) as { agent: string; events: { path: string; class: string; counted: boolean }[] }
    expect(body.agent).toBe('gptbot')
    expect(body.events.map((e) => [e.path, e.class, e.counted])).toEqual([
      ['/admin/2', 'afterFetch', true],
      ['/admin/1', 'afterFetch', true],
      ['/admin/0', 'afterFetch', true],
      // Ten days ago, before its fetch: never fetched.
      ['/admin/old', 'neverFetched', true],
    ])
  })

  it('pages with limit and before, and filters by host', async () => {
    const first = (await (await api('/agents/gptbot/requests?limit=2')).json()) as { events: { path: string }[]; next: number }
    expect(first.events.map((e) => e.path)).toEqual(['/admin/2', '/admin/1'])
    expect(first.next).toBe(now - 19 * HOUR)
    const second = (await (await api(`/agents/gptbot/requests?limit=2&before=${first.next}`)).json()) as { events: { path: string }[] }
    expect(second.events.map((e) => e.path)).toEqual(['/admin/0', '/robots.txt'])
    const other = (await (await api('/agents/ccbot/requests?host=other.example')).json()) as { events: unknown[] }
    expect(other.events).toHaveLength(1)
    expect(((await (await api('/agents/ccbot/requests?host=example.com')).json()) as { events: unknown[] }).events).toEqual([])
  })

  it('keeps markup in a stored header as data, and answers an unknown agent with no events', async () => {
    const evil = (await (await api('/agents/evilbot/requests')).json()) as { events: { userAgent: string; path: string }[] }
    expect(evil.events[0]).toMatchObject({ userAgent: EVIL_UA, path: '/admin/<b>' })
    expect(await (await api('/agents/%3Cscript%3E/requests')).json()).toMatchObject({ agent: '<script>', events: [] })
  })

  it.each([
    ['limit', '?limit=0'],
    ['limit', '?limit=501'],
    ['limit', '?limit=ten'],
    ['limit', '?limit=1.5'],
    ['before', '?before=soon'],
    ['host', '?host=%3Cx%3E'],
    ['since', '?since=7d'],
    ['agent', '', '/agents/a%01b/requests'],
  ])('answers a bad %s with 400', async (param, query, path = '/agents/gptbot/requests') => {
    const res = await api(`${path}${query}`)
    expect(res.status).toBe(400)
    expect(((await res.json()) as { param: string }).param).toBe(param)
  })
})

describe('the dashboard', () => {
  it('redirects /_robots to /_robots/', async () => {
    const res = await get('/_robots')
    expect(res.status).toBe(308)
    expect(res.headers.get('location')).toBe('/_robots/')
  })

  // Each route answers its own path only: one "/" more is a 404 (a loose router must not turn it into the route).
  it('answers exact paths: one trailing slash more is a 404, and /_robots/ is not redirected', async () => {
    expect((await get('/_robots/', BEARER)).status).toBe(200)
    for (const path of ['/report/', '/report.csv/', '/agents/gptbot/requests/', '/report/analytics-engine/']) {
      const res = await api(path)
      expect(res.status, path).toBe(404)
      expect(((await res.json()) as { error: string }).error).toMatch(/^not found/)
    }
    expect((await get('/_robots/api/report/')).status).toBe(401)
  })

  it('serves a shell that loads its script and the chart library from static assets, with no inline script', async () => {
    const res = await get('/_robots/', BEARER)
    expect(res.headers.get('content-type')).toMatch(/^text\/html/)
    const html = await res.text()
    expect(html).toContain('<meta name="robots" content="noindex, nofollow">')
    expect(html).toContain('<script type="module" src="/_robots/static/dashboard.js"></script>')
    expect(html).toContain('<script src="/_robots/static/uPlot.iife.min.js" defer></script>')
    expect(html.match(/<script[^>]*>[^<]+<\/script>/)).toBeNull()
    expect(html).not.toMatch(/ on[a-z]+=/i)
    expect(html).not.toContain('gptbot')
  })

  it('escapes what it takes from the request', async () => {
    const payload = '"><script>alert(1)</script><img src=x onerror=alert(2)>'
    const q = encodeURIComponent(payload)
    const html = await (await get(`/_robots/?agent=${q}&since=${q}&category=${q}&host=${q}`, BEARER)).text()
    expect(html).not.toContain('<script>alert(1)')
    expect(html).not.toContain('<img src=x')
    expect(html).toContain(`data-agent="${escapeHtml(payload)}"`)
    expect(html).toContain(`<option value="${escapeHtml(payload)}" selected>Since ${escapeHtml(payload)}</option>`)
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;')
  })

  it('sets noindex, no-store, nosniff, no-referrer and a strict CSP on every /_robots/ response', async () => {
    const responses = [
      await get('/_robots/', BEARER),
      await api('/report'),
      await api('/report.csv'),
      await api('/report?since=x'),
      await api('/agents/gptbot/requests'),
      await get('/_robots/'),
      await get('/_robots/nope', BEARER),
      await get('/_robots'),
    ]
    for (const res of responses) {
      expect(res.headers.get('x-robots-tag'), res.url).toBe('noindex, nofollow')
      expect(res.headers.get('cache-control')).toBe('no-store')
      expect(res.headers.get('x-content-type-options')).toBe('nosniff')
      expect(res.headers.get('referrer-policy')).toBe('no-referrer')
      const csp = res.headers.get('content-security-policy') ?? ''
      expect(csp).toContain("default-src 'none'")
      expect(csp).toContain("script-src 'self'")
      expect(csp).not.toContain('unsafe-inline')
      expect(csp).toContain("frame-ancestors 'none'")
    }
  })

  it('answers unknown /_robots/ paths with 404, never the origin', async () => {
    const res = await get('/_robots/api/nope', BEARER)
    expect(res.status).toBe(404)
    expect(await res.json()).toEqual({ error: expect.stringContaining('not found') })
  })
})

describe('the guard and /_robots/', () => {
  it('never judges /_robots/ requests, even from a crawler refused everywhere else', async () => {
    // robots.config.ts refuses GPTBot on every path.
    expect((await get('/anything', { 'User-Agent': GPTBOT_UA })).status).toBe(403)
    expect((await get('/_robots/api/report', { 'User-Agent': GPTBOT_UA, ...BEARER })).status).toBe(200)
    expect((await get('/_robots/', { 'User-Agent': GPTBOT_UA })).status).toBe(401)
    expect((await get('/_robots/api/agents/gptbot/requests', { 'User-Agent': EVIL_UA, ...BEARER })).status).toBe(200)
    await new Promise((r) => setTimeout(r, 100))
    const { results } = await env.DB.prepare("SELECT path FROM events WHERE path LIKE '/_robots%'").all()
    expect(results).toEqual([])
  })
})

describe('parseTime', () => {
  const t = Date.UTC(2026, 0, 5, 10)
  it.each([
    ['24h', t - 24 * HOUR],
    ['7d', t - 7 * DAY],
    ['2w', t - 14 * DAY],
    ['0h', t],
    ['1767607200000', 1767607200000],
    ['2026-01-05', Date.UTC(2026, 0, 5)],
    ['2026-01-05T10:00', t],
    ['2026-01-05T10:00Z', t],
    ['2026-01-05T12:00:00.000+02:00', t],
  ])('reads %s', (value, expected) => expect(parseTime(value, t)).toBe(expected))
  it.each(['', 'now', 'd7', '-7d', '7 d', '2026-1-5', '2026-01-05 10:00', 'Mon, 05 Jan 2026 10:00:00 GMT', '2026-02-30T00:00Z'])('refuses %j', (value) => {
    expect(parseTime(value, t)).toBeNull()
  })
})

describe('the Analytics Engine report endpoint', () => {
  it('says how to configure it when the secrets are missing', async () => {
    const res = await SELF.fetch('https://example.com/_robots/api/report/analytics-engine', { headers: { Authorization: 'Bearer test-admin-token' } })
    expect(res.status).toBe(400)
    expect(((await res.json()) as { error: string }).error).toContain('AE_ACCOUNT_ID')
  })

  it('needs the admin token like every report', async () => {
    const res = await SELF.fetch('https://example.com/_robots/api/report/analytics-engine')
    expect(res.status).toBe(401)
  })
})

describe('the report from Analytics Engine (source=analytics-engine)', () => {
  it('says how to configure it when the secrets are missing, naming the parameter', async () => {
    const res = await api('/report?source=analytics-engine')
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ param: 'source', error: expect.stringContaining('AE_ACCOUNT_ID') })
  })

  it('judges from the dataset through its SQL API, and says so', async () => {
    const spy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (_input, init) => {
      const sql = String(init?.body)
      const data = sql.includes('AS points')
        ? [
            {
              agent_key: 'gptbot',
              verification: 'verified',
              class: 'afterFetch',
              type: 'request',
              allowed: 0,
              operator: 'OpenAI',
              category: 'AI Crawler',
              kind: 'bot',
              requests: 40,
              blocked: 40,
              points: 4,
              first: 1795250000,
              last: 1795250100,
            },
          ]
        : []
      return Response.json({ data })
    })
    try {
      const app = createApp({ rules: [{ userAgent: '*', disallow: '/admin/' }] }, { routes: (a) => reportRoutes(a), record: () => {} })
      const ctx = createExecutionContext()
      const res = await app.fetch(
        new Request('https://example.com/_robots/api/report?source=analytics-engine&agent=GPTBot', { headers: { Authorization: 'Bearer test-admin-token' } }),
        { ...env, AE_ACCOUNT_ID: 'acc', AE_API_TOKEN: 'tok' },
        ctx,
      )
      await waitOnExecutionContext(ctx)
      expect(res.status).toBe(200)
      expect(await res.json()).toMatchObject({
        source: 'analytics-engine',
        estimates: true,
        agents: [{ agentKey: 'gptbot', verdict: 'ignores robots.txt', evidence: { requests: 40, violations: { afterFetch: 40, counted: 40 } } }],
      })
      expect(spy.mock.calls.every(([, init]) => String(init?.body).includes("blob3 = 'gptbot'"))).toBe(true)
    } finally {
      spy.mockRestore()
    }
  })
})

describe('the Analytics Engine report endpoint, configured', () => {
  it("queries the account's SQL API and answers its rows", async () => {
    const sent: Request[] = []
    const spy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      sent.push(new Request(input as RequestInfo, init))
      return Response.json({
        data: [{ agent_key: 'gptbot', spoofed: 0, operator: 'OpenAI', category: 'AI Crawler', requests: 40, disallowed: 40, blocked: 40, verified: 0, robots_fetches: 1, last_seen: 1795250000 }],
      })
    })
    try {
      const app = createApp({ rules: [{ userAgent: '*', disallow: '/admin/' }] }, { routes: (a) => reportRoutes(a), record: () => {} })
      const ctx = createExecutionContext()
      const res = await app.fetch(
        new Request('https://example.com/_robots/api/report/analytics-engine?since=7d&agent=gptbot', { headers: { Authorization: 'Bearer test-admin-token' } }),
        { ...env, AE_ACCOUNT_ID: 'acc', AE_API_TOKEN: 'tok' },
        ctx,
      )
      await waitOnExecutionContext(ctx)
      expect(res.status).toBe(200)
      expect(await res.json()).toMatchObject({ source: 'analytics-engine', sampled: true, agents: [{ agentKey: 'gptbot', disallowed: 40 }] })
      expect(sent[0]!.url).toBe('https://api.cloudflare.com/client/v4/accounts/acc/analytics_engine/sql')
      expect(await sent[0]!.text()).toContain("blob3 = 'gptbot'")
    } finally {
      spy.mockRestore()
    }
  })
})
