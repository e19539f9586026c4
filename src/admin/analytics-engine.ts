import type { ReportFilter } from './types.ts'

/**
 * The report's per-agent counts read from Workers Analytics Engine through
 * its SQL API, for sites whose traffic outgrows the D1 ledger. The data
 * points are laid out as src/ledger/analytics-engine.ts documents.
 *
 * Analytics Engine samples busy data, so counts are estimates (each row is
 * weighted by `_sample_interval`). Each point carries the class the D1
 * ledger gave the request when it recorded it, so src/admin/ae-report.ts
 * judges from these the way the D1 report does.
 */

export interface AnalyticsEngineSource {
  readonly accountId: string
  /** An API token with Account Analytics Read. */
  readonly apiToken: string
  readonly dataset: string
  /** Injected in tests. Default: fetch. */
  readonly fetch?: (input: string, init: RequestInit) => Promise<Response>
}

export interface AnalyticsEngineAgentRow {
  readonly agentKey: string
  readonly spoofed: boolean
  readonly operator: string | null
  readonly category: string | null
  readonly requests: number
  readonly disallowed: number
  readonly blocked: number
  readonly verified: number
  readonly robotsFetches: number
  readonly lastSeen: number | null
}

export interface AnalyticsEngineReport {
  readonly source: 'analytics-engine'
  readonly filter: ReportFilter
  /** Counts are estimates from sampled data. */
  readonly sampled: true
  readonly agents: readonly AnalyticsEngineAgentRow[]
}

// The SQL API takes no bound parameters, so every value written into a query
// is checked against a narrow pattern first; anything else is refused.
const DATASET = /^[A-Za-z0-9_]{1,64}$/
const HOST = /^[a-z0-9.-]{1,253}$/
const AGENT = /^[a-z0-9._-]{1,128}$/i
const CATEGORY = /^[A-Za-z &]{1,64}$/

export class AnalyticsEngineQueryError extends Error {}

export function literal(value: string, pattern: RegExp, what: string): string {
  if (!pattern.test(value)) throw new AnalyticsEngineQueryError(`${what} ${JSON.stringify(value.slice(0, 80))} cannot be queried in Analytics Engine`)
  return `'${value}'`
}

/** The dataset's name and the filter as a WHERE list, every value checked. Throws AnalyticsEngineQueryError. */
export function whereOf(dataset: string, filter: ReportFilter): string[] {
  if (!DATASET.test(dataset)) throw new AnalyticsEngineQueryError(`dataset ${JSON.stringify(dataset)} is not a dataset name`)
  const where = [`timestamp >= toDateTime(${Math.floor(filter.since / 1000)})`, `timestamp < toDateTime(${Math.ceil(filter.until / 1000)})`]
  if (filter.host !== undefined) where.push(`blob2 = ${literal(filter.host.toLowerCase(), HOST, 'host')}`)
  if (filter.agent !== undefined) where.push(`blob3 = ${literal(filter.agent.toLowerCase(), AGENT, 'agent')}`)
  if (filter.category !== undefined) where.push(`blob5 = ${literal(filter.category, CATEGORY, 'category')}`)
  return where
}

/** The per-agent query for a filter. Throws AnalyticsEngineQueryError for a value it will not inline. */
export function agentTotalsSql(dataset: string, filter: ReportFilter): string {
  const where = whereOf(dataset, filter)
  return [
    "SELECT blob3 AS agent_key, blob6 = 'spoofed' AS spoofed,",
    '  argMax(blob4, timestamp) AS operator, argMax(blob5, timestamp) AS category,',
    "  sumIf(_sample_interval, blob1 = 'request') AS requests,",
    "  sumIf(_sample_interval, blob1 = 'request' AND double1 = 0) AS disallowed,",
    "  sumIf(_sample_interval, blob13 = 'block') AS blocked,",
    "  sumIf(_sample_interval, blob1 = 'request' AND blob6 = 'verified') AS verified,",
    "  sumIf(_sample_interval, blob1 = 'robots-txt') AS robots_fetches,",
    '  toUnixTimestamp(MAX(timestamp)) AS last_seen',
    `FROM ${dataset}`,
    `WHERE ${where.join(' AND ')}`,
    'GROUP BY agent_key, spoofed',
    'ORDER BY disallowed DESC, requests DESC',
    'LIMIT 500',
    'FORMAT JSON',
  ].join('\n')
}

export const num = (v: unknown): number => (typeof v === 'number' ? v : Number(v ?? 0)) || 0
export const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null)

/** Runs one query against the account's SQL API and returns its rows. Throws on an HTTP or query error. */
export async function queryAnalyticsEngine(source: AnalyticsEngineSource, sql: string): Promise<Record<string, unknown>[]> {
  const doFetch = source.fetch ?? ((input: string, init: RequestInit) => fetch(input, init))
  const url = `https://api.cloudflare.com/client/v4/accounts/${encodeURIComponent(source.accountId)}/analytics_engine/sql`
  const res = await doFetch(url, { method: 'POST', headers: { Authorization: `Bearer ${source.apiToken}` }, body: sql, signal: AbortSignal.timeout(15_000) })
  if (!res.ok) throw new Error(`Analytics Engine SQL API answered ${res.status}: ${(await res.text()).slice(0, 200)}`)
  const body = (await res.json()) as { data?: Record<string, unknown>[] }
  return body.data ?? []
}

/** Runs the per-agent query against the account's SQL API. Throws on an HTTP or query error. */
export async function getAnalyticsEngineReport(source: AnalyticsEngineSource, filter: ReportFilter): Promise<AnalyticsEngineReport> {
  const rows = await queryAnalyticsEngine(source, agentTotalsSql(source.dataset, filter))
  const agents = rows.map(
    (row): AnalyticsEngineAgentRow => ({
      agentKey: String(row.agent_key ?? 'unknown'),
      spoofed: num(row.spoofed) === 1 || row.spoofed === true,
      operator: str(row.operator),
      category: str(row.category),
      requests: num(row.requests),
      disallowed: num(row.disallowed),
      blocked: num(row.blocked),
      verified: num(row.verified),
      robotsFetches: num(row.robots_fetches),
      lastSeen: num(row.last_seen) > 0 ? num(row.last_seen) * 1000 : null,
    }),
  )
  return { source: 'analytics-engine', filter, sampled: true, agents }
}
