/**
 * Pure shaping of events into what the ledger binds: the raw row, the
 * compact fact the counters are built from, the agents, the robots.txt-fetch
 * summary and the groups that applied. No I/O, so the arithmetic the report
 * relies on can be read (and tested) apart from D1.
 */
import type { EventAgent, JudgedRequest } from '../core/events.ts'
import { knownClass, type RequestClass } from './classes.ts'

export const HOUR_MS = 3_600_000
export const DAY_MS = 86_400_000
/** The event promises these bounds; enforced again so one bad event cannot fail a whole batch. */
const MAX_PATH = 2048
const MAX_USER_AGENT = 512

/**
 * Raw rows kept per agent, hour, verification and class, over every host;
 * beyond it requests are counted, not kept (every count comes from the
 * counters). 3 an hour is 72 samples a day for each agent and class: enough for the
 * drill-down's latest requests, and a bound on what is written and stored
 * (the earlier 200 an hour kept nearly every event of a busy site's varied
 * traffic, most of the bytes written).
 */
export const SAMPLE_BUDGET = 3
/**
 * The same for counted violations (afterFetch, staleCopy, neverFetched): the
 * requests the drill-down is opened for, so up to 20 an hour are kept.
 */
export const VIOLATION_SAMPLE_BUDGET = 20
/**
 * Distinct paths of disallowed requests with a row of their own in
 * paths_daily, per day, host, agent, verification and class; further paths
 * are added up under path ''. The report reads these rows for each agent's
 * example paths and the most violated paths, so the cap bounds what a
 * report reads per agent, host and day, whatever the paths.
 */
export const PATH_CAP = 3
/**
 * The old cap on distinct shapes per agent, host and day (before shapes were kept uncapped).
 * Shapes are no longer capped when written: rows under path '' hold the
 * requests recorded beyond it before the upgrade, which a replay counts as
 * not replayed.
 */
export const SHAPE_CAP = 1000

/**
 * How the ledger and the report name an agent: its registry id when it has
 * one, else its most specific product token, else `unknown`.
 */
export function agentKey(agent: EventAgent): string {
  return agent.id || agent.tokens[0] || 'unknown'
}

/** Millisecond start of the UTC hour holding `time`. */
export function hourOf(time: number): number {
  return Math.floor(time / HOUR_MS) * HOUR_MS
}

/** Millisecond start of the UTC day holding `time`. */
export function dayOf(time: number): number {
  return Math.floor(time / DAY_MS) * DAY_MS
}

/** The crawlers an ambiguous header named besides the one judged (set by the guard), space-separated. */
export function alsoOf(e: JudgedRequest): string | null {
  return e.also && e.also.length > 0 ? e.also.join(' ') : null
}

/** One row of `events` as bound (the class and `counted` are added in SQL), keyed by column name. */
export interface EventRow {
  readonly type: string
  readonly time: number
  readonly host: string
  readonly agent_key: string
  readonly agent_id: string | null
  readonly agent_tokens: string
  readonly agent_kind: string
  readonly agent_also: string | null
  readonly operator: string | null
  readonly category: string | null
  readonly obeys_robots_txt: 0 | 1
  readonly verification: string
  readonly method: string
  readonly path: string
  readonly user_agent: string
  readonly allowed: 0 | 1
  readonly rule_type: string | null
  readonly rule_pattern: string | null
  readonly rule_line: number | null
  readonly robots_group: string | null
  readonly mode: string
  readonly action: string
  readonly status: number
  readonly robots_version: string
  readonly country: string | null
  readonly asn: number | null
  readonly ip_hash: string | null
}

/** Column names of `events` that come from the event, in insert order. */
export const EVENT_COLUMNS = [
  'type',
  'time',
  'host',
  'agent_key',
  'agent_id',
  'agent_tokens',
  'agent_kind',
  'agent_also',
  'operator',
  'category',
  'obeys_robots_txt',
  'verification',
  'method',
  'path',
  'user_agent',
  'allowed',
  'rule_type',
  'rule_pattern',
  'rule_line',
  'robots_group',
  'mode',
  'action',
  'status',
  'robots_version',
  'country',
  'asn',
  'ip_hash',
] as const satisfies readonly (keyof EventRow)[]

/** The raw-event row for `e`. There is no IP column: only `ipHash` is ever read. */
export function toEventRow(e: JudgedRequest): EventRow {
  return {
    type: e.type,
    time: Math.trunc(e.time),
    host: e.host,
    agent_key: agentKey(e.agent),
    agent_id: e.agent.id ?? null,
    agent_tokens: e.agent.tokens.join(' '),
    agent_kind: e.agent.kind,
    agent_also: alsoOf(e),
    operator: e.agent.operator ?? null,
    category: e.agent.category ?? null,
    obeys_robots_txt: e.agent.obeysRobotsTxt ? 1 : 0,
    verification: e.verification,
    method: e.method,
    path: e.path.slice(0, MAX_PATH),
    user_agent: e.userAgent.slice(0, MAX_USER_AGENT),
    allowed: e.allowed ? 1 : 0,
    rule_type: e.rule?.type ?? null,
    rule_pattern: e.rule?.pattern ?? null,
    rule_line: e.rule?.line ?? null,
    robots_group: e.group,
    mode: e.mode,
    action: e.action,
    status: e.status,
    robots_version: e.robotsVersion,
    country: e.country ?? null,
    asn: e.asn ?? null,
    ip_hash: e.ipHash ?? null,
  }
}

/**
 * What the counters need of one event, in short keys (bound once per
 * statement): agent, operator, host, verification, version, time, known
 * class, previous version's verdict, blocked, type, path, tokens, rule.
 */
export interface Fact {
  readonly a: string
  readonly o: string | null
  readonly h: string
  readonly v: string
  readonly r: string
  readonly t: number
  readonly c: RequestClass | null
  readonly p: 0 | 1 | null
  readonly b: 0 | 1
  readonly q: 0 | 1
  readonly pa: string
  readonly tk: string
  readonly rl: number | null
  readonly rt: string | null
  readonly rp: string | null
  /** Bytes served (0 when not measured) and whether it was an HTML page. */
  readonly by: number
  readonly pg: 0 | 1
}

/** The fact for `e`; `previousAllowed` is the isolate's re-check against the previous version (null: not known). */
export function toFact(e: JudgedRequest, previousAllowed: boolean | null): Fact {
  return {
    a: agentKey(e.agent),
    o: e.agent.operator ?? null,
    h: e.host,
    v: e.verification,
    r: e.robotsVersion,
    t: Math.trunc(e.time),
    c: knownClass(e),
    p: previousAllowed === null ? null : previousAllowed ? 1 : 0,
    b: e.action === 'block' ? 1 : 0,
    q: e.type === 'request' ? 1 : 0,
    pa: e.path.slice(0, MAX_PATH),
    tk: e.agent.tokens.join(' '),
    rl: e.rule?.line ?? null,
    rt: e.rule?.type ?? null,
    rp: e.rule?.pattern ?? null,
    by: Number.isSafeInteger(e.bytes) && e.bytes! > 0 ? e.bytes! : 0,
    pg: e.page === true ? 1 : 0,
  }
}

/** One row of `agents`: the agent as this batch first saw it. */
export interface AgentRow {
  readonly agent_key: string
  readonly agent_id: string | null
  readonly kind: string
  readonly operator: string | null
  readonly category: string | null
  readonly obeys_robots_txt: 0 | 1
  first_seen: number
}

/** The distinct agents in `events`, each with its earliest time. */
export function agentsOf(events: readonly JudgedRequest[]): AgentRow[] {
  const byKey = new Map<string, AgentRow>()
  for (const e of events) {
    const key = agentKey(e.agent)
    const row = byKey.get(key)
    if (row) row.first_seen = Math.min(row.first_seen, Math.trunc(e.time))
    else {
      byKey.set(key, {
        agent_key: key,
        agent_id: e.agent.id ?? null,
        kind: e.agent.kind,
        operator: e.agent.operator ?? null,
        category: e.agent.category ?? null,
        obeys_robots_txt: e.agent.obeysRobotsTxt ? 1 : 0,
        first_seen: Math.trunc(e.time),
      })
    }
  }
  return [...byKey.values()]
}

/** One row of `robots_fetches`: who read which version, first and last time, how often. */
export interface FetchSummary {
  readonly host: string
  readonly agent_key: string
  readonly robots_version: string
  readonly operator: string | null
  first_fetch: number
  last_fetch: number
  fetches: number
}

/**
 * Sums the robots.txt fetches in `events`. Spoofed fetches are left out: a
 * fake Googlebot reading robots.txt says nothing about what Google has read.
 * A claim that could not be checked (`unknown`) is most likely the crawler
 * it names, and its fetch is kept: leaving it out could only make a crawler
 * that did read the rules look as if it never had.
 */
export function summariseFetches(events: readonly JudgedRequest[]): FetchSummary[] {
  const byKey = new Map<string, FetchSummary>()
  for (const e of events) {
    if (e.type !== 'robots-txt' || e.verification === 'spoofed') continue
    const key = agentKey(e.agent)
    const id = `${e.host}\n${key}\n${e.robotsVersion}`
    const time = Math.trunc(e.time)
    const row = byKey.get(id)
    if (row) {
      row.first_fetch = Math.min(row.first_fetch, time)
      row.last_fetch = Math.max(row.last_fetch, time)
      row.fetches++
    } else {
      byKey.set(id, {
        host: e.host,
        agent_key: key,
        robots_version: e.robotsVersion,
        operator: e.agent.operator ?? null,
        first_fetch: time,
        last_fetch: time,
        fetches: 1,
      })
    }
  }
  return [...byKey.values()]
}

/** One row of `agent_groups`. */
export interface GroupRow {
  readonly agent_key: string
  readonly day: number
  readonly robots_version: string
  readonly robots_group: string
}

/** The distinct groups that applied to genuine claims' requests, per day. */
export function groupsOf(events: readonly JudgedRequest[]): GroupRow[] {
  const byKey = new Map<string, GroupRow>()
  for (const e of events) {
    if (e.type !== 'request' || e.group === null || (e.verification !== 'verified' && e.verification !== 'unverified')) continue
    const row: GroupRow = { agent_key: agentKey(e.agent), day: dayOf(e.time), robots_version: e.robotsVersion, robots_group: e.group }
    byKey.set(`${row.agent_key}\n${row.day}\n${row.robots_version}\n${row.robots_group}`, row)
  }
  return [...byKey.values()]
}

/** The distinct (host, version, day) in `events`, for robots_versions.last_used. */
export function versionDaysOf(events: readonly JudgedRequest[]): { h: string; r: string; d: number }[] {
  const byKey = new Map<string, { h: string; r: string; d: number }>()
  for (const e of events) {
    const d = dayOf(e.time)
    const id = `${e.host}\n${e.robotsVersion}`
    const seen = byKey.get(id)
    if (!seen || seen.d < d) byKey.set(id, { h: e.host, r: e.robotsVersion, d })
  }
  return [...byKey.values()]
}
