/**
 * A line diff of two robots.txt files, for the CLI's `diff` and the
 * dashboard's history view. No imports: the dashboard serves this module as
 * JavaScript (public/_robots/static/line-diff.js, written from this file by
 * scripts/build-line-diff.mjs), so the two never differ.
 *
 * Lines end at CR, LF or CRLF (RFC 9309 §2.2: EOL). The common head and tail
 * are set aside first (a policy change touches a few lines), and the rest is
 * a longest common subsequence of lines, whose table grows as the product of
 * the two middles' lengths. Beyond MAX_CELLS cells `lineDiff` gives up (null:
 * robots.txt may be 500 KiB, RFC 9309 §2.5, and a browser tab must not stall
 * on two unrelated ones) and `diffLines` shows the middle as removed and
 * added whole (correct, not minimal).
 */

/** One line of the diff, with its number in each file (null where it is not in that file). */
export interface DiffLine {
  readonly kind: 'same' | 'removed' | 'added'
  readonly text: string
  readonly before: number | null
  readonly after: number | null
}

/** Cells of the LCS table at most (lines before × lines after, between the common head and tail). */
export const MAX_CELLS = 4_000_000

/** The lines of a file, without their line ends; a final line end starts no line. */
export function splitLines(text: string): string[] {
  if (text === '') return []
  const lines = text.split(/\r\n|\r|\n/)
  if (lines[lines.length - 1] === '') lines.pop()
  return lines
}

/**
 * Every line of both files in order: unchanged, removed from `before` or
 * added in `after`, removals before additions where lines were replaced;
 * null when the changed middles are larger than `maxCells` cells.
 *
 * @example
 * lineDiff('User-agent: *\nDisallow: /a/\n', 'User-agent: *\nDisallow: /b/\n')?.map((l) => l.kind) // ['same', 'removed', 'added']
 */
export function lineDiff(before: string, after: string, maxCells: number = MAX_CELLS): DiffLine[] | null {
  return diff(before, after, maxCells, false)
}

/**
 * As `lineDiff`, never null: beyond MAX_CELLS the changed middle is shown as
 * removed and added whole.
 *
 * @example
 * diffLines('User-agent: *\nDisallow: /a/\n', 'User-agent: *\nDisallow: /b/\n').map((l) => l.kind) // ['same', 'removed', 'added']
 */
export function diffLines(before: string, after: string): DiffLine[] {
  return diff(before, after, MAX_CELLS, true) ?? []
}

function diff(before: string, after: string, maxCells: number, whole: boolean): DiffLine[] | null {
  const a = splitLines(before)
  const b = splitLines(after)
  let head = 0
  while (head < a.length && head < b.length && a[head] === b[head]) head++
  let tail = 0
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++
  const n = a.length - head - tail
  const m = b.length - head - tail
  const tooLarge = n * m > maxCells
  if (tooLarge && !whole) return null
  const out: DiffLine[] = []
  const same = (i: number, j: number) => out.push({ kind: 'same', text: a[i]!, before: i + 1, after: j + 1 })
  const removed = (i: number) => out.push({ kind: 'removed', text: a[i]!, before: i + 1, after: null })
  const added = (j: number) => out.push({ kind: 'added', text: b[j]!, before: null, after: j + 1 })
  for (let i = 0; i < head; i++) same(i, i)
  if (tooLarge || n === 0 || m === 0) {
    for (let i = 0; i < n; i++) removed(head + i)
    for (let j = 0; j < m; j++) added(head + j)
  } else {
    // lcs[i * (m + 1) + j]: the longest common subsequence of a's middle from i and b's from j.
    const lcs = new Uint32Array((n + 1) * (m + 1))
    for (let i = n - 1; i >= 0; i--) {
      for (let j = m - 1; j >= 0; j--) {
        lcs[i * (m + 1) + j] = a[head + i] === b[head + j] ? lcs[(i + 1) * (m + 1) + j + 1]! + 1 : Math.max(lcs[(i + 1) * (m + 1) + j]!, lcs[i * (m + 1) + j + 1]!)
      }
    }
    let i = 0
    let j = 0
    while (i < n || j < m) {
      if (i < n && j < m && a[head + i] === b[head + j]) same(head + i++, head + j++)
      else if (j >= m || (i < n && lcs[(i + 1) * (m + 1) + j]! >= lcs[i * (m + 1) + j + 1]!)) removed(head + i++)
      else added(head + j++)
    }
  }
  for (let k = tail; k > 0; k--) same(a.length - k, b.length - k)
  return out
}

/**
 * The changed lines with `context` unchanged lines around them, in hunks
 * (runs separated by more than twice the context). Empty when the files
 * have the same lines.
 */
export function diffHunks(lines: readonly DiffLine[], context = 3): DiffLine[][] {
  const keep = new Uint8Array(lines.length)
  lines.forEach((line, i) => {
    if (line.kind === 'same') return
    for (let k = Math.max(0, i - context); k <= Math.min(lines.length - 1, i + context); k++) keep[k] = 1
  })
  const hunks: DiffLine[][] = []
  let current: DiffLine[] | null = null
  lines.forEach((line, i) => {
    if (!keep[i]) {
      current = null
      return
    }
    if (current === null) hunks.push((current = []))
    current.push(line)
  })
  return hunks
}
