/**
 * The class of each judged request, fixed when it is recorded:
 * what robots.txt said, and what the agent could have known when it asked.
 * The ledger counts per class; the report only adds the counts up.
 */
import type { JudgedRequest } from '../core/events.ts'

/**
 * - `allowed`: robots.txt allowed it.
 * - `afterFetch`: disallowed, and the agent (or its operator) had fetched the version in force.
 * - `staleCopy`: disallowed; it had fetched only an earlier version for this host, and no grace applies.
 * - `neverFetched`: disallowed; it was never seen fetching robots.txt for this host.
 * - `grace`: disallowed within 24 h of a rule change, allowed by the previous version, by an agent
 *   that had not fetched the new one (RFC 9309 §2.4: a cached copy may be used for 24 hours). Not counted.
 * - `newHost`: disallowed, never fetched, within 24 h after robots-edge first served the host: the
 *   agent may hold the site's previous robots.txt (RFC 9309 §2.4). Not counted.
 * - `spoofed`, `unknown`: disallowed, by a claim that failed verification or could not be checked.
 *   Reported apart, never counted against the agent named.
 * - `unclassified`: disallowed, recorded before classes existed and no longer kept raw. Not counted.
 * - `robotsTxt`: a fetch of robots.txt itself.
 */
export const REQUEST_CLASSES = ['allowed', 'afterFetch', 'staleCopy', 'neverFetched', 'grace', 'newHost', 'spoofed', 'unknown', 'unclassified', 'robotsTxt'] as const

export type RequestClass = (typeof REQUEST_CLASSES)[number]

/** Disallowed requests by a claim that held (or was not checked against ranges), by what the agent could have known: the report's violation columns. */
export const VIOLATION_CLASSES = ['afterFetch', 'staleCopy', 'neverFetched', 'grace', 'newHost'] as const satisfies readonly RequestClass[]

/** The classes that count as violations: the agent could have known. */
export const COUNTED_CLASSES = ['afterFetch', 'staleCopy', 'neverFetched'] as const satisfies readonly RequestClass[]

/** The same list as an SQL literal list, for constant SQL text. */
export const COUNTED_SQL = COUNTED_CLASSES.map((c) => `'${c}'`).join(', ')

/**
 * paths_daily's class for a closed day's top paths of counted violations per
 * host and agent, every counted class together (src/ledger/shape-sql.ts
 * TOP_PATHS): they replace that day's first paths per class, which are the
 * first seen, not the most requested.
 */
export const TOP_PATHS_CLASS = 'counted'

/** RFC 9309 §2.4: a crawler SHOULD NOT use a cached robots.txt for more than 24 hours. */
export const GRACE_MS = 24 * 3_600_000

export function isCounted(cls: string): boolean {
  return (COUNTED_CLASSES as readonly string[]).includes(cls)
}

/**
 * The class when the event alone decides it; null for a genuine claim's
 * disallowed request, which depends on who fetched what (SQL below).
 */
export function knownClass(e: Pick<JudgedRequest, 'type' | 'allowed' | 'verification'>): RequestClass | null {
  if (e.type === 'robots-txt') return 'robotsTxt'
  if (e.allowed) return 'allowed'
  if (e.verification === 'spoofed') return 'spoofed'
  if (e.verification === 'unknown') return 'unknown'
  return null
}

/**
 * The class of a row `j` carrying host, agent_key, operator, robots_version,
 * time, prev_allowed (1 when the isolate's copy of the previous version
 * allowed the request) and known (the class when knownClass decided it). Evaluated inside the
 * write batch, after that batch's own robots.txt fetches are upserted, so a
 * fetch counts from the moment it was recorded, from any isolate. A fetch by
 * a sibling crawler of the same operator counts as read: operators share one
 * cached copy across their crawlers (Google fetches with Googlebot for
 * Googlebot-Image too).
 */
export const CLASS_SQL = `coalesce(j.known, CASE
  WHEN EXISTS (SELECT 1 FROM robots_fetches f WHERE f.host = j.host AND f.agent_key = j.agent_key
         AND f.robots_version = j.robots_version AND f.first_fetch <= j.time)
    OR EXISTS (SELECT 1 FROM robots_fetches f WHERE f.host = j.host AND f.operator = j.operator
         AND f.robots_version = j.robots_version AND f.first_fetch <= j.time) THEN 'afterFetch'
  WHEN j.prev_allowed = 1 AND EXISTS (SELECT 1 FROM robots_versions r WHERE r.host = j.host
         AND r.hash = j.robots_version AND j.time < r.first_served + ${GRACE_MS}) THEN 'grace'
  WHEN EXISTS (SELECT 1 FROM robots_fetches f WHERE f.host = j.host AND f.agent_key = j.agent_key AND f.first_fetch <= j.time)
    OR EXISTS (SELECT 1 FROM robots_fetches f WHERE f.host = j.host AND f.operator = j.operator AND f.first_fetch <= j.time) THEN 'staleCopy'
  WHEN EXISTS (SELECT 1 FROM robots_hosts s WHERE s.host = j.host AND j.time < s.first_served + ${GRACE_MS}) THEN 'newHost'
  ELSE 'neverFetched' END)`
