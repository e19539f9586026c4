// @ts-check
/**
 * A line diff for the dashboard's history view: pure, no DOM, so plain Node
 * tests it (test/dashboard/line-diff.test.ts). The common head and tail are
 * cut first; what is left is compared by longest common subsequence, whose
 * table grows as the product of the two middles' lengths. Beyond MAX_CELLS
 * the diff is not computed and the caller says so: robots.txt may be 500 KiB
 * (RFC 9309 §2.5), and a browser tab must not stall on two unrelated ones.
 */

/** The most cells of the LCS table (changed lines before × after): 4 M, 8 MB of 16-bit counts. */
export const MAX_CELLS = 4_000_000

/**
 * A file's lines as the parser numbers them: RFC 9309 §2.2 ends a line with
 * CR, LF or CRLF. A final line break ends the last line; it opens no empty one.
 *
 * @param {string} text
 * @returns {string[]}
 */
export function splitLines(text) {
  if (text === '') return []
  const lines = text.split(/\r\n|\r|\n/)
  if (lines.at(-1) === '') lines.pop()
  return lines
}

/**
 * @typedef {{ op: ' ' | '-' | '+', text: string, before: number | null, after: number | null }} DiffLine
 * `before` and `after` are 1-based line numbers in each file (null where the line is not in it).
 */

/**
 * The lines of `before` and `after`, kept (' '), removed ('-') or added ('+'),
 * in order; null when the changed middles are too large to compare (MAX_CELLS).
 *
 * @example
 * lineDiff('User-agent: *\nDisallow: /a/\n', 'User-agent: *\nDisallow: /b/\n')
 * // → [{ op: ' ', text: 'User-agent: *', before: 1, after: 1 }, { op: '-', text: 'Disallow: /a/', before: 2, after: null },
 * //    { op: '+', text: 'Disallow: /b/', before: null, after: 2 }]
 *
 * @param {string} before
 * @param {string} after
 * @param {number} [maxCells]
 * @returns {DiffLine[] | null}
 */
export function lineDiff(before, after, maxCells = MAX_CELLS) {
  const a = splitLines(before)
  const b = splitLines(after)
  let head = 0
  while (head < a.length && head < b.length && a[head] === b[head]) head++
  let tail = 0
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++
  const n = a.length - head - tail
  const m = b.length - head - tail
  if (n * m > maxCells) return null
  /** @type {DiffLine[]} */
  const out = []
  for (let i = 0; i < head; i++) out.push({ op: ' ', text: /** @type {string} */ (a[i]), before: i + 1, after: i + 1 })
  // lcs[i * (m + 1) + j]: the longest common subsequence of the middles' suffixes from i and j.
  // Each count is at most min(n, m), under 2,000 whenever n × m fits MAX_CELLS, so 16 bits hold it.
  const width = m + 1
  const lcs = new Uint16Array((n + 1) * width)
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i * width + j] = a[head + i] === b[head + j]
        ? /** @type {number} */ (lcs[(i + 1) * width + j + 1]) + 1
        : Math.max(/** @type {number} */ (lcs[(i + 1) * width + j]), /** @type {number} */ (lcs[i * width + j + 1]))
    }
  }
  let i = 0
  let j = 0
  while (i < n || j < m) {
    const x = head + i
    const y = head + j
    if (i < n && j < m && a[x] === b[y]) {
      out.push({ op: ' ', text: /** @type {string} */ (a[x]), before: x + 1, after: y + 1 })
      i++
      j++
    } else if (i < n && (j === m || /** @type {number} */ (lcs[(i + 1) * width + j]) >= /** @type {number} */ (lcs[i * width + j + 1]))) {
      // Removals before additions, as in a unified diff.
      out.push({ op: '-', text: /** @type {string} */ (a[x]), before: x + 1, after: null })
      i++
    } else {
      out.push({ op: '+', text: /** @type {string} */ (b[y]), before: null, after: y + 1 })
      j++
    }
  }
  for (let k = 0; k < tail; k++) {
    const x = a.length - tail + k
    const y = b.length - tail + k
    out.push({ op: ' ', text: /** @type {string} */ (a[x]), before: x + 1, after: y + 1 })
  }
  return out
}
