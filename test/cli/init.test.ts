import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/cli/config.ts'
import { init } from '../../src/cli/init.ts'
import { addVars, appendToml, configComplete, databaseName, needs, unifiedDiff, type RawWranglerConfig } from '../../src/cli/init-config.ts'
import { lint } from '../../src/cli/lint.ts'
import { run } from '../../src/cli/main.ts'
import { captureIo } from '../support/cli-io.ts'

// `robots-edge init`: the config edits as pure functions, then the command in
// temporary copies of bare apps (wrangler config with name, main and
// compatibility_date only), migrations included.

const REPO = fileURLToPath(new URL('../..', import.meta.url))
const wrangler = createRequire(import.meta.url)('wrangler') as { experimental_readRawConfig(a: { config: string }): { rawConfig: RawWranglerConfig } }
const OFFLINE = { ...process.env, WRANGLER_SEND_METRICS: 'false', WRANGLER_SEND_ERROR_REPORTS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false', NO_COLOR: '1' }
const BARE_TOML = '# my app\nname = "my-app"\nmain = "src/index.ts"\ncompatibility_date = "2026-04-20" # pinned\n'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** A temporary app with robots-edge "installed" (node_modules/robots-edge is this repository). */
function app(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'robots-edge-init-test-'))
  dirs.push(dir)
  mkdirSync(join(dir, 'node_modules'))
  symlinkSync(REPO, join(dir, 'node_modules', 'robots-edge'), 'dir')
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true })
    writeFileSync(join(dir, path), text)
  }
  return dir
}

function readRaw(text: string, name = 'wrangler.toml'): RawWranglerConfig {
  const dir = app({ [name]: text })
  return wrangler.experimental_readRawConfig({ config: join(dir, name) }).rawConfig
}

describe('what init adds to a wrangler config', () => {
  it('appends the four sections to a bare TOML config, keeping its text, and the result parses complete', () => {
    const n = needs(readRaw(BARE_TOML), 'fallback')
    expect(n).toEqual({ d1: { binding: 'DB', database_name: 'my-app-robots', migrations_dir: 'node_modules/robots-edge/migrations' }, kv: true, cron: true, assets: 'add' })
    const after = appendToml(BARE_TOML, n)
    expect(after.startsWith(BARE_TOML)).toBe(true)
    const reread = readRaw(after)
    expect(configComplete(needs(reread, 'fallback'))).toBe(true)
    expect(reread).toMatchObject({ assets: { directory: 'node_modules/robots-edge/public' }, triggers: { crons: ['17 * * * *'] }, kv_namespaces: [{ binding: 'ROBOTS_KV' }] })
    // Idempotent: nothing more to add the second time.
    expect(appendToml(after, needs(reread, 'fallback'))).toBe(after)
  })

  it("leaves an app's own cron, D1 and KV alone, and copies into its own assets directory instead of adding [assets]", () => {
    const n = needs(
      readRaw(`${BARE_TOML}assets = { directory = "./dist" }\n[triggers]\ncrons = ["0 0 * * *"]\n[[d1_databases]]\nbinding = "DB"\ndatabase_name = "mine"\n[[kv_namespaces]]\nbinding = "ROBOTS_KV"\n`),
      'x',
    )
    expect(n).toEqual({ d1: undefined, kv: false, cron: false, assets: { copyTo: './dist' } })
    expect(configComplete(n)).toBe(true)
  })

  it('derives a valid database name from any app name', () => {
    expect(databaseName('My App_2')).toBe('my-app-2-robots')
    expect(databaseName('@@@')).toBe('app-robots')
  })

  it('adds missing secrets to .dev.vars, keeping its lines and never replacing a value', () => {
    expect(addVars('# mine\nROBOTS_ADMIN_TOKEN=keep', { ROBOTS_ADMIN_TOKEN: 'new', IP_HASH_SALT: 's' })).toBe('# mine\nROBOTS_ADMIN_TOKEN=keep\nIP_HASH_SALT=s\n')
    expect(addVars('ROBOTS_ADMIN_TOKEN=a\nexport IP_HASH_SALT = b\n', { ROBOTS_ADMIN_TOKEN: 'x', IP_HASH_SALT: 'y' })).toBe('ROBOTS_ADMIN_TOKEN=a\nexport IP_HASH_SALT = b\n')
  })

  it('prints a created file and an appended one as unified diffs', () => {
    expect(unifiedDiff('f', undefined, 'a\nb\n')).toEqual(['--- /dev/null', '+++ b/f', '@@ -0,0 +1,2 @@', '+a', '+b'])
    expect(unifiedDiff('f', 'a\nb\nc\n', 'a\nb\nc\nd\n')).toEqual(['--- a/f', '+++ b/f', '@@ -2,2 +2,3 @@', ' b', ' c', '+d'])
  })
})

describe('robots-edge init --yes in a bare app', () => {
  it('writes the config, robots.config.ts and the secrets, applies the migrations, and the second run changes nothing', async () => {
    const dir = app({ 'wrangler.toml': BARE_TOML, 'src/index.ts': 'export default { fetch: () => new Response("hi") }\n' })
    const io = captureIo()
    expect(await run(['init', '--yes', '--dir', dir], io)).toBe(0)
    expect(io.stderr).toEqual([])
    const toml = readFileSync(join(dir, 'wrangler.toml'), 'utf8')
    expect(toml.startsWith(BARE_TOML)).toBe(true)
    expect(configComplete(needs(wrangler.experimental_readRawConfig({ config: join(dir, 'wrangler.toml') }).rawConfig, 'x'))).toBe(true)
    const vars = readFileSync(join(dir, '.dev.vars'), 'utf8')
    expect(vars).toMatch(/^ROBOTS_ADMIN_TOKEN=[A-Za-z0-9_-]{43}\nIP_HASH_SALT=[A-Za-z0-9_-]{43}\n$/)
    // The diff names the secrets it wrote; their values never reach the terminal (or a CI log).
    expect(io.stdout).toEqual(expect.arrayContaining(['+ROBOTS_ADMIN_TOKEN=<43 characters, not shown>', '+IP_HASH_SALT=<43 characters, not shown>']))
    for (const secret of vars
      .split('\n')
      .map((l) => l.split('=')[1])
      .filter(Boolean))
      expect(io.text()).not.toContain(secret)
    // Every change shown as a diff, and the migrations applied.
    expect(io.stdout).toEqual(expect.arrayContaining(['edited wrangler.toml:', '--- a/wrangler.toml', '+[[d1_databases]]', 'created robots.config.ts:', 'created .dev.vars:']))
    expect(io.text()).toContain('applied the local migrations (npx wrangler d1 migrations apply DB --local)')
    expect(existsSync(join(dir, '.wrangler', 'state', 'v3', 'd1'))).toBe(true)

    // The starter config lints clean, as `robots-edge lint` reads it.
    const { input, source } = await loadConfig(join(dir, 'robots.config.ts'))
    const linted = captureIo()
    expect(lint({ config: input, source }, linted)).toBe(0)
    expect(linted.text()).not.toMatch(/warning|error/)

    const again = captureIo()
    expect(await run(['init', '--yes', '--dir', dir], again)).toBe(0)
    expect(again.stdout[0]).toBe('robots-edge init: nothing to change, the project is set up.')
    expect(again.stdout).toContain('robots.config.ts exists: left alone.')
    expect(readFileSync(join(dir, 'wrangler.toml'), 'utf8')).toBe(toml)
    expect(readFileSync(join(dir, '.dev.vars'), 'utf8')).toBe(vars)
  }, 120_000)

  it("edits a wrangler.jsonc keeping its comments, and copies the dashboard's files into the app's assets directory", () => {
    const jsonc = '{\n  // my app\n  "name": "astro-app",\n  "main": "dist/_worker.js",\n  "compatibility_date": "2026-04-20",\n  "assets": { "directory": "./dist" }\n}\n'
    const dir = app({ 'wrangler.jsonc': jsonc, 'dist/_robots/static/dashboard.js': 'old', '.dev.vars': 'ROBOTS_ADMIN_TOKEN=mine\n' })
    const io = captureIo()
    expect(init({ yes: true, dir, env: OFFLINE, timeoutMs: 90_000 }, io)).toBe(0)
    const after = readFileSync(join(dir, 'wrangler.jsonc'), 'utf8')
    expect(after).toContain('// my app')
    expect(wrangler.experimental_readRawConfig({ config: join(dir, 'wrangler.jsonc') }).rawConfig).toMatchObject({
      assets: { directory: './dist' },
      d1_databases: [{ binding: 'DB', database_name: 'astro-app-robots' }],
      triggers: { crons: ['17 * * * *'] },
    })
    expect(readFileSync(join(dir, 'dist/_robots/static/dashboard.js'), 'utf8')).toBe(readFileSync(join(REPO, 'public/_robots/static/dashboard.js'), 'utf8'))
    expect(io.text()).toMatch(/copied the dashboard's \d+ static files into your assets directory, dist\/_robots\/ \(1 older copies replaced\)/)
    expect(readFileSync(join(dir, '.dev.vars'), 'utf8')).toMatch(/^ROBOTS_ADMIN_TOKEN=mine\nIP_HASH_SALT=\S{43}\n$/)
  }, 120_000)

  it('on a terminal without --yes, shows the changes and writes nothing', () => {
    const dir = app({ 'wrangler.toml': BARE_TOML })
    const io = captureIo({ isTTY: true })
    expect(init({ dir }, io)).toBe(0)
    expect(io.stdout.at(-1)).toBe('Run `npx robots-edge init --yes` to make them and apply the local migrations (npx wrangler d1 migrations apply DB --local).')
    expect(io.stdout).toContain('+[[kv_namespaces]]')
    expect(readFileSync(join(dir, 'wrangler.toml'), 'utf8')).toBe(BARE_TOML)
    expect(existsSync(join(dir, 'robots.config.ts'))).toBe(false)
  })

  it('says what is missing when there is no wrangler config', async () => {
    const dir = app({})
    const io = captureIo()
    expect(await run(['init', '--dir', dir], io)).toBe(1)
    expect(io.stderr.join('\n')).toContain('no wrangler.toml, wrangler.json or wrangler.jsonc')
  })
})
