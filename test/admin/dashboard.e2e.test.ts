// End to end: the built Worker (test/support/e2e-worker.ts) receives crawler
// traffic over HTTP, records it in D1, and the dashboard shows it in
// headless Chromium: the tables, the charts, the drill-down, the token, and
// a User-Agent carrying markup that must stay text.
import { request } from 'node:http'
import { chromium, type Browser, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { ipRangeEntries } from '../../dev/ip-ranges.ts'
import { layoutOf } from '../support/layout.ts'
import { startBuiltWorker, type RunningWorker } from '../support/e2e-worker.ts'

const TOKEN = 'e2e-admin-token'
const UA = {
  gptbot: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)',
  googlebot: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  bingbot: 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
  ccbot: 'CCBot/2.0 (https://commoncrawl.org/faq/)',
  // Identified as a bot (key `evilbot`), so it is judged and stored with its markup.
  evil: 'EvilBot/1.0 (<img src=x onerror=alert(1)><script>alert(2)</script>; +http://x.example/bot)',
}

/** A person's browser: headless Chromium's own header names it HeadlessChrome, which the guard would judge as a bot on /favicon.ico. */
const BROWSER_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36'

/**
 * Client addresses (CF-Connecting-IP) inside the operators' lists the test
 * seeds (test/fixtures/ip-ranges, stored as the cron stores them), so
 * Google's, Bing's and OpenAI's claims are verified, not left unchecked.
 */
const IP: Partial<Record<keyof typeof UA, string>> = { googlebot: '66.249.66.1', bingbot: '157.55.39.12', gptbot: '20.171.206.20' }

let worker: RunningWorker
let browser: Browser

async function send(path: string, ua: string, times = 1, ip?: string): Promise<void> {
  for (let i = 0; i < times; i++) {
    const res = await fetch(`${worker.origin}${path.replace('#', String(i))}`, { headers: { 'User-Agent': ua, ...(ip ? { 'CF-Connecting-IP': ip } : {}) } })
    await res.arrayBuffer()
  }
}

/** One request with the User-Agent sent as UTF-8 bytes, as real clients send it. */
function sendRaw(path: string, ua: string): Promise<void> {
  const { hostname, port } = new URL(worker.origin)
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, path, headers: { 'User-Agent': Buffer.from(ua, 'utf8').toString('latin1') } }, (res) => {
      res.resume()
      res.on('end', () => resolve())
    })
    req.on('error', reject)
    req.end()
  })
}

async function api<T>(path: string): Promise<T> {
  const res = await fetch(`${worker.origin}/_robots/api${path}`, { headers: { Authorization: `Bearer ${TOKEN}` } })
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`)
  return (await res.json()) as T
}

/**
 * Three days of history: the live hour's counters copied back hour by hour,
 * so the timeline has something to draw. The report reads counters only;
 * the raw rows stay the live ones, for the drill-down.
 */
async function addHistory(liveSince: number): Promise<void> {
  const liveHour = Math.floor(liveSince / 3_600_000) * 3_600_000
  const copy = (hoursAgo: number, agent: string, classes: string) => ({
    sql: `INSERT INTO counts_hourly (agent_key, hour, host, verification, class, requests, blocked, sampled, first_time, last_time)
          SELECT agent_key, hour - ?1, host, verification, class, requests, blocked, 0, first_time - ?1, last_time - ?1 FROM counts_hourly
          WHERE agent_key = ?2 AND hour >= ?3 AND class IN (SELECT value FROM json_each(?4))
          ON CONFLICT (agent_key, hour, host, verification, class) DO UPDATE SET requests = requests + excluded.requests`,
    params: [hoursAgo * 3_600_000, agent, liveHour, classes],
  })
  const statements = []
  for (let h = 1; h <= 72; h++) {
    statements.push(copy(h, 'googlebot', '["allowed"]'), copy(h, 'bingbot', '["allowed"]'))
    if (h % 5 === 0) statements.push(copy(h, 'bingbot', '["afterFetch"]'))
    if (h % 7 === 0) statements.push(copy(h, 'gptbot', '["afterFetch"]'))
    if (h % 11 === 0) statements.push(copy(h, 'ccbot', '["neverFetched"]'))
  }
  await worker.batch(statements)
}

beforeAll(async () => {
  worker = await startBuiltWorker({ ROBOTS_ADMIN_TOKEN: TOKEN, IP_HASH_SALT: 'e2e-salt' })
  browser = await chromium.launch({
    // Found, or installed, by test/support/chromium.ts (the project's global setup).
    executablePath: inject('chromium'),
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  })
  // Google's common crawlers', Bing's and OpenAI's lists, before the first request loads them.
  await worker.putKv((await ipRangeEntries()).entries)
  const liveSince = Date.now()
  // robots.config.ts: GPTBot and CCBot refused everywhere; Googlebot kept out of /private/; everyone out of /admin/.
  await send('/robots.txt', UA.gptbot, 1, IP.gptbot)
  await send('/articles/#', UA.gptbot, 4, IP.gptbot)
  await send('/robots.txt', UA.googlebot, 1, IP.googlebot)
  await send('/blog/#', UA.googlebot, 24, IP.googlebot)
  await send('/private/memo-#', UA.googlebot, 2, IP.googlebot)
  // Bingbot reads the rules first: in the first 24 hours robots-edge serves a
  // host, disallowed requests by a crawler that never did are not counted.
  await send('/robots.txt', UA.bingbot, 1, IP.bingbot)
  await send('/products/#', UA.bingbot, 22, IP.bingbot)
  await send('/admin/settings-#', UA.bingbot, 3, IP.bingbot)
  await send('/data/#.json', UA.ccbot, 2)
  await send('/admin/<script>alert(3)</script>?q="><img src=x onerror=alert(4)>', UA.evil)
  // Recording runs after the response (waitUntil): wait for it, bounded.
  for (let i = 0; i < 100; i++) {
    const report = await api<{ totals: { requests: number } }>('/report?since=1h')
    if (report.totals.requests >= 58) break
    await new Promise((r) => setTimeout(r, 50))
  }
  await addHistory(liveSince)
  // As the hourly cron does: add up the violations per rule the dashboard lists (migrations/0070).
  await worker.deriveRules()
})

afterAll(async () => {
  await browser?.close()
  await worker?.stop()
})

/** A page that fails the test on any dialog, script error or CSP violation. */
async function openPage(options: Parameters<Browser['newContext']>[0]): Promise<{ page: Page; problems: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, userAgent: BROWSER_UA, ...options })
  const page = await context.newPage()
  const problems: string[] = []
  page.on('dialog', (dialog) => {
    problems.push(`dialog: ${dialog.message()}`)
    void dialog.dismiss()
  })
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`))
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`)
  })
  return { page, problems }
}

describe('the dashboard in Chromium', () => {
  it('shows every crawler sent, the charts, and the XSS payload as text in the drill-down', async () => {
    const { page, problems } = await openPage({ extraHTTPHeaders: { Authorization: `Bearer ${TOKEN}` } })
    const res = await page.goto(`${worker.origin}/_robots`)
    expect(res?.status()).toBe(200)
    expect(res?.headers()['content-security-policy']).toContain("script-src 'self'")
    const rows = page.locator('#agents tbody tr')
    await expect.poll(() => rows.count()).toBe(5)
    const agents = await page.locator('#agents tbody tr td:first-child').allTextContents()
    expect(agents.sort()).toEqual(['bingbot', 'ccbot', 'evilbot', 'googlebot', 'gptbot'])
    await expect.poll(() => page.locator('#agents tbody tr', { hasText: 'bingbot' }).textContent()).toContain('ignores robots.txt')
    // Googlebot's two disallowed requests in 26 are isolated, and the page states the rule.
    await expect.poll(() => page.locator('#agents tbody tr', { hasText: 'googlebot' }).textContent()).toContain('isolated violations')
    // CCBot never fetched robots.txt and was sent only in the host's first 24 h: pending, never "complies".
    const ccbot = page.locator('#agents tbody tr', { hasText: 'ccbot' })
    await expect.poll(() => ccbot.locator('.badge').textContent()).toBe('pending')
    expect(await ccbot.textContent()).toMatch(/disallowed requests? in the host's first 24 h; judged from \d{4}-\d\d-\d\d \d\d:\d\d UTC if they go on/)
    expect(await ccbot.locator('.badge').getAttribute('title')).toMatch(/^Judged from \d{4}-\d\d-\d\d\u00a0\d\d:\d\d\u00a0UTC on \S+, if its disallowed requests go on$/)
    expect(await page.locator('.card', { hasText: 'pending' }).locator('.value').textContent()).toBe('2')
    expect(await page.locator('#rule').textContent()).toContain('pending no counted violation, but disallowed requests in a grace period')
    expect(await page.locator('#rule summary').textContent()).toBe('How verdicts are decided')
    expect(await page.locator('#rule').textContent()).toContain('at least 3 counted violations, making at least 1 % of its judged requests')
    await expect.poll(() => page.locator('#coverage').textContent()).toMatch(/^Coverage: counts cover the full 7 days/)
    await expect.poll(() => page.locator('#status').textContent()).toContain('source: D1 ledger, exact counts')

    // uPlot draws each chart on a canvas, sized to its container.
    for (const id of ['#chart-timeline', '#chart-agents']) {
      await expect.poll(async () => (await page.locator(`${id} .uplot canvas`).first().boundingBox())?.width ?? 0, { message: id }).toBeGreaterThan(300)
      await expect.poll(async () => (await page.locator(`${id} .uplot canvas`).first().boundingBox())?.height ?? 0, { message: id }).toBeGreaterThan(150)
    }
    await expect.poll(() => page.locator('#rules tbody tr').first().textContent()).toMatch(/Disallow: \/\S*\d+/)

    // An isolated verdict opens the requests behind it.
    await page.locator('#agents tbody tr', { hasText: 'googlebot' }).click()
    await expect.poll(() => page.locator('#drill-title').textContent()).toBe('Requests behind the counted violations · googlebot')
    await expect.poll(() => page.locator('#drill-table tbody tr').count()).toBe(2)
    expect(await page.locator('#drill-table tbody tr').allTextContents()).toEqual([expect.stringContaining('/private/memo-1'), expect.stringContaining('/private/memo-0')])

    await page.locator('#agents tbody tr', { hasText: 'evilbot' }).click()
    const drill = page.locator('#drill-table tbody tr')
    await expect.poll(() => drill.count()).toBe(1)
    await expect.poll(() => page.locator('#drill-title').textContent()).toBe('Recent requests · evilbot')
    await expect.poll(() => page.getByText(UA.evil, { exact: true }).isVisible()).toBe(true)
    await expect.poll(() => drill.first().textContent()).toContain('/admin/%3Cscript%3Ealert(3)%3C/script%3E')
    // The markup stayed text: no element came out of it, no script ran.
    expect(await page.locator('img').count()).toBe(0)
    expect(await page.locator('body script').count()).toBe(0)
    await page.waitForTimeout(300)
    await page.screenshot({ path: '/tmp/dashboard.png', fullPage: true })
    // Every agent's Verdict in view, nothing scrolling sideways, on a laptop and on a phone, with the markup-laden rows above.
    for (const width of [1366, 390]) {
      await page.setViewportSize({ width, height: 900 })
      await expect.poll(() => layoutOf(page), { message: `${width} px` }).toEqual({ pageScrolls: false, tableScrolls: false, verdicts: 5, verdictsInView: true })
    }
    expect(problems).toEqual([])
    await page.context().close()
  })

  it('sorts by a clicked header and filters by text and category', async () => {
    const { page, problems } = await openPage({ extraHTTPHeaders: { Authorization: `Bearer ${TOKEN}` } })
    await page.goto(`${worker.origin}/_robots/`)
    const first = () => page.locator('#agents tbody tr td:first-child').first().textContent()
    await expect.poll(() => page.locator('#agents tbody tr').count()).toBe(5)
    await page.locator('#agents').getByRole('button', { name: 'Requests', exact: true }).click()
    expect(await first()).toBe('googlebot')
    expect(await page.locator('th[aria-sort]').getAttribute('aria-sort')).toBe('descending')
    // The Verdict column sorts worst first, as the report ranks verdicts, not alphabetically.
    await page.locator('#agents').getByRole('button', { name: 'Verdict', exact: true }).click()
    expect(await page.locator('#agents tbody tr .badge').allTextContents()).toEqual(['ignores robots.txt', 'ignores robots.txt', 'isolated violations', 'pending', 'pending'])
    await page.locator('#agents').getByRole('button', { name: 'Agent', exact: true }).click()
    expect(await first()).toBe('bingbot')
    await page.locator('#filter').fill('openai')
    expect(await page.locator('#agents tbody tr td:first-child').allTextContents()).toEqual(['gptbot'])
    await page.locator('#filter').fill('')
    await page.locator('#category').selectOption('AI Crawler')
    await expect
      .poll(() =>
        page
          .locator('#agents tbody tr td:first-child')
          .allTextContents()
          .then((a) => a.sort()),
      )
      .toEqual(['ccbot', 'gptbot'])
    expect(page.url()).toContain('category=AI+Crawler')
    expect(await page.locator('#csv').getAttribute('href')).toContain('/_robots/api/report.csv?since=7d&category=AI+Crawler')
    expect(problems).toEqual([])
    await page.context().close()
  })

  it('refuses a wrong token with a 401 page that holds no data', async () => {
    // A wrong Bearer token: the browser gets the 401 and its challenge, and shows nothing of the report.
    const bearer = await openPage({ extraHTTPHeaders: { Authorization: 'Bearer wrong' } })
    await expect(bearer.page.goto(`${worker.origin}/_robots/`)).rejects.toThrow(/ERR_INVALID_AUTH_CREDENTIALS/)
    const refused = await bearer.page.request.get(`${worker.origin}/_robots/`)
    expect(refused.status()).toBe(401)
    expect(refused.headers()['www-authenticate']).toContain('Basic realm="robots-edge"')
    await bearer.page.context().close()
    // A wrong password at the browser's sign-in: the 401 page itself.
    const { page } = await openPage({ httpCredentials: { username: 'me', password: 'wrong' } })
    const res = await page.goto(`${worker.origin}/_robots/`)
    expect(res?.status()).toBe(401)
    const text = await page.locator('body').textContent()
    expect(text).toContain('401 Unauthorized')
    for (const leak of ['gptbot', 'evilbot', '/admin/', 'Googlebot']) expect(text).not.toContain(leak)
    expect(await page.locator('#agents').count()).toBe(0)
    await page.context().close()
  })

  it("says plainly which operators' IP ranges are not loaded, and the command that loads them (only three lists were seeded: the cron never ran); every warning in one line, each naming what to run", async () => {
    const coverage = await api<{ operators: { operator: string; message: string | null; fix: string | null }[] }>('/verification')
    const google = coverage.operators.find((o) => o.operator === 'Google')
    expect(google?.message).toMatch(/^Some of Google's IP ranges are not loaded \(/)
    const notes = coverage.operators.filter((o) => o.message !== null)
    expect(notes.length).toBeGreaterThan(0)
    // A D1 outage an hour ago: events the ledger could not store (src/ledger/losses.ts).
    const lostAt = Date.now() - 3_600_000
    await worker.batch([{ sql: 'INSERT INTO ledger_losses (id, from_time, to_time, events, recorded_at) VALUES (?1, ?2, ?3, ?4, ?3)', params: ['e2e-loss', lostAt, lostAt + 60_000, 1234] }])
    const { page, problems } = await openPage({ extraHTTPHeaders: { Authorization: `Bearer ${TOKEN}` } })
    await page.goto(`${worker.origin}/_robots/`)
    // The command is set as code, without the API's backquotes.
    await expect.poll(() => page.locator('#warnings').textContent()).toContain(notes[0]!.message!.replaceAll('`', ''))
    expect(await page.locator('#warnings > div > p:first-of-type code').textContent()).toBe(notes[0]!.fix)
    // Folded: one line, naming the command of each warning (the page runs on 127.0.0.1: the local D1).
    const summary = page.locator('#warnings summary')
    await expect.poll(() => summary.textContent()).toContain('1,234 events not stored: run npx wrangler d1 migrations apply DB --local')
    expect(await summary.textContent()).toMatch(/^2 warnings: IP ranges not current for \d+ operators?: run npx robots-edge ranges/)
    expect(await summary.locator('code').allTextContents()).toEqual([expect.stringMatching(/^npx robots-edge ranges/), 'npx wrangler d1 migrations apply DB --local'])
    const lines = await summary.evaluate((s) => s.getBoundingClientRect().height / Number.parseFloat(getComputedStyle(s).lineHeight))
    expect(lines).toBeLessThan(1.5)
    expect(notes[0]!.fix).toMatch(/^npx robots-edge ranges/)
    // Opened, the loss's sentence says when, and what to run.
    await summary.click()
    expect(await page.locator('#warnings').textContent()).toMatch(/1,234 events could not be stored between \d{4}-\d\d-\d\d.\d\d:\d\d and .* UTC; they are not in these counts/)
    // The status line itself stays one plain line: the range and the source.
    expect(await page.locator('#status').textContent()).toMatch(/^\d{4}-\d\d-\d\d.\d\d:\d\d to .* UTC · source: D1 ledger, exact counts$/)
    expect(problems).toEqual([])
    await page.context().close()
    await worker.batch([{ sql: 'DELETE FROM ledger_losses WHERE id = ?1', params: ['e2e-loss'] }])
  })

  it("answers the browser's Basic challenge with the token as the password", async () => {
    const { page, problems } = await openPage({ httpCredentials: { username: 'me', password: TOKEN } })
    const res = await page.goto(`${worker.origin}/_robots/`)
    expect(res?.status()).toBe(200)
    await expect.poll(() => page.locator('#agents tbody tr').count()).toBe(5)
    expect(problems).toEqual([])
    await page.context().close()
  })

  it('shows a lookalike agent name with its invisible and bidi characters escaped', async () => {
    // Real clients send UTF-8 in the header, which the runtime reads as such; fetch() would refuse it.
    await sendRaw('/articles/lookalike', 'g\u200bptbot/1.0 (\u202eevil)')
    for (let i = 0; i < 100; i++) {
      const report = await api<{ agents: { agentKey: string }[] }>('/report?since=1h')
      if (report.agents.some((a) => a.agentKey === 'g\u200bptbot')) break
      await new Promise((r) => setTimeout(r, 50))
    }
    const { page, problems } = await openPage({ extraHTTPHeaders: { Authorization: `Bearer ${TOKEN}` } })
    await page.goto(`${worker.origin}/_robots/`)
    await expect.poll(() => page.locator('#agents tbody tr td:first-child').allTextContents()).toContain('g\\u{200B}ptbot')
    await page.locator('#agents tbody tr', { hasText: 'g\\u{200B}ptbot' }).click()
    await expect.poll(() => page.locator('#drill-table tbody tr').first().textContent()).toContain('g\\u{200B}ptbot/1.0 (\\u{202E}evil)')
    expect(await page.locator('body').textContent()).not.toMatch(/[\u200b\u202e]/)
    expect(problems).toEqual([])
    await page.context().close()
  })
})

describe('static assets', () => {
  it('serves the chart library and the page script without a token, with nosniff and noindex', async () => {
    for (const file of ['uPlot.iife.min.js', 'dashboard.js', 'history.js', 'line-diff.js', 'drill.js', 'uPlot.min.css', 'dashboard.css']) {
      const res = await fetch(`${worker.origin}/_robots/static/${file}`)
      expect(res.status, file).toBe(200)
      expect(res.headers.get('content-type'), file).toMatch(file.endsWith('.js') ? /javascript/ : /text\/css/)
      expect(res.headers.get('x-content-type-options')).toBe('nosniff')
      expect(res.headers.get('x-robots-tag')).toBe('noindex, nofollow')
      await res.arrayBuffer()
    }
    // The headers file configures the assets; it is not one of them.
    expect(await (await fetch(`${worker.origin}/_headers`)).text()).not.toContain('X-Content-Type-Options')
  })

  it('keeps the chart library out of both Worker bundles', () => {
    for (const bundle of [worker.bundle, worker.adminBundle]) {
      expect(bundle).not.toContain('leeoniya')
      expect(bundle).not.toContain('uPlot.paths')
      // Nor the operators' pages (registry/sources.ts) or the lint: the CLI's and the tests'.
      expect(bundle).not.toContain('platform.openai.com/docs/bots')
      expect(bundle).not.toContain('lint --fix')
    }
    // Their sizes (the edge's against the 64 KiB budget) are measured by `npm run bench` (bench/bundle.ts), not here.
  })

  it('keeps the report in the admin Worker: the edge bundle, which every request runs, has none of it', () => {
    // The dashboard's Content-Security-Policy is set by the report routes only.
    const reportMark = "form-action 'none'"
    expect(worker.adminBundle).toContain(reportMark)
    expect(worker.bundle).not.toContain(reportMark)
    expect(worker.bundle).toContain('ROBOTS_ADMIN')
  })
})
