/**
 * The dashboard's HTML shell, rendered by the Worker. It carries no report
 * data: the page's script (a static asset) fetches the JSON API and builds
 * the tables with textContent. What the shell does interpolate (the host,
 * the filters from the query string) comes from the request, so every value
 * is escaped, and reaches the script through data- attributes because the
 * CSP forbids inline script.
 */
import type { ReportSource } from '../types.ts'
import { THRESHOLDS } from '../compliance.ts'

const ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

/** Escapes text for HTML content and for quoted attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => ENTITIES[ch]!)
}

export interface DashboardShell {
  /** Where the report is mounted, e.g. `/_robots`. */
  readonly base: string
  /** The request's host, shown in the title. */
  readonly host: string
  /** The page's own query: its filters become the initial ones. */
  readonly query: URLSearchParams
  /** Categories offered in the select (the registry's). */
  readonly categories: readonly string[]
  /** Where the report can be read: always `d1`; `analytics-engine` when its secrets are set. Default: `d1` only. */
  readonly sources?: readonly ReportSource[]
}

/** Filters a link to the dashboard may preset; longer values are dropped, the API validates the rest. */
const PRESETS = ['since', 'until', 'host', 'agent', 'category', 'source'] as const
const MAX_PRESET = 256

const RANGES: readonly (readonly [string, string])[] = [
  ['24h', 'Last 24 hours'],
  ['7d', 'Last 7 days'],
  ['30d', 'Last 30 days'],
  ['90d', 'Last 90 days'],
]

function presets(query: URLSearchParams): string {
  return PRESETS.map((name) => {
    const value = query.get(name) ?? ''
    return ` data-${name}="${escapeHtml(value.length > MAX_PRESET ? '' : value)}"`
  }).join('')
}

function options(values: readonly (readonly [string, string])[], selected: string): string {
  return values.map(([value, label]) => `<option value="${escapeHtml(value)}"${value === selected ? ' selected' : ''}>${escapeHtml(label)}</option>`).join('')
}

const SOURCES: Readonly<Record<ReportSource, string>> = { d1: 'D1 ledger (exact counts)', 'analytics-engine': 'Analytics Engine (sampled estimates)' }

/** The evidence rule, as the dashboard states it, with the numbers the judgment uses. */
export function verdictRule(): string {
  const t = THRESHOLDS
  return `<details id="rule" class="rule"><summary>How verdicts are decided</summary>
  <p>A disallowed request is a <strong>counted violation</strong> when the crawler could have known: it had fetched the robots.txt in force (<em>after fetching</em>), only an older one for that host (<em>stale copy</em>), or none at all (<em>never fetched</em>). Each request is classified when it is recorded.</p>
  <p>Not counted: requests within ${t.graceHours} h of a rule change that the previous robots.txt allowed, by a crawler that had not fetched the new one; and, in the first ${t.graceHours} h after robots-edge starts serving a host, requests by crawlers that never fetched it, since they may hold the site's previous robots.txt (RFC 9309 §2.4). These grace periods keep a crawler from being accused on a cached copy; they never clear it.</p>
  <ul>
    <li><span class="badge bad">ignores robots.txt</span> at least ${t.repeatedAtLeast} counted violations, making at least ${t.repeatedShare * 100} % of its judged requests (by a crawler never seen fetching robots.txt: over at least ${t.minRequests} requests).</li>
    <li><span class="badge warn">isolated violations</span> fewer than ${t.repeatedAtLeast}, or under ${t.repeatedShare * 100} % of its requests: not a pattern. Click the row for the requests behind them.</li>
    <li><span class="badge pending">pending</span> no counted violation, but disallowed requests in a grace period, and no request on that host since it ended: judged once it ends (the reason says when), if they go on.</li>
    <li><span class="badge good">complies</span> at least ${t.minRequests} judged requests, a rule that restricted it, no counted violation and nothing pending.</li>
    <li><span class="badge unknown">not enough data</span> anything less.</li>
  </ul>
  <p>Spoofed claims, and claims that could not be checked, are never counted against the crawler they name. Generic tools (curl, python-requests, …) are judged by the same rules and listed apart.</p>
</details>`
}

/** The page: head with the static assets, the controls, and empty sections the script fills. */
export function renderDashboard(shell: DashboardShell): string {
  const base = escapeHtml(shell.base)
  const host = escapeHtml(shell.host)
  const static_ = `${base}/static`
  const since = shell.query.get('since') ?? '7d'
  const ranges = RANGES.some(([v]) => v === since) ? RANGES : [...RANGES, [since, `Since ${since}`] as const]
  const category = shell.query.get('category') ?? ''
  const sources = shell.sources ?? ['d1']
  const source =
    sources.length > 1
      ? `<label>Source <select id="source">${options(
          sources.map((s) => [s, SOURCES[s]] as const),
          shell.query.get('source') ?? 'd1',
        )}</select></label>`
      : ''
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Crawler compliance · ${host} · robots-edge</title>
<link rel="stylesheet" href="${static_}/uPlot.min.css">
<link rel="stylesheet" href="${static_}/dashboard.css">
<script src="${static_}/uPlot.iife.min.js" defer></script>
<script type="module" src="${static_}/dashboard.js"></script>
</head>
<body data-api="${base}/api"${presets(shell.query)}>
<header class="top">
  <div class="brand"><h1>Crawler compliance</h1><p>robots-edge · <span class="mono">${host}</span> · times in UTC</p></div>
  <form id="filters" class="filters" role="search">
    <label>Range <select id="range">${options(ranges, since)}</select></label>
    ${source}<label>Category <select id="category">${options([['', 'All categories'], ...shell.categories.map((c) => [c, c] as const)], category)}</select></label>
    <label>Filter <input id="filter" type="search" placeholder="agent, operator, verdict" autocomplete="off"></label>
    <a id="csv" class="button" href="${base}/api/report.csv" download>Download CSV</a>
  </form>
</header>
<main>
  <p id="status" class="status" role="status">Loading the report…</p>
  <p id="coverage" class="coverage"></p>
  <section id="verdicts">
    <h2>Agents</h2>
    <p class="hint">Click a header to sort, a row for the agent's recent requests. Violations count disallowed requests the agent could have known were disallowed.</p>
    ${verdictRule()}
    <div class="scroll"><table id="agents" class="data"></table></div>
  </section>
  <section id="totals" class="totals" aria-label="Totals"></section>
  <section class="charts">
    <figure><figcaption id="timeline-caption">Counted violations and judged requests per hour</figcaption><div id="chart-timeline" class="chart"></div></figure>
    <figure><figcaption>Counted violations by agent</figcaption><div id="chart-agents" class="chart"></div></figure>
  </section>
  <section id="drill" hidden>
    <h2 id="drill-title">Recent requests</h2>
    <div class="scroll"><table id="drill-table" class="data"></table></div>
    <button id="drill-more" type="button" hidden>Load older requests</button>
  </section>
  <div class="pair">
    <section><h2>Most violated rules</h2><div class="scroll"><table id="rules" class="data"></table></div></section>
    <section><h2>Most violated paths</h2><div class="scroll"><table id="paths" class="data"></table></div></section>
  </div>
  <section id="taken">
    <h2>What crawlers took, and what came back</h2>
    <p class="hint">Pages crawled: judged requests answered with HTML. Visits referred: people who arrived on an HTML page with a Referer from the operator's product (Cloudflare Radar's crawl-to-refer ratio). Apps often send no Referer, so referrals are a floor.</p>
    <ul id="operators" class="lines"></ul>
    <ul id="bytes" class="lines"></ul>
  </section>
  <section>
    <h2>Tools</h2>
    <p class="hint">Generic clients (curl, wget, python-requests, …), judged by the same rules and kept apart from the crawlers of known operators.</p>
    <div class="scroll"><table id="tools" class="data"></table></div>
  </section>
  <section>
    <h2>Spoofed claims</h2>
    <p class="hint">Requests that claimed a crawler's name and failed verification: never counted against the crawler they imitate.</p>
    <div class="scroll"><table id="spoofed" class="data"></table></div>
  </section>
  <section>
    <h2>Claims that could not be checked</h2>
    <p class="hint">Requests naming a crawler whose operator's IP ranges were not loaded: they can be neither confirmed nor refuted, so they are never counted against it.</p>
    <div class="scroll"><table id="unchecked" class="data"></table></div>
  </section>
</main>
<noscript><p class="status">The dashboard needs JavaScript. The same data is at <a href="${base}/api/report">${base}/api/report</a> (JSON) and <a href="${base}/api/report.csv">report.csv</a>.</p></noscript>
</body>
</html>
`
}
