// Unit test of `report`'s text output for a pending agent: printReport over a
// report the judgment built, no runtime. The verdict, its reason, the
// totals and the note under the table, whose time comes from
// evidence.pendingUntil rather than from the sentence.
import { describe, expect, it } from 'vitest'
import { printReport } from '../../src/cli/report.ts'
import { buildReport } from '../../src/admin/report.ts'
import type { CounterRow } from '../../src/admin/types.ts'
import { DAY, HOUR, T0 } from '../support/report-fixtures.ts'
import { captureIo } from '../support/cli-io.ts'

const row = (agentKey: string, cls: CounterRow['cls'], requests: number): CounterRow => ({
  agentKey,
  verification: 'unverified',
  cls,
  requests,
  blocked: 0,
  sampled: 0,
  first: T0,
  last: T0 + HOUR,
})

describe('report: a pending agent in the text output', () => {
  const report = buildReport({
    filter: { since: T0, until: T0 + DAY },
    source: 'd1',
    agents: [
      { agentKey: 'bytespider', agentId: 'bytespider', kind: 'bot', operator: 'ByteDance', category: 'AI Crawler', declaredObeys: false },
      { agentKey: 'python-requests', agentId: null, kind: 'tool', operator: null, category: null, declaredObeys: null },
    ],
    counts: [row('bytespider', 'newHost', 115), row('python-requests', 'allowed', 40), row('python-requests', 'newHost', 12)],
    graceWindows: [
      // Seconds past the minute: the note rounds up, as the reason does.
      { agentKey: 'bytespider', host: 'example.com', cls: 'newHost', requests: 115, until: T0 + DAY + 20_000, seenSince: false },
      { agentKey: 'python-requests', host: 'example.com', cls: 'newHost', requests: 12, until: T0 + DAY + 20_000, seenSince: false },
    ],
    paths: [],
    rules: [],
    groupUses: [],
    texts: new Map(),
    timeline: [],
    timelineBin: HOUR,
    coverage: { counts: { since: T0, until: T0 + DAY }, samples: null, paths: { since: T0, until: T0, other: 0 }, summary: 'counts cover the full day' },
  })

  it('prints the verdict and its reason, counts it in the totals, and says from when it is judged', () => {
    const io = captureIo()
    printReport(report, 'test', io)
    const text = io.text()
    expect(text).toMatch(/^1 agent · 115 judged requests · 0 counted violations · 0 ignoring robots\.txt · 0 spoofed requests · 1 pending · 52 tool requests$/m)
    expect(text).toMatch(/^ {2}bytespider\s.+\spending: 115 disallowed requests in the host's first 24 h; judged from 2026-01-06 10:01 UTC if they go on$/m)
    expect(text).toMatch(/^ {2}python-requests\s.+\spending: 12 disallowed requests in the host's first 24 h; judged from 2026-01-06 10:01 UTC if they go on$/m)
    expect(text).toContain(
      "pending: disallowed requests only in a 24 h grace period (a host's first day, or a rule change), not held against it yet and never cleared. The first are judged from 2026-01-06 10:01 UTC (on example.com).",
    )
    expect(text).not.toContain('complies')
  })

  it('fits the terminal width from COLUMNS or the terminal, and never loses the verdict', () => {
    const wide = captureIo()
    printReport(report, 'test', wide)
    expect(Math.max(...wide.stdout.map((l) => l.length))).toBeGreaterThan(120)
    for (const [columns, io] of [
      [120, captureIo({ env: { COLUMNS: '120' } })],
      [60, captureIo({ env: { COLUMNS: '60' } })],
      [100, { ...captureIo(), columns: 100 }],
    ] as const) {
      printReport(report, 'test', io)
      const table = io.stdout.slice(io.stdout.findIndex((l) => l.includes('Agent')))
      for (const line of io.stdout) expect(line.length, line).toBeLessThanOrEqual(columns)
      // The verdict and its whole reason are still there, wrapped.
      const words = table.join(' ').replace(/\s+/g, ' ')
      expect(words).toContain("pending: 115 disallowed requests in the host's first 24 h; judged from 2026-01-06 10:01 UTC if they go on")
    }
  })
})

describe('report: the Verified column reads as the dashboard does', () => {
  const report = buildReport({
    filter: { since: T0, until: T0 + DAY },
    source: 'd1',
    agents: [
      { agentKey: 'googlebot', agentId: 'googlebot', kind: 'bot', operator: 'Google', category: 'Search Engine', declaredObeys: true },
      { agentKey: 'python-requests', agentId: null, kind: 'tool', operator: null, category: null, declaredObeys: null },
    ],
    counts: [row('googlebot', 'allowed', 30), row('python-requests', 'allowed', 40)],
    graceWindows: [],
    paths: [],
    rules: [],
    groupUses: [],
    texts: new Map(),
    timeline: [],
    timelineBin: HOUR,
    coverage: { counts: { since: T0, until: T0 + DAY }, samples: null, paths: { since: T0, until: T0, other: 0 }, summary: 'counts cover the full day' },
  })

  it('shows 0 % for an agent whose operator publishes IP ranges, and — for one that cannot be verified at all', () => {
    const io = captureIo()
    printReport(report, 'test', io)
    const lines = io.text().split('\n')
    // The cell under the Verified header of the table the agent is listed in.
    const verifiedOf = (agent: string) => {
      const at = lines.findIndex((l) => l.trimStart().startsWith(`${agent} `))
      const header = lines.slice(0, at).findLast((l) => l.includes('Verified') && l.includes('Agent')) ?? ''
      const end = header.indexOf('Verified') + 'Verified'.length
      return lines[at]?.slice(header.lastIndexOf('  ', end - 1), end).trim()
    }
    expect(verifiedOf('googlebot')).toBe('0 %')
    expect(verifiedOf('python-requests')).toBe('—')
  })
})

describe('report: the Crawl-delay verdict line in the text output', () => {
  const report = buildReport({
    filter: { since: T0, until: T0 + DAY },
    source: 'd1',
    agents: [
      { agentKey: 'bingbot', agentId: 'bingbot', kind: 'bot', operator: 'Microsoft', category: 'Search Engine Crawler', declaredObeys: true },
      { agentKey: 'gptbot', agentId: 'gptbot', kind: 'bot', operator: 'OpenAI', category: 'AI Crawler', declaredObeys: true },
    ],
    counts: [row('bingbot', 'allowed', 100), row('gptbot', 'allowed', 30)],
    crawlDelays: [{ agentKey: 'bingbot', delayMs: 10_000, requests: 100, early: 41, late: 0 }],
    graceWindows: [],
    paths: [],
    rules: [],
    groupUses: [],
    texts: new Map(),
    timeline: [],
    timelineBin: HOUR,
    coverage: { counts: { since: T0, until: T0 + DAY }, samples: null, paths: { since: T0, until: T0, other: 0 }, summary: 'counts cover the full day' },
  })

  it('prints it after the robots.txt verdict, for the agents whose group sets a delay only', () => {
    const io = captureIo()
    printReport(report, 'test', io)
    const lines = io.text().split('\n')
    expect(lines.find((l) => l.trimStart().startsWith('bingbot '))).toMatch(
      /: robots\.txt disallowed nothing for it, so there was nothing to ignore; ignores Crawl-delay \(41% of requests early\) \(10 s\)$/,
    )
    expect(lines.find((l) => l.trimStart().startsWith('gptbot '))).not.toContain('Crawl-delay')
  })
})

describe('report: what crawlers took and what their operators referred back', () => {
  const report = buildReport({
    filter: { since: T0, until: T0 + DAY },
    source: 'd1',
    agents: [
      { agentKey: 'gptbot', agentId: 'gptbot', kind: 'bot', operator: 'OpenAI', category: 'AI Crawler', declaredObeys: true },
      { agentKey: 'claudebot', agentId: 'claudebot', kind: 'bot', operator: 'Anthropic', category: 'AI Crawler', declaredObeys: true },
    ],
    counts: [
      { ...row('gptbot', 'allowed', 48_120), bytes: 3_100_000_000, pages: 48_120 },
      { ...row('claudebot', 'allowed', 40_000), bytes: 950_000, pages: 38_000 },
    ],
    referrals: [{ referrer: 'claude.ai', visits: 12 }],
    paths: [],
    rules: [],
    groupUses: [],
    texts: new Map(),
    timeline: [],
    timelineBin: HOUR,
    coverage: { counts: { since: T0, until: T0 + DAY }, samples: null, paths: { since: T0, until: T0, other: 0 }, summary: 'counts cover the full day' },
  })

  it('prints pages and bytes per crawler, and pages crawled, visits referred and the ratio per operator', () => {
    const io = captureIo()
    printReport(report, 'test', io)
    const text = io.text()
    expect(text).toMatch(/^gptbot: 48,120 requests, 48,120 pages, 3\.1 GB$/m)
    expect(text).toMatch(/^claudebot: 40,000 requests, 38,000 pages, 950 kB$/m)
    expect(text).toMatch(/^Anthropic: 38,000 pages crawled, 12 visits referred \(3,166:1\), 950 kB$/m)
    expect(text).toMatch(/^OpenAI: 48,120 pages crawled, 0 visits referred \(no referral\), 3\.1 GB$/m)
    expect(text).toContain('Apps often send no Referer')
  })
})
