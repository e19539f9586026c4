// @ts-check
/**
 * What crawlers took and what their operators' products referred back
 * (the report's `agents[].evidence.bytes` and `operators[]`, src/admin/types.ts),
 * as one line each: "Anthropic: 38,000 pages crawled, 12 visits referred (3,166:1)".
 * Names come from the ledger: text only, through el().
 */
import { el, formatCount } from './dom.js'

const UNITS = ['B', 'kB', 'MB', 'GB', 'TB', 'PB']

/** Bytes in decimal units: "830 B", "48 kB", "3.1 GB". */
export function formatBytes(n) {
  if (typeof n !== 'number') return '—'
  let value = n
  let unit = 0
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000
    unit++
  }
  return `${unit === 0 || value >= 10 ? Math.round(value) : value.toFixed(1)} ${UNITS[unit]}`
}

const plural = (n, noun) => `${formatCount(n)} ${noun}${n === 1 ? '' : 's'}`

/** "3,166:1" (whole pages from 10 on), "2.5:1", or "no referral". */
export function formatRatio(ratio) {
  return typeof ratio !== 'number' ? 'no referral' : `${ratio >= 10 ? formatCount(Math.floor(ratio)) : ratio.toFixed(1)}:1`
}

/** One line per operator: pages crawled, visits referred, the ratio, and the bytes its crawlers took. */
export function operatorLines(report) {
  return (report.operators ?? []).map((o) =>
    el(
      'li',
      { title: (o.referrers ?? []).map((r) => `${r.referrer}: ${formatCount(r.visits)}`).join(', ') || undefined },
      el('strong', {}, o.operator),
      `: ${formatCount(o.crawled)} pages crawled, ${plural(o.referred, 'visit')} referred (${formatRatio(o.crawlToRefer)}) · ${formatBytes(o.bytes)} served`,
    ),
  )
}

/** One line per crawler that made judged requests: "gptbot: 48,120 pages, 3.1 GB". */
export function bytesLines(report) {
  return report.agents
    .filter((a) => a.evidence.requests > 0 && typeof a.evidence.bytes === 'number')
    .map((a) => el('li', {}, el('span', { className: 'mono' }, a.agentKey), `: ${plural(a.evidence.pages, 'page')}, ${formatBytes(a.evidence.bytes)}`))
}
