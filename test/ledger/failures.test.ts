import { describe, expect, it } from 'vitest'
import { classify } from '../../src/ledger/failures.ts'

// How the recorder reads a D1 failure (src/ledger/failures.ts): retried,
// one row given up on, or the batch given up on. Messages as D1 and
// Miniflare word them.

describe('classify', () => {
  it.each([
    ['D1_ERROR: NOSENTRY database is locked: SQLITE_BUSY', 'retry'],
    ['D1_ERROR: Network connection lost.', 'retry'],
    ['D1 DB is overloaded. Too many requests queued.', 'retry'],
    ['D1_ERROR: D1 DB storage operation exceeded timeout which caused object to be reset.', 'retry'],
    ['internal error; reference = 07o911uve1b76op17lc5nej1', 'retry'],
    ['D1_ERROR: NOT NULL constraint failed: events.method: SQLITE_CONSTRAINT', 'row'],
    ['D1_ERROR: string or blob too big: SQLITE_TOOBIG', 'row'],
    ["D1_TYPE_ERROR: Type 'object' not supported for value", 'row'],
    ['D1_ERROR: no such table: events: SQLITE_ERROR', 'schema'],
    ['D1_ERROR: table events has no column named ip_hash: SQLITE_ERROR', 'schema'],
  ])('%s: %s', (message, failure) => {
    expect(classify(new Error(message))).toBe(failure)
  })

  it('gives up on a batch when the binding is missing (a TypeError)', () => {
    expect(classify(new TypeError("Cannot read properties of undefined (reading 'batch')"))).toBe('schema')
  })
})
