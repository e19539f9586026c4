// Unit tests of the dashboard's line diff (public/_robots/static/line-diff.js,
// written from src/core/line-diff.ts by scripts/build-line-diff.mjs),
// which the history view draws between a robots.txt version and the one before.
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'

interface DiffLine {
  kind: 'same' | 'removed' | 'added'
  text: string
  before: number | null
  after: number | null
}
const OP = { same: ' ', removed: '-', added: '+' } as const
/** The dashboard's module, loaded by path: plain JavaScript with no type declarations. */
const diff = (await import(pathToFileURL(resolve('public/_robots/static/line-diff.js')).href)) as {
  MAX_CELLS: number
  splitLines(text: string): string[]
  lineDiff(before: string, after: string, maxCells?: number): DiffLine[] | null
}

const ops = (lines: DiffLine[] | null) => lines?.map((l) => `${OP[l.kind]}${l.text}`)

describe('splitLines', () => {
  // RFC 9309 §2.2: a line ends with CR, LF or CRLF; the parser numbers lines the same way.
  it('ends lines at CR, LF and CRLF, and a final break opens no empty line', () => {
    expect(diff.splitLines('a\r\nb\rc\nd\n')).toEqual(['a', 'b', 'c', 'd'])
    expect(diff.splitLines('a\n\nb')).toEqual(['a', '', 'b'])
    expect(diff.splitLines('')).toEqual([])
    expect(diff.splitLines('\n')).toEqual([''])
  })

  it('keeps other separators inside a line (U+2028, U+0085, form feed), for the view to escape', () => {
    expect(diff.splitLines('a\u2028b\u0085c\fd')).toEqual(['a\u2028b\u0085c\fd'])
  })
})

describe('lineDiff', () => {
  it("shows a changed rule as a removal then an addition, with both files' line numbers", () => {
    expect(diff.lineDiff('User-agent: *\nDisallow: /a/\nAllow: /\n', 'User-agent: *\nDisallow: /b/\nAllow: /\n')).toEqual([
      { kind: 'same', text: 'User-agent: *', before: 1, after: 1 },
      { kind: 'removed', text: 'Disallow: /a/', before: 2, after: null },
      { kind: 'added', text: 'Disallow: /b/', before: null, after: 2 },
      { kind: 'same', text: 'Allow: /', before: 3, after: 3 },
    ])
  })

  it('finds lines inserted between kept ones, and a first version is all additions', () => {
    expect(ops(diff.lineDiff('a\nc\ne\n', 'a\nb\nc\nd\ne\n'))).toEqual([' a', '+b', ' c', '+d', ' e'])
    expect(ops(diff.lineDiff('', 'a\nb\n'))).toEqual(['+a', '+b'])
    expect(ops(diff.lineDiff('a\nb\n', ''))).toEqual(['-a', '-b'])
  })

  it('treats a change of line endings alone as no change', () => {
    expect(diff.lineDiff('a\r\nb\r\n', 'a\nb\n')?.every((l) => l.kind === 'same')).toBe(true)
  })

  it('refuses, with null, middles larger than its bound', () => {
    const before = Array.from({ length: 3000 }, (_, i) => `Disallow: /a${i}`).join('\n')
    const after = Array.from({ length: 3000 }, (_, i) => `Disallow: /b${i}`).join('\n')
    expect(diff.lineDiff(before, after)).toBeNull()
    // The same files with a shared head and tail only: cut before the bound applies.
    const same = `${before}\nAllow: /x\n${before}`
    expect(diff.lineDiff(same, `${before}\nAllow: /y\n${before}`)?.filter((l) => l.kind !== 'same').length).toBe(2)
    expect(diff.lineDiff('a\nb\n', 'c\nd\n', 3)).toBeNull()
  })

  it('rebuilds both files from its output, with as few changed lines as a longest common subsequence allows', () => {
    const line = fc.constantFrom('User-agent: *', 'Disallow: /a/', 'Allow: /', '# note', '', 'Disallow: /b/')
    fc.assert(
      fc.property(fc.array(line, { maxLength: 30 }), fc.array(line, { maxLength: 30 }), (a, b) => {
        const before = diff.splitLines(a.join('\n'))
        const after = diff.splitLines(b.join('\n'))
        const out = diff.lineDiff(a.join('\n'), b.join('\n'))!
        expect(out.filter((l) => l.kind !== 'added').map((l) => l.text)).toEqual(before)
        expect(out.filter((l) => l.kind !== 'removed').map((l) => l.text)).toEqual(after)
        expect(out.filter((l) => l.kind !== 'same').length).toBe(before.length + after.length - 2 * lcsLength(before, after))
        for (const l of out) {
          if (l.before !== null) expect(before[l.before - 1]).toBe(l.text)
          if (l.after !== null) expect(after[l.after - 1]).toBe(l.text)
        }
      }),
    )
  })
})

/** A plain quadratic LCS, the reference the diff's count of changed lines is held to. */
function lcsLength(a: readonly string[], b: readonly string[]): number {
  const table = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0))
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      table[i]![j] = a[i] === b[j] ? table[i + 1]![j + 1]! + 1 : Math.max(table[i + 1]![j]!, table[i]![j + 1]!)
    }
  }
  return table[0]![0]!
}
