import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { diffHunks, diffLines, MAX_CELLS, splitLines, type DiffLine } from '../../src/core/line-diff.ts'

// The line diff the CLI's `diff` and the dashboard's history view draw:
// every line of both files, in order, each numbered in the
// file it is in.

const kinds = (lines: readonly DiffLine[]) => lines.map((l) => `${l.kind === 'same' ? ' ' : l.kind === 'removed' ? '-' : '+'}${l.text}`)
/** The file each side of a diff stands for. */
const side = (lines: readonly DiffLine[], which: 'before' | 'after') => lines.filter((l) => l[which] !== null)

describe('splitLines', () => {
  it('ends lines at CR, LF or CRLF (RFC 9309 §2.2), a final line end starting no line', () => {
    expect(splitLines('a\r\nb\rc\nd\n')).toEqual(['a', 'b', 'c', 'd'])
    expect(splitLines('a\n\nb')).toEqual(['a', '', 'b'])
    expect(splitLines('')).toEqual([])
  })
})

describe('diffLines', () => {
  it('marks removed and added lines, and numbers each in its own file', () => {
    const lines = diffLines('User-agent: *\nDisallow: /a/\nAllow: /\n', 'User-agent: *\nDisallow: /b/\nAllow: /\nSitemap: https://x/s.xml\n')
    expect(kinds(lines)).toEqual([' User-agent: *', '-Disallow: /a/', '+Disallow: /b/', ' Allow: /', '+Sitemap: https://x/s.xml'])
    expect(lines.map((l) => [l.before, l.after])).toEqual([
      [1, 1],
      [2, null],
      [null, 2],
      [3, 3],
      [null, 4],
    ])
  })

  it('finds the lines kept between changes, not just the common head and tail', () => {
    expect(kinds(diffLines('a\nb\nc\nd\ne\n', 'x\nb\ny\nd\nz\n'))).toEqual(['-a', '+x', ' b', '-c', '+y', ' d', '-e', '+z'])
    expect(kinds(diffLines('a\nb\n', 'a\nb\n'))).toEqual([' a', ' b'])
    expect(kinds(diffLines('', 'a\n'))).toEqual(['+a'])
  })

  it('keeps both files whole and in order, with a longest common subsequence of lines (property)', () => {
    const file = fc.array(fc.constantFrom('User-agent: *', 'Allow: /', 'Disallow: /a/', 'Disallow: /b/', '', '# c'), { maxLength: 30 }).map((l) => l.map((x) => `${x}\n`).join(''))
    fc.assert(
      fc.property(file, file, (a, b) => {
        const lines = diffLines(a, b)
        expect(side(lines, 'before').map((l) => l.text)).toEqual(splitLines(a))
        expect(side(lines, 'after').map((l) => l.text)).toEqual(splitLines(b))
        expect(side(lines, 'before').map((l) => l.before)).toEqual(splitLines(a).map((_, i) => i + 1))
        // Minimal: as many lines kept as the longest common subsequence has.
        const x = splitLines(a)
        const y = splitLines(b)
        const t = Array.from({ length: x.length + 1 }, () => new Array<number>(y.length + 1).fill(0))
        for (let i = 1; i <= x.length; i++) for (let j = 1; j <= y.length; j++) t[i]![j] = x[i - 1] === y[j - 1] ? t[i - 1]![j - 1]! + 1 : Math.max(t[i - 1]![j]!, t[i]![j - 1]!)
        expect(lines.filter((l) => l.kind === 'same')).toHaveLength(t[x.length]![y.length]!)
      }),
      { numRuns: 300 },
    )
  })

  it('stays bounded on huge files: beyond MAX_CELLS the changed middle is removed and added whole', () => {
    const n = Math.ceil(Math.sqrt(MAX_CELLS)) + 10
    const a = Array.from({ length: n }, (_, i) => `Disallow: /a${i}/`).join('\n')
    const b = Array.from({ length: n }, (_, i) => `Disallow: /b${i}/`).join('\n')
    const lines = diffLines(`User-agent: *\n${a}\nAllow: /\n`, `User-agent: *\n${b}\nAllow: /\n`)
    expect(lines[0]).toEqual({ kind: 'same', text: 'User-agent: *', before: 1, after: 1 })
    expect(lines.filter((l) => l.kind === 'removed')).toHaveLength(n)
    expect(lines.filter((l) => l.kind === 'added')).toHaveLength(n)
    expect(lines.at(-1)).toEqual({ kind: 'same', text: 'Allow: /', before: n + 2, after: n + 2 })
  })
})

describe('diffHunks', () => {
  it('keeps the changed lines with three lines of context, in separate hunks when far apart', () => {
    const before = Array.from({ length: 20 }, (_, i) => `l${i}`).join('\n')
    const after = before.replace('l2', 'L2').replace('l17', 'L17')
    const hunks = diffHunks(diffLines(before, after))
    expect(hunks.map(kinds)).toEqual([
      [' l0', ' l1', '-l2', '+L2', ' l3', ' l4', ' l5'],
      [' l14', ' l15', ' l16', '-l17', '+L17', ' l18', ' l19'],
    ])
    expect(diffHunks(diffLines('a\n', 'a\n'))).toEqual([])
  })
})
