import { describe, expect, it } from 'vitest'
import config from '../../robots.config.ts'
import { chooseConnections, loadtest, type Step } from '../../scripts/loadtest/run.ts'
import { builtWorkers } from '../support/built-workers.ts'
import { buildWorkload, expectationFor } from '../../scripts/loadtest/workload.ts'
import { fixtureRanges } from '../../dev/ip-ranges.ts'
import { createPolicies } from '../../src/core/config/index.ts'

// `npm run loadtest`: how the rate is chosen and what each request must do
// (unit), then a short run against the built Worker in Miniflare (integration).

const policy = createPolicies(config).get('127.0.0.1', 'production')
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'
const GPTBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)'
const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'

describe("loadtest: the expectations follow the Worker's rules", () => {
  it("a crawler's request and robots.txt fetch are recorded; people are not; GPTBot is refused", async () => {
    const ranges = await fixtureRanges()
    expect(expectationFor(policy, ranges, '/private/x', GOOGLEBOT, '66.249.66.1')).toEqual({ recorded: true, refused: false })
    expect(expectationFor(policy, ranges, '/robots.txt', GOOGLEBOT, '203.0.113.66')).toEqual({ recorded: true, refused: false })
    expect(expectationFor(policy, ranges, '/articles/', GPTBOT, '203.0.113.20')).toEqual({ recorded: true, refused: true })
    expect(expectationFor(policy, ranges, '/admin/', CHROME, '192.0.2.1')).toEqual({ recorded: false, refused: false })
    expect(expectationFor(policy, ranges, '/robots.txt', CHROME, '192.0.2.1')).toEqual({ recorded: false, refused: false })
    expect(expectationFor(policy, ranges, '/admin/', 'curl/8.5.0', '198.51.100.1')).toEqual({ recorded: true, refused: false })
  })

  it('the mix holds people, crawlers, refusals and robots.txt fetches', async () => {
    const templates = buildWorkload(policy, await fixtureRanges())
    expect(templates).toHaveLength(200)
    expect(templates.filter((t) => t.label === 'browsers').every((t) => !t.recorded && !t.refused)).toBe(true)
    expect(templates.filter((t) => t.refused).length).toBeGreaterThan(10)
    expect(templates.filter((t) => t.recorded && t.path === '/robots.txt').length).toBeGreaterThan(10)
    expect(templates.filter((t) => t.label === 'Googlebot (spoofed)').length).toBeGreaterThan(0)
  })
})

describe('loadtest: choosing the connection count', () => {
  const step = (connections: number, rps: number, healthy = true): Step => ({ connections, rps, p50: 1, p99: 5, errors: 0, healthy })

  it('takes the fewest connections within 5% of the best healthy throughput', () => {
    expect(chooseConnections([step(1, 500), step(2, 900), step(4, 1400), step(8, 1450), step(16, 1460)])).toBe(4)
  })

  it('ignores unhealthy steps, and falls back to one connection', () => {
    expect(chooseConnections([step(1, 500), step(2, 900), step(4, 2000, false)])).toBe(2)
    expect(chooseConnections([step(1, 500, false)])).toBe(1)
  })
})

describe('loadtest: a short run against the built Worker (Miniflare)', () => {
  // 16 concurrent connections: enough overlap that a D1 write started by one
  // request would be continued by another if the recorder chained them (a
  // bug that once lost whole batches: workerd refuses such I/O).
  it('has no errors and records every crawler request', async () => {
    const result = await loadtest({ seconds: 3, connections: 16, stepSeconds: 0.5, bundles: await builtWorkers() })
    expect(result.errors).toBe(0)
    expect(result.measured.requests).toBeGreaterThan(100)
    expect(result.measured.refused).toBeGreaterThan(0)
    expect(result.ledger.sent).toBeGreaterThan(0)
    expect(result.ledger.recorded).toBe(result.ledger.sent)
    expect(result.ledger.recordedRobotsTxt).toBe(result.ledger.sentRobotsTxt)
    expect(result.passed).toEqual({ errors: true, ledger: true })
  }, 120_000)
})

describe("loadtest --fault d1: D1 locked in the middle of a short run (Miniflare, Python's sqlite3)", () => {
  // The real bundle and Miniflare's real D1, in a SQLite file another process
  // locks for three seconds: every write fails with SQLITE_BUSY meanwhile.
  it('answers every request, and stores or counts every crawler request; the outage is logged once', async () => {
    const result = await loadtest({
      seconds: 5,
      connections: 4,
      stepSeconds: 0.5,
      bundles: await builtWorkers(),
      fault: { kind: 'd1', startSeconds: 1, seconds: 3 },
    })
    expect(result.errors).toBe(0)
    const fault = result.fault!
    expect(fault.window.releasedAt - fault.window.lockedAt).toBeGreaterThanOrEqual(2.9)
    expect(fault.sentDuring).toBeGreaterThan(0)
    // sent == stored + counted as not stored; and no more dropped than the backlog forced
    // (give or take the requests in flight when the lock was taken and released).
    expect(result.ledger.recorded + fault.dropped).toBe(result.ledger.sent)
    expect(fault.dropped).toBeGreaterThanOrEqual(0)
    expect(fault.dropped).toBeLessThanOrEqual(fault.minimumDropped + Math.ceil(0.05 * fault.sentDuring))
    // One outage, a few messages: never one (with a stack trace) per request.
    expect(fault.logs.ledger).toBeGreaterThanOrEqual(2)
    expect(fault.logs.ledger).toBeLessThanOrEqual(3)
    expect(fault.logs.busy).toBeLessThan(5)
    expect(result.passed).toEqual({ errors: true, ledger: true })
  }, 180_000)
})

describe('loadtest --queue --fault d1: the queue path, D1 locked meanwhile (Miniflare Queues)', () => {
  // The edge sends to the ledger queue; the admin Worker's consumer meets the
  // lock, hands its batches back, and writes them once D1 is free: none lost.
  it('stores every crawler request, counting none as lost', async () => {
    const result = await loadtest({ seconds: 5, connections: 4, stepSeconds: 0.5, bundles: await builtWorkers(), queue: true, fault: { kind: 'd1', startSeconds: 1, seconds: 3 } })
    expect(result.errors).toBe(0)
    expect(result.fault!.sentDuring).toBeGreaterThan(0)
    expect(result.fault!.dropped).toBe(0)
    expect(result.queue!.messages).toBeGreaterThan(0)
    expect(result.ledger.recorded).toBe(result.ledger.sent)
    expect(result.passed).toEqual({ errors: true, ledger: true })
  }, 180_000)
})
