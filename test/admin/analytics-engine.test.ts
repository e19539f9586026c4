import { describe, expect, it } from 'vitest'
import { agentTotalsSql, AnalyticsEngineQueryError, getAnalyticsEngineReport } from '../../src/admin/analytics-engine.ts'

const filter = { since: Date.UTC(2026, 10, 14), until: Date.UTC(2026, 10, 21) }

describe('the Analytics Engine report', () => {
  it('asks per agent with the sample weights, inside the time range and filters', () => {
    const sql = agentTotalsSql('robots_edge_events', { ...filter, host: 'example.com', agent: 'gptbot', category: 'AI Crawler' })
    expect(sql).toContain('FROM robots_edge_events')
    expect(sql).toContain(`timestamp >= toDateTime(${filter.since / 1000})`)
    expect(sql).toContain(`timestamp < toDateTime(${filter.until / 1000})`)
    expect(sql).toContain("blob2 = 'example.com' AND blob3 = 'gptbot' AND blob5 = 'AI Crawler'")
    expect(sql).toContain("sumIf(_sample_interval, blob1 = 'request' AND double1 = 0) AS disallowed")
  })

  // The SQL API binds no parameters: a value that could break out of its
  // literal is refused, never escaped and hoped for.
  it.each([
    ['host', { host: "x' OR 1=1 --" }],
    ['agent', { agent: "gptbot'; DROP" }],
    ['category', { category: "AI'" }],
  ])('refuses a %s that is not plain', (_name, extra) => {
    expect(() => agentTotalsSql('robots_edge_events', { ...filter, ...extra })).toThrow(AnalyticsEngineQueryError)
  })

  it('refuses a dataset name that is not one', () => {
    expect(() => agentTotalsSql('events; DROP', filter)).toThrow(AnalyticsEngineQueryError)
  })

  it('posts the query with the token and reads the rows', async () => {
    const calls: { url: string; init: RequestInit }[] = []
    const fetch = async (url: string, init: RequestInit) => {
      calls.push({ url, init })
      return Response.json({
        data: [{ agent_key: 'gptbot', spoofed: 0, operator: 'OpenAI', category: 'AI Crawler', requests: 120, disallowed: 118, blocked: 118, verified: 0, robots_fetches: 3, last_seen: 1795250000 }],
      })
    }
    const report = await getAnalyticsEngineReport({ accountId: 'acc123', apiToken: 'tok', dataset: 'robots_edge_events', fetch }, filter)
    expect(calls[0]!.url).toBe('https://api.cloudflare.com/client/v4/accounts/acc123/analytics_engine/sql')
    expect((calls[0]!.init.headers as Record<string, string>).Authorization).toBe('Bearer tok')
    expect(report).toMatchObject({
      source: 'analytics-engine',
      sampled: true,
      agents: [{ agentKey: 'gptbot', spoofed: false, requests: 120, disallowed: 118, robotsFetches: 3, lastSeen: 1795250000000 }],
    })
  })

  it('reports an API error instead of a partial answer', async () => {
    const fetch = async () => new Response('bad token', { status: 403 })
    await expect(getAnalyticsEngineReport({ accountId: 'a', apiToken: 't', dataset: 'robots_edge_events', fetch }, filter)).rejects.toThrow(/answered 403/)
  })
})
