/**
 * The bytes of streamed bodies (events of type `bytes`, src/edge/middleware/bot-guard.ts):
 * a judged request whose response had no Content-Length is recorded at once,
 * and the size of its body once sent. The size is added to the hourly counter
 * its request was counted in, written in the same batch as the judged
 * requests (writeEvents), after them.
 */
import type { JudgedRequest } from '../core/events.ts'
import { toFact } from './rollups.ts'

/**
 * Whether `e` is a counter's event (a referral, a streamed body's bytes)
 * rather than a request: the loss count (ledger_losses, the journal) counts
 * requests, so a counter lost in a D1 outage is not counted there; it only
 * leaves its count lower.
 */
export function isCounterEvent(e: Pick<JudgedRequest, 'type'>): boolean {
  return e.type === 'referral' || e.type === 'bytes'
}

/**
 * Per agent, hour, host and verification, the bytes go to the class the
 * event alone decides (`allowed`, `spoofed`...), else (a genuine claim's
 * disallowed request, classed in SQL) to that key's first disallowed class:
 * the agent's total is exact either way. A body still streaming after its
 * hour was rolled up (over an hour later) adds to the hourly counter only.
 */
const ADD_BYTES = `UPDATE counts_hourly SET bytes = counts_hourly.bytes + j.n
  FROM (SELECT value ->> '$.a' AS a, (value ->> '$.t' / 3600000) * 3600000 AS hour, value ->> '$.h' AS h, value ->> '$.v' AS v,
      value ->> '$.c' AS c, sum(value ->> '$.by') AS n FROM json_each(?1) GROUP BY 1, 2, 3, 4, 5) j
  WHERE counts_hourly.agent_key = j.a AND counts_hourly.hour = j.hour AND counts_hourly.host = j.h AND counts_hourly.verification = j.v
    AND counts_hourly.class = coalesce(j.c, (SELECT min(k.class) FROM counts_hourly k WHERE k.agent_key = j.a AND k.hour = j.hour
      AND k.host = j.h AND k.verification = j.v AND k.class NOT IN ('allowed', 'robotsTxt')))`

/** The one statement adding the streamed bytes among `events`, or undefined when there are none. */
export function bytesStatement(db: D1Database, events: readonly JudgedRequest[]): D1PreparedStatement | undefined {
  const facts = events.filter((e) => e.type === 'bytes').map((e) => toFact({ ...e, type: 'request' }, null))
  return facts.length > 0 ? db.prepare(ADD_BYTES).bind(JSON.stringify(facts)) : undefined
}
