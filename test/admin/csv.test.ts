// Unit tests of the CSV export (src/admin/csv.ts): RFC 4180 quoting and
// spreadsheet formula injection.
import { describe, expect, it } from 'vitest'
import { csvCell, toCsv } from '../../src/admin/csv.ts'
import { buildReport } from '../../src/admin/report.ts'
import type { ReportInput } from '../../src/admin/types.ts'
import { T0 } from '../support/report-fixtures.ts'

describe('csvCell', () => {
  it('quotes fields holding a comma, quote or line break, doubling inner quotes (RFC 4180 §2)', () => {
    expect(csvCell('plain')).toBe('plain')
    expect(csvCell('a,b')).toBe('"a,b"')
    expect(csvCell('say "hi"')).toBe('"say ""hi"""')
    expect(csvCell('two\nlines')).toBe('"two\nlines"')
    expect(csvCell('cr\rlf')).toBe('"cr\rlf"')
  })

  it('defuses cells a spreadsheet would read as a formula', () => {
    expect(csvCell('=HYPERLINK("http://evil.example","x")')).toBe(`"'=HYPERLINK(""http://evil.example"",""x"")"`)
    expect(csvCell('+1')).toBe("'+1")
    expect(csvCell('-2+3')).toBe("'-2+3")
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)")
    expect(csvCell('\t=1')).toBe("'\t=1")
    expect(csvCell('a=b')).toBe('a=b')
  })

  it('shows invisible and bidi characters as escapes, so a lookalike agent reads as one', () => {
    expect(csvCell('g\u200bptbot')).toBe('g\\u{200B}ptbot')
    expect(csvCell('evil\u202etobgpt')).toBe('evil\\u{202E}tobgpt')
    expect(csvCell('\u2066=1+1\u2069')).toBe('\\u{2066}=1+1\\u{2069}')
    // Tabs and line breaks stay: the quoting carries them.
    expect(csvCell('a\tb')).toBe('a\tb')
  })

  it('leaves numbers and booleans alone and writes null as empty', () => {
    expect(csvCell(42)).toBe('42')
    expect(csvCell(0.5)).toBe('0.5')
    expect(csvCell(true)).toBe('true')
    expect(csvCell(null)).toBe('')
  })
})

describe('toCsv', () => {
  const input: ReportInput = {
    filter: { since: T0, until: T0 + 1 },
    source: 'd1',
    agents: [
      { agentKey: '=cmd', agentId: null, operator: null, category: null, kind: 'bot', declaredObeys: false },
      { agentKey: 'curl', agentId: null, operator: null, category: null, kind: 'tool', declaredObeys: false },
    ],
    counts: [
      { agentKey: '=cmd', verification: 'unverified', cls: 'allowed', requests: 2, blocked: 0, sampled: 2, first: T0, last: T0 },
      { agentKey: '=cmd', verification: 'unverified', cls: 'neverFetched', requests: 1, blocked: 0, sampled: 1, first: T0, last: T0 },
      { agentKey: 'curl', verification: 'unverified', cls: 'allowed', requests: 1, blocked: 0, sampled: 1, first: T0, last: T0 },
      { agentKey: '=cmd', verification: 'unknown', cls: 'unknown', requests: 1, blocked: 0, sampled: 1, first: T0, last: T0 },
    ],
    paths: [{ cls: 'neverFetched', agentKey: '=cmd', host: 'example.com', path: '/a,b', requests: 1 }],
    rules: [],
    groupUses: [],
    texts: new Map(),
    timeline: [],
    timelineBin: 3_600_000,
    coverage: { counts: { since: T0, until: T0 }, samples: null, paths: { since: T0, until: T0, other: 0 }, summary: '' },
  }
  const report = buildReport(input)

  it('writes a header and one CRLF-terminated row per agent, tool and claim', () => {
    const lines = toCsv(report).split('\r\n')
    expect(lines).toHaveLength(5)
    expect(lines[0]).toMatch(/^section,agent,operator,category,verdict,reason,requests,/)
    expect(lines[0]).toMatch(
      /,new_host,unclassified,last_seen,pending_until,pending_host,crawl_delay_seconds,crawl_delay_requests,crawl_delay_early,crawl_delay_verdict,bytes,pages,referred,crawl_to_refer$/,
    )
    expect(lines[4]).toBe('')
    expect(lines[1]).toBe(
      'agent,\'=cmd,,,not enough data,"only 3 judged requests (20 needed), 1 disallowed request without fetching robots.txt",3,1,0,0,0,1,0,1,' +
        '2026-01-05T10:00:00.000Z,2026-01-05T10:00:00.000Z,0,,0,"/a,b",0,0,2026-01-05T10:00:00.000Z,,,,,,,0,0,,',
    )
    expect(lines[2]).toMatch(/^tool,curl,/)
    expect(lines[3]).toMatch(/^unchecked,'=cmd,,,claims that could not be checked \(not counted against the agent\),,1,1,/)
  })

  it("writes a pending agent's verdict, and from when and where its requests count", () => {
    const pending = buildReport({
      ...input,
      agents: [{ agentKey: 'bytespider', agentId: 'bytespider', operator: 'ByteDance', category: 'AI Crawler', kind: 'bot', declaredObeys: false }],
      counts: [{ agentKey: 'bytespider', verification: 'unverified', cls: 'newHost', requests: 115, blocked: 115, sampled: 115, first: T0, last: T0 }],
      paths: [],
      graceWindows: [{ agentKey: 'bytespider', host: 'example.com', cls: 'newHost', requests: 115, until: T0 + 86_400_000, seenSince: false }],
    })
    const [header, line] = toCsv(pending)
      .split('\r\n')
      .map((l) => l.split(','))
    const cell = (name: string) => line![header!.indexOf(name)]
    expect([cell('verdict'), cell('new_host'), cell('counted_violations')]).toEqual(['pending', '115', '0'])
    expect([cell('pending_until'), cell('pending_host')]).toEqual(['2026-01-06T10:00:00.000Z', 'example.com'])
  })

  it('appends bytes and pages per agent, and one row per operator with what it referred back', () => {
    const doc = buildReport({
      ...input,
      agents: [{ agentKey: 'claudebot', agentId: 'claudebot', operator: 'Anthropic', category: 'AI Crawler', kind: 'bot', declaredObeys: true }],
      counts: [{ agentKey: 'claudebot', verification: 'verified', cls: 'allowed', requests: 40, blocked: 0, sampled: 40, first: T0, last: T0, bytes: 123_456, pages: 38 }],
      paths: [],
      referrals: [
        { referrer: 'claude.ai', visits: 4 },
        { referrer: 'chatgpt.com', visits: 9 },
      ],
    })
    const [header, ...lines] = toCsv(doc)
      .split('\r\n')
      .map((l) => l.split(','))
    const row = (section: string, operator: string) => lines.find((l) => l[0] === section && l[2] === operator)!
    // From the end: the appended columns hold numbers, while the reason before them may hold quoted commas.
    const cell = (line: string[], name: string) => line.at(header!.indexOf(name) - header!.length)
    const agent = row('agent', 'Anthropic')
    expect([cell(agent, 'bytes'), cell(agent, 'pages'), cell(agent, 'referred')]).toEqual(['123456', '38', ''])
    const anthropic = row('operator', 'Anthropic')
    expect(anthropic).toHaveLength(header!.length)
    expect([anthropic[header!.indexOf('requests')], cell(anthropic, 'bytes'), cell(anthropic, 'pages'), cell(anthropic, 'referred'), cell(anthropic, 'crawl_to_refer')]).toEqual([
      '40',
      '123456',
      '38',
      '4',
      '9.5',
    ])
    // An operator that only referred: nothing crawled, so a ratio of 0.
    const openai = row('operator', 'OpenAI')
    expect([cell(openai, 'pages'), cell(openai, 'referred'), cell(openai, 'crawl_to_refer')]).toEqual(['0', '9', '0'])
  })
})
