// When an alert is posted, pure: a verdict that becomes "ignores …" posts
// once, a return to it after a change posts again; a Crawl-delay verdict in
// the report plugs in as it is; agent-controlled names cannot mention or
// link in Slack or Discord, nor hide characters.
import { describe, expect, it } from 'vitest'
import { ALERT_DEFAULTS } from '../../src/core/config/alerts.ts'
import { planAlerts, safeText, type AlertInput, type StoredState } from '../../src/admin/alert-rules.ts'
import type { AgentCompliance, AgentReport } from '../../src/admin/types.ts'

const NOW = Date.UTC(2026, 10, 27, 8)

function agent(agentKey: string, verdict: AgentCompliance, extra: object = {}): AgentReport {
  return {
    agentKey,
    agentId: agentKey,
    operator: 'OpenAI',
    category: 'AI Crawler',
    kind: 'bot',
    declaredObeys: true,
    verdict,
    reason: '10 disallowed requests after fetching robots.txt',
    evidence: { requests: 40, robotsFetches: 1, violations: { counted: 10 } } as AgentReport['evidence'],
    lastSeen: NOW,
    ...extra,
  }
}

function input(agents: AgentReport[], stored: Map<string, StoredState> = new Map(), now = NOW): AlertInput {
  return { now, settings: ALERT_DEFAULTS, report: { agents, tools: [] }, newClients: [], losses: [], spoofHours: [], stored }
}

/** The states a plan writes, as the next run reads them. */
function after(plan: ReturnType<typeof planAlerts>, before: Map<string, StoredState> = new Map(), now = NOW): Map<string, StoredState> {
  const next = new Map(before)
  for (const s of plan.states) next.set(s.key, { state: s.state, checkedAt: now })
  return next
}

describe('verdict alerts', () => {
  it('posts when an agent becomes "ignores robots.txt", once, and again after it changed and came back', () => {
    const first = planAlerts(input([agent('gptbot', 'ignores robots.txt')]))
    expect(first.messages.map((m) => m.message.kind)).toEqual(['ignores-robots-txt'])
    const stored = after(first)
    expect(planAlerts(input([agent('gptbot', 'ignores robots.txt')], stored)).messages).toEqual([])
    const calmer = planAlerts(input([agent('gptbot', 'isolated violations')], stored))
    expect(calmer.messages).toEqual([])
    expect(planAlerts(input([agent('gptbot', 'ignores robots.txt')], after(calmer, stored))).messages).toHaveLength(1)
  })

  it('stores nothing for an agent that never ignored anything', () => {
    expect(planAlerts(input([agent('googlebot', 'complies')]))).toEqual({ messages: [], states: [] })
  })

  it('posts "ignores Crawl-delay" from the report\'s agents[].crawlDelay verdict line', () => {
    const slow = agent('bytespider', 'complies', {
      crawlDelay: { seconds: 10, requests: 100, early: 41, late: 0, verdict: 'ignores Crawl-delay', reason: 'ignores Crawl-delay (41% of requests early)' },
    })
    const plan = planAlerts(input([slow]))
    expect(plan.messages.map((m) => [m.message.kind, m.message.counts, m.message.text])).toEqual([
      ['ignores-crawl-delay', { seconds: 10, requests: 100, early: 41 }, 'robots-edge: bytespider (OpenAI) ignores Crawl-delay (41% of requests early) (/_robots/?agent=bytespider&since=7d)'],
    ])
    expect(planAlerts(input([slow], after(plan))).messages).toEqual([])
    expect(
      planAlerts(
        input([agent('bytespider', 'complies', { crawlDelay: { seconds: 10, requests: 100, early: 0, late: 0, verdict: 'keeps Crawl-delay', reason: 'keeps Crawl-delay (0% of requests early)' } })]),
      ).messages,
    ).toEqual([])
  })

  it('writes a condition that still holds again once a day, so retention keeps it', () => {
    const stored = after(planAlerts(input([agent('gptbot', 'ignores robots.txt')])))
    expect(planAlerts(input([agent('gptbot', 'ignores robots.txt')], stored, NOW + 3_600_000)).states).toEqual([])
    expect(planAlerts(input([agent('gptbot', 'ignores robots.txt')], stored, NOW + 86_400_000)).states).toEqual([{ key: 'verdict:gptbot', state: 'ignores robots.txt', changed: false }])
  })
})

describe('agent-controlled text in a message', () => {
  it('escapes Slack links and mentions, and shows hidden characters', () => {
    expect(safeText('<!channel> & <https://evil.example|click>')).toBe('&lt;!channel&gt; &amp; &lt;https://evil.example|click&gt;')
    expect(safeText('g\u200bptbot\u202e')).toBe('g\\u{200B}ptbot\\u{202E}')
  })

  it('never lets a name mention anyone on Discord, and stays under its 2,000 characters', () => {
    const plan = planAlerts({
      ...input([]),
      newClients: [{ agentKey: `@everyone${'x'.repeat(3000)}`, kind: 'bot', firstSeen: NOW - 3_600_000 }],
      report: { agents: [], tools: [agent(`@everyone${'x'.repeat(3000)}`, 'complies', { evidence: { requests: 500, violations: { counted: 0 } } })] },
    })
    const [m] = plan.messages
    expect(m?.message.allowed_mentions).toEqual({ parse: [] })
    expect(m!.message.content.length).toBeLessThanOrEqual(1_900)
  })
})
