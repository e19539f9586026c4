/**
 * The drill-down: one agent's request samples (raw rows), newest first. The
 * raw table is keyed by agent, host, counted and time, so each (host,
 * counted) part is read backwards from `before` and stops at the page size:
 * a page reads at most two pages per host, and a host the agent never
 * visited costs one seek.
 */
import type { LedgerEvent, RequestClass } from './types.ts'

/** The drill-down returns at most this many events per page. */
export const MAX_PAGE = 500
/** Hosts read per page: an agent seen on more is read on its most recent ones. */
const MAX_HOSTS = 50

interface EventRowOut {
  id: number
  type: 'request' | 'robots-txt'
  time: number
  host: string
  agent_key: string
  agent_id: string | null
  agent_tokens: string
  agent_kind: string
  agent_also: string | null
  operator: string | null
  category: string | null
  verification: string
  class: RequestClass
  counted: number
  method: string
  path: string
  user_agent: string
  allowed: number
  rule_type: 'allow' | 'disallow' | null
  rule_pattern: string | null
  rule_line: number | null
  robots_group: string | null
  mode: string
  action: string
  status: number
  robots_version: string
  country: string | null
  asn: number | null
  ip_hash: string | null
}

const STATE = (name: string) => `coalesce((SELECT value FROM ledger_state WHERE name = '${name}'), 0)`
/**
 * The hosts an agent was counted on since raw rows were last pruned, most
 * recent first: from the daily counters, and the hourly ones not rolled up yet.
 */
const HOSTS_SQL = `SELECT host FROM (
    SELECT host, day AS t FROM counts_daily WHERE agent_key = ?1 AND day >= (${STATE('raw_since')} / 86400000) * 86400000
    UNION ALL
    SELECT host, hour FROM counts_hourly WHERE agent_key = ?1 AND hour >= max(${STATE('rolled_hour')}, ${STATE('raw_since')} - 3600000))
  GROUP BY host ORDER BY max(t) DESC LIMIT ${MAX_HOSTS}`

const part = (counted: 0 | 1) => `SELECT * FROM (SELECT * FROM events WHERE agent_key = ?1 AND host = ?2 AND counted = ${counted} AND time < ?3
  ORDER BY time DESC, id DESC LIMIT ?4)`

const split = (text: string | null) => (text === null || text === '' ? [] : text.split(' '))

/** Options of getAgentRequests. */
export interface AgentRequestsOptions {
  /** Events per page, 1 to MAX_PAGE. Default 50. */
  limit?: number
  /** Only events before this time (ms): the `time` of the last event shown. Default: none. */
  before?: number
  /** Only this host. Default: every host. */
  host?: string
  /** Only counted violations (the requests behind a verdict). Default false. */
  violations?: boolean
  /** Called with each D1 result's meta, e.g. to count rows read. */
  onMeta?: (meta: D1Meta) => void
}

/**
 * One agent's stored events (judged requests and robots.txt fetches,
 * spoofed and unchecked claims included and marked), newest first, for the
 * drill-down. Page with `before`. The agent key is matched case-insensitively.
 */
export async function getAgentRequests(db: D1Database, agentKey: string, opts: AgentRequestsOptions = {}): Promise<LedgerEvent[]> {
  const limit = Math.min(MAX_PAGE, Math.max(1, Math.trunc(opts.limit ?? 50) || 1))
  const before = opts.before !== undefined && Number.isFinite(opts.before) ? Math.trunc(opts.before) : Number.MAX_SAFE_INTEGER
  const key = agentKey.toLowerCase()
  const onMeta = opts.onMeta ?? (() => {})
  let hosts: string[]
  if (opts.host !== undefined) hosts = [opts.host.toLowerCase()]
  else {
    const found = await db.prepare(HOSTS_SQL).bind(key).all<{ host: string }>()
    onMeta(found.meta)
    hosts = found.results.map((r) => r.host)
  }
  if (hosts.length === 0) return []
  const sql = opts.violations ? part(1) : `${part(1)} UNION ALL ${part(0)}`
  const results = await db.batch<EventRowOut>(hosts.map((host) => db.prepare(sql).bind(key, host, before, limit)))
  const rows: EventRowOut[] = []
  for (const r of results) {
    onMeta(r.meta)
    rows.push(...r.results)
  }
  rows.sort((a, b) => b.time - a.time || b.id - a.id)
  return rows.slice(0, limit).map((r) => ({
    id: r.id,
    type: r.type,
    time: r.time,
    host: r.host,
    agentKey: r.agent_key,
    agentId: r.agent_id,
    tokens: split(r.agent_tokens),
    also: split(r.agent_also),
    kind: r.agent_kind,
    operator: r.operator,
    category: r.category,
    verification: r.verification,
    class: r.class,
    counted: r.counted === 1,
    method: r.method,
    path: r.path,
    userAgent: r.user_agent,
    allowed: r.allowed === 1,
    rule: r.rule_type === null ? null : { type: r.rule_type, pattern: r.rule_pattern ?? '', line: r.rule_line ?? 0 },
    group: r.robots_group,
    mode: r.mode,
    action: r.action,
    status: r.status,
    robotsVersion: r.robots_version,
    country: r.country,
    asn: r.asn,
    ipHash: r.ip_hash,
  }))
}
