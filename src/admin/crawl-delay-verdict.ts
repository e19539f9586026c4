/**
 * The Crawl-delay verdict, pure: an agent's counts (loaded by
 * src/admin/crawl-delay.ts) to the verdict line beside its robots.txt verdict.
 * Crawl-delay is an extension to robots.txt (not in RFC 9309); Google
 * ignores it, so a Googlebot group's delay measures nothing Google promised.
 */
import type { AgentReport, CrawlDelayReport, CrawlDelayRow } from './types.ts'

/** Requests needed before the spacing of an agent's requests says anything. */
export const CRAWL_DELAY_MIN_REQUESTS = 20
/**
 * "Ignores Crawl-delay" needs more than this share of its requests early.
 * Times are taken when requests reach the edge, so network jitter makes a
 * few intervals of a crawler that waits exactly the delay look short; a
 * tenth early is a crawler that does not wait.
 */
export const CRAWL_DELAY_EARLY_SHARE = 0.1

/** The verdict line for one agent's counts. */
export function crawlDelayFor(row: CrawlDelayRow): CrawlDelayReport {
  const { requests, early, late } = row
  const base = { seconds: row.delayMs / 1000, requests, early, late }
  const share = requests > 0 ? early / requests : 0
  const shown = `${Math.round(share * 100)}% of requests early`
  if (requests < CRAWL_DELAY_MIN_REQUESTS) {
    return { ...base, verdict: 'not enough data', reason: `not enough data for Crawl-delay (${requests} requests, ${CRAWL_DELAY_MIN_REQUESTS} needed)` }
  }
  if (share > CRAWL_DELAY_EARLY_SHARE) return { ...base, verdict: 'ignores Crawl-delay', reason: `ignores Crawl-delay (${shown})` }
  return { ...base, verdict: 'keeps Crawl-delay', reason: `keeps Crawl-delay (${shown})` }
}

/** Agents with their Crawl-delay verdict, where their groups set a delay. */
export function withCrawlDelays(agents: readonly AgentReport[], rows: readonly CrawlDelayRow[] | undefined): AgentReport[] {
  if (rows === undefined || rows.length === 0) return [...agents]
  const byAgent = new Map(rows.map((r) => [r.agentKey, r]))
  return agents.map((a) => {
    const row = byAgent.get(a.agentKey)
    return row === undefined ? a : { ...a, crawlDelay: crawlDelayFor(row) }
  })
}
