/**
 * The report's reads from the D1 ledger. Counting, grouping and the "what
 * had it read by then" flags happen in SQL; the judgment itself is the pure
 * buildReport. Filters are bound values joined to constant SQL fragments.
 */
import { buildReport, GRACE_MS, previousVersion } from './judgment.ts'
import type {
  AgentTotalsRow, GroupUse, LedgerEvent, Report, ReportFilter, VersionRow, ViolationGroup,
} from './types.ts'

/**
 * Violation rows are identical disallowed requests grouped per hour, so a
 * bot hammering one path is one row. The cap keeps a report within D1's
 * response size; the report says when it was reached.
 */
export const MAX_VIOLATION_GROUPS = 20_000
/** The drill-down returns at most this many events per page. */
export const MAX_PAGE = 500

type Bound = string | number

/** The filter as a WHERE fragment over `events e`, with its values to bind in order. */
function where(f: ReportFilter): { sql: string; params: Bound[] } {
  if (!Number.isFinite(f.since) || !Number.isFinite(f.until)) throw new TypeError('since and until must be times in ms')
  const parts = ['e.time >= ?', 'e.time < ?']
  const params: Bound[] = [Math.trunc(f.since), Math.trunc(f.until)]
  const add = (sql: string, value: Bound) => {
    parts.push(sql)
    params.push(value)
  }
  if (f.host !== undefined) add('e.host = ?', f.host.toLowerCase())
  if (f.agent !== undefined) add('e.agent_key = ?', f.agent)
  if (f.category !== undefined) add('e.category = ?', f.category)
  return { sql: parts.join(' AND '), params }
}

async function all<T>(db: D1Database, sql: string, params: readonly Bound[]): Promise<T[]> {
  return (await db.prepare(sql).bind(...params).all<T>()).results
}

// Whether the agent, or another agent of the same operator, had fetched
// robots.txt for this host before the request. Operators share one cached
// copy across their crawlers (Google fetches with Googlebot for
// Googlebot-Image too), so a sibling's fetch counts as read.
const READ_BEFORE = `EXISTS (SELECT 1 FROM robots_fetches f WHERE f.host = e.host
  AND (f.agent_key = e.agent_key OR f.operator = e.operator) AND f.first_fetch <= e.time`

function agentTotals(db: D1Database, w: ReturnType<typeof where>): Promise<AgentTotalsRow[]> {
  return all<Omit<AgentTotalsRow, 'spoofed' | 'declaredObeys'> & { spoofed: number; declaredObeys: number | null }>(db,
    `SELECT e.agent_key AS agentKey, e.verification = 'spoofed' AS spoofed,
       max(e.agent_id) AS agentId, max(e.operator) AS operator, max(e.category) AS category, max(e.agent_kind) AS kind,
       CASE WHEN min(e.obeys_robots_txt) = max(e.obeys_robots_txt) THEN max(e.obeys_robots_txt) END AS declaredObeys,
       sum(e.type = 'request') AS requests,
       sum(e.type = 'request' AND e.allowed = 0) AS disallowed,
       sum(e.type = 'request' AND e.action = 'block') AS blocked,
       sum(e.type = 'request' AND e.verification = 'verified') AS verified,
       sum(e.type = 'robots-txt') AS robotsFetches,
       max(CASE WHEN e.type = 'robots-txt' THEN e.time END) AS lastRobotsFetch
     FROM events e WHERE ${w.sql} GROUP BY e.agent_key, spoofed`, w.params,
  ).then((rows) => rows.map((r) => ({ ...r, spoofed: r.spoofed === 1, declaredObeys: r.declaredObeys === null ? null : r.declaredObeys === 1 })))
}

interface ViolationRow {
  agentKey: string; spoofed: number; host: string; robotsVersion: string; tokens: string; path: string
  ruleType: 'allow' | 'disallow' | null; rulePattern: string | null; ruleLine: number | null; hour: number
  inGraceWindow: number; readVersion: number; readHost: number; count: number; first: number; last: number
}

async function violationGroups(db: D1Database, w: ReturnType<typeof where>): Promise<{ groups: ViolationGroup[]; truncated: boolean }> {
  const rows = await all<ViolationRow>(db,
    `WITH v AS (
       SELECT e.agent_key, e.verification = 'spoofed' AS spoofed, e.host, e.robots_version, e.agent_tokens, e.path,
         e.rule_type, e.rule_pattern, e.rule_line, e.time, (e.time / 3600000) * 3600000 AS hour,
         coalesce(e.time < r.first_served + ?, 0) AS in_grace,
         ${READ_BEFORE} AND f.robots_version = e.robots_version) AS read_version,
         ${READ_BEFORE}) AS read_host
       FROM events e LEFT JOIN robots_versions r ON r.host = e.host AND r.hash = e.robots_version
       WHERE e.type = 'request' AND e.allowed = 0 AND ${w.sql})
     SELECT agent_key AS agentKey, spoofed, host, robots_version AS robotsVersion, agent_tokens AS tokens, path,
       rule_type AS ruleType, rule_pattern AS rulePattern, rule_line AS ruleLine, hour,
       in_grace AS inGraceWindow, read_version AS readVersion, read_host AS readHost,
       count(*) AS count, min(time) AS first, max(time) AS last
     FROM v
     GROUP BY agent_key, spoofed, host, robots_version, agent_tokens, path, rule_type, rule_pattern, rule_line, hour, in_grace, read_version, read_host
     ORDER BY count DESC LIMIT ?`,
    [GRACE_MS, ...w.params, MAX_VIOLATION_GROUPS],
  )
  const groups = rows.map((r): ViolationGroup => ({
    agentKey: r.agentKey, spoofed: r.spoofed === 1, host: r.host, robotsVersion: r.robotsVersion,
    tokens: r.tokens === '' ? [] : r.tokens.split(' '), path: r.path,
    rule: r.ruleType === null ? null : { type: r.ruleType, pattern: r.rulePattern ?? '', line: r.ruleLine ?? 0 },
    hour: r.hour, count: r.count, first: r.first, last: r.last,
    inGraceWindow: r.inGraceWindow === 1, readVersion: r.readVersion === 1, readHost: r.readHost === 1,
  }))
  return { groups, truncated: rows.length >= MAX_VIOLATION_GROUPS }
}

/** Texts of the given versions, one bound statement each, in one batch. */
async function versionTexts(db: D1Database, hashes: ReadonlySet<string>): Promise<Map<string, string>> {
  const texts = new Map<string, string>()
  if (hashes.size === 0) return texts
  const list = [...hashes]
  const results = await db.batch<{ text: string }>(
    list.map((hash) => db.prepare('SELECT text FROM robots_versions WHERE hash = ? LIMIT 1').bind(hash)),
  )
  results.forEach((r, i) => {
    const row = r.results[0]
    if (row) texts.set(list[i]!, row.text)
  })
  return texts
}

/**
 * The compliance report for a time range (issue 5 §2): per agent a verdict
 * with its evidence, spoofed claims apart, the most violated rules and paths,
 * and an hourly timeline.
 *
 * @example
 * const report = await getReport(env.DB, { since: Date.now() - 7 * 86_400_000, until: Date.now(), category: 'AI Crawler' })
 */
export async function getReport(db: D1Database, filter: ReportFilter): Promise<Report> {
  const w = where(filter)
  const [agents, { groups, truncated }, hourly, uses, versions] = await Promise.all([
    agentTotals(db, w),
    violationGroups(db, w),
    all<{ hour: number; requests: number }>(db,
      `SELECT (e.time / 3600000) * 3600000 AS hour, count(*) AS requests FROM events e
       WHERE e.type = 'request' AND e.verification <> 'spoofed' AND ${w.sql} GROUP BY hour`, w.params),
    all<GroupUse>(db,
      `SELECT DISTINCT e.agent_key AS agentKey, e.robots_version AS robotsVersion, e.robots_group AS "group" FROM events e
       WHERE e.type = 'request' AND e.verification <> 'spoofed' AND e.robots_group IS NOT NULL AND ${w.sql}`, w.params),
    all<VersionRow>(db,
      filter.host === undefined
        ? 'SELECT host, hash, first_served AS firstServed FROM robots_versions'
        : 'SELECT host, hash, first_served AS firstServed FROM robots_versions WHERE host = ?',
      filter.host === undefined ? [] : [filter.host.toLowerCase()]),
  ])
  // Only texts the judgment will re-run: versions whose groups applied, and
  // the predecessors of versions with violations inside the grace window.
  const needed = new Set(uses.map((u) => u.robotsVersion))
  for (const g of groups) {
    if (!g.inGraceWindow || g.spoofed) continue
    const previous = previousVersion(versions, g.host, g.robotsVersion)
    if (previous) needed.add(previous.hash)
  }
  const texts = await versionTexts(db, needed)
  return buildReport({ filter, agents, violations: groups, versions, texts, groupUses: uses, hourly, truncated })
}

interface EventRowOut {
  id: number; type: 'request' | 'robots-txt'; time: number; host: string; agent_key: string; agent_id: string | null
  agent_tokens: string; agent_kind: string; operator: string | null; category: string | null; verification: string
  method: string; path: string; user_agent: string; allowed: number; rule_type: 'allow' | 'disallow' | null
  rule_pattern: string | null; rule_line: number | null; robots_group: string | null; mode: string; action: string
  status: number; robots_version: string; country: string | null; asn: number | null; ip_hash: string | null
}

/**
 * One agent's stored events (judged requests and robots.txt fetches, spoofed
 * ones included and marked), newest first, for the drill-down. Page with
 * `before`: the `time` of the last event shown.
 *
 * @param opts.limit events per page, 1 to 500 (default 50).
 */
export async function getAgentRequests(
  db: D1Database,
  agentKey: string,
  opts: { limit?: number; before?: number; host?: string } = {},
): Promise<LedgerEvent[]> {
  const limit = Math.min(MAX_PAGE, Math.max(1, Math.trunc(opts.limit ?? 50) || 1))
  const parts = ['agent_key = ?']
  const params: Bound[] = [agentKey]
  if (opts.before !== undefined && Number.isFinite(opts.before)) {
    parts.push('time < ?')
    params.push(Math.trunc(opts.before))
  }
  if (opts.host !== undefined) {
    parts.push('host = ?')
    params.push(opts.host.toLowerCase())
  }
  const rows = await all<EventRowOut>(db,
    `SELECT * FROM events WHERE ${parts.join(' AND ')} ORDER BY time DESC, id DESC LIMIT ?`, [...params, limit])
  return rows.map((r) => ({
    id: r.id, type: r.type, time: r.time, host: r.host, agentKey: r.agent_key, agentId: r.agent_id,
    tokens: r.agent_tokens === '' ? [] : r.agent_tokens.split(' '), kind: r.agent_kind, operator: r.operator,
    category: r.category, verification: r.verification, method: r.method, path: r.path, userAgent: r.user_agent,
    allowed: r.allowed === 1,
    rule: r.rule_type === null ? null : { type: r.rule_type, pattern: r.rule_pattern ?? '', line: r.rule_line ?? 0 },
    group: r.robots_group, mode: r.mode, action: r.action, status: r.status, robotsVersion: r.robots_version,
    country: r.country, asn: r.asn, ipHash: r.ip_hash,
  }))
}
