import type { AgentReport, Report, SpoofReport } from '../../src/report/types.ts'
import { visible } from '../../src/report/visible.ts'
import { CliError, UsageError } from './errors.ts'
import { columns, count, printJson } from './format.ts'
import { styleFor, type Io, type Style } from './io.ts'

export interface ReportOptions {
  readonly since?: string | undefined
  readonly until?: string | undefined
  readonly host?: string | undefined
  readonly agent?: string | undefined
  readonly category?: string | undefined
  /** The deployment environment: `staging` reads `[env.staging]`'s local D1. Default: production (the top level). */
  readonly env?: string | undefined
  /** A running Worker (local or deployed) whose API to read. Default: none, read the local D1. */
  readonly url?: string | undefined
  /** Read the deployed Worker: needs `url`. */
  readonly remote?: boolean | undefined
  readonly json?: boolean | undefined
  /** Local state, as `wrangler dev --persist-to`. Default: `.wrangler/state`, where `npm run dev` keeps it. */
  readonly persistTo?: string | undefined
  /** Default: `fetch`. */
  readonly fetch?: typeof fetch | undefined
}

/** The API's document: the Report, each list cut at the API's limit (`omitted` says how many more; the totals count them). */
export type ReportDocument = Report & {
  readonly omitted?: Readonly<Record<'agents' | 'spoofed' | 'tools' | 'unchecked', number>>
  /** src/storage/losses.ts's StorageNotes, restated (a Workers module, see below): events not stored, and the cap on hosts once reached. */
  readonly losses?: readonly { readonly from: number; readonly to: number; readonly events: number }[]
  readonly hostCap?: { readonly limit: number; readonly stored: number; readonly reached: boolean } | null
}

/**
 * src/report/routes.ts, loaded when the command runs. It is a Workers module
 * (its queries are typed against D1's runtime types), which the Node
 * typecheck does not load, so the one function used is restated here; the
 * CLI tests run it for real.
 */
interface ReportRoutesModule {
  createReportApp(): { request(path: string, init: RequestInit, env: Record<string, unknown>): Response | Promise<Response> }
}
// Widened to `string` so the Node typecheck does not follow it; the path
// stays a literal, so the package build (esbuild) bundles the module.
const loadRoutes = () => import('../../src/report/routes.ts' as string) as Promise<ReportRoutesModule>

function queryOf(o: ReportOptions): URLSearchParams {
  const q = new URLSearchParams()
  for (const name of ['since', 'until', 'host', 'agent', 'category'] as const) {
    const value = o[name]
    if (value !== undefined && value !== '') q.set(name, value)
  }
  return q
}

/** Turns the API's answer into the document, or into the error the user can act on. */
async function documentOf(res: Response, source: string): Promise<ReportDocument> {
  const body = (await res.json().catch(() => null)) as (ReportDocument & { error?: string }) | null
  if (res.ok && body) return body
  const message = body?.error ?? `${res.status} ${res.statusText}`
  // A 400 names the bad parameter, which is the user's argument: show the usage with it.
  if (res.status === 400) throw new UsageError(`--${message}`)
  if (res.status === 401) throw new CliError(`${source} refused the token (401): set ROBOTS_ADMIN_TOKEN to the Worker's admin token.`)
  throw new CliError(`${source} answered ${res.status}: ${message}`)
}

async function fromUrl(o: ReportOptions, io: Io): Promise<{ doc: ReportDocument; source: string }> {
  let url: URL
  try {
    url = new URL(`/_robots/api/report?${queryOf(o)}`, o.url)
  } catch {
    throw new UsageError(`--url "${o.url}" is not a URL: write https://robots-edge.example.workers.dev`)
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new UsageError(`--url must be http(s), not ${url.protocol}`)
  const token = (io.env ?? process.env).ROBOTS_ADMIN_TOKEN
  if (!token) throw new CliError('ROBOTS_ADMIN_TOKEN is not set: export the Worker\'s admin token (the ROBOTS_ADMIN_TOKEN secret) to read its report.')
  let res: Response
  try {
    res = await (o.fetch ?? fetch)(url, { headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' } })
  } catch (error) {
    throw new CliError(`could not reach ${url.origin}: ${error instanceof Error ? error.message : String(error)}`)
  }
  return { doc: await documentOf(res, url.origin), source: url.origin }
}

/**
 * The local D1 exactly as `npm run dev` leaves it: wrangler's own platform
 * proxy reads wrangler.toml (the database id, `[env.staging]`'s own
 * database) and the state under `.wrangler/state/v3`. The report routes then
 * run in-process over it, so local and remote answers come from one code path.
 */
async function fromLocal(o: ReportOptions): Promise<{ doc: ReportDocument; source: string }> {
  const persistTo = o.persistTo ?? '.wrangler/state'
  const environment = o.env && o.env !== 'production' ? o.env : undefined
  // An optional peer dependency of the package: every Workers project has it, and only this command needs it.
  const { getPlatformProxy } = await import('wrangler').catch(() => {
    throw new CliError('reading the local D1 needs wrangler in this project (npm i -D wrangler); or read a running Worker with --url.')
  })
  // Wrangler logs to stdout ("Using secrets defined in .dev.vars"), which would corrupt --json.
  const logLevel = process.env.WRANGLER_LOG
  process.env.WRANGLER_LOG ??= 'error'
  const proxy = await getPlatformProxy<{ DB?: { prepare(sql: string): { first(): Promise<unknown> } } }>({
    persist: { path: `${persistTo}/v3` }, remoteBindings: false, ...(environment ? { environment } : {}),
  }).finally(() => {
    if (logLevel === undefined) delete process.env.WRANGLER_LOG
  })
  try {
    const db = proxy.env.DB
    if (!db) throw new CliError(`wrangler.toml has no D1 binding DB${environment ? ` in [env.${environment}]` : ''}.`)
    const schema = await db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'events'").first()
    if (schema === null) {
      throw new CliError(`the local ledger in ${persistTo} has no tables yet: run \`npm run dev\` (it applies the migrations) and send it some requests, or pass --url.`)
    }
    const { createReportApp } = await loadRoutes()
    const token = crypto.randomUUID()
    const res = await createReportApp().request(`/_robots/api/report?${queryOf(o)}`, { headers: { Authorization: `Bearer ${token}` } }, { DB: db, ROBOTS_ADMIN_TOKEN: token })
    return { doc: await documentOf(res, 'the local report'), source: `local D1 (${persistTo}${environment ? `, env ${environment}` : ''})` }
  } finally {
    await proxy.dispose()
  }
}

/**
 * Ledger strings are agent-controlled: controls would move the cursor or
 * recolour the terminal, invisible and bidi characters would pass a
 * lookalike name off as a real one. All are shown as escapes.
 */
function safe(text: string | null | undefined): string {
  if (text === null || text === undefined || text === '') return '-'
  return visible(text)
}

const when = (ms: number | null | undefined) => (typeof ms === 'number' ? new Date(ms).toISOString().slice(0, 16).replace('T', ' ') : '-')
const num = (n: number) => n.toLocaleString('en-US')
const share = (part: number, whole: number) => (whole > 0 ? `${Math.round((part / whole) * 100)} %` : '-')

/**
 * Aligned columns, numbers right-aligned. `last` is a ragged column after
 * them (the verdict, a sentence), so the others are padded to one width.
 */
function table(header: readonly string[], rows: readonly (readonly string[])[], numeric: ReadonlySet<number>, style: Style, last?: { header: string; cells: readonly string[] }): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)))
  const pad = (row: readonly string[]) => row.map((cell, i) => (numeric.has(i) ? cell.padStart(widths[i] ?? 0) : cell))
  const lines = columns([pad(header), ...rows.map(pad)], '  ')
  if (last) {
    const width = Math.max(...lines.map((l) => l.length))
    lines.forEach((line, i) => (lines[i] = `${line.padEnd(width)}  ${i === 0 ? last.header : last.cells[i - 1] ?? ''}`))
  }
  return lines.map((line, i) => (i === 0 ? style.bold(line) : line))
}

function verdictText(a: AgentReport, style: Style): string {
  const paint = a.verdict === 'ignores robots.txt' ? style.red : a.verdict === 'isolated violations' ? style.yellow : a.verdict === 'complies' ? style.green : style.dim
  return `${paint(a.verdict)}: ${a.reason}`
}

/** The per-agent table with the verdict as a ragged last column. */
function agentTable(list: readonly AgentReport[], style: Style, io: Io): void {
  const header = ['Agent', 'Operator', 'Category', 'Requests', 'Violations', 'Rate', 'robots.txt', 'Last fetch', 'Verified', 'Last seen']
  const rows = list.map((a) => {
    const e = a.evidence
    return [safe(a.agentKey), safe(a.operator), safe(a.category), num(e.requests), num(e.violations.counted), share(e.violations.counted, e.requests),
      num(e.robotsFetches), when(e.lastRobotsFetch), share(e.verifiedShare, 1), when(a.lastSeen)]
  })
  const verdicts = list.map((a) => verdictText({ ...a, reason: safe(a.reason) }, style))
  for (const line of table(header, rows, new Set([3, 4, 5, 6, 8]), style, { header: 'Verdict', cells: verdicts })) io.out(line)
}

/** Spoofed or unchecked claims: never counted against the agent they name. */
function claimTable(title: string, list: readonly SpoofReport[], style: Style, io: Io): void {
  if (list.length === 0) return
  io.out('')
  io.out(style.bold(title))
  const rows = list.map((s) => [safe(s.agentKey), safe(s.operator), num(s.requests), num(s.violations), when(s.lastSeen), s.examplePaths.map(safe).join(' ')])
  for (const line of table(['Claimed', 'Operator', 'Requests', 'Disallowed', 'Last seen', 'Example paths'], rows, new Set([2, 3]), style)) io.out(line)
}

/** The report as text: totals, what it covers, the per-agent table, tools, spoofed and unchecked claims, and the most violated rules with their lines. */
export function printReport(doc: ReportDocument, source: string, io: Io): void {
  const style = styleFor(io)
  const t = doc.totals
  const estimates = doc.estimates ? ' · estimates from Analytics Engine' : ''
  io.out(`${style.bold('Crawler compliance')} · ${safe(source)}${estimates} · ${when(doc.filter.since)} to ${when(doc.filter.until)} UTC`)
  const more = [
    (t.isolated ?? 0) > 0 ? `${num(t.isolated)} with isolated violations` : '',
    (t.uncheckedRequests ?? 0) > 0 ? `${num(t.uncheckedRequests)} claims not checked` : '',
    (t.tools?.requests ?? 0) > 0 ? `${num(t.tools.requests)} tool requests` : '',
  ].filter(Boolean).map((part) => ` · ${part}`).join('')
  io.out(`${count(t.agents, 'agent')} · ${num(t.requests)} judged requests · ${count(t.violations, 'counted violation')} · ${t.ignoring} ignoring robots.txt · ${num(t.spoofedRequests)} spoofed requests${more}`)
  if (doc.coverage) io.out(style.dim(`Coverage: ${safe(doc.coverage.summary)}.`))
  if (t.truncated) io.out(style.yellow('More violations than one report reads: counts are lower bounds.'))
  const omitted = Object.values(doc.omitted ?? {}).reduce((n, v) => n + v, 0)
  if (omitted > 0) io.out(style.yellow(`${omitted} more agents and claims not listed (the lowest ranked; the CSV export has them all).`))
  for (const loss of doc.losses ?? []) io.out(style.yellow(`${num(loss.events)} events could not be stored between ${when(loss.from)} and ${when(loss.to)} UTC (D1 was unavailable; they are not in these counts).`))
  if (doc.hostCap) io.out(style.yellow(`${num(doc.hostCap.stored)} hosts are stored, the most without a hosts list in robots.config.ts: requests for other hosts are counted under other-hosts.invalid.`))
  io.out('')
  if (doc.agents.length === 0) io.out('No crawler was judged in this range.')
  else agentTable(doc.agents, style, io)
  if (doc.agents.some((a) => a.verdict === 'isolated violations' || a.verdict === 'ignores robots.txt')) {
    const th = doc.thresholds
    io.out(style.dim(`ignores robots.txt: at least ${th?.repeatedAtLeast ?? 3} counted violations and ${(th?.repeatedShare ?? 0.01) * 100} % of its requests; fewer are isolated violations.`))
  }
  if ((doc.tools ?? []).length > 0) {
    io.out('')
    io.out(style.bold('Tools (judged alike, listed apart from the crawlers)'))
    agentTable(doc.tools, style, io)
  }
  claimTable('Spoofed claims (not counted against the agent they imitate)', doc.spoofed, style, io)
  claimTable('Claims that could not be checked (not counted against the agent they name)', doc.unchecked ?? [], style, io)
  if (doc.topRules.length > 0) {
    io.out('')
    io.out(style.bold('Most violated rules'))
    const rows = doc.topRules.map((r) => [safe(r.host), String(r.line), `${r.type === 'allow' ? 'Allow' : 'Disallow'}: ${safe(r.pattern)}`, num(r.violations), num(r.agents)])
    for (const line of table(['Host', 'Line', 'Rule', 'Violations', 'Agents'], rows, new Set([1, 3, 4]), style)) io.out(line)
  }
}

/**
 * `report`: the compliance report per agent (issue 5 §3), from the local D1
 * by default, or from a running Worker's API with `--url` (token in
 * ROBOTS_ADMIN_TOKEN). Both go through the same report routes.
 */
export async function report(options: ReportOptions, io: Io): Promise<number> {
  if (options.remote && !options.url) {
    throw new UsageError('--remote reads the deployed Worker: give its URL with --url https://robots-edge.<account>.workers.dev and its token in ROBOTS_ADMIN_TOKEN.')
  }
  const { doc, source } = options.url ? await fromUrl(options, io) : await fromLocal(options)
  if (options.json) printJson(io, doc)
  else printReport(doc, source, io)
  return 0
}
