// @ts-check
/**
 * The two charts, drawn by uPlot (public/_robots/static/uPlot.iife.min.js,
 * loaded before this module as the global `uPlot`). Labels are drawn on the
 * canvas or set as text by uPlot, never parsed as HTML.
 */
import { clear, el, formatCount, formatTime, visible } from './dom.js'
import { versionLink } from './history.js'

const HOUR = 3_600_000
/** Beyond this many bins the timeline shows only the bins with data. */
const MAX_FILLED_HOURS = 24 * 400
/** Agents in the bar chart. */
const TOP_AGENTS = 10
const HEIGHT = 260
const RED = '#c0392b'
const SLATE = '#5b6b7f'

/** @type {Map<HTMLElement, { plot: any, observer: ResizeObserver }>} */
const drawn = new Map()

function uPlotLib() {
  const lib = /** @type {any} */ (globalThis).uPlot
  if (typeof lib !== 'function') throw new Error('the chart library (uPlot.iife.min.js) did not load')
  return lib
}

/** Replaces the chart in `container`, sized to it and resized with it. */
function draw(container, options, data) {
  const UPlot = uPlotLib()
  drawn.get(container)?.plot.destroy()
  drawn.get(container)?.observer.disconnect()
  clear(container)
  const width = () => Math.max(280, container.clientWidth)
  const plot = new UPlot({ ...options, width: width(), height: HEIGHT }, data, container)
  const observer = new ResizeObserver(() => plot.setSize({ width: width(), height: HEIGHT }))
  observer.observe(container)
  drawn.set(container, { plot, observer })
}

function message(container, text) {
  drawn.get(container)?.plot.destroy()
  drawn.get(container)?.observer.disconnect()
  drawn.delete(container)
  clear(container)
  container.append(el('p', { className: 'chart-empty' }, text))
}

/** The word for a bin of `bin` ms: the report bins by minute, hour or day (src/admin/coverage.ts timelineBinFor). */
export function binUnit(bin) {
  return bin > HOUR ? 'day' : bin < HOUR ? 'minute' : 'hour'
}

/** Beyond this span (from the first activity or rule change to the range's end) minute bins are drawn as hours. */
const MINUTES_UP_TO = 3 * HOUR

/** The timeline shows at least this many bins, so one busy hour reads as a bar among quiet ones, not as the whole chart. */
const MIN_BINS = 24

/**
 * The bins the timeline shows: from a little before the range's first
 * activity (a judged request, a counted violation or a rule change) to its
 * end, so a week whose data is all recent is not one spike at the right edge.
 */
export function timelineWindow(report, changes = [], bin = report.timelineBin ?? HOUR) {
  const first = Math.floor(report.filter.since / bin) * bin
  const last = Math.floor((report.filter.until - 1) / bin) * bin
  const active = [
    ...report.timeline.filter((t) => t.requests > 0 || t.violations > 0).map((t) => Math.floor(t.hour / bin) * bin),
    ...changes.map((c) => Math.floor(c.time / bin) * bin).filter((t) => t >= first && t <= last),
  ]
  if (active.length === 0) return { from: first, to: last, bin, follows: false, earliest: null }
  const earliest = Math.min(...active)
  // Minutes are for a short span of traffic; a rule change hours before it draws hours, which the minutes add up to exactly.
  if (bin < HOUR && last - earliest > MINUTES_UP_TO) return timelineWindow(report, changes, HOUR)
  const margin = Math.max(2 * bin, Math.floor((last - earliest) / bin / 10) * bin)
  const from = Math.max(first, Math.min(earliest - margin, last - (MIN_BINS - 1) * bin))
  // The bin of the first activity, for the caption: the window may start well before it (at least MIN_BINS are drawn).
  return { from, to: last, bin, follows: from > first, earliest }
}

/** Every bin of the window, zero where nothing happened, so gaps read as quiet rather than as lines across them. */
function binned(report, span) {
  const { from, to, bin } = span
  // The report's bins, added up into the window's (the same, or minutes into hours).
  const byBin = new Map()
  for (const t of report.timeline) {
    const at = Math.floor(t.hour / bin) * bin
    const sum = byBin.get(at) ?? { requests: 0, violations: 0 }
    byBin.set(at, { requests: sum.requests + t.requests, violations: sum.violations + t.violations })
  }
  const bins = (to - from) / bin + 1 <= MAX_FILLED_HOURS ? Array.from({ length: (to - from) / bin + 1 }, (_, i) => from + i * bin) : [...byBin.keys()].filter((t) => t >= from)
  return [bins.map((h) => h / 1000), bins.map((h) => byBin.get(h)?.violations ?? 0), bins.map((h) => byBin.get(h)?.requests ?? 0)]
}

/** Rule changes as links on the plot, each to its version in the history view; redrawn with the chart. */
function placeMarkers(u, changes) {
  for (const old of u.over.querySelectorAll('.marker')) old.remove()
  for (const c of changes) {
    const at = c.time / 1000
    if (at < u.scales.x.min || at > u.scales.x.max) continue
    const label = visible(`${c.first ? 'First version served' : 'Rules changed'} on ${c.host} at ${formatTime(c.time)} UTC: read version ${c.hash.slice(0, 8)}`)
    const marker = versionLink(c.host, c.hash, null, '')
    marker.className = c.first ? 'marker first' : 'marker'
    marker.title = label
    marker.setAttribute('aria-label', label)
    marker.style.left = `${u.valToPos(at, 'x')}px`
    u.over.append(marker)
  }
}

/**
 * Counted violations (bars, left axis) and judged requests (line, right
 * axis) per bin, with the rule changes marked. Returns the window drawn.
 */
export function drawTimeline(container, report, changes = []) {
  const UPlot = uPlotLib()
  const shown = timelineWindow(report, changes)
  const data = binned(report, shown)
  if (data[0].length === 0) {
    message(container, 'No judged requests in this range.')
    return shown
  }
  const count = (_u, value) => (value === null || value === undefined ? '—' : formatCount(value))
  // Before any hover, the legend shows the chart's totals rather than dashes.
  const total = (i) => `${formatCount(data[i].reduce((n, v) => n + v, 0))} in all`
  const unit = binUnit(shown.bin)
  let ready = false
  draw(
    container,
    {
      tzDate: (ts) => UPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
      cursor: { points: { size: 6 } },
      // Markers wait for 'ready': uPlot fires 'draw' once before its own state is complete.
      hooks: {
        ready: [
          (u) => {
            ready = true
            placeMarkers(u, changes)
          },
        ],
        draw: [
          (u) => {
            if (ready) placeMarkers(u, changes)
          },
        ],
      },
      scales: {
        // The whole window, to the range's end: a rule change after the last bin's start is still marked.
        x: { time: true, range: () => [(shown.from - shown.bin / 2) / 1000, Math.max(shown.to + shown.bin / 2, report.filter.until) / 1000] },
        v: { range: (_u, _min, max) => [0, Math.max(1, max) * 1.1] },
        r: { range: (_u, _min, max) => [0, Math.max(1, max) * 1.1] },
      },
      series: [
        { value: (_u, ts) => (ts === null ? `${formatCount(data[0].length)} ${unit}s (hover for one)` : `${formatTime(ts * 1000)} UTC`) },
        {
          label: 'Counted violations',
          scale: 'v',
          stroke: RED,
          fill: 'rgba(192, 57, 43, 0.35)',
          width: 1,
          paths: UPlot.paths.bars({ size: [0.9, 24] }),
          points: { show: false },
          value: (u, v, _s, idx) => (idx === null ? total(1) : count(u, v)),
        },
        { label: 'Judged requests', scale: 'r', stroke: SLATE, width: 1.5, points: { show: false }, value: (u, v, _s, idx) => (idx === null ? total(2) : count(u, v)) },
      ],
      axes: [
        {},
        { scale: 'v', label: 'violations', stroke: RED, values: (_u, splits) => splits.map((v) => (Number.isInteger(v) ? formatCount(v) : '')) },
        { scale: 'r', label: 'requests', side: 1, stroke: SLATE, grid: { show: false }, values: (_u, splits) => splits.map((v) => (Number.isInteger(v) ? formatCount(v) : '')) },
      ],
    },
    data,
  )
  return shown
}

/** The agents with the most counted violations, as bars. */
export function drawByAgent(container, report) {
  const UPlot = uPlotLib()
  const top = report.agents
    .filter((a) => a.evidence.violations.counted > 0)
    .sort((a, b) => b.evidence.violations.counted - a.evidence.violations.counted)
    .slice(0, TOP_AGENTS)
  if (top.length === 0) return message(container, 'No counted violations in this range.')
  // Drawn on the canvas, so escaped here: el() never sees these names.
  const names = top.map((a) => visible(a.agentKey)).map((n) => (n.length > 16 ? `${n.slice(0, 15)}…` : n))
  const index = names.map((_, i) => i)
  const sum = top.reduce((n, a) => n + a.evidence.violations.counted, 0)
  draw(
    container,
    {
      legend: { show: true },
      cursor: { points: { show: false } },
      scales: { x: { time: false, range: [-0.5, names.length - 0.5] }, y: { range: (_u, _min, max) => [0, Math.max(1, max) * 1.1] } },
      series: [
        { label: 'Agent', value: (_u, i) => (i === null ? `top ${top.length} (hover for one)` : visible(top[Math.round(i)]?.agentKey ?? '—')) },
        {
          label: 'Counted violations',
          stroke: RED,
          fill: 'rgba(192, 57, 43, 0.6)',
          width: 1,
          paths: UPlot.paths.bars({ size: [0.6, 64] }),
          points: { show: false },
          value: (_u, v, _s, idx) => (idx === null ? `${formatCount(sum)} in all` : formatCount(v)),
        },
      ],
      axes: [
        { splits: () => index, values: (_u, splits) => splits.map((i) => names[i] ?? ''), rotate: names.length > 5 ? -30 : 0, size: names.length > 5 ? 70 : 40, grid: { show: false } },
        { values: (_u, splits) => splits.map((v) => (Number.isInteger(v) ? formatCount(v) : '')) },
      ],
    },
    [index, top.map((a) => a.evidence.violations.counted)],
  )
}
