/**
 * The compliance report from Workers Analytics Engine: each data point
 * carries the class its event alone decides, written by the edge when the
 * request is recorded (src/ledger/analytics-engine.ts), so the same judgment
 * (src/admin/report.ts) gives per-agent verdicts and classes as the D1 report
 * does, as estimates: Analytics Engine samples busy data, and every count is
 * weighted by `_sample_interval`. A genuine claim's disallowed request has no
 * class there (only D1 knows the agent's fetch history and the version in
 * force before): it is estimated here as a violation after a fetch when the
 * agent fetched robots.txt in the range, else as one without a fetch.
 */
import { COUNTED_CLASSES } from '../ledger/classes.ts'
import { describeCoverage, formatSpan, planRange } from './coverage.ts'
import { num, queryAnalyticsEngine, str, whereOf, type AnalyticsEngineSource } from './analytics-engine.ts'
import { buildReport } from './report.ts'
import type { AgentInfo, CounterRow, GroupUse, PathRow, Report, ReportFilter, RequestClass, RuleCount, TimelineBin } from './types.ts'

const COUNTED = COUNTED_CLASSES.map((c) => `'${c}'`).join(', ')
const GENUINE = "blob6 IN ('verified', 'unverified')"
/** A genuine claim's disallowed request whose class only D1 could decide (blob19 empty). */
const UNSETTLED = `(blob19 = '' AND blob1 = 'request' AND double1 = 0 AND ${GENUINE})`

/**
 * The class of a point: blob19, else what the point alone says. A genuine
 * disallowed request without one is estimated from whether its agent fetched
 * robots.txt in the range (`fetchers`): the queries select only those.
 */
function classOf(row: Record<string, unknown>, fetchers: ReadonlySet<string>): RequestClass {
  const cls = str(row.class)
  if (cls !== null) return cls as RequestClass
  if (row.type === 'robots-txt') return 'robotsTxt'
  if (row.allowed !== undefined && num(row.allowed) === 1) return 'allowed'
  if (row.verification === 'spoofed' || row.verification === 'unknown') return row.verification
  return fetchers.has(String(row.agent_key ?? '')) ? 'afterFetch' : 'neverFetched'
}

/** The queries for one report, each over the dataset's rows in the filter. */
export function analyticsEngineReportSql(dataset: string, filter: ReportFilter, bin: number): Record<'counts' | 'paths' | 'rules' | 'timeline' | 'groups', string> {
  const where = whereOf(dataset, filter).join(' AND ')
  const from = `FROM ${dataset} WHERE ${where}`
  const crawlers = filter.agent === undefined ? " AND blob16 = 'bot'" : ''
  return {
    counts: `SELECT blob3 AS agent_key, blob6 AS verification, blob19 AS class, blob1 AS type, double1 AS allowed,
  argMax(blob4, timestamp) AS operator, argMax(blob5, timestamp) AS category, argMax(blob16, timestamp) AS kind,
  sum(_sample_interval) AS requests, sumIf(_sample_interval, blob13 = 'block') AS blocked, count() AS points,
  toUnixTimestamp(min(timestamp)) AS first, toUnixTimestamp(max(timestamp)) AS last
${from} GROUP BY agent_key, verification, class, type, allowed LIMIT 10000 FORMAT JSON`,
    paths: `SELECT blob19 AS class, blob3 AS agent_key, blob2 AS host, blob8 AS path, sum(_sample_interval) AS requests
${from} AND (blob19 IN (${COUNTED}, 'spoofed', 'unknown') OR ${UNSETTLED}) GROUP BY class, agent_key, host, path ORDER BY requests DESC LIMIT 2000 FORMAT JSON`,
    rules: `SELECT blob2 AS host, blob14 AS version, blob9 AS type, blob10 AS pattern, double2 AS line, blob3 AS agent_key, sum(_sample_interval) AS violations
${from} AND (blob19 IN (${COUNTED}) OR ${UNSETTLED}) AND blob9 != ''${crawlers} GROUP BY host, version, type, pattern, line, agent_key ORDER BY violations DESC LIMIT 1000 FORMAT JSON`,
    timeline: `SELECT toUnixTimestamp(${bin > 3_600_000 ? 'toStartOfDay' : 'toStartOfHour'}(timestamp)) AS t, sum(_sample_interval) AS requests,
  sumIf(_sample_interval, blob19 IN (${COUNTED}) OR ${UNSETTLED}) AS violations
${from} AND blob1 = 'request' AND ${GENUINE}${crawlers} GROUP BY t ORDER BY t LIMIT 10000 FORMAT JSON`,
    groups: `SELECT blob3 AS agent_key, blob14 AS version, blob11 AS grp
${from} AND blob1 = 'request' AND blob11 != '' AND ${GENUINE} GROUP BY agent_key, version, grp LIMIT 5000 FORMAT JSON`,
  }
}

/** Options of getAnalyticsEngineJudgedReport. */
export interface AnalyticsEngineReportOptions {
  /** robots.txt texts by version hash (from D1), to tell "complies" from "nothing to ignore". Default: none known. */
  texts?: (hashes: readonly string[]) => Promise<ReadonlyMap<string, string>>
}

/**
 * The compliance report, judged from Analytics Engine's sampled points.
 *
 * @example
 * const report = await getAnalyticsEngineJudgedReport({ accountId, apiToken, dataset: 'robots_edge_events' }, { since, until })
 */
export async function getAnalyticsEngineJudgedReport(source: AnalyticsEngineSource, filter: ReportFilter, opts: AnalyticsEngineReportOptions = {}): Promise<Report> {
  const plan = planRange(filter)
  const sql = analyticsEngineReportSql(source.dataset, filter, plan.bin)
  const [countRows, pathRows, ruleRows, binRows, groupRows] = await Promise.all([sql.counts, sql.paths, sql.rules, sql.timeline, sql.groups].map((q) => queryAnalyticsEngine(source, q)))
  const agents = new Map<string, AgentInfo>()
  const counts: CounterRow[] = []
  const fetchers = new Set((countRows ?? []).filter((row) => row.type === 'robots-txt').map((row) => String(row.agent_key ?? 'unknown')))
  for (const row of countRows ?? []) {
    const agentKey = String(row.agent_key ?? 'unknown')
    if (!agents.has(agentKey)) {
      agents.set(agentKey, { agentKey, agentId: null, kind: str(row.kind), operator: str(row.operator), category: str(row.category), declaredObeys: null })
    }
    counts.push({
      agentKey,
      verification: String(row.verification ?? ''),
      cls: classOf(row, fetchers),
      requests: Math.round(num(row.requests)),
      blocked: Math.round(num(row.blocked)),
      sampled: 0,
      first: num(row.first) * 1000,
      last: num(row.last) * 1000,
    })
  }
  const paths: PathRow[] = (pathRows ?? []).map((r) => ({
    cls: classOf(r, fetchers),
    agentKey: String(r.agent_key ?? ''),
    host: String(r.host ?? ''),
    path: String(r.path ?? ''),
    requests: Math.round(num(r.requests)),
  }))
  const rules = new Map<string, Omit<RuleCount, 'violations'> & { violations: number; agentKeys: Set<string> }>()
  for (const r of ruleRows ?? []) {
    const key = `${r.host}\n${r.version}\n${num(r.line)}`
    const rule = rules.get(key) ?? {
      host: String(r.host ?? ''),
      robotsVersion: String(r.version ?? ''),
      type: r.type === 'allow' ? 'allow' : 'disallow',
      pattern: String(r.pattern ?? ''),
      line: num(r.line),
      violations: 0,
      agents: 0,
      agentKeys: new Set<string>(),
    }
    rule.violations += Math.round(num(r.violations))
    rule.agentKeys.add(String(r.agent_key ?? ''))
    rules.set(key, rule)
  }
  const groupUses: GroupUse[] = (groupRows ?? []).map((r) => ({ agentKey: String(r.agent_key ?? ''), robotsVersion: String(r.version ?? ''), group: String(r.grp ?? '') }))
  const texts = opts.texts ? await opts.texts([...new Set(groupUses.map((g) => g.robotsVersion))]) : new Map<string, string>()
  const timeline: TimelineBin[] = (binRows ?? []).map((r) => ({ hour: num(r.t) * 1000, requests: Math.round(num(r.requests)), violations: Math.round(num(r.violations)) }))
  const coverage = describeCoverage(filter, { plan, ledgerStart: null, rawSince: 0, kept: 0, requests: 0, budgetPerHour: 0, otherPaths: 0 })
  return buildReport({
    filter,
    source: 'analytics-engine',
    agents: [...agents.values()],
    counts,
    paths,
    rules: [...rules.values()].map(({ agentKeys, ...rule }) => ({ ...rule, agents: agentKeys.size })),
    groupUses,
    texts,
    timeline,
    timelineBin: plan.bin,
    coverage: {
      ...coverage,
      counts: { since: filter.since, until: filter.until },
      paths: { since: filter.since, until: filter.until, other: 0 },
      summary: `estimates from Analytics Engine's sampled data over the full ${formatSpan(filter.until - filter.since)} (it keeps 3 months); no request samples (the drill-down reads D1)`,
    },
  })
}
