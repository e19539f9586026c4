// @ts-check
/**
 * The dashboard's tables: which columns each shows and how a cell reads.
 * The data is the JSON API's (src/admin/types.ts); every string in it may
 * come from a crawler, so cells are text built with el().
 */
import { clipped, el, formatCount, formatRule, formatShare, formatTime, secondCell, timeCell } from './dom.js'
import { versionLink } from './history.js'

const VERDICT_CLASS = { 'ignores robots.txt': 'bad', 'isolated violations': 'warn', pending: 'pending', complies: 'good', 'not enough data': 'unknown' }
/** Worst first, as the report ranks them (src/admin/compliance.ts's COMPLIANCE_ORDER): the Verdict column sorts by it. */
const VERDICT_RANK = Object.keys(VERDICT_CLASS)

/** When a pending agent's disallowed requests start to count, in UTC, rounded up to the minute as the reason writes it. */
export function pendingFrom(ms) {
  return `${formatTime(Math.ceil(ms / 60_000) * 60_000)}\u00a0UTC`
}

/** The verdict as a badge, with the reason under it; isolated violations say where the requests behind them are. */
function verdict(agent) {
  const e = agent.evidence
  const title = agent.verdict === 'pending' && typeof e.pendingUntil === 'number' ? `Judged from ${pendingFrom(e.pendingUntil)} on ${e.pendingHost}, if its disallowed requests go on` : undefined
  const badge = el('span', { className: `badge ${VERDICT_CLASS[agent.verdict] ?? 'unknown'}`, title }, agent.verdict)
  const behind = agent.verdict === 'isolated violations' ? el('small', { className: 'behind' }, 'Click the row for the requests behind them.') : null
  return el('div', { className: 'verdict' }, badge, el('small', {}, agent.reason), behind, crawlDelay(agent.crawlDelay))
}

const DELAY_CLASS = { 'ignores Crawl-delay': 'bad', 'keeps Crawl-delay': 'good', 'not enough data': 'unknown' }

/** The Crawl-delay verdict line (src/admin/crawl-delay-verdict.ts), under the robots.txt one; nothing when its groups set no delay. */
function crawlDelay(d) {
  if (!d) return null
  const title = `Crawl-delay ${d.seconds} s: ${formatCount(d.early)} of ${formatCount(d.requests)} requests came sooner than that after the one before (to the same host)`
  return el('div', { className: 'crawl-delay' }, el('span', { className: `badge ${DELAY_CLASS[d.verdict] ?? 'unknown'}`, title }, d.reason))
}

/** How the counted violations break down, for the tooltip. */
function breakdown(v) {
  return (
    `${v.afterFetch} after fetching robots.txt, ${v.staleCopy} with an older copy, ${v.neverFetched} never fetching it; ` +
    `not counted: ${v.grace} within 24 h of a rule change, ${v.newHost ?? 0} in the first 24 h robots-edge served the host`
  )
}

/**
 * Registry ids of the agents this Worker can verify (their operators publish
 * IP ranges: /api/verification lists them); null until that answer arrives.
 */
let verifiable = /** @type {Set<string> | null} */ (null)

/** Takes /api/verification's operators: their agents are the ones a Verified share means something for. */
export function setVerifiable(operators) {
  verifiable = new Set(operators.flatMap((o) => o.agents ?? []))
}

/**
 * Whether a share of verified requests means anything for this agent. An
 * agent no registry entry names (an unknown bot, a tool) or whose operator
 * publishes no IP ranges cannot be verified at all: "—", not "0 %". One that
 * Cloudflare vouched for anyway keeps its share.
 */
function canVerify(a) {
  return a.evidence.verifiedShare > 0 || (a.agentId !== null && a.agentId !== undefined && (verifiable === null || verifiable.has(a.agentId)))
}

/** The operator, and its category under it: one column, so the table fits from 1280 px. */
function operator(a) {
  return el('div', { className: 'stack' }, a.operator ?? '—', a.category ? el('small', {}, a.category) : null)
}

/** How many times it read robots.txt, and when last. */
function fetches(a) {
  const last = a.evidence.lastRobotsFetch
  return el('div', { className: 'stack' }, formatCount(a.evidence.robotsFetches), last ? el('small', {}, 'last ', timeCell(last)) : null)
}

/** The verdict second, after the name: the column a site owner reads first stays in view at any width. */
export const agentColumns = [
  { label: 'Agent', value: (a) => a.agentKey, cell: (a) => el('span', { className: 'mono strong' }, a.agentKey) },
  { label: 'Verdict', value: (a) => VERDICT_RANK.indexOf(a.verdict), cell: verdict, className: 'verdict-col' },
  {
    label: 'Violations',
    numeric: true,
    value: (a) => a.evidence.violations.counted,
    title: 'Counted violations: disallowed requests it could have known were disallowed',
    cell: (a) => el('span', { title: breakdown(a.evidence.violations), className: a.evidence.violations.counted > 0 ? 'hot' : undefined }, formatCount(a.evidence.violations.counted)),
  },
  {
    label: 'Rate',
    numeric: true,
    value: (a) => (a.evidence.requests ? a.evidence.violations.counted / a.evidence.requests : null),
    title: 'Counted violations per judged request',
    cell: (a) => formatShare(a.evidence.violations.counted, a.evidence.requests),
  },
  { label: 'Requests', numeric: true, value: (a) => a.evidence.requests, cell: (a) => formatCount(a.evidence.requests), title: 'Judged requests in the range' },
  { label: 'robots.txt', numeric: true, value: (a) => a.evidence.robotsFetches, cell: fetches, title: 'Fetches of robots.txt in the range, and the last one' },
  {
    label: 'Verified',
    numeric: true,
    value: (a) => (canVerify(a) ? a.evidence.verifiedShare : null),
    title: 'Share of its requests confirmed to come from its operator',
    cell: (a) => (canVerify(a) ? formatShare(a.evidence.verifiedShare, 1) : el('span', { title: 'Its operator publishes no IP ranges: it cannot be verified' }, '—')),
  },
  { label: 'Last seen', value: (a) => a.lastSeen ?? null, cell: (a) => timeCell(a.lastSeen) },
  { label: 'Operator', value: (a) => a.operator ?? '', cell: operator, title: 'Operator and category' },
]

/** Tools: the same columns; a tool has no operator's IP ranges, so no Verified share either. */
export const toolColumns = agentColumns.filter((c) => c.label !== 'Verified')

export const spoofedColumns = [
  { label: 'Claimed agent', value: (s) => s.agentKey, cell: (s) => el('span', { className: 'mono strong' }, s.agentKey) },
  { label: 'Operator', value: (s) => s.operator ?? '' },
  { label: 'Requests', numeric: true, value: (s) => s.requests, cell: (s) => formatCount(s.requests) },
  { label: 'Disallowed', numeric: true, value: (s) => s.violations, cell: (s) => formatCount(s.violations) },
  { label: 'Last violation', value: (s) => s.lastViolation, cell: (s) => timeCell(s.lastViolation) },
  { label: 'Last seen', value: (s) => s.lastSeen ?? null, cell: (s) => timeCell(s.lastSeen) },
  { label: 'Example paths', value: (s) => s.examplePaths.join(' '), cell: (s) => paths(s.examplePaths) },
]

function paths(list) {
  return list.length === 0 ? '—' : el('span', { className: 'mono' }, ...list.flatMap((p, i) => [i > 0 ? ', ' : null, clipped(p, 48)]))
}

export const ruleColumns = [
  { label: 'Rule', value: (r) => formatRule(r), cell: (r) => el('span', { className: 'mono' }, clipped(formatRule(r), 60)) },
  { label: 'Line', numeric: true, value: (r) => r.line, cell: (r) => versionLink(r.host, r.robotsVersion, r.line, String(r.line)), title: 'The line in that version of robots.txt: click to read it' },
  { label: 'Host', value: (r) => r.host, cell: (r) => clipped(r.host, 40) },
  { label: 'Version', value: (r) => r.robotsVersion, cell: (r) => versionLink(r.host, r.robotsVersion, null, r.robotsVersion.slice(0, 8)) },
  { label: 'Violations', numeric: true, value: (r) => r.violations, cell: (r) => formatCount(r.violations) },
  { label: 'Agents', numeric: true, value: (r) => r.agents },
]

export const pathColumns = [
  { label: 'Path', value: (p) => p.path, cell: (p) => el('span', { className: 'mono' }, clipped(p.path, 60)) },
  { label: 'Host', value: (p) => p.host, cell: (p) => clipped(p.host, 40) },
  { label: 'Violations', numeric: true, value: (p) => p.violations, cell: (p) => formatCount(p.violations) },
  { label: 'Agents', numeric: true, value: (p) => p.agents },
]

/** How each class reads in the drill-down. */
const CLASS_TEXT = {
  afterFetch: 'violation after fetching robots.txt',
  staleCopy: 'violation with an older copy',
  neverFetched: 'violation, never fetched robots.txt',
  grace: 'not counted: within 24 h of a rule change',
  newHost: 'not counted: first 24 h on this host',
  spoofed: 'spoofed claim',
  unknown: 'claim not checked',
  unclassified: 'not counted: recorded before classes',
}

/** One stored event's verdict: allowed, or the rule and line that disallowed it and its class. */
function eventVerdict(e) {
  if (e.type === 'robots-txt') return el('span', { className: 'badge good' }, 'read robots.txt')
  const badge = el('span', { className: `badge ${e.allowed ? 'good' : e.counted ? 'bad' : 'warn'}` }, e.allowed ? 'allowed' : 'disallowed')
  const cls = !e.allowed && CLASS_TEXT[e.class] ? el('small', {}, CLASS_TEXT[e.class]) : null
  const rule = e.rule ? el('small', { className: 'mono' }, `${formatRule(e.rule)} · line ${e.rule.line}${e.group ? ` · group ${e.group}` : ''}`) : null
  return el('div', { className: 'verdict' }, badge, cls, rule)
}

/** The drill-down shows the raw User-Agent header and path: the evidence itself. */
export const eventColumns = [
  { label: 'Time', value: (e) => e.time, cell: (e) => secondCell(e.time) },
  { label: 'Verdict', value: (e) => (e.type === 'robots-txt' ? 'robots' : e.allowed ? 'allowed' : 'disallowed'), cell: eventVerdict },
  { label: 'Request', value: (e) => e.path, cell: (e) => el('span', { className: 'mono' }, `${e.method} `, clipped(e.path, 60)) },
  { label: 'User-Agent', value: (e) => e.userAgent, cell: (e) => el('span', { className: 'mono ua' }, e.userAgent) },
  {
    label: 'Verification',
    value: (e) => e.verification,
    cell: (e) => el('span', { className: `badge ${e.verification === 'verified' ? 'good' : e.verification === 'spoofed' ? 'bad' : 'unknown'}` }, e.verification),
  },
  { label: 'Guard', value: (e) => e.action, cell: (e) => (e.action === 'block' ? `refused ${e.status}` : `${e.mode}: passed`) },
  { label: 'Host', value: (e) => e.host, cell: (e) => clipped(e.host, 32) },
]

/** The pending card's hint: what pending means, and when the first of them would be judged. */
function pendingHint(agents) {
  const ends = agents.map((a) => a.evidence.pendingUntil).filter((ms) => typeof ms === 'number')
  const first = ends.length > 0 ? `; the first are judged from ${pendingFrom(Math.min(...ends))}` : ''
  return `Crawlers whose only disallowed requests fell in a 24 h grace period: not held against them yet, never cleared${first}`
}

/** The headline numbers. */
export function totals(report) {
  const t = report.totals
  const card = (label, value, tone, hint) => el('div', { className: `card ${tone ?? ''}`, title: hint }, el('span', { className: 'value' }, value), el('span', { className: 'label' }, label))
  return [
    card('judged requests', formatCount(t.requests)),
    card('agents', formatCount(t.agents)),
    card('counted violations', formatCount(t.violations), t.violations > 0 ? 'bad' : 'good', 'Disallowed requests the agent could have known were disallowed'),
    card('agents ignoring robots.txt', formatCount(t.ignoring), t.ignoring > 0 ? 'bad' : 'good'),
    card('isolated violations', formatCount(t.isolated ?? 0), (t.isolated ?? 0) > 0 ? 'warn' : undefined, 'Agents with fewer than 3 counted violations, or under 1 % of their requests'),
    card('pending', formatCount(t.pending ?? 0), (t.pending ?? 0) > 0 ? 'pending' : undefined, pendingHint(report.agents)),
    card('spoofed requests', formatCount(t.spoofedRequests), t.spoofedRequests > 0 ? 'warn' : undefined, "Claimed a crawler's name and failed verification"),
    card(
      'claims not checked',
      formatCount(t.uncheckedRequests ?? 0),
      (t.uncheckedRequests ?? 0) > 0 ? 'warn' : undefined,
      "The operator's IP ranges were not loaded (npx robots-edge ranges loads them): not counted for or against it",
    ),
    card(
      'not counted (grace)',
      formatCount(t.grace + (t.newHost ?? 0)),
      undefined,
      'Within 24 h of a rule change and allowed by the previous robots.txt, or in the first 24 h robots-edge served the host',
    ),
    card('tool requests', formatCount(t.tools?.requests ?? 0), undefined, 'Generic tools, listed apart from the crawlers'),
  ]
}
