// @ts-check
/**
 * The two charts, drawn by uPlot (public/_robots/static/uPlot.iife.min.js,
 * loaded before this module as the global `uPlot`). Labels are drawn on the
 * canvas or set as text by uPlot, never parsed as HTML.
 */
import { clear, el, formatCount, formatTime, visible } from './dom.js'

const HOUR = 3_600_000
/** Beyond this many hours the timeline shows only the hours with data. */
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

/** Every bin (hour, or day over a week) of the range, zero where nothing happened, so gaps read as quiet rather than as lines across them. */
function hourly(report) {
  const bin = report.timelineBin ?? HOUR
  const byHour = new Map(report.timeline.map((t) => [t.hour, t]))
  const first = Math.floor(report.filter.since / bin) * bin
  const last = Math.floor((report.filter.until - 1) / bin) * bin
  const hours = (last - first) / bin + 1 <= MAX_FILLED_HOURS
    ? Array.from({ length: (last - first) / bin + 1 }, (_, i) => first + i * bin)
    : report.timeline.map((t) => t.hour)
  return [
    hours.map((h) => h / 1000),
    hours.map((h) => byHour.get(h)?.violations ?? 0),
    hours.map((h) => byHour.get(h)?.requests ?? 0),
  ]
}

/** Counted violations (bars, left axis) and judged requests (line, right axis) per hour. */
export function drawTimeline(container, report) {
  const UPlot = uPlotLib()
  const data = hourly(report)
  if (data[0].length === 0) return message(container, 'No judged requests in this range.')
  const count = (_u, value) => (value === null || value === undefined ? '—' : formatCount(value))
  draw(container, {
    tzDate: (ts) => UPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
    cursor: { points: { size: 6 } },
    scales: { v: { range: (_u, _min, max) => [0, Math.max(1, max) * 1.1] }, r: { range: (_u, _min, max) => [0, Math.max(1, max) * 1.1] } },
    series: [
      { value: (_u, ts) => (ts === null ? '—' : `${formatTime(ts * 1000)} UTC`) },
      { label: 'Counted violations', scale: 'v', stroke: RED, fill: 'rgba(192, 57, 43, 0.35)', width: 1, paths: UPlot.paths.bars({ size: [0.9, 24] }), points: { show: false }, value: count },
      { label: 'Judged requests', scale: 'r', stroke: SLATE, width: 1.5, points: { show: false }, value: count },
    ],
    axes: [
      {},
      { scale: 'v', label: 'violations', stroke: RED, values: (_u, splits) => splits.map((v) => (Number.isInteger(v) ? formatCount(v) : '')) },
      { scale: 'r', label: 'requests', side: 1, stroke: SLATE, grid: { show: false }, values: (_u, splits) => splits.map((v) => (Number.isInteger(v) ? formatCount(v) : '')) },
    ],
  }, data)
}

/** The agents with the most counted violations, as bars. */
export function drawByAgent(container, report) {
  const UPlot = uPlotLib()
  const top = report.agents.filter((a) => a.evidence.violations.counted > 0)
    .sort((a, b) => b.evidence.violations.counted - a.evidence.violations.counted)
    .slice(0, TOP_AGENTS)
  if (top.length === 0) return message(container, 'No counted violations in this range.')
  // Drawn on the canvas, so escaped here: el() never sees these names.
  const names = top.map((a) => visible(a.agentKey)).map((n) => (n.length > 16 ? `${n.slice(0, 15)}…` : n))
  const index = names.map((_, i) => i)
  draw(container, {
    legend: { show: true },
    cursor: { points: { show: false } },
    scales: { x: { time: false, range: [-0.5, names.length - 0.5] }, y: { range: (_u, _min, max) => [0, Math.max(1, max) * 1.1] } },
    series: [
      { label: 'Agent', value: (_u, i) => (i === null ? '—' : visible(top[Math.round(i)]?.agentKey ?? '—')) },
      { label: 'Counted violations', stroke: RED, fill: 'rgba(192, 57, 43, 0.6)', width: 1, paths: UPlot.paths.bars({ size: [0.6, 64] }), points: { show: false }, value: (_u, v) => (v === null ? '—' : formatCount(v)) },
    ],
    axes: [
      { splits: () => index, values: (_u, splits) => splits.map((i) => names[i] ?? ''), rotate: names.length > 5 ? -30 : 0, size: names.length > 5 ? 70 : 40, grid: { show: false } },
      { values: (_u, splits) => splits.map((v) => (Number.isInteger(v) ? formatCount(v) : '')) },
    ],
  }, [index, top.map((a) => a.evidence.violations.counted)])
}
