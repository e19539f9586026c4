/**
 * The dashboard's HTML shell, rendered by the Worker. It carries no report
 * data: the page's script (a static asset) fetches the JSON API and builds
 * the tables with textContent. What the shell does interpolate (the host,
 * the filters from the query string) comes from the request, so every value
 * is escaped, and reaches the script through data- attributes because the
 * CSP forbids inline script.
 */

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
}

/** Filters a link to the dashboard may preset; longer values are dropped, the API validates the rest. */
const PRESETS = ['since', 'until', 'host', 'agent', 'category'] as const
const MAX_PRESET = 256

const RANGES: readonly (readonly [string, string])[] = [
  ['24h', 'Last 24 hours'], ['7d', 'Last 7 days'], ['30d', 'Last 30 days'], ['90d', 'Last 90 days'],
]

function presets(query: URLSearchParams): string {
  return PRESETS.map((name) => {
    const value = query.get(name) ?? ''
    return ` data-${name}="${escapeHtml(value.length > MAX_PRESET ? '' : value)}"`
  }).join('')
}

function options(values: readonly (readonly [string, string])[], selected: string): string {
  return values
    .map(([value, label]) => `<option value="${escapeHtml(value)}"${value === selected ? ' selected' : ''}>${escapeHtml(label)}</option>`)
    .join('')
}

/** The page: head with the static assets, the controls, and empty sections the script fills. */
export function renderDashboard(shell: DashboardShell): string {
  const base = escapeHtml(shell.base)
  const host = escapeHtml(shell.host)
  const static_ = `${base}/static`
  const since = shell.query.get('since') ?? '7d'
  const ranges = RANGES.some(([v]) => v === since) ? RANGES : [...RANGES, [since, `Since ${since}`] as const]
  const category = shell.query.get('category') ?? ''
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
    <label>Category <select id="category">${options([['', 'All categories'], ...shell.categories.map((c) => [c, c] as const)], category)}</select></label>
    <label>Filter <input id="filter" type="search" placeholder="agent, operator, verdict" autocomplete="off"></label>
    <a id="csv" class="button" href="${base}/api/report.csv" download>Download CSV</a>
  </form>
</header>
<main>
  <p id="status" class="status" role="status">Loading the report…</p>
  <section id="totals" class="totals" aria-label="Totals"></section>
  <section class="charts">
    <figure><figcaption>Counted violations and judged requests per hour</figcaption><div id="chart-timeline" class="chart"></div></figure>
    <figure><figcaption>Counted violations by agent</figcaption><div id="chart-agents" class="chart"></div></figure>
  </section>
  <section>
    <h2>Agents</h2>
    <p class="hint">Click a header to sort, a row for the agent's recent requests. Violations count disallowed requests the agent could have known were disallowed.</p>
    <div class="scroll"><table id="agents" class="data"></table></div>
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
  <section>
    <h2>Spoofed claims</h2>
    <p class="hint">Requests that claimed a crawler's name and failed verification: never counted against the crawler they imitate.</p>
    <div class="scroll"><table id="spoofed" class="data"></table></div>
  </section>
</main>
<noscript><p class="status">The dashboard needs JavaScript. The same data is at <a href="${base}/api/report">${base}/api/report</a> (JSON) and <a href="${base}/api/report.csv">report.csv</a>.</p></noscript>
</body>
</html>
`
}
