// Proved from the tarball: `npm pack`, then two fresh apps in
// temporary folders install it as any project would, apply the package's
// migrations to their local D1, and run in the Workers runtime: a plain
// module Worker wrapped with withRobotsEdge, and a Hono app with robotsEdge()
// in front of its own routes. Nothing here imports this repository's source.
import { existsSync } from 'node:fs'
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bundle, cli, createApp, migrate, pack, start, tsc, wrangler, type RunningApp, type Tarball } from '../support/consumer.ts'

const TOKEN = 'tarball-admin-token'
const SECRETS = { ROBOTS_ADMIN_TOKEN: TOKEN, IP_HASH_SALT: 'tarball-salt' }
const UA = {
  gptbot: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)',
  googlebot: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  browser: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36',
}
/** The Worker bundle budget (README, `npm run build`). */

interface Consumer {
  readonly name: 'worker-app' | 'hono-app'
  readonly dir: string
  readonly gzipBytes: number
  readonly migrations: string
  readonly script: string
  readonly app: RunningApp
}

let dir: string
let tarball: Tarball
const consumers = new Map<string, Consumer>()

async function get(app: RunningApp, path: string, ua: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${app.origin}${path}`, { headers: { 'User-Agent': ua, ...headers } })
}

/** The recorder writes through ctx.waitUntil: wait (bounded) until the rows are there. */
async function rowsOf(app: RunningApp, sql: string, atLeast: number): Promise<Record<string, unknown>[]> {
  const deadline = Date.now() + 10_000
  for (;;) {
    const rows = await app.all<Record<string, unknown>>(sql)
    if (rows.length >= atLeast || Date.now() > deadline) return rows
    await new Promise((r) => setTimeout(r, 100))
  }
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'robots-edge-tarball-'))
  tarball = await pack()
  // The plain Worker leaves hono to npm (a peer dependency, installed for it);
  // the Hono app depends on hono itself.
  const [workerApp, honoApp] = await Promise.all([createApp('worker-app', dir, tarball.file), createApp('hono-app', dir, tarball.file, ['hono@4.13.19'])])
  // `wrangler d1 migrations apply` runs in the plain Worker's app; the Hono
  // app gets a copy of the migrated state (both bind one database, DB, with
  // no id, so wrangler keeps it at the same path): one local runtime fewer.
  const [migrations, bundles] = await Promise.all([migrate(workerApp), Promise.all([bundle(workerApp), bundle(honoApp)])])
  await cp(join(workerApp, '.state'), join(honoApp, '.state'), { recursive: true })
  for (const [i, [name, appDir]] of (
    [
      ['worker-app', workerApp],
      ['hono-app', honoApp],
    ] as const
  ).entries()) {
    const { script, gzipBytes } = bundles[i]!
    const app = await start(appDir, script, { secrets: SECRETS })
    consumers.set(name, { name, dir: appDir, gzipBytes, migrations, script, app })
  }
}, 600_000)

afterAll(async () => {
  await Promise.all([...consumers.values()].map((c) => c.app.stop()))
  if (dir) await rm(dir, { recursive: true, force: true })
}, 60_000)

describe('the tarball', () => {
  it('holds only what a consumer needs: built JS, types, migrations, assets, CLI, the IP-range snapshot if the release step wrote one, README, LICENSE, CHANGELOG', () => {
    const allowed = /^(lib\/.+\.(js|mjs|d\.ts)|migrations\/\d{4}_[a-z_]+\.sql|public\/.+|data\/ip-ranges-snapshot\.json|bin\/robots-edge\.mjs|README\.md|LICENSE|CHANGELOG\.md|package\.json)$/
    expect(tarball.files.filter((f) => !allowed.test(f))).toEqual([])
    for (const entry of ['index', 'hono', 'engine', 'bots']) {
      expect(tarball.files).toContain(`lib/package/${entry}.js`)
      expect(tarball.files).toContain(`lib/package/${entry}.d.ts`)
    }
    // data/ip-ranges-snapshot.json is written by `npm run ranges:snapshot` at release, never by packing (which stays offline-safe), so it may be absent.
    expect(tarball.files.filter((f) => f.startsWith('data/'))).toEqual(existsSync(new URL('../../data/ip-ranges-snapshot.json', import.meta.url)) ? ['data/ip-ranges-snapshot.json'] : [])
    expect(tarball.files).toEqual(
      expect.arrayContaining(['lib/cli.mjs', 'migrations/0001_ledger.sql', 'public/_robots/static/dashboard.js', 'public/_headers', 'CHANGELOG.md', 'LICENSE', 'README.md']),
    )
    console.log(`tarball: ${(tarball.size / 1024).toFixed(1)} KiB packed, ${(tarball.unpackedSize / 1024).toFixed(1)} KiB unpacked, ${tarball.files.length} files`)
  })
})

describe.each(['worker-app', 'hono-app'] as const)('%s, installed from the tarball', (name) => {
  const consumer = () => consumers.get(name)!

  it("applied the package's migrations to its local D1", async () => {
    expect(consumer().migrations).toMatch(/0001_ledger\.sql/)
    const tables = (await consumer().app.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'")).map((t) => t.name)
    expect(tables).toEqual(expect.arrayContaining(['events', 'counts_hourly', 'counts_daily', 'robots_versions', 'robots_fetches', 'ledger_losses']))
  })

  // The consumer's bundle is reported here; the budget is measured on the template by `npm run bench` (bench/bundle.ts).
  it("bundles without what stays out of a Worker: the chart library, the operators' pages, the CLI", () => {
    console.log(`${name}: Worker bundle ${(consumer().gzipBytes / 1024).toFixed(1)} KiB gzip (minified, as deployed)`)
    expect(consumer().script).not.toContain('uPlot.paths')
    expect(consumer().script).not.toContain('platform.openai.com/docs/bots')
    expect(consumer().script).not.toContain('lint --fix')
  })

  it("serves /robots.txt from the app's own config", async () => {
    const res = await get(consumer().app, '/robots.txt', UA.googlebot)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8')
    const text = await res.text()
    expect(text).toContain(`# ${name}: served from its own robots.config.ts`)
    expect(text).toContain('User-agent: GPTBot\nDisallow: /')
    expect(text).toContain(`Sitemap: https://${name}.example/sitemap.xml`)
  })

  it('refuses GPTBot where its group disallows and says guard: block', async () => {
    const res = await get(consumer().app, '/articles/1', UA.gptbot)
    expect(res.status).toBe(403)
    expect(res.headers.get('x-app')).toBeNull()
    expect(await res.text()).not.toContain(name)
  })

  it("lets a browser and an allowed crawler through to the app's own handler", async () => {
    const person = await get(consumer().app, '/articles/2', UA.browser)
    expect(person.status).toBe(200)
    expect(await person.text()).toMatch(name === 'worker-app' ? /^worker-app handled \/articles\/2/ : /^hono-app article 2 for a person/)
    const crawler = await get(consumer().app, '/articles/3', UA.googlebot)
    expect(crawler.status).toBe(200)
    // The Hono app's route reads the guard's verdict with c.get('robotsVerdict').
    expect(await crawler.text()).toMatch(name === 'worker-app' ? /^worker-app handled \/articles\/3/ : /^hono-app article 3 for googlebot/)
  })

  it('records the judged requests and the robots.txt fetch in D1, and no person', async () => {
    const rows = await rowsOf(consumer().app, 'SELECT type, agent_key AS agent, action, allowed, path FROM events ORDER BY id', 3)
    expect(rows).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: 'robots-txt', agent: 'googlebot' }),
        expect.objectContaining({ type: 'request', agent: 'gptbot', action: 'block', allowed: 0, path: '/articles/1' }),
        expect.objectContaining({ type: 'request', agent: 'googlebot', action: 'pass', allowed: 1, path: '/articles/3' }),
      ]),
    )
    expect(rows.some((r) => r.path === '/articles/2')).toBe(false)
  })

  it('serves the report and the dashboard under /_robots/, its scripts from the [assets] line', async () => {
    const auth = { Authorization: `Bearer ${TOKEN}` }
    expect((await get(consumer().app, '/_robots/', UA.browser)).status).toBe(401)
    const page = await get(consumer().app, '/_robots/', UA.browser, auth)
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('/_robots/static/dashboard.js')
    const script = await get(consumer().app, '/_robots/static/dashboard.js', UA.browser)
    expect(script.status).toBe(200)
    expect(script.headers.get('x-content-type-options')).toBe('nosniff')
    const report = await get(consumer().app, '/_robots/api/report?since=1d', UA.browser, auth)
    expect(report.status).toBe(200)
    // Offline, no operator's IP list is in KV: GPTBot's claim could not be checked, and is reported apart from the verdicts.
    expect(((await report.json()) as { unchecked: { agentKey: string }[] }).unchecked.map((a) => a.agentKey)).toContain('gptbot')
  })

  it("runs the cron: robots-edge's, and the app's own beside it", async () => {
    const result = await consumer().app.scheduled({ cron: '17 * * * *', scheduledTime: new Date(1_800_000_000_000) })
    expect(result.outcome).toBe('ok')
    expect(consumer().app.logs.some((line) => line.includes('"robotsEdge":"cron"'))).toBe(true)
    if (name === 'worker-app') {
      const page = await get(consumer().app, '/', UA.browser)
      expect(await page.text()).toContain('cron ran at 1800000000000')
    }
  })

  it("npx robots-edge print, check, lint and validate read the app's robots.config.ts", async () => {
    const served = await (await get(consumer().app, '/robots.txt', UA.browser)).text()
    const printed = await cli(consumer().dir, ['print', '--host', '127.0.0.1'])
    expect(printed).toMatchObject({ code: 0, stderr: '' })
    expect(printed.stdout).toBe(served)
    const checked = await cli(consumer().dir, ['check', 'GPTBot', '/articles/1', '--json'])
    expect(checked.code).toBe(0)
    expect(JSON.parse(checked.stdout)).toMatchObject({ verdict: { allowed: false, group: 'gptbot' } })
    expect((await cli(consumer().dir, ['validate'])).code).toBe(0)
    expect((await cli(consumer().dir, ['lint'])).code).toBe(0)
    const report = await cli(consumer().dir, ['report', '--url', consumer().app.origin, '--json'], { ROBOTS_ADMIN_TOKEN: TOKEN })
    expect(report.code, report.stderr).toBe(0)
    expect((JSON.parse(report.stdout) as { unchecked: { agentKey: string }[] }).unchecked.map((a) => a.agentKey)).toContain('gptbot')
  })

  it('npx robots-edge validate fails on a bad config with the field and the fix', async () => {
    await writeFile(join(consumer().dir, 'bad.config.ts'), "import { defineConfig } from 'robots-edge'\nexport default defineConfig({ rules: [{ userAgent: 'Brightbot 1.0', disallow: 'admin/' }] })\n")
    const result = await cli(consumer().dir, ['validate', '--config', 'bad.config.ts'])
    expect(result.code).toBe(1)
    expect(result.stderr).toContain('rules[0].userAgent')
    expect(result.stderr).toContain('Use "Brightbot"')
  })

  it('type-checks against the published declarations, misspelled keys included', async () => {
    await wrangler(consumer().dir, ['types'])
    const result = await tsc(consumer().dir)
    expect(result.output).toBe('')
    expect(result.code).toBe(0)
    expect(await readFile(join(consumer().dir, 'worker-configuration.d.ts'), 'utf8')).toContain('ROBOTS_KV: KVNamespace')
  })
})

describe('a consumer Worker without DB or ROBOTS_KV', () => {
  let bare: RunningApp
  beforeAll(async () => {
    const hono = consumers.get('hono-app')!
    bare = await start(hono.dir, hono.script, { bindings: false })
  }, 60_000)
  afterAll(async () => bare?.stop())

  it('still serves robots.txt and guards, and says once which features are off', async () => {
    for (let i = 0; i < 3; i++) {
      expect((await get(bare, '/robots.txt', UA.googlebot)).status).toBe(200)
      expect((await get(bare, '/articles/1', UA.gptbot)).status).toBe(403)
      expect((await get(bare, '/articles/1', UA.browser)).status).toBe(200)
    }
    const report = await get(bare, '/_robots/api/report', UA.browser, { Authorization: 'Bearer x' })
    expect(report.status).toBe(401)
    const notices = bare.logs.filter((line) => line.startsWith('robots-edge: no '))
    expect(notices).toHaveLength(2)
    expect(notices[0]).toContain('no D1 binding "DB", so recording is off')
    expect(notices[1]).toContain('no KV binding "ROBOTS_KV"')
  })
})
