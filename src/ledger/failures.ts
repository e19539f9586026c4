/**
 * How the recorder reads a D1 failure. Plain functions, no I/O.
 */
import type { JudgedRequest } from '../core/events.ts'

/**
 * D1 errors that no retry can fix. A row the database refuses is found by
 * halving the batch until it stands alone, then dropped; a missing table or
 * binding drops the batch. Anything else (SQLITE_BUSY, a lost connection,
 * an overloaded database, a timeout) is retried.
 */
const ROW_REJECTED = /SQLITE_(CONSTRAINT|MISMATCH|TOOBIG|RANGE)|too big|D1_TYPE_ERROR/i
const SCHEMA_BROKEN = /no such (table|column)|has no column|syntax error|SQLITE_ERROR/i

/** What to do about a failed D1 call: try again later, or give up on a row, or on the batch. */
export type Failure = 'retry' | 'row' | 'schema'

export function classify(error: unknown): Failure {
  if (error instanceof TypeError) return 'schema'
  const message = error instanceof Error ? error.message : String(error)
  return ROW_REJECTED.test(message) ? 'row' : SCHEMA_BROKEN.test(message) ? 'schema' : 'retry'
}

/** Thrown inside a write when D1 should be tried again later, with the events not yet written. */
export class RetryLater extends Error {
  constructor(
    readonly rest: JudgedRequest[],
    readonly reason: unknown,
  ) {
    super('retry later')
  }
}
