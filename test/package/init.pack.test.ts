// `npx robots-edge init --yes` from the tarball, in a bare Hono app and a
// bare module Worker (their wrangler.toml has only name, main and
// compatibility_date): the config,
// the starter robots.config.ts and the secrets are written, the migrations
// applied, a second run changes nothing, and the README's code for the app
// type-checks with a standard tsconfig, bundles, and serves robots.txt, a
// refusal and the report with the token init wrote.
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bundle, cli, createApp, pack, start, tsc } from '../support/consumer.ts'

const APPS = ['bare-hono-app', 'bare-worker-app'] as const
let dir: string
const apps = new Map<string, string>()

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'robots-edge-init-pack-'))
  const tarball = await pack()
  // A new Workers project has wrangler (init uses the app's own); the Hono app, hono.
  const [hono, worker] = await Promise.all([createApp('bare-hono-app', dir, tarball.file, ['hono@4.13.19', 'wrangler@4.86.0']), createApp('bare-worker-app', dir, tarball.file, ['wrangler@4.86.0'])])
  apps.set('bare-hono-app', hono).set('bare-worker-app', worker)
}, 600_000)
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true })
}, 60_000)

describe.each(APPS)('npx robots-edge init --yes in %s', (name) => {
  it('sets the app up, says what it changed, and changes nothing the second time', async () => {
    const app = apps.get(name)!
    const first = await cli(app, ['init', '--yes'])
    expect(first.code, first.stderr).toBe(0)
    expect(first.stdout).toContain('edited wrangler.toml:')
    expect(first.stdout).toContain('created robots.config.ts:')
    expect(first.stdout).toContain('created .dev.vars:')
    expect(first.stdout).toContain('applied the local migrations')
    expect(await readFile(join(app, '.dev.vars'), 'utf8')).toMatch(/^ROBOTS_ADMIN_TOKEN=[\w-]{43}$/m)
    expect(existsSync(join(app, '.wrangler', 'state', 'v3', 'd1'))).toBe(true)
    const toml = await readFile(join(app, 'wrangler.toml'), 'utf8')

    const second = await cli(app, ['init', '--yes'])
    expect(second.code, second.stderr).toBe(0)
    expect(second.stdout).toContain('nothing to change')
    expect(await readFile(join(app, 'wrangler.toml'), 'utf8')).toBe(toml)

    const linted = await cli(app, ['lint'])
    expect(linted.code, linted.stdout).toBe(0)
  }, 240_000)

  it("type-checks the README's code with a standard tsconfig, bundles it, and serves it with what init wrote", async () => {
    const app = apps.get(name)!
    const checked = await tsc(app)
    expect(checked.code, checked.output).toBe(0)
    const { script, gzipBytes } = await bundle(app)
    expect(gzipBytes).toBeGreaterThan(1000)

    // Served with what init wrote: its migrated D1 (start() reads .state) and the token in .dev.vars.
    await cp(join(app, '.wrangler', 'state'), join(app, '.state'), { recursive: true })
    const vars = Object.fromEntries(
      (await readFile(join(app, '.dev.vars'), 'utf8'))
        .trim()
        .split('\n')
        .map((line) => line.split('=', 2) as [string, string]),
    )
    const running = await start(app, script, { secrets: vars })
    try {
      const get = (path: string, ua: string, headers: Record<string, string> = {}) => fetch(`${running.origin}${path}`, { headers: { 'User-Agent': ua, ...headers } })
      expect((await get('/robots.txt', 'curl/8')).status).toBe(200)
      expect((await get('/', 'Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)')).status).toBe(403)
      const auth = { Authorization: `Bearer ${vars.ROBOTS_ADMIN_TOKEN}` }
      let body = ''
      for (let i = 0; i < 50 && !body.includes('gptbot'); i++) {
        await new Promise((r) => setTimeout(r, 100))
        const report = await get('/_robots/api/report?since=1d', 'curl/8', auth)
        expect(report.status).toBe(200)
        body = await report.text()
      }
      expect(body).toContain('gptbot')
      expect(running.logs.filter((line) => /error|no table|undefined/i.test(line))).toEqual([])
    } finally {
      await running.stop()
    }
  }, 240_000)
})
