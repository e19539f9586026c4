// @ts-check
/**
 * The report's warnings, each with a short title (the dashboard's one-line
 * summary), a sentence, and the command that deals with it (`fix`): what the
 * ledger could not store (src/ledger/losses.ts), its cap on hosts, the lists
 * cut at the API's limit. Pure, so each is tested in Node
 * (test/admin/dashboard-warnings.test.ts); the dashboard sets them as text.
 */
import { formatCount, formatTime } from './dom.js'

/**
 * @param {any} r the report (src/admin/types.ts Report, with the API's `omitted`, `losses` and `hostCap`)
 * @param {{ local: boolean, csv: string }} where whether the page runs on a local `wrangler dev` (its D1 is the local one), and the CSV export's URL
 * @returns {{ title: string, text: string, fix: string }[]}
 */
export function reportWarnings(r, where) {
  /** @type {{ title: string, text: string, fix: string }[]} */
  const list = []
  const omitted = Object.values(r.omitted ?? {}).reduce((/** @type {number} */ n, /** @type {number} */ v) => n + v, 0)
  if (r.totals?.truncated) {
    list.push({
      title: 'counts are lower bounds',
      text: 'More violations than one report reads: the counts are lower bounds. A shorter range reads them all:',
      fix: 'npx robots-edge report --since 24h',
    })
  }
  if (omitted > 0) {
    list.push({
      title: `${formatCount(omitted)} agents not listed`,
      text: `${formatCount(omitted)} more agents and claims are not listed here (the lowest ranked). The CSV export has them all:`,
      fix: `curl -H "Authorization: Bearer $ROBOTS_ADMIN_TOKEN" '${where.csv}'`,
    })
  }
  for (const l of r.losses ?? []) {
    list.push({
      title: `${formatCount(l.events)} events not stored`,
      text: `${formatCount(l.events)} events could not be stored between ${formatTime(l.from)} and ${formatTime(l.to)} UTC${l.deadLettered ? ` (${formatCount(l.deadLettered)} of them reached the ledger queue's dead-letter queue after every retry)` : ''}; they are not in these counts. After a D1 outage there is nothing to run; if the Worker logged that the ledger's tables are missing, create them:`,
      fix: `npx wrangler d1 migrations apply DB ${where.local ? '--local' : '--remote'}`,
    })
  }
  if (r.hostCap) {
    list.push({
      title: 'host cap reached',
      text: `${formatCount(r.hostCap.stored)} hosts stored, the most without a hosts list in robots.config.ts: requests for other hosts are counted under other-hosts.invalid. List your hosts (hosts: ['example.com']) in robots.config.ts, check them, and deploy:`,
      fix: 'npx robots-edge lint && npx wrangler deploy',
    })
  }
  return list
}
