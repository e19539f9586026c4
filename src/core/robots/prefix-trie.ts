/** Children beyond this many get a table indexed by character code (ASCII only). */
const TABLE_FANOUT = 6

class Node {
  /** Index of the literal that ends here, or -1. */
  value = -1
  /** Index of the exact literal (see PrefixTrie) that ends here, or -1. */
  exact = -1
  /** The first character code of each child's label, in the order of `kids`; null while there are none (most nodes are leaves). */
  codes: number[] | null = null
  kids: Node[] | null = null
  /** For a node with many children: the child by the ASCII code its label starts with. */
  table: (Node | undefined)[] | null = null

  /** `label`: the characters on the edge from the parent to this node. */
  constructor(public label: string) {}

  child(code: number): Node | undefined {
    if (this.table !== null && code < 128) return this.table[code]
    const codes = this.codes
    if (codes === null) return undefined
    for (let k = 0; k < codes.length; k++) if (codes[k] === code) return this.kids![k]
    return undefined
  }

  /** Sets the child whose label starts with `code`. */
  set(code: number, node: Node): void {
    if (this.codes === null) {
      this.codes = [code]
      this.kids = [node]
      return
    }
    const k = this.codes.indexOf(code)
    if (k < 0) {
      this.codes.push(code)
      this.kids!.push(node)
    } else {
      this.kids![k] = node
    }
  }
}

/**
 * A set of literal strings that answers "which of them are prefixes of s?"
 * in one walk down a radix tree (edges labelled with runs of characters),
 * without visiting the literals that are not: the cost of a lookup is the
 * number of branch points along `s` (each a short scan or a table look-up)
 * plus one `startsWith` per edge, whatever the number of literals. Building
 * is linear in their total length.
 *
 * Literals are identified by their index in the array given. A second
 * array, of exact literals, shares the tree: one of them matches when a
 * walk ends on it at the very end of `s`.
 */
export class PrefixTrie {
  readonly #root = new Node('')
  readonly size: number
  /**
   * After `longest`: the index of the exact literal equal to the whole of
   * `s[start, end)`, or -1. Read right after the call (checks are synchronous).
   */
  exactMatch = -1

  constructor(literals: readonly string[], exact: readonly string[] = []) {
    for (let index = 0; index < literals.length; index++) this.#insert(literals[index]!, index, false)
    for (let index = 0; index < exact.length; index++) this.#insert(exact[index]!, index, true)
    this.size = literals.length
    finish(this.#root)
  }

  #insert(literal: string, index: number, exact: boolean): void {
    let node = this.#root
    let pos = 0
    for (;;) {
      if (pos === literal.length) {
        if (exact) {
          if (node.exact < 0) node.exact = index
        } else if (node.value < 0) node.value = index
        return
      }
      const code = literal.charCodeAt(pos)
      const child = node.child(code)
      if (child === undefined) {
        const leaf = new Node(literal.slice(pos))
        if (exact) leaf.exact = index
        else leaf.value = index
        node.set(code, leaf)
        return
      }
      const label = child.label
      let common = 1
      while (common < label.length && pos + common < literal.length && label.charCodeAt(common) === literal.charCodeAt(pos + common)) common++
      if (common < label.length) {
        // Split the edge where the literal leaves it.
        const middle = new Node(label.slice(0, common))
        child.label = label.slice(common)
        middle.set(child.label.charCodeAt(0), child)
        node.set(code, middle)
        node = middle
      } else {
        node = child
      }
      pos += common
    }
  }

  /** Index of the longest literal that is a prefix of `s[start, end)`, or -1. */
  longest(s: string, start = 0, end = s.length): number {
    let node = this.#root
    let found = node.value
    let pos = start
    while (pos < end) {
      const child = node.child(s.charCodeAt(pos))
      if (child === undefined) break
      const label = child.label
      if (pos + label.length > end || !s.startsWith(label, pos)) break
      pos += label.length
      node = child
      if (node.value >= 0) found = node.value
    }
    this.exactMatch = pos === end ? node.exact : -1
    return found
  }

  /** Calls `visit` with the index of every literal that is a prefix of `s`, shortest first. */
  prefixes(s: string, visit: (index: number) => void): void {
    let node = this.#root
    if (node.value >= 0) visit(node.value)
    let pos = 0
    while (pos < s.length) {
      const child = node.child(s.charCodeAt(pos))
      if (child === undefined || !s.startsWith(child.label, pos)) return
      pos += child.label.length
      node = child
      if (node.value >= 0) visit(node.value)
    }
  }
}

/** Gives every node with many children, all ASCII, its look-up table. Iterative: a tree may be deep. */
function finish(root: Node): void {
  const stack = [root]
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    const { codes, kids } = node
    if (codes === null || kids === null) continue
    if (kids.length > TABLE_FANOUT && codes.every((code) => code < 128)) {
      const table: (Node | undefined)[] = new Array<Node | undefined>(128).fill(undefined)
      for (let k = 0; k < kids.length; k++) table[codes[k]!] = kids[k]
      node.table = table
    }
    for (const kid of kids) stack.push(kid)
  }
}
