/**
 * CSV export of the compliance report: one row per agent, then one per
 * spoofed identity, then one per operator (crawl-to-refer). Paths and agent names come from visitors, so every text
 * cell is defused before a spreadsheet sees it.
 */
import type { AgentReport, OperatorReport, Report, SpoofReport } from './types.ts'
import { visible } from '../core/visible.ts'

type Cell = string | number | boolean | null

const HEADER = [
  'section',
  'agent',
  'operator',
  'category',
  'verdict',
  'reason',
  'requests',
  'disallowed',
  'blocked',
  'after_fetch',
  'stale_copy',
  'never_fetched',
  'grace',
  'counted_violations',
  'first_violation',
  'last_violation',
  'robots_fetches',
  'last_robots_fetch',
  'verified_share',
  'example_paths',
  'new_host',
  'unclassified',
  'last_seen',
  // Appended, so columns read by position keep their place. For a `pending` agent: from when its disallowed requests count, and on which host.
  'pending_until',
  'pending_host',
  // Appended: the Crawl-delay of its group (seconds), its requests under it, the early ones, and the verdict line's verdict.
  'crawl_delay_seconds',
  'crawl_delay_requests',
  'crawl_delay_early',
  'crawl_delay_verdict',
  // Appended too: bytes served and HTML pages among the requests; for the `operator` rows, the visits its products referred and crawl-to-refer.
  'bytes',
  'pages',
  'referred',
  'crawl_to_refer',
] as const
type Column = (typeof HEADER)[number]

/** Characters a spreadsheet reads as the start of a formula (OWASP's list: = + - @, tab, carriage return). */
const FORMULA_START = /^[=+\-@\t\r]/
/** RFC 4180 §2: fields holding a quote, comma or line break are quoted. */
const NEEDS_QUOTES = /[",\r\n]/

/**
 * One CSV field: invisible and bidi characters shown as escapes (visible()),
 * so a lookalike agent name cannot pass for the real one; text starting
 * like a formula gets a leading `'` so a spreadsheet shows it instead of
 * evaluating it; then RFC 4180 quoting, with inner quotes doubled. Numbers
 * are ours and left as they are.
 */
export function csvCell(value: Cell): string {
  if (value === null) return ''
  if (typeof value !== 'string') return String(value)
  const shown = visible(value, true)
  const text = FORMULA_START.test(shown) ? `'${shown}` : shown
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

function time(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString()
}

/**
 * The report as CSV (RFC 4180: CRLF line ends, header row first): one row
 * per crawler, then tools, then spoofed and unchecked claims, each a row of
 * its own, never merged into the agent they name.
 */
export function toCsv(report: Report): string {
  const rows: Cell[][] = [[...HEADER]]
  const judged = (section: string) => (a: AgentReport) => {
    const e = a.evidence
    rows.push([
      section,
      a.agentKey,
      a.operator,
      a.category,
      a.verdict,
      a.reason,
      e.requests,
      e.disallowed,
      e.blocked,
      e.violations.afterFetch,
      e.violations.staleCopy,
      e.violations.neverFetched,
      e.violations.grace,
      e.violations.counted,
      time(e.firstViolation),
      time(e.lastViolation),
      e.robotsFetches,
      time(e.lastRobotsFetch),
      Math.round(e.verifiedShare * 1000) / 1000,
      e.examplePaths.join(' '),
      e.violations.newHost,
      e.violations.unclassified,
      time(a.lastSeen),
      time(e.pendingUntil),
      e.pendingHost,
      a.crawlDelay?.seconds ?? null,
      a.crawlDelay?.requests ?? null,
      a.crawlDelay?.early ?? null,
      a.crawlDelay?.verdict ?? null,
      e.bytes,
      e.pages,
      null,
      null,
    ])
  }
  /** A row from the cells it has, by column name: every other column is empty, wherever columns are appended. */
  const named = (cells: Partial<Record<Column, Cell>>): Cell[] => HEADER.map((column) => cells[column] ?? null)
  const claims = (section: string, verdict: string) => (s: SpoofReport) => {
    rows.push(
      named({
        section,
        agent: s.agentKey,
        operator: s.operator,
        verdict,
        requests: s.requests,
        disallowed: s.violations,
        first_violation: time(s.firstViolation),
        last_violation: time(s.lastViolation),
        verified_share: 0,
        example_paths: s.examplePaths.join(' '),
        last_seen: time(s.lastSeen),
      }),
    )
  }
  // One row per operator: its crawlers' requests, bytes and pages, and what its products referred back.
  const operator = (o: OperatorReport) => {
    rows.push(
      named({
        section: 'operator',
        operator: o.operator,
        requests: o.requests,
        bytes: o.bytes,
        pages: o.crawled,
        referred: o.referred,
        crawl_to_refer: o.crawlToRefer === null ? null : Math.round(o.crawlToRefer * 100) / 100,
      }),
    )
  }
  report.agents.forEach(judged('agent'))
  report.tools.forEach(judged('tool'))
  report.spoofed.forEach(claims('spoofed', 'spoofed claims (not counted against the agent)'))
  report.unchecked.forEach(claims('unchecked', 'claims that could not be checked (not counted against the agent)'))
  report.operators.forEach(operator)
  return rows.map((r) => r.map(csvCell).join(',')).join('\r\n') + '\r\n'
}
