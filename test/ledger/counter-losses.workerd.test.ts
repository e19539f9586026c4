// The loss count is of requests: a counter's event (a referral, a streamed
// body's bytes) that the recorder cannot store leaves its count lower but is
// never counted as a lost request.
import { describe, expect, it } from 'vitest'
import type { JudgedRequest } from '../../src/core/events.ts'
import { createRecorder } from '../../src/ledger/recorder.ts'
import { T0, gptbot, judged } from '../support/report-fixtures.ts'

describe('counters in the loss count', () => {
  it('drops requests and counters alike without D1, and counts only the requests', { timeout: 30_000 }, async () => {
    const logs: string[] = []
    const recorder = createRecorder(
      () => {
        throw new Error('no DB')
      },
      { log: (m) => void logs.push(m) },
    )
    const request = judged({ agent: gptbot, time: T0 })
    const counters: JudgedRequest[] = [
      { ...request, type: 'bytes', bytes: 10 },
      { ...request, type: 'referral', path: '', userAgent: '', referrer: 'claude.ai' },
    ]
    for (const e of [request, ...counters, request]) recorder.record(e)
    await recorder.flush()
    expect(recorder.stats.recorded).toBe(4)
    expect(recorder.stats.dropped).toBe(2)
    expect(logs.some((m) => m.includes('dropping events'))).toBe(true)
  })
})
