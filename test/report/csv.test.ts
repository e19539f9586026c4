// Unit tests of the CSV export (src/report/csv.ts): RFC 4180 quoting and
// spreadsheet formula injection.
import { describe, expect, it } from 'vitest'
import { csvCell, toCsv } from '../../src/report/csv.ts'
import { buildReport } from '../../src/report/judgment.ts'
import { T0 } from './fixtures.ts'

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
  const report = buildReport({
    filter: { since: T0, until: T0 + 1 },
    agents: [{
      agentKey: '=cmd', spoofed: false, agentId: null, operator: null, category: null, kind: 'bot', declaredObeys: false,
      requests: 3, disallowed: 1, blocked: 0, verified: 0, robotsFetches: 0, lastRobotsFetch: null,
    }],
    violations: [{
      agentKey: '=cmd', spoofed: false, host: 'example.com', robotsVersion: 'v1', tokens: ['=cmd'], path: '/a,b', rule: null,
      hour: T0, count: 1, first: T0, last: T0, inGraceWindow: false, readVersion: false, readHost: false,
    }],
    versions: [], texts: new Map(), groupUses: [], hourly: [], truncated: false,
  })

  it('writes a header and one CRLF-terminated row per agent', () => {
    const lines = toCsv(report).split('\r\n')
    expect(lines).toHaveLength(3)
    expect(lines[0]).toMatch(/^section,agent,operator,category,verdict,reason,requests,/)
    expect(lines[2]).toBe('')
    expect(lines[1]).toBe(
      "agent,'=cmd,,,not enough data,only 3 judged requests (20 needed),3,1,0,0,0,1,0,1," +
        '2026-01-05T10:00:00.000Z,2026-01-05T10:00:00.000Z,0,,0,"/a,b"',
    )
  })
})
