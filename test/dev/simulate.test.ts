import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CLIENTS } from '../../dev/simulate/clients.ts'
import { formatReport } from '../../dev/simulate/report.ts'
import { simulate, unreachableHint, WorkerUnreachable, type ClientReport, type SimulationReport } from '../../dev/simulate/run.ts'
import { checkVerdicts, clearedViolators, formatVerdicts, judgedRequests, settledReport, type VerdictCheck, type VerdictDoc } from '../../dev/simulate/verdicts.ts'
import type { AgentReport } from '../../src/admin/types.ts'
import { builtWorkers } from '../support/built-workers.ts'
import { startWorker, waitForLedger, type LocalWorker } from '../../dev/worker.ts'
import { compileRobotsTxt } from '../../src/core/robots/index.ts'

// `npm run simulate`: the client behaviours against a fake fetch (unit), then
// a few seconds against the built Worker in Miniflare, read back from its D1
// ledger and its report, and the script itself run against it (integration).

const ROOT = fileURLToPath(new URL('../../', import.meta.url))

const ROBOTS_TXT = 'User-agent: *\nDisallow: /admin/\n\nUser-agent: GPTBot\nDisallow: /\n\nUser-agent: Googlebot\nDisallow: /private/\n'

/** A site that answers everything with 200 and keeps the order of requests per client (IP). */
function fakeSite() {
  const seen = new Map<string, string[]>()
  const fetchFn = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : input)
    const ip = new Headers(init?.headers).get('cf-connecting-ip') ?? 'none'
    seen.set(ip, [...(seen.get(ip) ?? []), url.pathname + url.search])
    return new Response(url.pathname === '/robots.txt' ? ROBOTS_TXT : 'ok', { status: 200 })
  }) as typeof fetch
  const pathsOf = (name: string) => {
    // The simulation's own read of robots.txt carries no client IP.
    return seen.get(CLIENTS.find((c) => c.name === name)!.ip) ?? []
  }
  return { fetchFn, pathsOf }
}

describe('simulate: behaviours (fake fetch)', () => {
  const site = fakeSite()
  const matcher = compileRobotsTxt(ROBOTS_TXT)
  let report: SimulationReport
  beforeAll(async () => {
    report = await simulate({ url: 'http://site.test', seconds: 3, rate: 50, fetch: site.fetchFn, seed: 7 })
  })

  it('sends about rate × seconds requests, bounded', () => {
    expect(report.sent).toBeGreaterThan(120)
    expect(report.sent).toBeLessThanOrEqual(150)
    expect(report.errors).toBe(0)
  })

  it('a compliant crawler reads robots.txt first, then fetches only what its group allows', () => {
    const paths = site.pathsOf('Bingbot')
    expect(paths[0]).toBe('/robots.txt')
    expect(paths.length).toBeGreaterThan(3)
    for (const path of paths) expect(matcher.check('bingbot', path).allowed).toBe(true)
  })

  it('the ignoring crawler reads robots.txt, then keeps to disallowed paths, mostly /articles/', () => {
    const paths = site.pathsOf('GPTBot')
    expect(paths[0]).toBe('/robots.txt')
    const after = paths.slice(1).filter((p) => p !== '/robots.txt')
    expect(after.length).toBeGreaterThan(3)
    for (const path of after) expect(matcher.check('gptbot', path).allowed).toBe(false)
    expect(after.filter((p) => p.startsWith('/articles/')).length).toBeGreaterThan(after.length / 2)
  })

  it('the crawler that never reads robots.txt, the spoofer, tools and people never fetch it', () => {
    for (const name of ['Bytespider', 'Googlebot (spoofed)', 'curl', 'python-requests', 'browser 1']) {
      expect(site.pathsOf(name)).not.toContain('/robots.txt')
    }
  })

  it('the summary names every client, the expected outcome and the next step', () => {
    const text = formatReport(report, { url: 'http://localhost:8787' }).join('\n')
    expect(text).toContain('GPTBot → read robots.txt, then ignored it')
    expect(text).toContain('Googlebot (spoofed) → recorded as spoofed')
    expect(text).toContain('http://localhost:8787/_robots/')
    expect(text).toContain('Authorization: Bearer')
  })

  it('keeps to at most 50 requests a second whatever rate is asked', async () => {
    const capped = await simulate({ url: 'http://site.test', seconds: 1, rate: 10_000, fetch: fakeSite().fetchFn })
    expect(capped.sent).toBeLessThanOrEqual(50)
  })

  it('throws WorkerUnreachable when nothing answers', async () => {
    await expect(simulate({ url: 'http://127.0.0.1:9', seconds: 1, rate: 1 })).rejects.toBeInstanceOf(WorkerUnreachable)
  })

  it('tells how to point at a Worker that runs elsewhere when nothing answers', () => {
    const hint = unreachableHint('nothing answers at http://localhost:8787/', 'http://localhost:<port>/')
    expect(hint).toContain('npm run dev')
    expect(hint).toContain('npm run simulate -- --url http://localhost:<port>/')
  })
})

describe('simulate: checking the verdicts (a report stand-in)', () => {
  const client = (name: string, disallowed: number, requests = 40): ClientReport => ({
    spec: CLIENTS.find((c) => c.name === name)!,
    requests,
    robotsTxt: 0,
    disallowed,
    refused: 0,
    errors: 0,
    statuses: {},
  })
  const judged = (agentKey: string, verdict: AgentReport['verdict'], reason = 'a reason'): AgentReport => ({ agentKey, verdict, reason, evidence: { requests: 40 } }) as AgentReport
  const doc = (agents: AgentReport[], tools: AgentReport[] = []): VerdictDoc => ({ agents, tools, spoofed: [], unchecked: [] })
  const byName = (checks: readonly VerdictCheck[], name: string) => checks.find((c) => c.name === name)

  it('accepts pending for a crawler that never read robots.txt, and says when it will be judged', () => {
    const checks = checkVerdicts(
      [client('Bytespider', 30), client('Bingbot', 0)],
      doc([judged('bytespider', 'pending', "30 disallowed requests in the host's first 24 h; judged from 2026-11-28 02:10 UTC if they go on"), judged('bingbot', 'complies')]),
    )
    expect(byName(checks, 'Bytespider')).toMatchObject({ expected: "ignores robots.txt (pending in a host's first 24 h)", actual: 'pending', violator: true, ok: true })
    expect(byName(checks, 'Bingbot')).toMatchObject({ actual: 'complies', violator: false, ok: true })
    expect(clearedViolators(checks)).toEqual([])
    const text = formatVerdicts(checks, true).join('\n')
    expect(text).toMatch(/^ {2}Bytespider\s+ignores robots\.txt \(pending in a host's first 24 h\)\s+pending\s+as expected$/m)
    expect(text).toContain("Bytespider: 30 disallowed requests in the host's first 24 h; judged from 2026-11-28 02:10 UTC if they go on")
  })

  it('flags a client that made disallowed requests and reads complies, tools included', () => {
    const checks = checkVerdicts(
      [client('Bytespider', 115), client('python-requests', 12), client('GPTBot', 20)],
      doc([judged('bytespider', 'complies'), judged('gptbot', 'pending')], [judged('python-requests', 'complies')]),
    )
    expect(clearedViolators(checks).map((c) => c.name)).toEqual(['Bytespider', 'python-requests'])
    // GPTBot read robots.txt first: nothing excuses it, so pending differs from what it did.
    expect(byName(checks, 'GPTBot')).toMatchObject({ actual: 'pending', ok: false })
    const text = formatVerdicts(checks, false).join('\n')
    expect(text).toMatch(/^ {2}Bytespider\s.+\scomplies\s+WRONG: a violator cleared$/m)
    expect(text).toContain('Bytespider, python-requests made disallowed requests and read "complies": the report is wrong.')
    expect(text).toContain('The ledger had not recorded every request of this run within 30 s')
  })

  it('a tool that happened to make no disallowed request is no violator; an absent agent says so', () => {
    const checks = checkVerdicts([client('curl', 0), client('Googlebot', 0)], doc([], [judged('curl', 'complies')]))
    expect(byName(checks, 'curl')).toMatchObject({ violator: false, ok: true })
    expect(byName(checks, 'Googlebot')).toMatchObject({ actual: 'not in the report', ok: false })
  })
})

interface Row {
  agent_key: string
  type: string
  verification: string
  agent_kind: string
  disallowed: number
  n: number
  first: number
}

describe('simulate: the ledger of the built Worker (Miniflare)', () => {
  let worker: LocalWorker
  let report: SimulationReport
  let rows: Row[]
  const row = (agent: string, type: string, verification?: string) => rows.filter((r) => r.agent_key === agent && r.type === type && (verification === undefined || r.verification === verification))

  beforeAll(async () => {
    worker = await startWorker({ outdir: 'dist/test-simulate', bundles: await builtWorkers() })
    report = await simulate({ url: worker.url, seconds: 4, rate: 50 })
    const judged = report.clients.filter((c) => c.spec.role !== 'browser').reduce((s, c) => s + c.requests, 0)
    await waitForLedger(worker.db, { expected: judged })
    rows = (
      await worker.db
        .prepare(
          // From the counters: raw rows are only a sample (SAMPLE_BUDGET an hour per agent and class).
          `SELECT c.agent_key, CASE WHEN c.class = 'robotsTxt' THEN 'robots-txt' ELSE 'request' END AS type, c.verification, a.kind AS agent_kind,
             SUM(CASE WHEN c.class IN ('allowed', 'robotsTxt') THEN 0 ELSE c.requests END) AS disallowed, SUM(c.requests) AS n, MIN(c.first_time) AS first
           FROM counts_hourly c JOIN agents a ON a.agent_key = c.agent_key GROUP BY 1, 2, 3, 4`,
        )
        .all<Row>()
    ).results
  }, 120_000)
  afterAll(async () => {
    await worker?.dispose()
  })

  it('records every judged request: one event per crawler or tool request, none lost', () => {
    const judged = report.clients.filter((c) => c.spec.role !== 'browser').reduce((s, c) => s + c.requests, 0)
    expect(report.errors).toBe(0)
    expect(rows.reduce((s, r) => s + r.n, 0)).toBe(judged)
  })

  it('GPTBot: fetched robots.txt, then made disallowed requests (refused), none before the fetch', () => {
    const [fetch] = row('gptbot', 'robots-txt')
    const [requests] = row('gptbot', 'request')
    expect(fetch?.n).toBeGreaterThanOrEqual(1)
    expect(requests?.disallowed).toBeGreaterThan(0)
    expect(requests?.disallowed).toBe(requests?.n)
    expect(fetch!.first).toBeLessThanOrEqual(requests!.first)
    expect(report.clients.find((c) => c.spec.name === 'GPTBot')!.refused).toBe(requests!.n)
  })

  it('Bytespider: disallowed requests and no robots.txt fetch', () => {
    expect(row('bytespider', 'robots-txt')).toEqual([])
    expect(row('bytespider', 'request')[0]?.disallowed).toBeGreaterThan(0)
  })

  it('the compliant crawlers: robots.txt fetched, no disallowed request; Googlebot and Bingbot verified', () => {
    for (const agent of ['googlebot', 'bingbot', 'applebot']) {
      const verification = agent === 'applebot' ? 'unknown' : 'verified'
      expect(row(agent, 'robots-txt', verification)[0]?.n, agent).toBeGreaterThanOrEqual(1)
      const requests = row(agent, 'request', verification)
      expect(requests[0]?.n, agent).toBeGreaterThan(0)
      expect(requests[0]?.disallowed, agent).toBe(0)
    }
  })

  it("the Googlebot from outside Google's ranges is recorded as spoofed, apart from the real one", () => {
    const spoofed = row('googlebot', 'request', 'spoofed')[0]
    const sent = report.clients.find((c) => c.spec.name === 'Googlebot (spoofed)')!.requests
    expect(spoofed?.n).toBe(sent)
    expect(row('googlebot', 'robots-txt', 'spoofed')).toEqual([])
  })

  it('tools are recorded as tools; browsers are absent', async () => {
    expect(row('curl', 'request')[0]?.agent_kind).toBe('tool')
    expect(row('python-requests', 'request')[0]?.agent_kind).toBe('tool')
    const browsers = CLIENTS.filter((c) => c.role === 'browser').map((c) => c.userAgent)
    const found = await worker.db
      .prepare(`SELECT COUNT(*) AS n FROM events WHERE user_agent IN (${browsers.map(() => '?').join(', ')})`)
      .bind(...browsers)
      .first<{ n: number }>()
    expect(found?.n).toBe(0)
    expect(report.clients.filter((c) => c.spec.role === 'browser').every((c) => c.refused === 0 && c.requests > 0)).toBe(true)
  })

  it('reads the report back: on a fresh ledger the crawler and tools that never read robots.txt are pending, none complies', async () => {
    const { doc, settled } = await settledReport({ url: worker.url, token: 'loadtest-admin-token' }, judgedRequests(report.clients), { timeoutMs: 10_000 })
    expect(settled).toBe(true)
    const checks = checkVerdicts(report.clients, doc)
    const of = (name: string) => checks.find((c) => c.name === name)
    expect(of('Bytespider')).toMatchObject({ actual: 'pending', violator: true, ok: true })
    expect(of('GPTBot')).toMatchObject({ actual: 'ignores robots.txt', violator: true, ok: true })
    expect(of('Googlebot (spoofed)')).toMatchObject({ actual: 'spoofed claims', ok: true })
    expect(of('Applebot')).toMatchObject({ actual: 'not checked', ok: true })
    for (const name of ['Googlebot', 'Bingbot']) expect(['complies', 'not enough data'], name).toContain(of(name)?.actual)
    for (const tool of checks.filter((c) => c.violator)) expect(tool.actual, tool.name).not.toBe('complies')
    expect(clearedViolators(checks)).toEqual([])
  })

  it("`npm run simulate` prints each client's expected and actual verdict, and exits 0 when no violator reads complies", async () => {
    const { stdout } = await promisify(execFile)(join(ROOT, 'node_modules', '.bin', 'tsx'), ['scripts/simulate.ts', '--url', worker.url, '--seconds', '2', '--rate', '20', '--no-seed'], {
      cwd: ROOT,
      env: { ...process.env, ROBOTS_ADMIN_TOKEN: 'loadtest-admin-token' },
      timeout: 60_000,
    })
    expect(stdout).toContain('Verdicts in the report (GET /_robots/api/report, the last 7 days):')
    expect(stdout).toMatch(/^ {2}client\s+expected\s+actual$/m)
    expect(stdout).toMatch(/^ {2}Bytespider\s+ignores robots\.txt \(pending in a host's first 24 h\)\s+pending\s+as expected$/m)
    expect(stdout).toMatch(/^ {2}Bytespider: \d+ disallowed requests in the host's first 24 h; judged from \d{4}-\d\d-\d\d \d\d:\d\d UTC if they go on$/m)
    expect(stdout).not.toContain('WRONG')
  }, 70_000)

  it('the robots_fetches summary holds the readers, not the others', async () => {
    const readers = (await worker.db.prepare('SELECT agent_key FROM robots_fetches ORDER BY agent_key').all<{ agent_key: string }>()).results.map((r) => r.agent_key)
    expect(readers).toEqual(['applebot', 'bingbot', 'googlebot', 'gptbot'])
  })
})
