/**
 * A set of literal strings that answers "which of them are prefixes of s?"
 * without visiting the others: a sorted array and, for each literal, the
 * longest other literal that is a prefix of it (its parent).
 *
 * Every literal that is a prefix of `s` is the greatest literal not above
 * `s`, or one of its ancestors: any string between a prefix of `s` and `s`
 * itself (in code-unit order) starts with that prefix. So a binary search,
 * then a walk up the parents until one is a prefix, finds the longest; all
 * its ancestors are prefixes of `s` too, longest first.
 *
 * Cost of a lookup: O(log n) comparisons plus the depth of the chain, which
 * is at most the number of literals (a file of `/a`, `/aa`, `/aaa`, ...);
 * building: one sort, then linear.
 */
export class PrefixIndex {
  /** The literals, sorted by UTF-16 code units (what `<` compares). */
  readonly literals: readonly string[]
  /** Index of the longest other literal that is a prefix of each, or -1. */
  readonly parents: Int32Array

  /** `literals` need not be sorted; duplicates are kept once. */
  constructor(literals: Iterable<string>) {
    const sorted = [...new Set(literals)].sort()
    const parents = new Int32Array(sorted.length)
    // The stack holds the chain of prefixes of the literal just placed; in
    // sorted order every prefix of the next literal is on it.
    const stack: number[] = []
    for (let i = 0; i < sorted.length; i++) {
      const literal = sorted[i]!
      while (stack.length > 0 && !literal.startsWith(sorted[stack[stack.length - 1]!]!)) stack.pop()
      parents[i] = stack.length > 0 ? stack[stack.length - 1]! : -1
      stack.push(i)
    }
    this.literals = sorted
    this.parents = parents
  }

  get size(): number {
    return this.literals.length
  }

  /** Index of the longest literal that is a prefix of `s`, or -1. Walk `parents` for the shorter ones. */
  longest(s: string): number {
    const literals = this.literals
    let lo = 0
    let hi = literals.length - 1
    let i = -1
    while (lo <= hi) {
      const mid = (lo + hi) >> 1
      if (literals[mid]! <= s) {
        i = mid
        lo = mid + 1
      } else {
        hi = mid - 1
      }
    }
    while (i >= 0 && !s.startsWith(literals[i]!)) i = this.parents[i]!
    return i
  }

  /** Index of `literal` itself, or -1. */
  indexOf(literal: string): number {
    const i = this.longest(literal)
    return i >= 0 && this.literals[i] === literal ? i : -1
  }
}
