import type { AgentReport, OperatorReport, Report, SpoofReport } from '../admin/types.ts'
import { registry, type AgentEntry } from '../core/agents/index.ts'
import { visible } from '../core/visible.ts'
import { UsageError } from './errors.ts'
import { columns, count, ellipsis, printJson, width, wrapWords } from './format.ts'
import { styleFor, terminalWidth, type Io, type Style } from './io.ts'
import { readJson, withLedgerApi, type LedgerSourceOptions } from './ledger-api.ts'

export interface ReportOptions extends LedgerSourceOptions {
  readonly since?: string | undefined
  readonly until?: string | undefined
  readonly host?: string | undefined
  readonly agent?: string | undefined
  readonly category?: string | undefined
  /** Read the deployed Worker: needs `url`. */
  readonly remote?: boolean | undefined
  readonly json?: boolean | undefined
}

/** The API's document: the Report, each list cut at the API's limit (`omitted` says how many more; the totals count them). */
export type ReportDocument = Report & {
  readonly omitted?: Readonly<Record<'agents' | 'spoofed' | 'tools' | 'unchecked', number>>
  /** src/ledger/losses.ts's StorageNotes, restated (a Workers module, see below): events not stored, and the cap on hosts once reached. */
  readonly losses?: readonly { readonly from: number; readonly to: number; readonly events: number; readonly deadLettered?: number }[]
  readonly hostCap?: { readonly limit: number; readonly stored: number; readonly reached: boolean } | null
}

function queryOf(o: ReportOptions): URLSearchParams {
  const q = new URLSearchParams()
  for (const name of ['since', 'until', 'host', 'agent', 'category'] as const) {
    const value = o[name]
    if (value !== undefined && value !== '') q.set(name, value)
  }
  return q
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
/** Rounded up to the minute, as the report's reasons write it: nothing before it is still grace. */
const from = (ms: number) => when(Math.ceil(ms / 60_000) * 60_000)
const num = (n: number) => n.toLocaleString('en-US')
const share = (part: number, whole: number) => (whole > 0 ? `${Math.round((part / whole) * 100)} %` : '-')

/** The verdict column gets at least this much room beside the others, else it goes on its own lines under its row. */
const MIN_VERDICT_WIDTH = 32

/**
 * Aligned columns, numbers right-aligned. `last` is a ragged column after
 * them (the verdict, a sentence), so the others are padded to one width.
 * Lines fit `max`: the last column wraps beside the others, or under its row
 * when they leave it too little room; other cells are cut with an ellipsis.
 */
function table(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  numeric: ReadonlySet<number>,
  style: Style,
  max: number,
  last?: { header: string; cells: readonly string[] },
): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)))
  const pad = (row: readonly string[]) => row.map((cell, i) => (numeric.has(i) ? cell.padStart(widths[i] ?? 0) : cell))
  const lines = columns([pad(header), ...rows.map(pad)], '  ')
  const bold = (block: string[], i: number) => (i === 0 ? block.map(style.bold) : block)
  if (!last) return lines.map((line, i) => bold([ellipsis(line, max)], i)[0]!)
  const width = Math.max(...lines.map((l) => l.length))
  const cells = [last.header, ...last.cells]
  const beside = width + 2 + MIN_VERDICT_WIDTH <= max
  return lines.flatMap((line, i) => {
    const cell = cells[i] ?? ''
    if (beside) {
      const [first = '', ...more] = wrapWords(cell, max - width - 2)
      return bold([`${line.padEnd(width)}  ${first}`, ...more.map((m) => `${' '.repeat(width + 2)}${m}`)], i)
    }
    return bold([ellipsis(line, max), ...wrapWords(cell, Math.max(1, max - 4)).map((m) => `    ${m}`)], i)
  })
}

function verdictText(a: AgentReport, style: Style): string {
  const paint =
    a.verdict === 'ignores robots.txt' ? style.red : a.verdict === 'isolated violations' ? style.yellow : a.verdict === 'pending' ? style.cyan : a.verdict === 'complies' ? style.green : style.dim
  // The Crawl-delay verdict is a line of its own, after the robots.txt one (src/admin/crawl-delay-verdict.ts).
  const delay = a.crawlDelay
  const line =
    delay === undefined
      ? ''
      : `; ${delay.verdict === 'ignores Crawl-delay' ? style.red(delay.reason) : delay.verdict === 'keeps Crawl-delay' ? style.green(delay.reason) : style.dim(delay.reason)} (${delay.seconds} s)`
  return `${paint(a.verdict)}: ${a.reason}${line}`
}

/** Registry ids of the agents whose operator publishes IP ranges: the only ones a Verified share is measured for. */
const VERIFIABLE = new Set((registry as readonly AgentEntry[]).filter((e) => (e.verification?.ipRanges ?? []).length > 0).map((e) => e.id))

/**
 * The Verified cell as the dashboard shows it: an agent no registry entry
 * names, or whose operator publishes no IP ranges, cannot be verified at all
 * ("—", not "0 %"); one Cloudflare vouched for anyway keeps its share.
 */
function verifiedCell(a: AgentReport): string {
  const measured = a.evidence.verifiedShare > 0 || (typeof a.agentId === 'string' && VERIFIABLE.has(a.agentId))
  return measured ? share(a.evidence.verifiedShare, 1) : '—'
}

/** The per-agent table with the verdict as a ragged last column. */
function agentTable(list: readonly AgentReport[], style: Style, io: Io): void {
  const max = terminalWidth(io)
  const header = ['Agent', 'Operator', 'Category', 'Requests', 'Violations', 'Rate', 'robots.txt', 'Last fetch', 'Verified', 'Last seen']
  const rows = list.map((a) => {
    const e = a.evidence
    return [
      safe(a.agentKey),
      safe(a.operator),
      safe(a.category),
      num(e.requests),
      num(e.violations.counted),
      share(e.violations.counted, e.requests),
      num(e.robotsFetches),
      when(e.lastRobotsFetch),
      verifiedCell(a),
      when(a.lastSeen),
    ]
  })
  const verdicts = list.map((a) => verdictText({ ...a, reason: safe(a.reason) }, style))
  for (const line of table(header, rows, new Set([3, 4, 5, 6, 8]), style, max, { header: 'Verdict', cells: verdicts })) io.out(line)
}

/** What `pending` means, and when the first pending agent's disallowed requests start to count (evidence.pendingUntil, not the sentence). */
function pendingNote(list: readonly AgentReport[], style: Style, io: Io): void {
  const pending = list.filter((a) => a.verdict === 'pending')
  if (pending.length === 0) return
  const ends = pending.flatMap((a) => (typeof a.evidence.pendingUntil === 'number' ? [{ until: a.evidence.pendingUntil, host: a.evidence.pendingHost }] : [])).sort((a, b) => a.until - b.until)
  const first = ends[0] === undefined ? '' : ` The first are judged from ${from(ends[0].until)} UTC (on ${safe(ends[0].host)}).`
  io.out(style.dim(`pending: disallowed requests only in a 24 h grace period (a host's first day, or a rule change), not held against it yet and never cleared.${first}`))
}

/** Spoofed or unchecked claims: never counted against the agent they name. */
function claimTable(title: string, list: readonly SpoofReport[], style: Style, io: Io): void {
  if (list.length === 0) return
  io.out('')
  io.out(style.bold(title))
  const rows = list.map((s) => [safe(s.agentKey), safe(s.operator), num(s.requests), num(s.violations), when(s.lastSeen), s.examplePaths.map(safe).join(' ')])
  for (const line of table(['Claimed', 'Operator', 'Requests', 'Disallowed', 'Last seen', 'Example paths'], rows, new Set([2, 3]), style, terminalWidth(io))) io.out(line)
}

/** "48,120 pages", "1 page". */
const plural = (n: number, noun: string) => `${num(n)} ${noun}${n === 1 ? '' : 's'}`

/** Bytes in decimal units, as a person reads them: "830 B", "48 kB", "3.1 GB". */
export function bytesText(n: number): string {
  const units = ['B', 'kB', 'MB', 'GB', 'TB', 'PB']
  let value = n
  let unit = 0
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000
    unit++
  }
  return `${unit === 0 || value >= 10 ? Math.round(value) : value.toFixed(1)} ${units[unit]}`
}

/** The crawl-to-refer ratio as "3,166:1" (whole pages from 10 on, as Radar shows it), "2.5:1", or "no referral" when nothing was referred. */
export function ratioText(o: Pick<OperatorReport, 'crawlToRefer'>): string {
  const r = o.crawlToRefer
  return r === null ? 'no referral' : `${r >= 10 ? num(Math.floor(r)) : r.toFixed(1)}:1`
}

/**
 * What crawlers took and what their operators' products gave back: per
 * crawler, pages and bytes; per operator, pages crawled, visits referred and
 * the crawl-to-refer ratio. Absent from a Worker that predates them.
 */
function takenAndGiven(doc: ReportDocument, style: Style, io: Io): void {
  const agents = doc.agents.filter((a) => typeof a.evidence.bytes === 'number' && a.evidence.requests > 0)
  if (agents.length > 0) {
    io.out('')
    io.out(style.bold('What crawlers took'))
    for (const a of agents) io.out(`${safe(a.agentKey)}: ${num(a.evidence.requests)} requests, ${plural(a.evidence.pages, 'page')}, ${bytesText(a.evidence.bytes)}`)
  }
  const operators = doc.operators ?? []
  if (operators.length === 0) return
  io.out('')
  io.out(style.bold('Crawled and referred back, per operator'))
  for (const o of operators) io.out(`${safe(o.operator)}: ${num(o.crawled)} pages crawled, ${plural(o.referred, 'visit')} referred (${ratioText(o)}), ${bytesText(o.bytes)}`)
  io.out(style.dim("Referred: people arriving on an HTML page with a Referer from the operator's product. Apps often send no Referer: a floor, as Cloudflare Radar says of its crawl-to-refer ratio."))
}

/** The report as text: totals, what it covers, the per-agent table, tools, spoofed and unchecked claims, and the most violated rules with their lines. */
export function printReport(doc: ReportDocument, source: string, terminal: Io): void {
  const max = terminalWidth(terminal)
  // The tables fit themselves; sentences wider than the terminal wrap at a space.
  const io: Io = { ...terminal, out: (line) => (width(line) <= max ? terminal.out(line) : wrapWords(line, max).forEach((l) => terminal.out(l))) }
  const style = styleFor(io)
  const t = doc.totals
  const estimates = doc.estimates ? ' · estimates from Analytics Engine' : ''
  io.out(`${style.bold('Crawler compliance')} · ${safe(source)}${estimates} · ${when(doc.filter.since)} to ${when(doc.filter.until)} UTC`)
  const more = [
    (t.isolated ?? 0) > 0 ? `${num(t.isolated)} with isolated violations` : '',
    (t.pending ?? 0) > 0 ? `${num(t.pending)} pending` : '',
    (t.uncheckedRequests ?? 0) > 0 ? `${num(t.uncheckedRequests)} claims not checked` : '',
    (t.tools?.requests ?? 0) > 0 ? `${num(t.tools.requests)} tool requests` : '',
  ]
    .filter(Boolean)
    .map((part) => ` · ${part}`)
    .join('')
  io.out(
    `${count(t.agents, 'agent')} · ${num(t.requests)} judged requests · ${count(t.violations, 'counted violation')} · ${t.ignoring} ignoring robots.txt · ${num(t.spoofedRequests)} spoofed requests${more}`,
  )
  if (doc.coverage) io.out(style.dim(`Coverage: ${safe(doc.coverage.summary)}.`))
  // Each note names what to run (the dashboard's warnings say the same: public/_robots/static/warnings.js).
  const remote = /^https?:\/\//.test(source)
  if (t.truncated) io.out(style.yellow('More violations than one report reads: counts are lower bounds. A shorter range reads them all: --since 24h.'))
  const omitted = Object.values(doc.omitted ?? {}).reduce((n, v) => n + v, 0)
  if (omitted > 0)
    io.out(
      style.yellow(
        `${omitted} more agents and claims not listed (the lowest ranked): narrow the report with --agent <key> or --category <name>; the CSV export (/_robots/api/report.csv) has them all.`,
      ),
    )
  for (const loss of doc.losses ?? [])
    io.out(
      style.yellow(
        `${num(loss.events)} events could not be stored between ${when(loss.from)} and ${when(loss.to)} UTC (D1 was unavailable${loss.deadLettered ? `; ${num(loss.deadLettered)} of them reached the ledger queue's dead-letter queue after every retry` : ''}; they are not in these counts). If the Worker logged that the ledger's tables are missing, run \`npx wrangler d1 migrations apply DB ${remote ? '--remote' : '--local'}\`.`,
      ),
    )
  if (doc.hostCap)
    io.out(
      style.yellow(
        `${num(doc.hostCap.stored)} hosts are stored, the most without a hosts list in robots.config.ts: requests for other hosts are counted under other-hosts.invalid. List your hosts (hosts: [...]) in robots.config.ts, run \`npx robots-edge lint\`, and deploy.`,
      ),
    )
  io.out('')
  if (doc.agents.length === 0) io.out('No crawler was judged in this range.')
  else agentTable(doc.agents, style, io)
  if (doc.agents.some((a) => a.verdict === 'isolated violations' || a.verdict === 'ignores robots.txt')) {
    const th = doc.thresholds
    io.out(style.dim(`ignores robots.txt: at least ${th?.repeatedAtLeast ?? 3} counted violations and ${(th?.repeatedShare ?? 0.01) * 100} % of its requests; fewer are isolated violations.`))
  }
  pendingNote([...doc.agents, ...(doc.tools ?? [])], style, io)
  if ((doc.tools ?? []).length > 0) {
    io.out('')
    io.out(style.bold('Tools (judged alike, listed apart from the crawlers)'))
    agentTable(doc.tools, style, io)
  }
  takenAndGiven(doc, style, io)
  claimTable('Spoofed claims (not counted against the agent they imitate)', doc.spoofed, style, io)
  claimTable('Claims that could not be checked (not counted against the agent they name)', doc.unchecked ?? [], style, io)
  if ((doc.unchecked ?? []).length > 0) {
    // The report read a Worker at `source` (its origin) or the local ledger: the fix loads the lists into that Worker's KV.
    const fix = `npx robots-edge ranges${/^https?:\/\//.test(source) ? ` --remote ${source}` : ''}`
    io.out(style.yellow(`Their operators' IP ranges were not loaded: run \`${fix}\` to load them, and later claims are checked.`))
  }
  if (doc.topRules.length > 0) {
    io.out('')
    io.out(style.bold('Most violated rules'))
    const rows = doc.topRules.map((r) => [safe(r.host), String(r.line), `${r.type === 'allow' ? 'Allow' : 'Disallow'}: ${safe(r.pattern)}`, num(r.violations), num(r.agents)])
    for (const line of table(['Host', 'Line', 'Rule', 'Violations', 'Agents'], rows, new Set([1, 3, 4]), style, terminalWidth(io))) io.out(line)
  }
}

/**
 * `report`: the compliance report per agent, from the local D1
 * by default, or from a running Worker's API with `--url` (token in
 * ROBOTS_ADMIN_TOKEN). Both go through the same report routes.
 */
export async function report(options: ReportOptions, io: Io): Promise<number> {
  if (options.remote && !options.url) {
    throw new UsageError('--remote reads the deployed Worker: give its URL with --url https://robots-edge.<account>.workers.dev and its token in ROBOTS_ADMIN_TOKEN.')
  }
  const { doc, source } = await withLedgerApi(options, '--url', io, async (api) => ({
    doc: await readJson<ReportDocument>(await api.call(`/report?${queryOf(options)}`), options.url ? api.source : 'the local report'),
    source: api.source,
  }))
  if (options.json) printJson(io, doc)
  else printReport(doc, source, io)
  return 0
}
