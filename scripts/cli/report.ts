import type { AgentReport, Report, SpoofReport } from '../../src/report/types.ts'
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

/** The API's document: the Report, each agent and spoofed claim with when it was last seen. */
type Seen = { readonly lastSeen?: number | null }
export type ReportDocument = Omit<Report, 'agents' | 'spoofed'> & {
  readonly agents: readonly (AgentReport & Seen)[]
  readonly spoofed: readonly (SpoofReport & Seen)[]
  /** Agents and spoofed claims beyond the API's limit per document (the totals count them). */
  readonly omitted?: { readonly agents: number; readonly spoofed: number }
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

/** Controls in ledger strings would move the cursor or recolour the terminal: show them as escapes. */
function safe(text: string | null | undefined): string {
  if (text === null || text === undefined || text === '') return '-'
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\x00-\x1f\x7f-\x9f]/g, (ch) => `\\x${ch.charCodeAt(0).toString(16).padStart(2, '0')}`)
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
  const paint = a.verdict === 'ignores robots.txt' ? style.red : a.verdict === 'complies' ? style.green : style.dim
  return `${paint(a.verdict)}: ${a.reason}`
}

/** The report as text: totals, the per-agent table, spoofed claims, and the most violated rules with their lines. */
export function printReport(doc: ReportDocument, source: string, io: Io): void {
  const style = styleFor(io)
  const t = doc.totals
  io.out(`${style.bold('Crawler compliance')} · ${safe(source)} · ${when(doc.filter.since)} to ${when(doc.filter.until)} UTC`)
  io.out(`${count(t.agents, 'agent')} · ${num(t.requests)} judged requests · ${count(t.violations, 'counted violation')} · ${t.ignoring} ignoring robots.txt · ${num(t.spoofedRequests)} spoofed requests`)
  if (t.truncated) io.out(style.yellow('More violations than one report reads: counts are lower bounds.'))
  const omitted = (doc.omitted?.agents ?? 0) + (doc.omitted?.spoofed ?? 0)
  if (omitted > 0) io.out(style.yellow(`${omitted} more agents and spoofed claims not listed (the lowest ranked; the CSV export has them all).`))
  io.out('')
  if (doc.agents.length === 0) io.out('No crawler was judged in this range.')
  else {
    const header = ['Agent', 'Operator', 'Category', 'Requests', 'Violations', 'Rate', 'robots.txt', 'Last fetch', 'Verified', 'Last seen']
    const rows = doc.agents.map((a) => {
      const e = a.evidence
      return [safe(a.agentKey), safe(a.operator), safe(a.category), num(e.requests), num(e.violations.counted), share(e.violations.counted, e.requests),
        num(e.robotsFetches), when(e.lastRobotsFetch), share(e.verifiedShare, 1), when(a.lastSeen)]
    })
    const verdicts = doc.agents.map((a) => verdictText({ ...a, reason: safe(a.reason) }, style))
    for (const line of table(header, rows, new Set([3, 4, 5, 6, 8]), style, { header: 'Verdict', cells: verdicts })) io.out(line)
  }
  if (doc.spoofed.length > 0) {
    io.out('')
    io.out(style.bold('Spoofed claims (not counted against the agent they imitate)'))
    const rows = doc.spoofed.map((s) => [safe(s.agentKey), safe(s.operator), num(s.requests), num(s.violations), when(s.lastSeen), s.examplePaths.map(safe).join(' ')])
    for (const line of table(['Claimed', 'Operator', 'Requests', 'Disallowed', 'Last seen', 'Example paths'], rows, new Set([2, 3]), style)) io.out(line)
  }
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
