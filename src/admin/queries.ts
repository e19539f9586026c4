/**
 * The report's reads from the D1 ledger: counters only, never raw rows.
 * Whole days come from the daily counters and the range's two
 * ends from the hourly ones (src/admin/coverage.ts); every table is read
 * agent by agent, driven from `agents`, so a report reads a few rows per
 * agent, host and day, whatever the traffic or the number of distinct
 * paths (paths_daily holds PATH_CAP per agent, host, class and day), and
 * each counter row once. Filters are bound values.
 */
import { COUNTED_CLASSES, COUNTED_SQL, GRACE_MS, isCounted, TOP_PATHS_CLASS } from '../ledger/classes.ts'
import { SAMPLE_BUDGET, VIOLATION_SAMPLE_BUDGET } from '../ledger/rollups.ts'
import { describeCoverage, HOUR, MINUTE, planRange, timelineBinFor, type RangePlan } from './coverage.ts'
import { getCrawlDelays } from './crawl-delay.ts'
import { readReferrals } from './referral-queries.ts'
import { buildReport } from './report.ts'
import type { AgentInfo, CounterRow, GraceWindowRow, GroupUse, PathRow, Report, ReportFilter, RuleCount, TimelineBin } from './types.ts'
export { getAgentRequests, MAX_PAGE } from './samples.ts'

type Bound = string | number | null

/** ?1 host, ?2 agent, ?3 category: null when not filtered. */
const AGENT_FILTER = '(?2 IS NULL OR a.agent_key = ?2) AND (?3 IS NULL OR a.category = ?3)'

/**
 * The counter rows of the range, as stored: whole days from counts_daily,
 * the ends from counts_hourly. Not grouped in SQL: the rows are few (agents
 * × hosts × days × classes) and grouping would read them again; the counts,
 * the daily timeline and the grace windows' inputs are all added up from
 * this one read (countsFrom, dailyTimeline, graceInputs).
 */
function countsSql(spans: number): string {
  const part = (table: string, time: string, from: number) => `SELECT c.agent_key AS agentKey, c.host, c.verification, c.class AS cls, c.${time} AS t,
      c.requests, c.blocked, c.sampled, c.first_time AS first, c.last_time AS last, c.bytes, c.pages
    FROM agents a CROSS JOIN ${table} c ON c.agent_key = a.agent_key AND c.${time} >= ?${from} AND c.${time} < ?${from + 1} AND (?1 IS NULL OR c.host = ?1)
    WHERE ${AGENT_FILTER}`
  return [part('counts_daily', 'day', 4), ...Array.from({ length: spans }, (_, k) => part('counts_hourly', 'hour', 6 + 2 * k))].join(' UNION ALL ')
}

/** One counter row as countsSql reads it. */
interface RawCount extends CounterRow {
  readonly host: string
  /** Start of its day or hour, ms. */
  readonly t: number
}

/** The counts per agent, verification and class. */
function countsFrom(rows: readonly RawCount[]): CounterRow[] {
  const byKey = new Map<string, { -readonly [K in keyof CounterRow]: CounterRow[K] }>()
  for (const r of rows) {
    const key = `${r.agentKey}\n${r.verification}\n${r.cls}`
    const c = byKey.get(key)
    if (!c)
      byKey.set(key, {
        agentKey: r.agentKey,
        verification: r.verification,
        cls: r.cls,
        requests: r.requests,
        blocked: r.blocked,
        sampled: r.sampled,
        first: r.first,
        last: r.last,
        bytes: r.bytes ?? 0,
        pages: r.pages ?? 0,
      })
    else {
      c.requests += r.requests
      c.bytes = (c.bytes ?? 0) + (r.bytes ?? 0)
      c.pages = (c.pages ?? 0) + (r.pages ?? 0)
      c.blocked += r.blocked
      c.sampled += r.sampled
      c.first = Math.min(c.first, r.first)
      c.last = Math.max(c.last, r.last)
    }
  }
  return [...byKey.values()]
}

/** Over a week, one bin per day: genuine claims' judged requests and counted violations, crawlers only unless one agent is asked for. */
function dailyTimeline(rows: readonly RawCount[], kinds: ReadonlyMap<string, string | null>, oneAgent: boolean): TimelineBin[] {
  const bins = new Map<number, { hour: number; requests: number; violations: number }>()
  for (const r of rows) {
    if (r.cls === 'robotsTxt' || (r.verification !== 'verified' && r.verification !== 'unverified') || (!oneAgent && kinds.get(r.agentKey) !== 'bot')) continue
    const day = Math.floor(r.t / 86_400_000) * 86_400_000
    const bin = bins.get(day) ?? { hour: day, requests: 0, violations: 0 }
    bin.requests += r.requests
    if (isCounted(r.cls)) bin.violations += r.requests
    bins.set(day, bin)
  }
  return [...bins.values()].sort((a, b) => a.hour - b.hour)
}

/** Per agent, host and class, the grace and newHost requests and the last of them: what the grace windows are worked out from. */
function graceInputs(rows: readonly RawCount[]): [string, string, string, number, number][] {
  const byKey = new Map<string, [string, string, string, number, number]>()
  for (const r of rows) {
    if (r.cls !== 'grace' && r.cls !== 'newHost') continue
    const key = `${r.agentKey}\n${r.host}\n${r.cls}`
    const w = byKey.get(key)
    if (!w) byKey.set(key, [r.agentKey, r.host, r.cls, r.requests, r.last])
    else {
      w[3] += r.requests
      w[4] = Math.max(w[4], r.last)
    }
  }
  return [...byKey.values()]
}

/** The classes of a genuine claim's judged requests (robots.txt fetches, spoofed and unchecked claims apart). */
const JUDGED = "c.class NOT IN ('robotsTxt', 'spoofed', 'unknown')"

/**
 * The grace periods behind each agent's `grace` and `newHost` counts, per
 * host: ?1 holds [agent, host, class, requests, last] from the counters read
 * (graceInputs), ?2 the report's end. A host's first day ends 24 h after
 * robots_hosts.first_served; a rule change's grace 24 h after the version in
 * force at the agent's last such request was first served (the version a
 * `grace` request was judged by, src/ledger/classes.ts). `seenSince`: a
 * judged request by the agent on that host after the end, before the
 * report's; EXISTS stops at the first, so a window costs a few rows,
 * whatever the traffic.
 */
const GRACE_WINDOWS_SQL = (() => {
  const after = (table: string, time: string, unit: number) => `EXISTS (SELECT 1 FROM ${table} c WHERE c.agent_key = w.agentKey
      AND c.${time} >= w."until" - ${unit} AND c.host = w.host AND c.last_time >= w."until" AND c.first_time < ?2 AND ${JUDGED})`
  return `SELECT w.agentKey, w.host, w.cls, w.requests, w."until", ${after('counts_hourly', 'hour', 3_600_000)} OR ${after('counts_daily', 'day', 86_400_000)} AS seenSince
    FROM (SELECT agentKey, host, cls, requests, CASE cls
        WHEN 'newHost' THEN (SELECT s.first_served FROM robots_hosts s WHERE s.host = g.host)
        ELSE (SELECT max(v.first_served) FROM robots_versions v WHERE v.host = g.host AND v.first_served <= g.last) END + ${GRACE_MS} AS "until"
      FROM (SELECT value ->> 0 AS agentKey, value ->> 1 AS host, value ->> 2 AS cls, value ->> 3 AS requests, value ->> 4 AS last FROM json_each(?1)) g) w`
})()

/**
 * Per hour, the crawlers' genuine requests and counted violations: rolled-up
 * hours (?4 to ?5) from timeline_hourly, the rest (?5 to ?6) from
 * counts_hourly. An agent filter reads that agent's hourly counters throughout.
 */
const TIMELINE_SQL = `SELECT hour, sum(requests) AS requests, sum(violations) AS violations FROM (
    SELECT hour, requests, violations FROM timeline_hourly
    WHERE hour >= ?4 AND hour < ?5 AND (?1 IS NULL OR host = ?1) AND (?3 IS NULL OR category = ?3)
    UNION ALL
    SELECT c.hour, c.requests, CASE WHEN c.class IN (${COUNTED_SQL}) THEN c.requests ELSE 0 END
    FROM agents a CROSS JOIN counts_hourly c ON c.agent_key = a.agent_key AND c.hour >= ?5 AND c.hour < ?6 AND (?1 IS NULL OR c.host = ?1)
    WHERE ${AGENT_FILTER} AND a.kind = 'bot' AND c.verification IN ('verified', 'unverified') AND c.class <> 'robotsTxt')
  GROUP BY hour ORDER BY hour`
const AGENT_TIMELINE_SQL = `SELECT c.hour, sum(CASE WHEN c.class <> 'robotsTxt' THEN c.requests ELSE 0 END) AS requests,
    sum(CASE WHEN c.class IN (${COUNTED_SQL}) THEN c.requests ELSE 0 END) AS violations
  FROM agents a CROSS JOIN counts_hourly c ON c.agent_key = a.agent_key AND c.hour >= ?4 AND c.hour < ?6 AND (?1 IS NULL OR c.host = ?1)
  WHERE ${AGENT_FILTER} AND c.verification IN ('verified', 'unverified') GROUP BY c.hour ORDER BY c.hour`
/** Per minute (?4 to ?5), from timeline_minutes (migrations/0060): the same requests and violations as TIMELINE_SQL, by host and category (?2 unused: no agent). */
const MINUTE_TIMELINE_SQL = `SELECT minute AS hour, sum(requests) AS requests, sum(violations) AS violations FROM timeline_minutes
  WHERE minute >= ?4 AND minute < ?5 AND (?1 IS NULL OR host = ?1) AND (?3 IS NULL OR category = ?3) GROUP BY minute ORDER BY minute`

/** Paths of counted violations, spoofed and unchecked claims, over whole days (?4, ?5), classes in ?6. */
const PATHS_SQL = `SELECT p.class AS cls, p.agent_key AS agentKey, p.host, p.path, sum(p.requests) AS requests
  FROM (SELECT value AS class FROM json_each(?6)) k
  CROSS JOIN paths_daily p ON p.class = k.class AND p.day >= ?4 AND p.day < ?5
  WHERE (?1 IS NULL OR p.host = ?1) AND (?2 IS NULL OR p.agent_key = ?2)
    AND (?3 IS NULL OR p.agent_key IN (SELECT agent_key FROM agents WHERE category = ?3))
  GROUP BY p.class, p.agent_key, p.host, p.path`
const PATH_CLASSES = JSON.stringify([...COUNTED_CLASSES, TOP_PATHS_CLASS, 'spoofed', 'unknown'])

const RULES_SQL = `SELECT r.host, r.robots_version AS robotsVersion, max(r.rule_type) AS type, max(r.rule_pattern) AS pattern, r.rule_line AS line,
    sum(r.violations + r.derived) AS violations, count(DISTINCT r.agent_key) AS agents
  FROM rules_daily r JOIN agents a ON a.agent_key = r.agent_key
  WHERE r.day >= ?4 AND r.day < ?5 AND (?1 IS NULL OR r.host = ?1) AND ${AGENT_FILTER} AND (?2 IS NOT NULL OR a.kind <> 'tool')
  GROUP BY r.host, r.robots_version, r.rule_line ORDER BY violations DESC, agents DESC LIMIT 10`

const GROUPS_SQL = `SELECT DISTINCT g.agent_key AS agentKey, g.robots_version AS robotsVersion, g.robots_group AS "group"
  FROM agents a CROSS JOIN agent_groups g ON g.agent_key = a.agent_key AND g.day >= ?4 AND g.day < ?5
  WHERE ${AGENT_FILTER} AND (?1 IS NULL OR EXISTS (SELECT 1 FROM robots_versions v WHERE v.host = ?1 AND v.hash = g.robots_version))`

const AGENTS_SQL = `SELECT agent_key AS agentKey, agent_id AS agentId, kind, operator, category, obeys_robots_txt AS obeys, first_seen AS firstSeen
  FROM agents a WHERE ${AGENT_FILTER}`

interface AgentRow extends Omit<AgentInfo, 'declaredObeys'> {
  readonly obeys: number | null
  readonly firstSeen: number
}

/** The filter's values, as bound to ?1 (host), ?2 (agent) and ?3 (category). Agent keys are lower case, as product tokens compare. */
function filterParams(f: ReportFilter): [Bound, Bound, Bound] {
  if (!Number.isFinite(f.since) || !Number.isFinite(f.until)) throw new TypeError('since and until must be times in ms')
  return [f.host?.toLowerCase() ?? null, f.agent?.toLowerCase() ?? null, f.category ?? null]
}

function spanParams(plan: RangePlan): number[] {
  return [plan.days.since, plan.days.until, ...plan.edges.flatMap((s) => [s.since, s.until])]
}

/** Options of getReport. */
export interface GetReportOptions {
  /** Called with each D1 result's meta, e.g. to count rows read. Default: none. */
  onMeta?: (meta: D1Meta) => void
}

/**
 * Texts of the versions in use over the days (every write marks the day a
 * version was last used): those whose groups applied (GROUPS_SQL) among
 * them, for the "nothing to ignore" check. A few rows, not a second read of
 * the groups.
 */
const TEXTS_SQL = `SELECT hash, min(text) AS text FROM robots_versions
  WHERE coalesce(last_used, first_served) >= ?4 AND first_served < ?5 AND (?1 IS NULL OR host = ?1) GROUP BY hash`

/**
 * The ledger's own state, as the last report in this isolate read it: the
 * cron moves it on once an hour. A plan made from an older `rolled_hour` is
 * still exact (it reads hours the daily counters also hold, and not those
 * days); one made from an older `hourly_since` could miss pruned hours, so a
 * change of that one is read again.
 */
let lastState: ReadonlyMap<string, number> | undefined

/**
 * The whole report in one D1 batch, planned from `state`; the batch also
 * reads the state, to check the plan. The grace windows, when any agent has
 * grace or newHost requests in the range, take a second small read: they
 * start from the counters the first one read.
 */
async function readAll(db: D1Database, filter: ReportFilter, state: ReadonlyMap<string, number>, onMeta: (meta: D1Meta) => void) {
  const f = filterParams(filter)
  const plan = planRange(filter, { hourlySince: state.get('hourly_since') ?? 0, rolledHour: state.get('rolled_hour') ?? 0 })
  const spans = spanParams(plan)
  const pathDays = [plan.pathDays.since, plan.pathDays.until]
  const daily = plan.bin > 3_600_000
  const statements = [
    db.prepare('SELECT name, value FROM ledger_state'),
    db.prepare(AGENTS_SQL).bind(...f),
    db.prepare(countsSql(plan.edges.length)).bind(...f, ...spans),
    db.prepare(PATHS_SQL).bind(...f, ...pathDays, PATH_CLASSES),
    db.prepare(RULES_SQL).bind(...f, ...pathDays),
    db.prepare(GROUPS_SQL).bind(...f, ...pathDays),
    db.prepare(TEXTS_SQL).bind(...f, ...pathDays),
  ]
  // Hourly bins come from timeline_hourly; daily ones from the counters already read.
  if (!daily) statements.push(db.prepare(filter.agent === undefined ? TIMELINE_SQL : AGENT_TIMELINE_SQL).bind(...f, plan.hours.since, plan.rolledUntil, plan.hours.until))
  const results = await db.batch(statements)
  for (const r of results) onMeta(r.meta)
  const [stateRows, agentRows, raw, paths, rules, uses, texts, hourly] = results.map((r) => r.results) as [
    { name: string; value: number }[],
    AgentRow[],
    RawCount[],
    PathRow[],
    RuleCount[],
    GroupUse[],
    { hash: string; text: string }[],
    TimelineBin[] | undefined,
  ]
  const fresh = new Map(stateRows.map((r) => [r.name, r.value]))
  const counts = countsFrom(raw)
  const bins = daily ? dailyTimeline(raw, new Map(agentRows.map((a) => [a.agentKey, a.kind])), filter.agent !== undefined) : (hourly ?? [])
  const inputs = graceInputs(raw)
  let windows: (Omit<GraceWindowRow, 'until' | 'seenSince'> & { until: number | null; seenSince: number | null })[] = []
  if (inputs.length > 0) {
    const read = await db.prepare(GRACE_WINDOWS_SQL).bind(JSON.stringify(inputs), filter.until).all<(typeof windows)[number]>()
    onMeta(read.meta)
    windows = read.results
  }
  // A window whose start the ledger no longer holds (a pruned version) has no end to tell: left out, the reason then names no time.
  const graceWindows = windows.flatMap(({ until, seenSince, ...w }): GraceWindowRow[] => (typeof until === 'number' ? [{ ...w, until, seenSince: seenSince === 1 }] : []))
  return { plan, fresh, agentRows, counts, bins, paths, rules, uses, texts, graceWindows }
}

const totals = (bins: readonly TimelineBin[]) => bins.reduce((t, b) => ({ requests: t.requests + b.requests, violations: t.violations + b.violations }), { requests: 0, violations: 0 })

/**
 * The timeline in the bin the span of activity calls for (coverage.ts
 * timelineBinFor), when finer than the range's: one more read, over the
 * activity only. Used only where it adds up to the range's own timeline:
 * minutes recorded before migrations/0060, or pruned, and hours pruned, then
 * leave the coarser bins, which are exact.
 */
async function finerTimeline(
  db: D1Database,
  filter: ReportFilter,
  read: { plan: RangePlan; fresh: ReadonlyMap<string, number>; counts: readonly CounterRow[]; bins: TimelineBin[] },
  onMeta: (meta: D1Meta) => void,
): Promise<{ bins: TimelineBin[]; bin: number }> {
  const { plan, counts } = read
  // Where any genuine claim's judged request in the range was first seen (a superset of what the timeline counts).
  const firsts = counts.filter((c) => c.cls !== 'robotsTxt' && (c.verification === 'verified' || c.verification === 'unverified')).map((c) => c.first)
  const chosen = timelineBinFor(firsts.length > 0 ? Math.min(...firsts) : null, Math.min(filter.until, plan.hours.until), plan.bin)
  // Minutes are counted per host and category, not per agent (a row or two per write): one agent's timeline reads hours.
  const bin = chosen === MINUTE && filter.agent !== undefined ? Math.min(HOUR, plan.bin) : chosen
  if (bin >= plan.bin) return { bins: read.bins, bin: plan.bin }
  const since = Math.max(plan.hours.since, Math.floor(Math.min(...firsts) / bin) * bin)
  const f = filterParams(filter)
  const query =
    bin === MINUTE
      ? db.prepare(MINUTE_TIMELINE_SQL).bind(...f, since, plan.hours.until)
      : db.prepare(filter.agent === undefined ? TIMELINE_SQL : AGENT_TIMELINE_SQL).bind(...f, since, Math.min(plan.hours.until, Math.max(since, read.fresh.get('rolled_hour') ?? 0)), plan.hours.until)
  const result = await query.all<TimelineBin>()
  onMeta(result.meta)
  const [want, got] = [totals(read.bins), totals(result.results)]
  return want.requests === got.requests && want.violations === got.violations ? { bins: result.results, bin } : { bins: read.bins, bin: plan.bin }
}

/**
 * The compliance report for a time range: per agent a
 * verdict with its evidence, tools, spoofed and unchecked claims apart, the
 * most violated rules and paths, a timeline, and what the window covers.
 * One D1 batch, read in one transaction (the first in an isolate reads the
 * ledger's state before it), and a small second read for the grace windows
 * when any agent has grace or newHost requests in the range.
 *
 * @example
 * const report = await getReport(env.DB, { since: Date.now() - 7 * 86_400_000, until: Date.now(), category: 'AI Crawler' })
 */
export async function getReport(db: D1Database, filter: ReportFilter, opts: GetReportOptions = {}): Promise<Report> {
  filterParams(filter)
  const onMeta = opts.onMeta ?? (() => {})
  if (lastState === undefined) {
    const state = await db.prepare('SELECT name, value FROM ledger_state').all<{ name: string; value: number }>()
    onMeta(state.meta)
    lastState = new Map(state.results.map((r) => [r.name, r.value]))
  }
  let read = await readAll(db, filter, lastState, onMeta)
  // `rolled_hour` only moves forward, unless the database was replaced: then the plan is made again too.
  const stale = read.fresh.get('hourly_since') !== lastState.get('hourly_since') || (read.fresh.get('rolled_hour') ?? 0) < (lastState.get('rolled_hour') ?? 0)
  if (stale) read = await readAll(db, filter, read.fresh, onMeta)
  lastState = read.fresh
  const { plan, fresh, agentRows, counts, paths, rules, uses, graceWindows } = read
  const timeline = await finerTimeline(db, filter, read, onMeta)
  const agents = agentRows.map(({ obeys, firstSeen: _firstSeen, ...a }): AgentInfo => ({ ...a, declaredObeys: obeys === null ? null : obeys === 1 }))
  const ledgerStart = agentRows.length > 0 ? Math.min(...agentRows.map((a) => a.firstSeen)) : null
  const coverage = describeCoverage(filter, {
    plan,
    ledgerStart,
    rawSince: fresh.get('raw_since') ?? 0,
    kept: counts.reduce((n, c) => n + c.sampled, 0),
    requests: counts.reduce((n, c) => n + c.requests, 0),
    budgetPerHour: SAMPLE_BUDGET,
    violationBudgetPerHour: VIOLATION_SAMPLE_BUDGET,
    // Counted violations beyond each day's first paths: their total less the paths listed (rows under '' are from before, and hold such requests too).
    otherPaths: Math.max(
      0,
      counts.filter((c) => isCounted(c.cls) && c.verification !== 'spoofed' && c.verification !== 'unknown').reduce((n, c) => n + c.requests, 0) -
        paths.filter((p) => p.path !== '' && (isCounted(p.cls) || p.cls === TOP_PATHS_CLASS)).reduce((n, p) => n + p.requests, 0),
    ),
  })
  const crawlDelays = await getCrawlDelays(db, filter)
  const referrals = await readReferrals(db, filter, onMeta)
  return buildReport({
    crawlDelays,
    filter,
    source: 'd1',
    referrals,
    agents,
    counts,
    paths,
    rules,
    groupUses: uses,
    texts: new Map(read.texts.map((t) => [t.hash, t.text])),
    graceWindows,
    timeline: timeline.bins.filter((b) => b.requests > 0 || b.violations > 0),
    timelineBin: timeline.bin,
    coverage,
  })
}
