/**
 * Per operator, what its crawlers take and what its products give back:
 * Cloudflare Radar's crawl-to-refer ratio, HTML pages crawled ÷ HTML visits
 * referred (https://developers.cloudflare.com/changelog/2025-07-01-radar-bots-insights).
 * Referrals are read from referrals_daily (src/admin/referral-queries.ts) and
 * mapped to operators by the registry's referrer hosts. Apps often send no
 * Referer, so `referred` is a floor and the ratio an upper bound, as Radar says.
 */
import { referrerOf } from '../core/agents/registry/referrers.ts'
import type { AgentReport, OperatorReport, ReferralCount } from './types.ts'

/**
 * One entry per operator that crawled or was referred from: its crawlers'
 * pages, requests and bytes (the report's agents: genuine claims, tools
 * apart), the visits its referrer hosts sent, and their ratio. With an agent
 * or category filter, only the operators of the agents listed.
 */
export function operatorsOf(agents: readonly AgentReport[], referrals: readonly ReferralCount[], filtered = false): OperatorReport[] {
  const by = new Map<string, { crawled: number; requests: number; bytes: number; referrers: Map<string, number> }>()
  const entry = (operator: string) => {
    let e = by.get(operator)
    if (e === undefined) by.set(operator, (e = { crawled: 0, requests: 0, bytes: 0, referrers: new Map() }))
    return e
  }
  for (const a of agents) {
    if (a.operator === null) continue
    const e = entry(a.operator)
    e.crawled += a.evidence.pages
    e.requests += a.evidence.requests
    e.bytes += a.evidence.bytes
  }
  for (const r of referrals) {
    const operator = referrerOf(r.referrer)?.operator
    if (operator === undefined || (filtered && !by.has(operator))) continue
    const hosts = entry(operator).referrers
    hosts.set(r.referrer, (hosts.get(r.referrer) ?? 0) + r.visits)
  }
  return [...by]
    .map(([operator, e]): OperatorReport => {
      const referrers = [...e.referrers].map(([referrer, visits]) => ({ referrer, visits })).sort((a, b) => b.visits - a.visits || (a.referrer < b.referrer ? -1 : 1))
      const referred = referrers.reduce((n, r) => n + r.visits, 0)
      return { operator, crawled: e.crawled, requests: e.requests, bytes: e.bytes, referred, crawlToRefer: referred > 0 ? e.crawled / referred : null, referrers }
    })
    .sort((a, b) => b.crawled - a.crawled || b.referred - a.referred || (a.operator < b.operator ? -1 : 1))
}
