// @ts-check
/**
 * A sortable data table: click (or press Enter on) a header to sort by that
 * column, again to reverse. Cells are built with el(), so they hold text
 * nodes only. Rows may be clickable (the agents table opens a drill-down).
 */
import { clear, el } from './dom.js'

/**
 * @typedef {object} Column
 * @property {string} label
 * @property {(row: any) => string | number | null} value  what the column sorts by
 * @property {(row: any) => Node | string} [cell]  how the cell reads (default: the value)
 * @property {boolean} [numeric]  right-aligned, sorted as numbers, largest first
 * @property {string} [title]  a header tooltip explaining the column
 * @property {string} [className]  a class on the column's cells, for the stylesheet
 */

/**
 * @typedef {object} TableOptions
 * @property {string} [empty]  the text when there are no rows
 * @property {(row: any) => void} [onRowClick]
 * @property {(row: any) => string} [rowLabel]  an accessible name for a clickable row
 */

function compare(a, b) {
  if (a === b) return 0
  if (a === null || a === undefined) return 1
  if (b === null || b === undefined) return -1
  if (typeof a === 'number' && typeof b === 'number') return a - b
  return String(a).localeCompare(String(b), 'en', { sensitivity: 'base' })
}

/**
 * Renders `rows` into `table` and keeps the chosen sort across re-renders.
 *
 * @param {HTMLTableElement} table
 * @param {Column[]} columns
 */
export function sortableTable(table, columns, /** @type {TableOptions} */ options = {}) {
  /** @type {{ index: number, descending: boolean } | null} */
  let sort = null
  /** @type {any[]} */
  let rows = []

  function header() {
    const cells = columns.map((column, index) => {
      const active = sort?.index === index
      const button = el(
        'button',
        { type: 'button', className: 'sort', title: column.title },
        column.label,
        el('span', { className: 'arrow', 'aria-hidden': 'true' }, active ? (sort?.descending ? '▼' : '▲') : ''),
      )
      button.addEventListener('click', () => {
        const descending = active ? !sort?.descending : Boolean(column.numeric)
        sort = { index, descending }
        render(rows)
      })
      return el('th', { scope: 'col', className: column.numeric ? 'num' : undefined, 'aria-sort': active ? (sort?.descending ? 'descending' : 'ascending') : undefined }, button)
    })
    return el('thead', {}, el('tr', {}, ...cells))
  }

  function ordered() {
    if (sort === null) return rows
    const { index, descending } = sort
    const column = columns[index]
    if (!column) return rows
    const sorted = [...rows].sort((a, b) => compare(column.value(a), column.value(b)))
    return descending ? sorted.reverse() : sorted
  }

  function body() {
    const tbody = el('tbody')
    if (rows.length === 0) {
      tbody.append(el('tr', {}, el('td', { colspan: columns.length, className: 'empty' }, options.empty ?? 'Nothing in this range.')))
      return tbody
    }
    for (const row of ordered()) {
      // data-label names the column where a narrow screen stacks the cells (dashboard.css).
      const cell = (c) => el('td', { className: [c.numeric ? 'num' : '', c.className ?? ''].join(' ').trim() || undefined, 'data-label': c.label }, c.cell ? c.cell(row) : String(c.value(row) ?? '—'))
      const tr = el('tr', {}, ...columns.map(cell))
      const onRowClick = options.onRowClick
      if (onRowClick) {
        tr.className = 'clickable'
        tr.tabIndex = 0
        tr.setAttribute('aria-label', options.rowLabel?.(row) ?? 'Show details')
        tr.addEventListener('click', () => onRowClick(row))
        tr.addEventListener('keydown', (event) => {
          if (event.key === 'Enter' || event.key === ' ') {
            event.preventDefault()
            onRowClick(row)
          }
        })
      }
      tbody.append(tr)
    }
    return tbody
  }

  /** @param {any[]} next */
  function render(next) {
    rows = next
    clear(table)
    table.append(header(), body())
  }

  return { render }
}
