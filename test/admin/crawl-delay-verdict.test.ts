// The Crawl-delay verdict line (src/admin/crawl-delay-verdict.ts): a line of
// its own beside the robots.txt verdict, from an agent's counts.
import { describe, expect, it } from 'vitest'
import { CRAWL_DELAY_EARLY_SHARE, CRAWL_DELAY_MIN_REQUESTS, crawlDelayFor, withCrawlDelays } from '../../src/admin/crawl-delay-verdict.ts'
import type { AgentReport } from '../../src/admin/types.ts'

const row = (requests: number, early: number) => ({ agentKey: 'bingbot', delayMs: 10_000, requests, early, late: 0 })

describe('crawlDelayFor', () => {
  it('says an agent ignores Crawl-delay above the share of early requests, with the share in the line', () => {
    expect(crawlDelayFor(row(100, 41))).toEqual({ seconds: 10, requests: 100, early: 41, late: 0, verdict: 'ignores Crawl-delay', reason: 'ignores Crawl-delay (41% of requests early)' })
  })

  it('keeps Crawl-delay at or under the share: jitter at the edge makes a few intervals short', () => {
    expect(CRAWL_DELAY_EARLY_SHARE).toBe(0.1)
    expect(crawlDelayFor(row(100, 10))).toMatchObject({ verdict: 'keeps Crawl-delay', reason: 'keeps Crawl-delay (10% of requests early)' })
    expect(crawlDelayFor(row(100, 11)).verdict).toBe('ignores Crawl-delay')
  })

  it('needs enough requests to say anything', () => {
    expect(CRAWL_DELAY_MIN_REQUESTS).toBe(20)
    expect(crawlDelayFor(row(19, 19))).toMatchObject({ verdict: 'not enough data', reason: 'not enough data for Crawl-delay (19 requests, 20 needed)' })
    expect(crawlDelayFor(row(20, 19)).verdict).toBe('ignores Crawl-delay')
  })

  it('adds the line only to agents with counts, and leaves the others unchanged', () => {
    const agents = [{ agentKey: 'bingbot' }, { agentKey: 'gptbot' }] as AgentReport[]
    const out = withCrawlDelays(agents, [row(30, 3)])
    expect(out[0]?.crawlDelay?.verdict).toBe('keeps Crawl-delay')
    expect(out[1]).toBe(agents[1])
    expect('crawlDelay' in out[1]!).toBe(false)
  })
})
