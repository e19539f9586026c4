// @ts-check
/**
 * The dashboard: reads its settings from the shell's data- attributes (the
 * CSP allows no inline script), fetches the JSON API with the page's own
 * credentials, and fills the tables and charts. Agent-controlled strings go
 * through el() and textContent only (see dom.js).
 */
import { binUnit, drawByAgent, drawTimeline } from './charts.js'
import { drillDown } from './drill.js'
import { el, formatTime, visible } from './dom.js'
import { historyView, parseVersionHref } from './history.js'
import { reportWarnings } from './warnings.js'
import { sortableTable } from './table.js'
import { bytesLines, operatorLines } from './taken.js'
import { agentColumns, pathColumns, ruleColumns, setVerifiable, spoofedColumns, toolColumns, totals } from './views.js'

const body = document.body
const api = body.dataset.api ?? '/_robots/api'
/** Server-side filters: they change what the API returns. */
const filters = {
  since: body.dataset.since || '7d',
  until: body.dataset.until || '',
  host: body.dataset.host || '',
  agent: body.dataset.agent || '',
  category: body.dataset.category || '',
  source: body.dataset.source || '',
}
/** How the status line names each source. */
const SOURCE_TEXT = { d1: 'D1 ledger, exact counts', 'analytics-engine': 'Analytics Engine, sampled estimates' }

const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id))
const status = $('status')
const range = /** @type {HTMLSelectElement} */ ($('range'))
const category = /** @type {HTMLSelectElement} */ ($('category'))
const filterInput = /** @type {HTMLInputElement} */ ($('filter'))
const csv = /** @type {HTMLAnchorElement} */ ($('csv'))
const sourceSelect = /** @type {HTMLSelectElement | null} */ (document.getElementById('source'))

/** A row opens its drill-down; for isolated violations, the requests behind them. */
const drillRow = {
  onRowClick: (agent) => drill.open(agent.agentKey, agent.verdict === 'isolated violations'),
  rowLabel: (agent) => visible(agent.verdict === 'isolated violations' ? `Show the requests behind ${agent.agentKey}'s violations` : `Show recent requests of ${agent.agentKey}`),
}
const agents = sortableTable(/** @type {HTMLTableElement} */ ($('agents')), agentColumns, { empty: 'No crawler was judged in this range.', ...drillRow })
const tools = sortableTable(/** @type {HTMLTableElement} */ ($('tools')), toolColumns, { empty: 'No tool was judged in this range.', ...drillRow })
const spoofed = sortableTable(/** @type {HTMLTableElement} */ ($('spoofed')), spoofedColumns, { empty: 'No spoofed claims in this range.' })
const unchecked = sortableTable(/** @type {HTMLTableElement} */ ($('unchecked')), spoofedColumns, { empty: 'Every claim in this range could be checked.' })
const rules = sortableTable(/** @type {HTMLTableElement} */ ($('rules')), ruleColumns, { empty: 'No rule was violated.' })
const paths = sortableTable(/** @type {HTMLTableElement} */ ($('paths')), pathColumns, { empty: 'No path was requested against the rules.' })

let report = null
let loading = 0

function query(params) {
  const q = new URLSearchParams()
  for (const [name, value] of Object.entries(params)) if (value !== '' && value !== undefined && value !== null) q.set(name, String(value))
  return q
}

/** Fetches JSON from the API; a refusal becomes an Error carrying the API's own message. */
async function getJson(url) {
  const res = await fetch(url, { credentials: 'same-origin', headers: { Accept: 'application/json' } })
  const data = await res.json().catch(() => null)
  if (!res.ok) throw new Error(data?.error ?? `${res.status} ${res.statusText}`)
  return data
}

/** The status line; it may echo the query's filters and the API's messages, so it is shown through visible(). */
function showStatus(text, tone) {
  status.textContent = visible(text)
  status.className = `status ${tone ?? ''}`
}

/** The text filter: agent, operator, category and verdict, case-insensitively. */
function matches(row) {
  const needle = filterInput.value.trim().toLowerCase()
  if (needle === '') return true
  return [row.agentKey, row.operator, row.category, row.verdict].some((v) => typeof v === 'string' && v.toLowerCase().includes(needle))
}

function renderTables() {
  if (!report) return
  agents.render(report.agents.filter(matches))
  tools.render((report.tools ?? []).filter(matches))
  spoofed.render(report.spoofed.filter(matches))
  unchecked.render((report.unchecked ?? []).filter(matches))
}

async function load() {
  const ticket = ++loading
  const q = query(filters)
  csv.href = `${api}/report.csv?${q}`
  history.replaceState(null, '', `${location.pathname}${q.size > 0 ? `?${q}` : ''}${location.hash}`)
  showStatus('Loading the report…')
  try {
    const next = await getJson(`${api}/report?${q}`)
    if (ticket !== loading) return
    report = next
    showStatus(
      `${formatTime(report.filter.since)} to ${formatTime(report.filter.until)} UTC · source: ${SOURCE_TEXT[report.source] ?? 'D1 ledger'}` +
        `${filters.host ? ` · host ${filters.host}` : ''}${filters.agent ? ` · agent ${filters.agent}` : ''}`,
    )
    warnings.report = reportWarnings(report, { local: LOCAL, csv: csv.href })
    showWarnings()
    $('coverage').textContent = report.coverage ? `Coverage: ${report.coverage.summary}.` : ''
    $('totals').replaceChildren(...totals(report))
    renderTables()
    $('operators').replaceChildren(...operatorLines(report))
    $('bytes').replaceChildren(...bytesLines(report))
    rules.render(report.topRules)
    paths.render(report.topPaths)
    drawCharts()
  } catch (error) {
    if (ticket === loading) showStatus(`The report could not be loaded: ${error instanceof Error ? error.message : String(error)}`, 'bad')
  }
}

/** Where the dashboard runs: a local `wrangler dev` (its D1 is the local one) or a deployed Worker. */
const LOCAL = ['localhost', '127.0.0.1', '[::1]'].includes(location.hostname)

/** The page's warnings (warnings.js): the report's, and the IP ranges'. showWarnings folds them into one line. */
const warnings = { ranges: [], report: [] }

/**
 * Every warning in one line (a summary naming each one's command), so the
 * verdicts below stay on the first screen; a click opens the details, a
 * sentence each with its command set as code. Text from the API or the
 * query goes through visible() and el(), never as HTML.
 */
function showWarnings() {
  document.getElementById('warnings')?.remove()
  const all = [...warnings.ranges, ...warnings.report]
  if (all.length === 0) return
  const parts = all.flatMap((w, i) => [i > 0 ? ' · ' : '', `${visible(w.title)}: run `, el('code', {}, visible(w.fix))])
  const summary = el('summary', {}, all.length > 1 ? `${all.length} warnings: ` : '', ...parts)
  const details = all.map((w) => w.node ?? el('p', {}, `${visible(w.text)} `, el('code', {}, visible(w.fix))))
  status.before(el('details', { id: 'warnings', className: 'status warn', role: 'note' }, summary, ...details))
}

function drawCharts() {
  if (!report) return
  try {
    const changes = policy.changes()
    const shown = drawTimeline($('chart-timeline'), report, changes)
    $('timeline-caption').textContent =
      `Counted violations and judged requests per ${binUnit(shown.bin)}` +
      (shown.follows ? `, from ${formatTime(shown.from)} UTC` : '') +
      (shown.earliest !== null ? `; the first activity in the range is in the ${binUnit(shown.bin)} from ${formatTime(shown.earliest)} UTC` : '') +
      (changes.some((c) => c.time >= shown.from) ? ' · dashed lines: robots.txt changes' : '')
    drawByAgent($('chart-agents'), report)
  } catch (error) {
    showStatus(`The charts could not be drawn: ${error instanceof Error ? error.message : String(error)}`, 'bad')
  }
}

const drill = drillDown({ api, host: filters.host, getJson })
const policy = historyView(/** @type {HTMLElement} */ (document.querySelector('.pair')), { api, host: filters.host, getJson })

/** A link to a version (the most violated rules, the timeline's markers) opens it in the history view. */
function openLinked() {
  const target = parseVersionHref(location.hash)
  if (target) void policy.open(target)
}
window.addEventListener('hashchange', openLinked)

range.addEventListener('change', () => {
  filters.since = range.value
  filters.until = ''
  void load()
})
sourceSelect?.addEventListener('change', () => {
  filters.source = sourceSelect.value === 'd1' ? '' : sourceSelect.value
  void load()
})
category.addEventListener('change', () => {
  filters.category = category.value
  void load()
})
filterInput.addEventListener('input', renderTables)
$('filters').addEventListener('submit', (event) => event.preventDefault())

/**
 * A coverage sentence with the command it names (`fix`) set as code, so it
 * reads as something to run; text either side stays text (el() escapes it).
 */
function withCommand(message, fix) {
  const quoted = typeof fix === 'string' ? `\`${fix}\`` : null
  const at = quoted === null ? -1 : message.indexOf(quoted)
  if (at < 0) return el('p', {}, message)
  return el('p', {}, message.slice(0, at), el('code', {}, fix), message.slice(at + quoted.length))
}

/**
 * Verification coverage: one plain sentence per operator whose IP ranges are
 * missing, stale or from the package's dated snapshot, each naming the
 * command that loads them.
 */
async function showCoverage() {
  const coverage = await getJson(`${api}/verification`).catch(() => null)
  if (Array.isArray(coverage?.operators)) {
    setVerifiable(coverage.operators)
    renderTables()
  }
  const notes = (coverage?.operators ?? []).filter((o) => typeof o.message === 'string')
  if (notes.length === 0) return
  const fix = typeof coverage.fix === 'string' ? coverage.fix : 'npx robots-edge ranges'
  const shown = notes.slice(0, 3).map((o) => withCommand(o.message, o.fix))
  const rest = notes.slice(3).map((o) => o.operator)
  if (rest.length > 0) {
    shown.push(withCommand(`The IP ranges of ${rest.join(', ')} are not loaded, stale or from the snapshot either (${api}/verification). Run \`${fix}\` to load them.`, fix))
  }
  // One entry in the summary; every operator's sentence in the details.
  warnings.ranges = [{ title: `IP ranges not current for ${notes.length === 1 ? '1 operator' : `${notes.length} operators`}`, fix, node: el('div', {}, ...shown) }]
  showWarnings()
}

void load()
void showCoverage()
// Once the history is in, the timeline is drawn again with its rule changes marked.
void policy.load().then(() => {
  drawCharts()
  openLinked()
})
