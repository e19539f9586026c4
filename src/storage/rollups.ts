/**
 * Pure shaping of events into ledger rows: the raw row, the hourly rollup and
 * the robots.txt-fetch summary. No I/O, so the arithmetic the report relies
 * on can be read (and tested) apart from D1.
 */
import type { EventAgent, JudgedRequest } from '../events.ts'

export const HOUR_MS = 3_600_000
/** The event promises these bounds; enforced again so one bad event cannot fail a whole batch. */
const MAX_PATH = 2048
const MAX_USER_AGENT = 512

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

/** One row of `events`, keyed by column name (the ledger binds it as JSON). */
export interface EventRow {
  readonly type: string
  readonly time: number
  readonly host: string
  readonly agent_key: string
  readonly agent_id: string | null
  readonly agent_tokens: string
  readonly agent_kind: string
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

/** Column names of `events` in insert order (everything but `id`). */
export const EVENT_COLUMNS = [
  'type', 'time', 'host', 'agent_key', 'agent_id', 'agent_tokens', 'agent_kind', 'operator', 'category',
  'obeys_robots_txt', 'verification', 'method', 'path', 'user_agent', 'allowed', 'rule_type', 'rule_pattern',
  'rule_line', 'robots_group', 'mode', 'action', 'status', 'robots_version', 'country', 'asn', 'ip_hash',
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

/** One row of `agent_hourly`: counts to add to what is stored. */
export interface HourlyRollup {
  readonly host: string
  readonly hour: number
  readonly agent_key: string
  readonly verification: string
  readonly operator: string | null
  readonly category: string | null
  requests: number
  disallowed: number
  blocked: number
  robots_fetches: number
}

/** Sums `events` per host, hour, agent and verification, so a batch upserts each key once. */
export function rollUp(events: readonly JudgedRequest[]): HourlyRollup[] {
  const byKey = new Map<string, HourlyRollup>()
  for (const e of events) {
    const key = agentKey(e.agent)
    const hour = hourOf(e.time)
    const id = `${e.host}\n${hour}\n${key}\n${e.verification}`
    let row = byKey.get(id)
    if (!row) {
      row = {
        host: e.host, hour, agent_key: key, verification: e.verification,
        operator: e.agent.operator ?? null, category: e.agent.category ?? null,
        requests: 0, disallowed: 0, blocked: 0, robots_fetches: 0,
      }
      byKey.set(id, row)
    }
    if (e.type === 'robots-txt') {
      row.robots_fetches++
      continue
    }
    row.requests++
    if (!e.allowed) row.disallowed++
    if (e.action === 'block') row.blocked++
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
        host: e.host, agent_key: key, robots_version: e.robotsVersion, operator: e.agent.operator ?? null,
        first_fetch: time, last_fetch: time, fetches: 1,
      })
    }
  }
  return [...byKey.values()]
}
