// `verify` against a plain HTTP server standing in for the site: how the
// robots.txt fetch follows RFC 9309 §2.3.1 (redirects, 4xx, 5xx, size,
// time), and how the guard's answers are judged. The built Worker is in
// verify-flow.test.ts.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { policyFor } from '../../src/cli/config.ts'
import { verify } from '../../src/cli/verify.ts'
import { BROWSER_UA, planProbes } from '../../src/cli/verify-probes.ts'
import type { FetchedRobotsTxt } from '../../src/cli/verify-fetch.ts'
import type { Probe, SkippedGroup } from '../../src/cli/verify-probes.ts'
import { defineConfig, DEFAULTS, type ConfigInput } from '../../src/core/config/index.ts'
import { captureIo, jsonOf } from '../support/cli-io.ts'

/** One `*` group in log mode (the default) and a custom bot. */
const LOG = defineConfig({
  rules: [
    { userAgent: '*', disallow: '/private/' },
    { userAgent: 'AcmeBot', disallow: '/' },
  ],
})
const BLOCK = defineConfig({ rules: [{ userAgent: 'GPTBot', disallow: '/' }], guard: { mode: 'block' } })

const textOf = (config: ConfigInput) => policyFor(config, '127.0.0.1', 'production').policy.text

/** The document `verify --json` prints, as far as these tests read it. */
interface Report {
  robotsTxt: FetchedRobotsTxt & { problem: string | null; identical: boolean }
  differences: unknown[]
  probes: Probe[]
  skipped: SkippedGroup[]
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void
let handler: Handler = (_req, res) => res.end()
let server: Server
let site = ''

beforeAll(async () => {
  server = createServer((req, res) => handler(req, res))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  site = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

/** Serves `text` at /robots.txt and a page everywhere else. */
const serving =
  (text: string, page: Handler = (_req, res) => res.end('<p>page</p>')): Handler =>
  (req, res) => {
    if (req.url === '/robots.txt') res.end(text)
    else page(req, res)
  }

async function run(config: ConfigInput, options: { timeoutMs?: number } = {}) {
  const io = captureIo()
  const code = await verify({ config, url: `${site}/any/path`, json: true, ...options }, io)
  return { code, report: (code === 2 ? {} : jsonOf(io)) as unknown as Report, io }
}

describe('RFC 9309 §2.3.1: fetching robots.txt', () => {
  it('§2.3.1.2: five redirects are followed, across paths, and the file they lead to compared', async () => {
    const text = textOf(LOG)
    handler = (req, res) => {
      const hop = /^\/hop\/(\d)$/.exec(req.url ?? '')
      const n = req.url === '/robots.txt' ? 0 : hop ? Number(hop[1]) : -1
      if (n >= 0 && n < 5) res.writeHead(n % 2 === 0 ? 301 : 308, { Location: `/hop/${n + 1}` }).end()
      else if (n === 5) res.end(text)
      else res.end('page')
    }
    const { code, report } = await run(LOG)
    expect(code).toBe(0)
    expect(report.robotsTxt).toMatchObject({ status: 200, identical: true, finalUrl: `${site}/hop/5`, problem: null })
    expect(report.robotsTxt.redirects).toHaveLength(5)
  })

  it('§2.3.1.2: a sixth redirect is one too many: crawlers may treat the file as unavailable', async () => {
    handler = (req, res) => res.writeHead(302, { Location: req.url === '/robots.txt' ? '/hop/1' : `/hop/${Number(req.url!.slice(5)) + 1}` }).end()
    const { code, report } = await run(LOG)
    expect(code).toBe(1)
    expect(report.robotsTxt.redirects).toHaveLength(5)
    expect(report.robotsTxt.problem).toContain('RFC 9309 §2.3.1.2')
  })

  it('§2.3.1.3: a 4xx means "unavailable": everything may be crawled, a difference', async () => {
    handler = (req, res) => (req.url === '/robots.txt' ? res.writeHead(404).end('not here') : res.end('page'))
    const { code, report } = await run(LOG)
    expect(code).toBe(1)
    expect(report.robotsTxt).toMatchObject({ status: 404, identical: false })
    expect(report.robotsTxt.problem).toMatch(/status 404: robots.txt is "unavailable", and crawlers may access everything \(RFC 9309 §2.3.1.3\)/)
  })

  it('§2.3.1.4: a 5xx means "unreachable": everything disallowed, a difference', async () => {
    handler = (req, res) => (req.url === '/robots.txt' ? res.writeHead(503).end() : res.end('page'))
    const { code, report } = await run(LOG)
    expect(code).toBe(1)
    expect(report.robotsTxt.problem).toMatch(/status 503: .*must assume everything is disallowed \(RFC 9309 §2.3.1.4\)/)
  })

  it('§2.5: past 500 KiB the rest is not read, and the file differs', async () => {
    const text = textOf(LOG)
    handler = serving(text + `# ${'x'.repeat(600 * 1024)}\n`)
    const { code, report } = await run(LOG)
    expect(code).toBe(1)
    // The first 500 KiB hold the same rules; the length alone is the difference.
    expect(report).toMatchObject({ differences: [], robotsTxt: { truncated: true, identical: false } })
  })

  it('a server that never answers: exit 2 once the time is up, nothing compared', async () => {
    handler = () => undefined
    const { code, io } = await run(LOG, { timeoutMs: 300 })
    expect(code).toBe(2)
    expect(io.text()).toContain('"ok": false')
    expect(io.text()).toContain('no answer within 0.3 s')
  })

  it('a body that stops arriving: exit 2 once the time is up', async () => {
    handler = (_req, res) => res.writeHead(200, { 'Content-Type': 'text/plain' }).write('User-agent: *\n')
    const { code, io } = await run(LOG, { timeoutMs: 300 })
    expect(code).toBe(2)
    expect(io.text()).toContain(`the body of ${site}/robots.txt did not arrive: no answer within 0.3 s`)
  })
})

describe("the guard's answers", () => {
  it('log mode: nothing refused is as configured; a custom bot no operator vouches for gets no request', async () => {
    const seen: string[] = []
    handler = serving(textOf(LOG), (req, res) => {
      seen.push(`${req.url} ${req.headers['user-agent']}`)
      res.end('page')
    })
    const { code, report } = await run(LOG)
    expect(code).toBe(0)
    expect(report.probes.map((p) => [p.group, p.path, p.mode, p.expectRefused, p.ok])).toEqual([
      ['*', '/private/', 'log', false, true],
      [null, '/private/', null, false, true],
    ])
    expect(report.skipped).toEqual([{ tokens: ['acmebot'], reason: expect.stringContaining('published IP ranges') }])
    // The crawler's header names the crawler and says who sends it.
    expect(seen[0]).toMatch(/^\/private\/ Mozilla\/5.0 \(compatible; [\w-]+\/1.0; robots-edge-verify\)$/)
  })

  it("log mode, yet the guard's refusal comes back: the crawler's and the browser's answers differ from the config", async () => {
    handler = serving(textOf(LOG), (_req, res) => res.writeHead(403).end(DEFAULTS.guard.body))
    const { code, report } = await run(LOG)
    expect(code).toBe(1)
    expect(report.probes.map((p) => [p.agent === 'browser', p.status, p.refused, p.ok])).toEqual([
      [false, 403, true, false],
      [true, 403, true, false],
    ])
  })

  it("an origin's own 403 (another body) is no refusal by the guard", async () => {
    handler = serving(textOf(LOG), (_req, res) => res.writeHead(403).end('Forbidden by the origin'))
    const { code, report } = await run(LOG)
    expect(code).toBe(0)
    expect(report.probes.every((p) => p.status === 403 && !p.refused)).toBe(true)
  })

  it('block mode with no guard in front: GPTBot is not refused, a difference, in words', async () => {
    handler = serving(textOf(BLOCK))
    const io = captureIo()
    const code = await verify({ config: BLOCK, url: site }, io)
    expect(code).toBe(1)
    expect(io.text()).toMatch(/DIFFERS\s+GPTBot\s+\/\s+200; expected refused\s+block mode, group gptbot/)
    expect(io.text()).toMatch(/ok\s+browser\s+\/\s+200; expected not refused/)
    expect(io.text()).toContain('1 difference: the live site is not what the config says.')
  })
})

describe("which requests are planned, and what each should get (the guard's own decision)", () => {
  const plan = (config: ConfigInput, env = 'production') => planProbes(policyFor(config, 'example.com', env).policy, new URL('https://example.com'))

  it('one crawler per group that disallows something, with a disallowed path; the browser on the path a crawler should be refused', () => {
    const { probes, skipped } = plan(
      defineConfig({
        rules: [
          { userAgent: '*', allow: '/', disallow: ['/*.pdf$'] },
          { userAgent: ['ClaudeBot', 'GPTBot'], disallow: '/', guard: 'block' },
          { userAgent: 'CCBot', disallow: '/' },
          { userAgent: 'Googlebot', allow: '/' },
        ],
      }),
    )
    expect(probes.map((p) => [p.agent, p.group, p.path, p.mode, p.expectRefused])).toEqual([
      ['GPTBot', 'gptbot', '/', 'block', true],
      // Bingbot: the first well-known crawler no group names.
      ['bingbot', '*', '/x.pdf', 'log', false],
      ['browser', null, '/', null, false],
    ])
    expect(probes.at(-1)?.userAgent).toBe(BROWSER_UA)
    // CCBot's operator publishes no ranges; Googlebot's group disallows nothing, so it needs no request.
    expect(skipped.map((s) => s.tokens)).toEqual([['ccbot']])
  })

  it('never a path the guard leaves unjudged (the report, /robots.txt)', () => {
    const { probes } = plan(defineConfig({ rules: [{ userAgent: 'GPTBot', disallow: ['/_robots/', '/robots.txt', '/admin/'], guard: 'block' }] }))
    expect(probes[0]).toMatchObject({ agent: 'GPTBot', path: '/admin/', expectRefused: true })
  })

  it('mode off: nothing is refused', () => {
    const { probes } = plan(defineConfig({ rules: [{ userAgent: 'GPTBot', disallow: '/' }], guard: { mode: 'off' } }))
    expect(probes.map((p) => [p.agent, p.mode, p.expectRefused])).toEqual([
      ['GPTBot', 'off', false],
      ['browser', null, false],
    ])
  })

  it("staging serves disallow-all for *; the guard keeps each crawler's group mode", () => {
    const { probes } = plan(defineConfig({ rules: [{ userAgent: 'bingbot', disallow: '/x/', guard: 'block' }] }), 'staging')
    expect(probes[0]).toMatchObject({ agent: 'bingbot', group: '*', path: '/', mode: 'block', expectRefused: true })
  })
})

describe('arguments', () => {
  it.each([['example.com'], ['ftp://example.com']])('%s is refused as a usage error', async (url) => {
    await expect(verify({ config: LOG, url }, captureIo())).rejects.toThrow(/write .*https:\/\/example.com/)
  })
})
