// End to end, in headless Chromium: the dashboard as a site owner reads it.
// The robots.txt history with a diff and escaped
// content, the "most violated rules" linking to their lines, rule changes
// marked on a timeline that follows the data, legends that are never blank,
// "—" where a client cannot be verified, the paged drill-down, and tables
// that keep the Verdict in view without horizontal scroll at 1366 and 390 px.
import { chromium, type Browser, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { ipRangeEntries } from '../../dev/ip-ranges.ts'
import { layoutOf } from '../support/layout.ts'
import { startBuiltWorker, type RunningWorker } from '../support/e2e-worker.ts'

const TOKEN = 'e2e-views-token'
const HOUR = 3_600_000
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'
const GOOGLE_IP = '66.249.66.1'
const CCBOT = 'CCBot/2.0 (https://commoncrawl.org/faq/)'
const BROWSER_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36'
/** Googlebot's disallowed requests: more than one page of the drill-down (15). */
const PRIVATE = 20

/** Two versions of another host's robots.txt; the second hides a right-to-left override and a zero-width space in a comment. */
const HISTORY_HOST = 'history.example'
const V1 = { hash: '1111aaaa2222bbbb', text: 'User-agent: *\nDisallow: /old/\n# contact: webmaster\n' }
const V2 = { hash: '3333cccc4444dddd', text: 'User-agent: *\nDisallow: /new/\n# contact: web\u202emaster\u200b\n' }

let worker: RunningWorker
let browser: Browser
let started: number

async function send(path: string, ua: string, times = 1, ip?: string): Promise<void> {
  for (let i = 0; i < times; i++) {
    const res = await fetch(`${worker.origin}${path.replace('#', String(i))}`, { headers: { 'User-Agent': ua, ...(ip ? { 'CF-Connecting-IP': ip } : {}) } })
    await res.arrayBuffer()
  }
}

beforeAll(async () => {
  worker = await startBuiltWorker({ ROBOTS_ADMIN_TOKEN: TOKEN, IP_HASH_SALT: 'e2e-views-salt' })
  browser = await chromium.launch({
    executablePath: inject('chromium'),
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  })
  await worker.putKv((await ipRangeEntries()).entries)
  started = Date.now()
  // Googlebot reads robots.txt, then fetches what it forbids (Disallow: /private/): counted, and verified by Google's list.
  await send('/robots.txt', GOOGLEBOT, 1, GOOGLE_IP)
  await send('/private/memo-#', GOOGLEBOT, PRIVATE, GOOGLE_IP)
  // CCBot's operator publishes no IP ranges: it cannot be verified at all.
  await send('/data/#.json', CCBOT, 3)
  await send('/', 'curl/8.5.0', 2)
  for (let i = 0; i < 100; i++) {
    const res = await fetch(`${worker.origin}/_robots/api/report?since=1h`, { headers: { Authorization: `Bearer ${TOKEN}` } })
    const report = (await res.json()) as { totals: { requests: number } }
    if (report.totals.requests >= PRIVATE + 3) break
    await new Promise((r) => setTimeout(r, 50))
  }
  const insert = 'INSERT INTO robots_versions (host, hash, text, first_served, recorded_at, deployment_id, deployment_tag) VALUES (?1, ?2, ?3, ?4, ?4, ?5, ?6)'
  await worker.batch([
    { sql: insert, params: [HISTORY_HOST, V1.hash, V1.text, started - 30 * HOUR, '0b5c1d2e-0000-4000-8000-00000000000a', ''] },
    { sql: insert, params: [HISTORY_HOST, V2.hash, V2.text, started - 6 * HOUR, '0b5c1d2e-0000-4000-8000-00000000000b', 'release-42'] },
  ])
  // As the hourly cron does: add up the violations per rule the dashboard lists (migrations/0070).
  await worker.deriveRules()
})

afterAll(async () => {
  await browser?.close()
  await worker?.stop()
})

/** The dashboard at `width`, signed in; fails the test on any script error, dialog or CSP violation. */
async function openDashboard(width: number, path = '/_robots/', height = 900): Promise<{ page: Page; problems: string[] }> {
  const context = await browser.newContext({ viewport: { width, height }, userAgent: BROWSER_UA, extraHTTPHeaders: { Authorization: `Bearer ${TOKEN}` } })
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
  await page.goto(`${worker.origin}${path}`)
  await expect.poll(() => page.locator('#agents tbody tr').count()).toBe(2)
  return { page, problems }
}

describe("the dashboard at a laptop's and a phone's width", () => {
  it.each([
    [1366, 768],
    [1280, 768],
    [390, 844],
  ])('starts the agents and their verdicts within the first screen at %i×%i', async (width, height) => {
    const { page, problems } = await openDashboard(width, '/_robots/', height)
    await expect.poll(() => page.locator('#agents tbody tr', { hasText: 'googlebot' }).textContent()).toContain('ignores robots.txt')
    // Let the late parts (coverage notes, charts, history) arrive: they must not push the verdicts down.
    await page.waitForLoadState('networkidle')
    const top = await page.locator('#agents').evaluate((t) => t.getBoundingClientRect().top + window.scrollY)
    expect(top).toBeLessThan(height)
    // The first agent's verdict itself, in its row or (on a phone) its card.
    const firstVerdict = await page
      .locator('#agents tbody tr td[data-label="Verdict"]')
      .first()
      .evaluate((r) => r.getBoundingClientRect().bottom + window.scrollY)
    expect(firstVerdict).toBeLessThan(height)
    expect(problems).toEqual([])
    await page.context().close()
  })

  it.each([1280, 1366, 390])('keeps the Verdict column in view without horizontal scroll at %i px', async (width) => {
    const { page, problems } = await openDashboard(width)
    await expect.poll(() => page.locator('#agents tbody tr', { hasText: 'googlebot' }).textContent()).toContain('ignores robots.txt')
    await expect.poll(() => page.locator('#history-versions tbody tr').count()).toBeGreaterThan(0)
    expect(await layoutOf(page)).toEqual({ pageScrolls: false, tableScrolls: false, verdicts: 2, verdictsInView: true })
    await page.screenshot({ path: `/tmp/dashboard-${width}.png`, fullPage: true })
    expect(problems).toEqual([])
    await page.context().close()
  })
})

describe("the report's views", () => {
  it('shows "—", not 0 %, for a client that cannot be verified, and the share for one that can', async () => {
    const { page, problems } = await openDashboard(1366)
    const verified = (agent: string) => page.locator('#agents tbody tr', { hasText: agent }).locator('td[data-label="Verified"]').textContent()
    await expect.poll(() => verified('ccbot')).toBe('—')
    expect(await verified('googlebot')).toBe('100 %')
    expect(problems).toEqual([])
    await page.context().close()
  })

  it('fills the legends before any hover, and draws the timeline from the first activity with the rule changes marked', async () => {
    const { page, problems } = await openDashboard(1366)
    const legend = page.locator('#chart-timeline .u-legend')
    await expect.poll(() => legend.textContent()).toContain('in all')
    expect(await legend.textContent()).not.toContain('—')
    const report = (await (await fetch(`${worker.origin}/_robots/api/report`, { headers: { Authorization: `Bearer ${TOKEN}` } })).json()) as { timeline: { requests: number }[] }
    expect(await legend.textContent()).toContain(`Judged requests${report.timeline.reduce((n, t) => n + t.requests, 0)} in all`)
    expect(await page.locator('#chart-agents .u-legend').textContent()).toMatch(/Agenttop 1 .*Counted violations20 in all/)
    // The range is 7 days; the chart starts a little before the first activity (the older version, 30 hours ago), not 7 days back.
    const caption = await page.locator('#timeline-caption').textContent()
    const from = Date.parse(
      `${/from (\d{4}-\d\d-\d\d).(\d\d:\d\d) UTC/
        .exec(caption ?? '')
        ?.slice(1, 3)
        .join('T')}:00Z`,
    )
    expect(started - from).toBeGreaterThanOrEqual(30 * HOUR)
    expect(started - from).toBeLessThanOrEqual(36 * HOUR)
    // It names the hour of the first activity (the older version, first served 30 hours ago), not the window's start.
    const firstHour = new Date(Math.floor((started - 30 * HOUR) / HOUR) * HOUR).toISOString().slice(0, 13)
    expect(caption?.replaceAll('\u00a0', 'T')).toContain(`the first activity in the range is in the hour from ${firstHour}:00 UTC`)
    expect(caption).not.toContain('just before')
    // One marker per rule change: the two versions of history.example and the first version served here.
    const markers = page.locator('#chart-timeline .marker')
    await expect.poll(() => markers.count()).toBe(3)
    expect(await markers.evaluateAll((list) => list.map((m) => m.getAttribute('aria-label')))).toContain(
      `Rules changed on ${HISTORY_HOST} at ${new Date(started - 6 * HOUR).toISOString().slice(0, 16).replace('T', '\u00a0')} UTC: read version ${V2.hash.slice(0, 8)}`,
    )
    // Hovering one hour shows that hour's numbers (the charts follow the verdicts: bring them into view first).
    await page.locator('#chart-timeline').scrollIntoViewIfNeeded()
    const over = (await page.locator('#chart-timeline .u-over').boundingBox())!
    await page.mouse.move(over.x + over.width / 2, over.y + over.height / 2, { steps: 5 })
    await expect.poll(() => legend.textContent()).toMatch(/Time\d{4}-\d\d-\d\d.\d\d:00 UTC/)
    // A marker's flag, on top of the plot, opens that version in the history view.
    const flag = (await markers.and(page.locator(`[aria-label*="${V2.hash.slice(0, 8)}"]`)).boundingBox())!
    await page.mouse.click(flag.x + flag.width / 2, flag.y + 4)
    await expect.poll(() => page.locator('#version-title').textContent()).toContain(`Version ${V2.hash.slice(0, 8)} of ${HISTORY_HOST}`)
    expect(problems).toEqual([])
    await page.context().close()
  })

  it('draws a first minute of traffic per minute when the range holds nothing older', async () => {
    // The last hour: the history host's rule changes (6 and 30 hours ago) are outside it; the traffic is seconds old.
    const { page, problems } = await openDashboard(1366, '/_robots/?since=1h')
    await expect.poll(() => page.locator('#timeline-caption').textContent()).toContain('per minute')
    const caption = (await page.locator('#timeline-caption').textContent())?.replaceAll('\u00a0', 'T') ?? ''
    const first = Date.parse(`${/in the minute from (\S+) UTC/.exec(caption)?.[1]}:00Z`)
    expect(first).toBeGreaterThanOrEqual(Math.floor(started / 60_000) * 60_000)
    expect(first).toBeLessThan(started + 2 * 60_000)
    const legend = page.locator('#chart-timeline .u-legend')
    await expect.poll(() => legend.textContent()).toMatch(/\d+ minutes \(hover for one\)/)
    expect(problems).toEqual([])
    await page.context().close()
  })

  it('pages the drill-down in a bounded panel, with times to the second', async () => {
    const { page, problems } = await openDashboard(1366)
    await page.locator('#agents tbody tr', { hasText: 'googlebot' }).click()
    const rows = page.locator('#drill-table tbody tr')
    await expect.poll(() => rows.count()).toBe(15)
    expect(await page.locator('#drill-page').textContent()).toBe('Requests 1–15, newest first')
    expect(await rows.first().locator('td[data-label="Time"]').textContent()).toMatch(/^\d{4}-\d\d-\d\d\u00a0\d\d:\d\d:\d\d$/)
    expect((await page.locator('#drill').boundingBox())!.height).toBeLessThan(900)
    expect(await page.locator('#drill-newer').isDisabled()).toBe(true)
    // Twenty violations and the robots.txt fetch: a second page of six, then back.
    await page.locator('#drill-more').click()
    await expect.poll(() => page.locator('#drill-page').textContent()).toBe('Requests 16–21, newest first')
    expect(await rows.count()).toBe(6)
    expect(await page.locator('#drill-more').isDisabled()).toBe(true)
    expect(await rows.last().textContent()).toContain('read robots.txt')
    await page.locator('#drill-newer').click()
    await expect.poll(() => page.locator('#drill-page').textContent()).toBe('Requests 1–15, newest first')
    expect(problems).toEqual([])
    await page.context().close()
  })
})

describe('the robots.txt history', () => {
  it('lists each version with its deployment, diffs it against the one before, and shows hidden characters as escapes', async () => {
    const { page, problems } = await openDashboard(1366)
    await page.locator('#history-host').selectOption(HISTORY_HOST)
    const versions = page.locator('#history-versions tbody tr')
    await expect.poll(() => versions.count()).toBe(2)
    // Newest first: the one served now, its deployment's tag, its rules changed; the first has no tag, so its id.
    expect(await versions.nth(0).textContent()).toMatch(/3333cccc.*served now.*release-42.*rules changed/)
    expect(await versions.nth(1).textContent()).toMatch(/1111aaaa.*0b5c1d2e.*first version/)
    await versions.nth(0).click()
    await expect.poll(() => page.locator('#version-title').textContent()).toContain(`Version 3333cccc of ${HISTORY_HOST}`)
    const diff = page.locator('#version .diff')
    expect(await diff.locator('.line.del').allTextContents()).toEqual(['2-Disallow: /old/', '3-# contact: webmaster'])
    expect(await diff.locator('.line.add').allTextContents()).toEqual(['2+Disallow: /new/', '3+# contact: web\\u{202E}master\\u{200B}'])
    expect(await diff.locator('.line.add .esc').allTextContents()).toEqual(['\\u{202E}', '\\u{200B}'])
    // The text, numbered; nowhere on the page does the raw override or zero-width space appear.
    const text = page.locator('#version .code:not(.diff) .line')
    expect(await text.allTextContents()).toEqual(['1User-agent: *', '2Disallow: /new/', '3# contact: web\\u{202E}master\\u{200B}'])
    expect(await page.locator('body').textContent()).not.toMatch(/[\u202e\u200b]/)
    await page.screenshot({ path: '/tmp/dashboard-history.png', fullPage: true })
    // The first version, no longer served: its title says nothing in place of the "served now" badge.
    await versions.nth(1).click()
    await expect.poll(() => page.locator('#version-title').textContent()).toContain(`Version 1111aaaa of ${HISTORY_HOST}`)
    expect(await page.locator('#version-title').textContent()).not.toMatch(/null|undefined|served now/)
    expect(problems).toEqual([])
    await page.context().close()
  })

  it('opens a most violated rule at its line, and a link to a line from outside the page', async () => {
    const { page, problems } = await openDashboard(1366)
    const rule = page.locator('#rules tbody tr').first()
    await expect.poll(() => rule.textContent()).toContain('Disallow: /private/')
    await rule.locator('td[data-label="Line"] a').click()
    const target = page.locator('#version .code:not(.diff) .line.target')
    await expect.poll(() => target.textContent()).toMatch(/^\d+Disallow: \/private\/$/)
    expect(await page.locator('#version-title').textContent()).toContain('Version')
    expect(await page.locator('#version-title').textContent()).toContain('127.0.0.1')
    // The first version stored for a host has nothing to diff against, and says so.
    expect(await page.locator('#version').textContent()).toContain('No earlier version to compare with.')
    // Following the same link again, after scrolling away, brings the line back into view.
    const inView = () => target.evaluate((line) => line.getBoundingClientRect().top >= 0 && line.getBoundingClientRect().bottom <= window.innerHeight)
    await expect.poll(inView).toBe(true)
    await page.evaluate(() => window.scrollTo(0, 0))
    expect(await inView()).toBe(false)
    await rule.locator('td[data-label="Line"] a').click()
    await expect.poll(inView).toBe(true)
    // Two opens at once whose answers arrive out of order (a click and a link, the history loading): the version is drawn once, the latest.
    let answered = 0
    await page.route('**/api/history/version?*', async (route) => {
      const first = answered === 0 && route.request().url().includes('version=')
      if (first) await new Promise((r) => setTimeout(r, 400))
      await route.continue()
      answered++
    })
    await page.evaluate(() => {
      window.dispatchEvent(new HashChangeEvent('hashchange'))
      window.dispatchEvent(new HashChangeEvent('hashchange'))
    })
    await expect.poll(() => answered, { timeout: 5000 }).toBe(2)
    await new Promise((r) => setTimeout(r, 300))
    expect(await page.locator('#version .code:not(.diff)').count()).toBe(1)
    const ids = await page.locator('#version [id^="L"]').evaluateAll((rows) => rows.map((r) => r.id))
    expect(ids.length).toBeGreaterThan(0)
    expect(new Set(ids).size).toBe(ids.length)
    await page.unroute('**/api/history/version?*')
    await page.context().close()

    const linked = await openDashboard(1366, `/_robots/#robots-txt/${HISTORY_HOST}/${V2.hash}/2`)
    await expect.poll(() => linked.page.locator('#version .line.target').textContent()).toBe('2Disallow: /new/')
    expect(problems).toEqual([])
    expect(linked.problems).toEqual([])
    await linked.page.context().close()
  })
})
