// The first five minutes with the template, tried as a new
// user tries them, in a copy of the project in a temporary folder: a bad
// config stops `npm run dev`, `npm run build` and `npm test` with the
// config's own message and nothing else; a broken save during `npm run dev`
// leaves one message and recovers; the first `npm run dev` in a terminal
// never stops at a prompt; the committed types are what `npm run types`
// writes. (Misspelled keys: test/types.)
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ROOT, wrangler } from '../support/consumer.ts'
import { BAD_CONFIG, createProject, GOOD_CONFIG, startDev, until, type Project } from '../support/project.ts'

/** What a ConfigError for BAD_CONFIG says, in every form it is printed. */
const CONFIG_MESSAGE = /rules\[0\]\.userAgent {2}"Brightbot 1\.0" is not a product token/
/** What must never reach a person whose config is bad: the runtime's own failure. */
const RUNTIME_NOISE = /Uncaught|Workers runtime failed|ERR_RUNTIME_FAILURE|workers-sdk\/issues|at null\.<anonymous>/

let project: Project

beforeAll(async () => {
  project = await createProject()
}, 30_000)
afterAll(async () => project?.remove(), 30_000)

describe('a bad config', () => {
  beforeAll(() => project.writeConfig(BAD_CONFIG))

  it('stops `npm run dev` before wrangler starts, with only the config error', async () => {
    const { code, output } = await project.run('npm run dev')
    expect(code).not.toBe(0)
    expect(output).toMatch(CONFIG_MESSAGE)
    expect(output).toContain('fix: Use "Brightbot".')
    expect(output).not.toMatch(RUNTIME_NOISE)
    expect(output).not.toMatch(/wrangler|migration/i)
  }, 120_000)

  it('fails `npm run build` with the same message, before bundling', async () => {
    const { code, output } = await project.run('npm run build')
    expect(code).not.toBe(0)
    expect(output).toMatch(CONFIG_MESSAGE)
    expect(output).not.toMatch(RUNTIME_NOISE)
    expect(output).not.toContain('Total Upload')
  }, 120_000)

  it('fails `npm test` once, with the message, before any test runs', async () => {
    const { code, output } = await project.run('npx vitest run --project node test/core/agents/registry.test.ts', { timeout: 180_000 })
    expect(code).not.toBe(0)
    expect(output).toContain('robots.config.ts is invalid, so no test ran.')
    expect(output).toMatch(CONFIG_MESSAGE)
    expect(output).not.toMatch(RUNTIME_NOISE)
    expect(output.match(/is invalid, so no test ran/g)).toHaveLength(1)
  }, 180_000)
})

describe('`npm run dev`', () => {
  beforeAll(() => project.writeConfig(GOOD_CONFIG))

  it('prepares a fresh clone in a terminal without a prompt: config checked, .dev.vars, migrations', async () => {
    // The terminal is real: the same shell reports a TTY on stdin.
    expect((await project.run('node -p process.stdin.isTTY', { tty: true })).output.trim()).toBe('true')
    const { code, output } = await project.run('node scripts/dev-setup.mjs', { tty: true, timeout: 120_000 })
    expect(output).not.toMatch(/continue\?|\(Y\/n\)/i)
    expect(code, output).toBe(0)
    expect(output).toContain('✔ robots.config.ts is valid')
    expect(output).toContain('created .dev.vars')
    const migrations = (await readdir(join(ROOT, 'migrations'))).filter((name) => name.endsWith('.sql'))
    expect(output).toContain(`applied ${migrations.length} migration(s) to the local D1.`)
    expect(await readFile(join(project.dir, '.dev.vars'), 'utf8')).toMatch(/^ROBOTS_ADMIN_TOKEN=\S{20,}$/m)
  }, 240_000)

  it('keeps running through a broken save: one clear message, then the next good save recovers', async () => {
    // What `npm run dev` runs first (predev), then wrangler dev on ports of its own.
    // After the test before it (a file's tests run in order), a second start finds nothing to do.
    const prepared = await readFile(join(project.dir, '.dev.vars'), 'utf8').then(
      () => true,
      () => false,
    )
    const setup = await project.run('node scripts/dev-setup.mjs')
    expect(setup.code, setup.output).toBe(0)
    if (prepared) {
      expect(setup.output).toContain('the local D1 is up to date.')
      expect(setup.output).not.toContain('created .dev.vars')
    }
    const dev = await startDev(project)
    try {
      const status = async () => (await fetch(`${dev.origin}/robots.txt`)).status
      expect(await until(async () => (await status()) === 200, 90_000), dev.output()).toBe(true)
      await project.writeConfig(BAD_CONFIG)
      expect(await until(async () => (await status()) === 503, 60_000), dev.output()).toBe(true)
      const broken = await fetch(`${dev.origin}/robots.txt`)
      expect(await broken.text()).toContain('"Brightbot 1.0" is not a product token')
      await project.writeConfig(GOOD_CONFIG)
      expect(await until(async () => (await status()) === 200, 60_000), dev.output()).toBe(true)
      // The dashboard's API, from the admin Worker through the edge's ROBOTS_ADMIN binding, with .dev.vars' token.
      const token = /^ROBOTS_ADMIN_TOKEN=(\S+)$/m.exec(await readFile(join(project.dir, '.dev.vars'), 'utf8'))![1]!
      expect((await fetch(`${dev.origin}/_robots/api/report`)).status).toBe(401)
      const report = await fetch(`${dev.origin}/_robots/api/report`, { headers: { Authorization: `Bearer ${token}` } })
      expect(report.status, dev.output()).toBe(200)
      expect(await report.json()).toHaveProperty('agents')
      const output = dev.output()
      // One message per reload that ran the broken config, and no other: the admin Worker bundles the
      // config too (for its alerts), so wrangler reloads once per Worker's rebuild and the edge says it again.
      const messages = output.match(/Invalid robots config/g) ?? []
      const reloads = output.slice(output.indexOf('Invalid robots config')).match(/Reloading local server/g) ?? []
      expect(messages.length, output).toBeGreaterThanOrEqual(1)
      expect(messages.length, output).toBeLessThanOrEqual(reloads.length + 1)
      expect(output.match(/is not a product token/g), output).toHaveLength(messages.length)
      expect(output).not.toMatch(RUNTIME_NOISE)
      expect(output).not.toContain('Your types might be out of date')
    } finally {
      await dev.stop()
    }
  }, 300_000)
})

describe('the committed files', () => {
  it('types/worker-configuration.d.ts is what `npm run types` writes, with or without a .dev.vars', async () => {
    const fresh = await createProject()
    try {
      await wrangler(fresh.dir, ['types', 'types/generated.d.ts', '--strict-vars=false', '--env-file', '.dev.vars.example'])
      // Line 2 names the command that wrote the file; the hash beside it covers the bindings.
      const strip = (text: string) => text.replace(/running `[^`]*`/, 'running `…`')
      expect(strip(await readFile(join(fresh.dir, 'types', 'generated.d.ts'), 'utf8'))).toBe(strip(await readFile(join(ROOT, 'types/worker-configuration.d.ts'), 'utf8')))
    } finally {
      await fresh.remove()
    }
  }, 120_000)

  it('wrangler.toml points nowhere stale and pastes no ids; .dev.vars.example is not to be copied by hand', async () => {
    const toml = await readFile(join(ROOT, 'wrangler.toml'), 'utf8')
    expect(toml).not.toMatch(/TOOLCHAIN|paste/)
    // No placeholder ids: the first deploy creates the database and the namespace.
    expect(toml).not.toMatch(/^\s*(database_)?id\s*=/m)
    expect(await readFile(join(ROOT, '.dev.vars.example'), 'utf8')).not.toMatch(/copy/i)
  })
})
