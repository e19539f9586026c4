import { identifyAgent } from '../../src/core/agents/index.ts'
import { eventAgent } from '../../src/core/judge/event.ts'
import type { AgentReport, AgentCompliance, Report, SpoofReport } from '../../src/admin/types.ts'
import { visible } from '../../src/core/visible.ts'
import { agentKey } from '../../src/ledger/rollups.ts'
import type { ClientReport } from './run.ts'

/**
 * `npm run simulate` checks its own outcome: after sending, it reads the
 * Worker's report (/_robots/api/report, as the CLI and the dashboard do) and
 * sets each client's verdict beside the one its behaviour calls for. A
 * client that made disallowed requests must never read "complies"; in the
 * first 24 h robots-edge serves a host, a crawler that never fetched
 * robots.txt reads "pending" (RFC 9309 §2.4), which is the truth.
 */

/** The parts of the report this reads. */
export type VerdictDoc = Pick<Report, 'agents' | 'tools' | 'spoofed' | 'unchecked'>

export interface VerdictCheck {
  readonly name: string
  /** The verdict its behaviour calls for, as printed. */
  readonly expected: string
  /** What the report says: a verdict, "spoofed claims", "not checked", or "not in the report". */
  readonly actual: string
  /** The reason behind the verdict (agent-controlled parts escaped when printed). */
  readonly reason: string | null
  /** It made disallowed requests in this run. */
  readonly violator: boolean
  /** The report agrees with `expected`. */
  readonly ok: boolean
}

/** The report could not be read (refused, unreachable, not JSON). */
export class ReportUnavailable extends Error {
  override name = 'ReportUnavailable'
}

export interface ReportSource {
  /** The Worker, e.g. http://localhost:8787. */
  readonly url: string
  /** ROBOTS_ADMIN_TOKEN. */
  readonly token: string
  /** Default: the global fetch. */
  readonly fetch?: typeof fetch
}

/** The report over its default range (the last 7 days), all hosts. Throws ReportUnavailable. */
export async function readReport(source: ReportSource): Promise<VerdictDoc> {
  const fetchFn = source.fetch ?? fetch
  let response: Response
  try {
    response = await fetchFn(new URL('/_robots/api/report', source.url), { headers: { authorization: `Bearer ${source.token}` }, signal: AbortSignal.timeout(10_000) })
  } catch (error) {
    throw new ReportUnavailable(`nothing answered at /_robots/api/report (${error instanceof Error ? error.message : String(error)})`)
  }
  if (!response.ok) {
    await response.body?.cancel()
    throw new ReportUnavailable(`/_robots/api/report answered ${response.status}${response.status === 401 ? ' (the admin token was refused)' : ''}`)
  }
  try {
    return (await response.json()) as VerdictDoc
  } catch {
    throw new ReportUnavailable('/_robots/api/report did not answer JSON')
  }
}

/** Requests the report holds, in every section: it grows as the ledger records the run. */
export function reportedRequests(doc: VerdictDoc): number {
  const sum = (list: readonly { readonly requests: number }[]) => list.reduce((n, x) => n + x.requests, 0)
  return sum(doc.agents.map((a) => a.evidence)) + sum(doc.tools.map((a) => a.evidence)) + sum(doc.spoofed) + sum(doc.unchecked)
}

/**
 * Reads the report until it holds `atLeast` requests (the ledger records in
 * the background, within a second or so), at most `timeoutMs`. `settled`
 * says whether it got there.
 */
export async function settledReport(source: ReportSource, atLeast: number, options: { timeoutMs?: number; intervalMs?: number } = {}): Promise<{ doc: VerdictDoc; settled: boolean }> {
  const { timeoutMs = 30_000, intervalMs = 500 } = options
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const doc = await readReport(source)
    if (reportedRequests(doc) >= atLeast) return { doc, settled: true }
    if (Date.now() >= deadline) return { doc, settled: false }
    await new Promise((resolve) => setTimeout(resolve, intervalMs))
  }
}

/** Judged requests a client sent (robots.txt fetches are not judged requests); people are never judged. */
export function judgedRequests(clients: readonly ClientReport[]): number {
  return clients.filter((c) => c.spec.role !== 'browser').reduce((n, c) => n + c.requests - c.robotsTxt, 0)
}

const find = <T extends { readonly agentKey: string }>(list: readonly T[], key: string) => list.find((x) => x.agentKey === key)

/** What the report says of one client, and what it should say. */
function check(client: ClientReport, doc: VerdictDoc): VerdictCheck | null {
  const { spec } = client
  const identity = identifyAgent(spec.userAgent)
  if (spec.role === 'browser' || identity === null) return null
  const key = agentKey(eventAgent(identity))
  const violator = (client.disallowed ?? 0) > 0 && (spec.role === 'ignores' || spec.role === 'never-reads' || spec.role === 'tool')
  if (spec.role === 'spoofed') {
    const claim = find(doc.spoofed, key)
    return { name: spec.name, expected: 'spoofed claims', actual: claim ? 'spoofed claims' : 'not in the report', reason: null, violator: false, ok: claim !== undefined }
  }
  const judged: AgentReport | undefined = find(spec.role === 'tool' ? doc.tools : doc.agents, key)
  const unchecked: SpoofReport | undefined = find(doc.unchecked, key)
  const actual = judged?.verdict ?? (unchecked ? 'not checked' : 'not in the report')
  let accepted: readonly string[]
  let expected: string
  if (violator) {
    // A crawler that read robots.txt is judged at once; one that never did
    // may hold the site's previous copy in the host's first 24 h.
    accepted = spec.role === 'ignores' ? ['ignores robots.txt'] : ['ignores robots.txt', 'pending']
    expected = spec.role === 'ignores' ? 'ignores robots.txt' : "ignores robots.txt (pending in a host's first 24 h)"
  } else if (spec.unchecked) {
    accepted = ['not checked']
    expected = 'not checked'
  } else {
    accepted = ['complies', 'not enough data'] satisfies AgentCompliance[]
    expected = 'complies (or not enough data)'
  }
  return { name: spec.name, expected, actual, reason: judged?.reason ?? null, violator, ok: accepted.includes(actual) }
}

/** Every judged client's expected and actual verdict, in the cast's order. */
export function checkVerdicts(clients: readonly ClientReport[], doc: VerdictDoc): VerdictCheck[] {
  return clients.flatMap((c) => check(c, doc) ?? [])
}

/** Clients that made disallowed requests and read "complies": the outcome the simulation exists to rule out. */
export function clearedViolators(checks: readonly VerdictCheck[]): VerdictCheck[] {
  return checks.filter((c) => c.violator && c.actual === 'complies')
}

/** The verdict table printed after the run, and what a wrong one means. */
export function formatVerdicts(checks: readonly VerdictCheck[], settled: boolean): string[] {
  const rows = [
    ['client', 'expected', 'actual', ''],
    ...checks.map((c) => [c.name, c.expected, c.actual, c.violator && c.actual === 'complies' ? 'WRONG: a violator cleared' : c.ok ? 'as expected' : 'differs']),
  ]
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)))
  const lines = [
    '',
    'Verdicts in the report (GET /_robots/api/report, the last 7 days):',
    ...rows.map(
      (r) =>
        `  ${r
          .map((cell, i) => cell.padEnd(widths[i]!))
          .join('  ')
          .trimEnd()}`,
    ),
  ]
  for (const c of checks) if (c.reason !== null && (c.actual === 'pending' || !c.ok)) lines.push(`  ${c.name}: ${visible(c.reason)}`)
  if (!settled) lines.push('  The ledger had not recorded every request of this run within 30 s: the counts may lag.')
  const cleared = clearedViolators(checks)
  if (cleared.length > 0) lines.push(`  ${cleared.map((c) => c.name).join(', ')} made disallowed requests and read "complies": the report is wrong.`)
  return lines
}
