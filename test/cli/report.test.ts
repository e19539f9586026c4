// Tests of `report`: the local D1 in a temporary directory, opened by
// wrangler's platform proxy (as `npm run dev` lays it out), migrated and
// written through the ledger's own write path, then read by the command, which runs the
// Worker's own report routes over it. `--url` is tested with an injected fetch.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CliError, UsageError } from '../../src/cli/errors.ts'
import { run } from '../../src/cli/main.ts'
import { report, type ReportDocument } from '../../src/cli/report.ts'
import type { JudgedRequest } from '../../src/core/events.ts'
import { ccbot, fetched, gptbot, HOUR, judged } from '../support/report-fixtures.ts'
import { captureIo, jsonOf, migrate } from '../support/cli-io.ts'

let dir = ''
const now = Date.now()

/**
 * src/ledger/ledger.ts, loaded at run time: a Workers module (typed against
 * D1's runtime types, which the Node typecheck does not load), so the one
 * function used is restated here.
 */
interface LedgerModule {
  writeEvents(db: unknown, events: readonly JudgedRequest[]): Promise<number>
}
const LEDGER_MODULE = new URL('../../src/ledger/ledger.ts', import.meta.url).href
/** The statements the hourly cron runs to add up the most violated rules (src/ledger/rules-sql.ts). */
const RULES_MODULE = new URL('../../src/ledger/rules-sql.ts', import.meta.url).href

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'robots-edge-report-'))
  const at = (hoursAgo: number, o: Partial<JudgedRequest>) => judged({ time: now - hoursAgo * HOUR, ...o })
  const events: JudgedRequest[] = [
    fetched({ agent: gptbot, time: now - 30 * HOUR }),
    ...Array.from({ length: 4 }, (_, i) => at(20 - i, { agent: gptbot, path: `/admin/${i}`, allowed: false })),
    at(2, { agent: ccbot, path: '/', host: 'other.example' }),
    at(1, { agent: { tokens: ['inkbot'], kind: 'bot', obeysRobotsTxt: true, operator: 'Ink\x1b[31m Corp \u202eevil' }, path: '/' }),
    at(1, { path: '/admin/x', allowed: false, verification: 'spoofed' }),
  ]
  const { getPlatformProxy } = await import('wrangler')
  const proxy = await getPlatformProxy<{ DB: unknown }>({ persist: { path: `${dir}/v3` }, remoteBindings: false })
  try {
    await migrate(proxy.env.DB)
    const { writeEvents } = (await import(LEDGER_MODULE)) as LedgerModule
    expect(await writeEvents(proxy.env.DB, events)).toBe(events.length)
    // An outage the recorder counted (src/ledger/losses.ts).
    const db = proxy.env.DB as { prepare(sql: string): { bind(...values: unknown[]): { run(): Promise<unknown> } } }
    await db
      .prepare('INSERT INTO ledger_losses (id, from_time, to_time, events, recorded_at) VALUES (?, ?, ?, ?, ?)')
      .bind('a1b2c3d4-1', now - 3 * HOUR, now - 3 * HOUR + 600_000, 1234, now)
      .run()
    // The cron's upkeep adds up the rules from the shapes written (src/ledger/rules-sql.ts).
    const { DERIVE_RULES } = (await import(RULES_MODULE)) as { DERIVE_RULES: readonly string[] }
    for (const sql of DERIVE_RULES) await db.prepare(sql).bind().run()
  } finally {
    await proxy.dispose()
  }
}, 120_000)

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true })
})

// Each report starts wrangler's local runtime over the D1 files: seconds on a busy 2-core machine.
describe('report: the local D1', { timeout: 60_000 }, () => {
  // The plain report, run once and read by the tests that check its parts.
  let plain: Promise<{ code: number; io: ReturnType<typeof captureIo> }> | undefined
  const plainReport = () =>
    (plain ??= (async () => {
      const io = captureIo()
      return { code: await report({ persistTo: dir }, io), io }
    })())

  it('prints the per-agent table, worst first, with verdicts, spoofed claims and the rules with their lines', async () => {
    const { code, io } = await plainReport()
    expect(code).toBe(0)
    const text = io.text()
    expect(text).toMatch(/^Crawler compliance · local D1 \(.+\) · \d{4}-\d\d-\d\d \d\d:\d\d to \d{4}-\d\d-\d\d \d\d:\d\d UTC$/m)
    expect(text).toContain('3 agents · 6 judged requests · 4 counted violations · 1 ignoring robots.txt · 1 spoofed requests')
    const lines = io.stdout
    const header = lines.findIndex((l) => l.trimStart().startsWith('Agent'))
    expect(lines[header]).toMatch(/Agent\s+Operator\s+Category\s+Requests\s+Violations\s+Rate\s+robots\.txt\s+Last fetch\s+Verified\s+Last seen\s+Verdict/)
    expect(lines[header + 1]).toMatch(/^ {2}gptbot\s+OpenAI\s+AI Crawler\s+4\s+4\s+100 %\s+1\s+\d{4}-.+ignores robots\.txt: 4 disallowed requests after fetching robots\.txt$/)
    // The verdict column starts at the same place on every row.
    const starts = lines.slice(header, header + 4).map((l) => l.search(/Verdict|ignores|not enough|complies/))
    expect(new Set(starts).size).toBe(1)
    expect(text).toMatch(/Spoofed claims[\s\S]+googlebot\s+Google\s+1\s+1/)
    expect(text).toMatch(/Most violated rules\n\s+Host\s+Line\s+Rule\s+Violations\s+Agents\n\s+example\.com\s+2\s+Disallow: \/admin\/\s+4\s+1/)
  })

  it('shows control, invisible and bidi characters from the ledger as escapes, never raw', async () => {
    const { io } = await plainReport()
    expect(io.text()).not.toMatch(/[\x1b\u202e]/)
    expect(io.text()).toContain('Ink\\u{1B}[31m Corp \\u{202E}evil')
  })

  it('says how many events could not be stored, and when', async () => {
    const { io } = await plainReport()
    expect(io.text()).toMatch(
      /^1,234 events could not be stored between \d{4}-\d\d-\d\d \d\d:\d\d and \d{4}-\d\d-\d\d \d\d:\d\d UTC \(D1 was unavailable; they are not in these counts\)\. If the Worker logged that the ledger's tables are missing, run `npx wrangler d1 migrations apply DB --local`\.$/m,
    )
  })

  it('applies the filters and prints the API document with --json', async () => {
    const io = captureIo()
    await report({ persistTo: dir, host: 'other.example', json: true }, io)
    const doc = jsonOf(io) as unknown as ReportDocument
    expect(doc.agents.map((a) => a.agentKey)).toEqual(['ccbot'])
    expect(doc.agents[0]!.lastSeen).toBe(now - 2 * HOUR)
    const recent = captureIo()
    await report({ persistTo: dir, since: '3h', agent: 'ccbot', json: true }, recent)
    expect((jsonOf(recent) as unknown as ReportDocument).agents.map((a) => a.agentKey)).toEqual(['ccbot'])
  })

  it('takes --agent in any case, as product tokens compare', async () => {
    const io = captureIo()
    await report({ persistTo: dir, agent: 'GPTBot', json: true }, io)
    expect((jsonOf(io) as unknown as ReportDocument).agents.map((a) => [a.agentKey, a.verdict])).toEqual([['gptbot', 'ignores robots.txt']])
  })

  it('says what the window covers, and states the evidence rule under the table', async () => {
    const { io } = await plainReport()
    expect(io.text()).toMatch(/^Coverage: counts cover the full 7 days \(the ledger holds nothing before \d{4}-\d\d-\d\d\); request samples cover the full range;/m)
    expect(io.text()).toContain('ignores robots.txt: at least 3 counted violations and 1 % of its requests; fewer are isolated violations.')
  })

  it("refuses a bad filter with the API's own message, as a usage error", async () => {
    await expect(report({ persistTo: dir, since: 'yesterday' }, captureIo())).rejects.toThrow(
      new UsageError('--since: "yesterday" is not a time; use an ISO date-time (2026-01-05T10:00Z), milliseconds since the epoch, or a time ago such as 24h, 7d or 2w'),
    )
  })

  it("reads [env.staging]'s own database, and says what to do when it has no tables", async () => {
    const error = await report({ persistTo: dir, env: 'staging' }, captureIo()).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(CliError)
    expect((error as Error).message).toMatch(/no tables yet: run `npm run dev`/)
  })
})

describe('report: --url', () => {
  const document = {
    filter: { since: 0, until: HOUR },
    agents: [],
    spoofed: [],
    totals: { requests: 0, agents: 0, violations: 0, grace: 0, spoofedRequests: 0, spoofedViolations: 0, ignoring: 0, truncated: false },
    topRules: [],
    topPaths: [],
    timeline: [],
  }

  it('reads the API of a running Worker with the token from ROBOTS_ADMIN_TOKEN', async () => {
    const seen: { url: string; auth: string | null }[] = []
    const fakeFetch = (async (url: URL, init: RequestInit) => {
      seen.push({ url: String(url), auth: new Headers(init.headers).get('authorization') })
      return Response.json(document)
    }) as unknown as typeof fetch
    const io = captureIo({ env: { ROBOTS_ADMIN_TOKEN: 's3cret' } })
    expect(await report({ url: 'https://robots-edge.example.workers.dev/', remote: true, since: '24h', agent: 'gptbot', fetch: fakeFetch }, io)).toBe(0)
    expect(seen).toEqual([{ url: 'https://robots-edge.example.workers.dev/_robots/api/report?since=24h&agent=gptbot', auth: 'Bearer s3cret' }])
    expect(io.text()).toContain('Crawler compliance · https://robots-edge.example.workers.dev')
    expect(io.text()).toContain('No crawler was judged in this range.')
  })

  it("claims that could not be checked come with the command that loads their operators' IP ranges into that Worker", async () => {
    const unchecked = [{ agentKey: 'googlebot', operator: 'Google', requests: 3, violations: 1, firstViolation: 0, lastViolation: 0, examplePaths: ['/admin/'], lastSeen: 0 }]
    const fakeFetch = (async () => Response.json({ ...document, unchecked })) as unknown as typeof fetch
    const io = captureIo({ env: { ROBOTS_ADMIN_TOKEN: 's3cret' } })
    expect(await report({ url: 'https://robots-edge.example.workers.dev/', remote: true, fetch: fakeFetch }, io)).toBe(0)
    expect(io.text()).toMatch(/Claims that could not be checked[\s\S]+googlebot\s+Google\s+3\s+1/)
    expect(io.text()).toContain("Their operators' IP ranges were not loaded: run `npx robots-edge ranges --remote https://robots-edge.example.workers.dev` to load them, and later claims are checked.")
  })

  it('explains a refused token, a missing token and an unreachable Worker', async () => {
    const refusing = (async () => Response.json({ error: 'unauthorized' }, { status: 401 })) as unknown as typeof fetch
    await expect(report({ url: 'https://w.example', fetch: refusing }, captureIo({ env: { ROBOTS_ADMIN_TOKEN: 'x' } }))).rejects.toThrow(/refused the token \(401\)/)
    await expect(report({ url: 'https://w.example', fetch: refusing }, captureIo({ env: {} }))).rejects.toThrow(/ROBOTS_ADMIN_TOKEN is not set/)
    const down = (async () => {
      throw new TypeError('fetch failed')
    }) as unknown as typeof fetch
    await expect(report({ url: 'https://w.example', fetch: down }, captureIo({ env: { ROBOTS_ADMIN_TOKEN: 'x' } }))).rejects.toThrow(/could not reach https:\/\/w\.example: fetch failed/)
  })

  it('through the CLI: --remote needs --url, and other commands take none of the report options', async () => {
    const remote = captureIo()
    expect(await run(['report', '--remote'], remote)).toBe(2)
    expect(remote.stderr.join('\n')).toContain('--remote reads the deployed Worker')
    const token = captureIo({ env: {} })
    expect(await run(['report', '--url', 'https://w.example'], token)).toBe(1)
    expect(token.stderr.join('\n')).toContain('ROBOTS_ADMIN_TOKEN is not set')
    const print = captureIo()
    expect(await run(['print', '--since', '7d'], print)).toBe(2)
    expect(print.stderr[0]).toBe('robots-edge: print takes no --since.')
    const help = captureIo()
    expect(await run(['report', '--help'], help)).toBe(0)
    expect(help.text()).toContain('--since <time>')
  })
})
