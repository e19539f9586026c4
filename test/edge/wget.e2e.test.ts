/**
 * End to end: GNU Wget mirrors a site through the Worker with
 * `wget -r -e robots=on`, as a site owner tried it. The config is the
 * one that owner wrote: `{ userAgent: '*', allow: '/', disallow: ['/admin/'] }` with
 * `guard: { mode: 'block' }`. Wget is a generic tool, so the `*` group judges
 * it; it reads robots.txt and keeps out of /admin/, so it is never refused
 * and no violation is recorded.
 *
 * Wget reads robots.txt by first match in file order; the guard reads it as
 * Google does (longest match). They agree only once the served file puts its
 * rules in an order both readings share (the engine's reader-safe rule
 * order). Needs Debian's wget (`apt-get install wget`; .ci/run
 * installs it).
 */
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { build } from 'esbuild'
import { Miniflare } from 'miniflare'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { unstable_readConfig } from 'wrangler'
import { bundledWorker, discardStdio, LOCAL, migrationStatements } from '../../dev/miniflare.ts'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const WGET = '/usr/bin/wget'
const CONFIG = `{ rules: [{ userAgent: '*', allow: '/', disallow: ['/admin/'] }], guard: { mode: 'block' } }`

/** A small site: public pages that link to the admin area. */
const PAGES: Record<string, string> = {
  '/': '<a href="/about">About</a> <a href="/docs/guide.html">Guide</a> <a href="/admin/panel">Panel</a> <a href="/admin/users">Users</a>',
  '/about': '<a href="/">Home</a> <a href="/admin/panel">Panel</a>',
  '/docs/guide.html': '<a href="/">Home</a> <a href="/admin/users">Users</a>',
  '/admin/panel': 'secret panel',
  '/admin/users': 'secret users',
}

function startSite(): Promise<Server> {
  const server = createServer((request, response) => {
    const body = PAGES[new URL(request.url ?? '/', 'http://site').pathname]
    response.writeHead(body === undefined ? 404 : 200, { 'content-type': 'text/html; charset=utf-8' })
    response.end(body === undefined ? 'not found' : `<!doctype html><title>page</title>${body}`)
  })
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)))
}

/** The Worker with the config, bundled as wrangler would (esm, workerd conditions). */
async function bundle(dir: string): Promise<string> {
  const entry = join(dir, 'entry.ts')
  await writeFile(entry, `import { createWorker } from ${JSON.stringify(join(ROOT, 'src/package/app.ts'))}\nexport default createWorker(${CONFIG})\n`)
  const outfile = join(dir, 'worker.js')
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['module', 'main'],
    external: ['cloudflare:*', 'node:*'],
    logLevel: 'warning',
  })
  return outfile
}

let dir: string
let site: Server
let mf: Miniflare
let origin: string

interface Row {
  type: string
  path: string
  allowed: number
  action: string
  robots_group: string | null
  agent_kind: string
}

async function ledger(): Promise<Row[]> {
  const db = await mf.getD1Database('DB')
  const { results } = await db.prepare("SELECT type, path, allowed, action, robots_group, agent_kind FROM events WHERE agent_key = 'wget' ORDER BY id").all<Row>()
  return results
}

beforeAll(async () => {
  if (!existsSync(WGET)) throw new Error(`GNU Wget is missing at ${WGET}: install Debian's wget (apt-get update && apt-get install -y wget); CI's .ci/run does.`)
  dir = await mkdtemp(join(tmpdir(), 'robots-edge-wget-'))
  site = await startSite()
  const config = unstable_readConfig({ config: join(ROOT, 'wrangler.toml') }, { hideWarnings: true })
  mf = new Miniflare({
    ...bundledWorker(config, await bundle(dir), dir),
    d1Databases: { DB: 'wget-ledger' },
    kvNamespaces: ['ROBOTS_KV'],
    bindings: { ROBOTS_ENV: 'production', ORIGIN: `http://127.0.0.1:${(site.address() as AddressInfo).port}`, IP_HASH_SALT: 'wget-salt', ROBOTS_ADMIN_TOKEN: 'wget-token' },
    ...LOCAL,
    // The per-request JSON log lines are the Worker's, not this test's output.
    handleRuntimeStdio(stdout, stderr) {
      discardStdio(stdout, stderr)
    },
  })
  origin = (await mf.ready).origin
  const db = await mf.getD1Database('DB')
  await db.batch((await migrationStatements()).map((sql) => db.prepare(sql)))
}, 60_000)

afterAll(async () => {
  await mf?.dispose()
  await new Promise((resolve) => (site ? site.close(resolve) : resolve(undefined)))
  if (dir) await rm(dir, { recursive: true, force: true })
})

describe('wget -r -e robots=on through the Worker (guard: block)', () => {
  it('mirrors the public pages, is never refused, and has no violation recorded', async () => {
    const mirror = join(dir, 'mirror')
    const { stderr } = await promisify(execFile)(WGET, ['-r', '-l', '3', '-e', 'robots=on', '-nv', '--tries=1', '--timeout=10', '-P', mirror, `${origin}/`], { timeout: 45_000 }).catch(
      (error: { stderr?: string; code?: number }) => {
        // Wget exits 8 when the server answered an error (a 403 among them): the log says which.
        return { stderr: error.stderr ?? String(error) }
      },
    )
    const host = new URL(origin).host
    const saved = (await readdir(join(mirror, host), { recursive: true })).map(String).sort()
    expect(stderr).not.toMatch(/ERROR 403/)
    expect(saved).toEqual(expect.arrayContaining(['about', 'docs/guide.html', 'index.html', 'robots.txt']))
    expect(saved.filter((file) => file.startsWith('admin'))).toEqual([])

    // Recording runs after the response (waitUntil): wait for it, bounded.
    let rows: Row[] = []
    for (let i = 0; i < 100 && rows.filter((r) => r.type === 'request').length < 3; i++) {
      rows = await ledger()
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    // Wget was judged, as a tool, by the * group: it read robots.txt and kept to it.
    expect(rows.filter((r) => r.type === 'robots-txt')).toHaveLength(1)
    const requests = rows.filter((r) => r.type === 'request')
    expect(requests.map((r) => r.path).sort()).toEqual(['/', '/about', '/docs/guide.html'])
    expect(requests.every((r) => r.agent_kind === 'tool' && r.robots_group === '*')).toBe(true)
    expect(requests.filter((r) => r.allowed === 0 || r.action === 'block')).toEqual([])
  }, 60_000)
})
