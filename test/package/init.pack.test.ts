// `npx robots-edge init --yes` from the tarball, in a bare Hono app and a
// bare module Worker (their wrangler.toml has only name, main and
// compatibility_date): the config,
// the starter robots.config.ts and the secrets are written, the migrations
// applied, a second run changes nothing, and the README's code for the app
// type-checks with a standard tsconfig, bundles, and serves robots.txt, a
// refusal and the report with the token init wrote: through Miniflare, and
// through `wrangler dev` as a person runs it after init (local, offline, on
// free ports, with the state init migrated), with no error in its log.
// The apps' code is the README's own: the blocks of "Add robots-edge to an
// existing app" are their src/index.ts, and each ts block of "Write your
// policy" is a config module in the Hono app, type-checked with the app and
// linted and validated by the app's CLI. A renamed export or a stale snippet
// fails here.
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startWranglerDev } from '../../dev/wrangler-dev.ts'
import { bundle, cli, createApp, pack, start, tsc } from '../support/consumer.ts'

const APPS = ['bare-hono-app', 'bare-worker-app'] as const
let dir: string
const apps = new Map<string, string>()

const README = await readFile(new URL('../../README.md', import.meta.url), 'utf8')
/** The ```ts blocks of the README's section whose heading starts with `heading`, in order. */
function readmeBlocks(heading: string): string[] {
  const from = README.indexOf(`\n## ${heading}`)
  if (from < 0) throw new Error(`README has no "## ${heading}" section`)
  const to = README.indexOf('\n## ', from + 1)
  return [...README.slice(from, to < 0 ? undefined : to).matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!)
}
/** The block of "Add robots-edge to an existing app" that `holds` a string. */
function addBlock(holds: string): string {
  const found = readmeBlocks('Add robots-edge').find((b) => b.includes(holds))
  if (found === undefined) throw new Error(`README's "Add robots-edge to an existing app" has no ts block with ${holds}`)
  return found
}
/**
 * "Write your policy"'s ts blocks as config modules: a fragment (`rules: [...]`,
 * `noindex: [...]`) goes inside defineConfig, with the one required field,
 * `rules`, when it has none.
 */
const POLICY_BLOCKS = readmeBlocks('Write your policy').map((b) =>
  b.includes('export default')
    ? b
    : `import { agents, defineConfig } from 'robots-edge'\n\nvoid agents\nexport default defineConfig({\n${/^\s*rules:/m.test(b) ? '' : "rules: [{ userAgent: '*', allow: '/' }],\n"}${b}})\n`,
)

/** The README's code in the apps: what a reader pastes after init. */
async function pasteReadme(hono: string, worker: string): Promise<void> {
  await Promise.all([mkdir(join(hono, 'src'), { recursive: true }), mkdir(join(worker, 'src'), { recursive: true }), mkdir(join(worker, 'dist'), { recursive: true })])
  await writeFile(join(hono, 'src', 'index.ts'), addBlock("from 'robots-edge/hono'"))
  await writeFile(join(worker, 'src', 'index.ts'), addBlock('withRobotsEdge('))
  // The app's own module Worker, which the README's block imports as ../dist/_worker.js (a framework's build output), and its type.
  await writeFile(join(worker, 'dist', '_worker.js'), "export default { fetch: () => new Response('bare-worker-app home\\n') }\n")
  await writeFile(join(worker, 'dist', '_worker.d.ts'), 'declare const handler: { fetch(request: Request): Response | Promise<Response> }\nexport default handler\n')
  await Promise.all(POLICY_BLOCKS.map((text, i) => writeFile(join(hono, `readme-policy-${i + 1}.config.ts`), text)))
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'robots-edge-init-pack-'))
  const tarball = await pack()
  // A new Workers project has wrangler (init uses the app's own); the Hono app, hono.
  const [hono, worker] = await Promise.all([createApp('bare-hono-app', dir, tarball.file, ['hono@4.13.19', 'wrangler@4.86.0']), createApp('bare-worker-app', dir, tarball.file, ['wrangler@4.86.0'])])
  apps.set('bare-hono-app', hono).set('bare-worker-app', worker)
  await pasteReadme(hono, worker)
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

  it('serves what init wrote with wrangler dev: robots.txt, a refusal, and the report with its token naming the crawler; no error in the log', async () => {
    const app = apps.get(name)!
    const token = /^ROBOTS_ADMIN_TOKEN=(.+)$/m.exec(await readFile(join(app, '.dev.vars'), 'utf8'))?.[1]
    expect(token).toMatch(/^[\w-]{43}$/)
    // The app's own wrangler, its state where init migrated it (the app is a temporary folder of this test's).
    const dev = await startWranglerDev(app, { persistTo: join(app, '.wrangler', 'state'), timeout: 90_000 })
    try {
      const get = (path: string, ua: string, headers: Record<string, string> = {}) => fetch(`${dev.origin}${path}`, { headers: { 'User-Agent': ua, ...headers } })
      const robots = await get('/robots.txt', 'curl/8')
      expect(robots.status).toBe(200)
      expect(await robots.text()).toMatch(/^User-agent: gptbot$/im)
      const refused = await get('/', 'Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)')
      expect(refused.status).toBe(403)
      await refused.arrayBuffer()
      expect((await get('/_robots/api/report', 'curl/8')).status).toBe(401)
      let body = ''
      for (let i = 0; i < 100 && !body.includes('"gptbot"'); i++) {
        await new Promise((r) => setTimeout(r, 100))
        const report = await get('/_robots/api/report?since=1d', 'curl/8', { Authorization: `Bearer ${token}` })
        expect(report.status).toBe(200)
        body = await report.text()
      }
      expect(body).toContain('"gptbot"')
      // wrangler's and the Worker's lines: none an error (wrangler marks them ✘ [ERROR]), no missing table, no literal undefined.
      expect(
        dev
          .output()
          .split('\n')
          .filter((line) => /error|✘|no such table|undefined/i.test(line)),
        dev.output(),
      ).toEqual([])
    } finally {
      await dev.stop()
    }
  }, 180_000)
})

describe('the README\'s "Write your policy" blocks, in the Hono app', () => {
  it.each(POLICY_BLOCKS.map((_, i) => [i + 1]))(
    "block %i lints and validates with the app's CLI (its types are checked with the app above)",
    async (n) => {
      expect(POLICY_BLOCKS.length).toBeGreaterThanOrEqual(3)
      const app = apps.get('bare-hono-app')!
      for (const command of ['validate', 'lint']) {
        const result = await cli(app, [command, '--config', `readme-policy-${n}.config.ts`])
        expect(result.code, `${command}: ${result.stdout}${result.stderr}`).toBe(0)
      }
    },
    60_000,
  )
})
