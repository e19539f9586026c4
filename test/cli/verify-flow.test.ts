// `robots-edge verify` end to end: the built Worker (Miniflare, D1 in
// memory, the operators' IP ranges from test/fixtures loaded in its KV)
// serves the template's config, and verify finds it serves and enforces the
// configured rules (exit 0). Then a stand-in for a Cloudflare zone with
// managed robots.txt turned on sits in front of the same Worker: it prepends
// the managed block to /robots.txt and passes everything else through, and
// verify names Cloudflare's managed robots.txt and exits 1.
import { execFile } from 'node:child_process'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { rm } from 'node:fs/promises'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startWorker, waitForLedger, type LocalWorker } from '../../dev/worker.ts'
import { run } from '../../src/cli/main.ts'
import { COUNTED_CLASSES } from '../../src/ledger/classes.ts'
import { builtWorkers } from '../support/built-workers.ts'
import { captureIo, jsonOf } from '../support/cli-io.ts'

const OUT = 'dist/test-verify-flow'

/** What a zone's managed robots.txt puts before the Worker's file: its notice (shortened), markers and groups, as Cloudflare serves them. */
const MANAGED = `# As a condition of accessing this website, you agree to abide by the following
# content signals:
# ai-train: training or fine-tuning AI models.

# BEGIN Cloudflare Managed content

User-Agent: *
Content-signal: search=yes,ai-train=no
Allow: /

# END Cloudflare Managed Content
`

let worker: LocalWorker
let zone: Server
let zoneUrl = ''

/** The zone: /robots.txt gets the managed block prepended; every other request goes to the Worker with its User-Agent. */
function startZone(target: string): Promise<Server> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', target)
    fetch(url, { headers: { 'User-Agent': req.headers['user-agent'] ?? '' }, redirect: 'manual' })
      .then(async (upstream) => {
        const body = await upstream.text()
        res.writeHead(upstream.status, { 'Content-Type': upstream.headers.get('content-type') ?? 'text/plain' })
        res.end(url.pathname === '/robots.txt' ? MANAGED + body : body)
      })
      .catch(() => {
        res.writeHead(502)
        res.end()
      })
  })
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)))
}

beforeAll(async () => {
  worker = await startWorker({ outdir: OUT, bundles: await builtWorkers() })
  zone = await startZone(worker.url)
  zoneUrl = `http://127.0.0.1:${(zone.address() as AddressInfo).port}`
}, 180_000)

afterAll(async () => {
  await new Promise((resolve) => zone?.close(resolve))
  await worker?.dispose()
  await Promise.all([OUT, `${OUT}-admin`].map((dir) => rm(dir, { recursive: true, force: true })))
}, 60_000)

const verify = async (...argv: string[]) => {
  const io = captureIo()
  const code = await run(['verify', ...argv], io)
  return { code, io }
}

interface ProbeJson {
  agent: string
  group: string | null
  path: string
  mode: string | null
  expectRefused: boolean
  status: number | null
  refused: boolean
  ok: boolean
}

describe('verify against the local Worker', { timeout: 60_000 }, () => {
  it('serving the configured file: byte for byte, the same rules, the guard as configured; exit 0', async () => {
    const { code, io } = await verify(worker.url, '--json')
    const report = jsonOf(io) as { ok: boolean; robotsTxt: Record<string, unknown>; differences: unknown[]; prepended: unknown; probes: ProbeJson[]; skipped: { tokens: string[] }[] }
    expect(code, io.text()).toBe(0)
    expect(report.ok).toBe(true)
    expect(report.robotsTxt).toMatchObject({ status: 200, identical: true, problem: null, redirects: [] })
    expect(report.robotsTxt.servedVersion).toBe(report.robotsTxt.version)
    expect(report.differences).toEqual([])
    expect(report.prepended).toBeNull()
    // GPTBot's group is in block mode: refused on a disallowed path. Googlebot's and the * group log: let through.
    const byAgent = Object.fromEntries(report.probes.map((p) => [p.agent, p]))
    expect(byAgent.GPTBot).toMatchObject({ group: 'gptbot', mode: 'block', expectRefused: true, status: 403, refused: true, ok: true })
    expect(byAgent.Googlebot).toMatchObject({ group: 'googlebot', mode: 'log', expectRefused: false, refused: false, ok: true })
    expect(report.probes.find((p) => p.group === '*')).toMatchObject({ mode: 'log', expectRefused: false, refused: false, ok: true })
    // The browser asks for the path GPTBot was refused on, and gets the page.
    expect(byAgent.browser).toMatchObject({ path: byAgent.GPTBot?.path, status: 200, refused: false, ok: true })
    // The AI-training group names no operator with published ranges: no request is sent as one of them.
    expect(report.skipped.map((s) => s.tokens)).toContainEqual(expect.arrayContaining(['claudebot', 'bytespider']))
  })

  it('says so in words', async () => {
    const { code, io } = await verify(worker.url)
    expect(code).toBe(0)
    expect(io.text()).toContain('byte for byte the configured file')
    expect(io.text()).toContain('same rules as RFC 9309 reads them')
    expect(io.text()).toContain('The live site serves and enforces the configured rules.')
    expect(io.text()).toMatch(/ok\s+GPTBot\s+\/\s+403 \(refused by the guard\); expected refused/)
  })

  it('the probes were judged as spoofed claims: the ledger counts none against the crawlers they name', async () => {
    await waitForLedger(worker.db, { stableMs: 1000 })
    const rows = await worker.db
      .prepare('SELECT agent_key AS agent, verification, class, sum(requests) AS n FROM counts_hourly GROUP BY agent_key, verification, class')
      .all<{ agent: string; verification: string; class: string; n: number }>()
    const disallowed = rows.results.filter((r) => r.class !== 'allowed' && r.class !== 'robotsTxt')
    expect(disallowed.length).toBeGreaterThan(0)
    for (const row of disallowed) expect(row, JSON.stringify(row)).toMatchObject({ verification: 'spoofed', class: 'spoofed' })
    expect(rows.results.filter((r) => (COUNTED_CLASSES as readonly string[]).includes(r.class))).toEqual([])
  })
})

describe("verify behind a zone with Cloudflare's managed robots.txt", { timeout: 60_000 }, () => {
  it('names the managed block and its extra * group, and exits 1', async () => {
    const { code, io } = await verify(zoneUrl, '--json')
    const report = jsonOf(io) as { ok: boolean; robotsTxt: Record<string, unknown>; differences: Record<string, unknown>[]; prepended: Record<string, unknown>; probes: ProbeJson[] }
    expect(code, io.text()).toBe(1)
    expect(report.ok).toBe(false)
    expect(report.robotsTxt).toMatchObject({ status: 200, identical: false })
    expect(report.prepended).toMatchObject({ managed: true, fromLine: 1, toLine: 11, tokens: ['*'] })
    expect(report.differences).toEqual([
      { kind: 'extra-group', token: '*', text: 'User-agent: *', line: 7, file: 'live', prepended: true, detail: ['Allow: /', 'Content-signal: search=yes,ai-train=no'] },
    ])
    // The guard behind it still answers as configured.
    expect(report.probes.every((p) => p.ok)).toBe(true)
  })

  it('in words, through the bin as a process', async () => {
    const result = await promisify(execFile)(process.execPath, ['bin/robots-edge.mjs', 'verify', zoneUrl], { env: { ...process.env, NO_COLOR: '1' }, timeout: 60_000 }).then(
      () => ({ code: 0, stdout: '' }),
      (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
    )
    expect(result.code).toBe(1)
    expect(result.stdout).toContain("Cloudflare's managed robots.txt is prepended to the Worker's file: lines 1-11 (groups for *)")
    expect(result.stdout).toMatch(/extra group\s+\*\s+User-agent: \* \(Allow: \/; Content-signal: search=yes,ai-train=no\)\s+live line 7 · from Cloudflare's managed robots.txt/)
    expect(result.stdout).toContain('1 difference: the live site is not what the config says.')
  })
})

describe('verify when the site cannot be checked', { timeout: 30_000 }, () => {
  it('a closed port: exit 2, nothing compared', async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise((resolve) => closed.close(resolve))
    const { code, io } = await verify(`http://127.0.0.1:${port}`)
    expect(code).toBe(2)
    expect(io.stderr.join('\n')).toContain(`could not reach http://127.0.0.1:${port}/robots.txt: connection refused (ECONNREFUSED)`)
  })
})
