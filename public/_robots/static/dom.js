// @ts-check
/**
 * DOM helpers for the dashboard. Every string from the report (agent names,
 * paths, User-Agent headers, rule patterns, hosts) is agent-controlled, so it
 * reaches the page only as a text node (`append(string)`, `textContent`):
 * markup in it is shown, never parsed. Nothing here uses innerHTML. el()
 * also shows invisible and bidi characters as escapes (visible()), so a
 * lookalike name such as `g\u200bptbot` reads `g\u{200B}ptbot`.
 */

/**
 * The dashboard's copy of src/core/visible.ts (a static asset cannot
 * import TypeScript); test/core/visible.test.ts holds the two to the same
 * output for every code point.
 */
const HIDDEN_CHARACTERS = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\p{Bidi_Control}\u2800]/gu

/**
 * `text` with every invisible, control or bidi character as `\u{HEX}`.
 *
 * @param {string} text
 * @returns {string}
 */
export function visible(text) {
  return String(text).replace(HIDDEN_CHARACTERS, (ch) => `\\u{${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase()}}`)
}

/**
 * `text` as nodes for a code view: visible runs as text, each invisible or
 * bidi character as a marked `\u{HEX}` escape, so a reader tells an escape
 * the file holds from one typed out in it.
 *
 * @param {string} text
 * @returns {Node[]}
 */
export function escapedNodes(text) {
  /** @type {Node[]} */
  const nodes = []
  let at = 0
  for (const match of String(text).matchAll(HIDDEN_CHARACTERS)) {
    const index = match.index ?? 0
    if (index > at) nodes.push(document.createTextNode(text.slice(at, index)))
    const mark = document.createElement('span')
    mark.className = 'esc'
    mark.title = 'An invisible or bidi character, shown as its code point'
    mark.textContent = visible(match[0])
    nodes.push(mark)
    at = index + match[0].length
  }
  if (at < text.length) nodes.push(document.createTextNode(text.slice(at)))
  return nodes
}

/** Attributes el() refuses: event handlers and URLs could run script, so callers set those deliberately. */
const UNSAFE_ATTRIBUTE = /^(on|href$|src$|srcdoc$|formaction$|style$)/i

/**
 * Creates an element with attributes and children; strings and numbers
 * become text nodes, null/undefined/false are skipped.
 *
 * @param {string} tag
 * @param {Record<string, string | number | boolean | null | undefined>} [attributes]
 * @param {...(Node | string | number | null | undefined | false)} children
 * @returns {HTMLElement}
 */
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag)
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue
    if (UNSAFE_ATTRIBUTE.test(name)) throw new Error(`el(): set ${name} explicitly, not through el()`)
    if (name === 'className') node.className = String(value)
    else node.setAttribute(name, value === true ? '' : visible(String(value)))
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue
    node.append(typeof child === 'number' ? String(child) : typeof child === 'string' ? visible(child) : child)
  }
  return node
}

/** Empties a node. */
export function clear(node) {
  node.replaceChildren()
}

const integer = new Intl.NumberFormat('en-US')

/** 12,345 */
export function formatCount(n) {
  return typeof n === 'number' ? integer.format(n) : '—'
}

/** 0.1234 → 12.3 %; a ratio of nothing is a dash, not 0 %. */
export function formatShare(part, whole) {
  if (!whole) return '—'
  const pct = (part / whole) * 100
  return `${pct < 10 && pct > 0 ? pct.toFixed(1) : Math.round(pct)} %`
}

/** 2026-01-05 10:00 (UTC, so every reader sees the same time as the CSV and the CLI), kept on one line. */
export function formatTime(ms) {
  if (typeof ms !== 'number') return '—'
  return new Date(ms).toISOString().slice(0, 16).replace('T', '\u00a0')
}

/** 2026-01-05 10:00:42: the drill-down tells requests in the same minute apart. */
export function formatSecond(ms) {
  if (typeof ms !== 'number') return '—'
  return new Date(ms).toISOString().slice(0, 19).replace('T', '\u00a0')
}

/** A time to the second for a table cell, on one line. */
export function secondCell(ms) {
  return el('span', { className: 'nowrap' }, formatSecond(ms))
}

/** A time for a table cell, never broken across lines. */
export function timeCell(ms) {
  return el('span', { className: 'nowrap' }, formatTime(ms))
}

/** The rule as it reads in robots.txt: `Disallow: /admin/`. */
export function formatRule(rule) {
  if (!rule) return '—'
  const directive = rule.type === 'allow' ? 'Allow' : 'Disallow'
  return `${directive}: ${rule.pattern === '' ? '(empty)' : rule.pattern}`
}

/** A short label with the full value in its tooltip (long paths and headers stay one line in a table). */
export function clipped(text, max = 80) {
  const value = String(text ?? '')
  if (value.length <= max) return el('span', {}, value)
  return el('span', { title: value }, `${value.slice(0, max - 1)}…`)
}
