// @ts-check
/**
 * The drill-down: one agent's stored requests (or only those behind its
 * counted violations), newest first, a page at a time in a panel of bounded
 * height, so opening it never pushes the rest of the page down. Pages are
 * fetched with the API's `before` cursor and kept, so "Newer" needs no request.
 */
import { clear, el, formatCount, visible } from './dom.js'
import { sortableTable } from './table.js'
import { eventColumns } from './views.js'

/** Requests per page. */
export const PAGE = 15

/**
 * @param {{ api: string, host: string, getJson: (url: string) => Promise<any> }} options
 */
export function drillDown({ api, host, getJson }) {
  const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id))
  const section = $('drill')
  const table = /** @type {HTMLTableElement} */ ($('drill-table'))
  const older = /** @type {HTMLButtonElement} */ ($('drill-more'))
  const newer = /** @type {HTMLButtonElement} */ (el('button', { type: 'button', id: 'drill-newer', className: 'pager' }, '← Newer'))
  const where = el('span', { id: 'drill-page', className: 'muted', role: 'status' })
  const close = el('button', { type: 'button', id: 'drill-close', className: 'pager', 'aria-label': 'Close the requests' }, 'Close')
  older.textContent = 'Older →'
  older.className = 'pager'
  older.hidden = false
  table.parentElement?.classList.add('panel')
  table.parentElement?.after(el('nav', { className: 'pager-bar', 'aria-label': 'Pages of requests' }, newer, where, older, close))
  const events = sortableTable(table, eventColumns, { empty: 'No stored requests for this agent.' })

  const state = { agent: '', violations: false, index: 0, pages: /** @type {{ rows: any[], next: number | null }[]} */ ([]) }

  function show() {
    const page = state.pages[state.index]
    events.render(page?.rows ?? [])
    const first = state.index * PAGE
    where.textContent = page && page.rows.length > 0 ? `Requests ${formatCount(first + 1)}–${formatCount(first + page.rows.length)}, newest first` : ''
    newer.disabled = state.index === 0
    older.disabled = !page || (page.next === null && state.index === state.pages.length - 1)
  }

  /** Fetches the page after the last one kept. */
  async function fetchPage(before) {
    const agent = state.agent
    const q = new URLSearchParams({ limit: String(PAGE) })
    if (before !== undefined) q.set('before', String(before))
    if (host) q.set('host', host)
    if (state.violations) q.set('violations', '1')
    try {
      const page = await getJson(`${api}/agents/${encodeURIComponent(agent)}/requests?${q}`)
      if (state.agent !== agent) return
      state.pages.push({ rows: page.events, next: page.next })
      state.index = state.pages.length - 1
      show()
    } catch (error) {
      clear(table)
      table.append(el('caption', { className: 'bad' }, `The requests could not be loaded: ${error instanceof Error ? error.message : String(error)}`))
    }
  }

  newer.addEventListener('click', () => {
    if (state.index > 0) state.index--
    show()
  })
  older.addEventListener('click', () => {
    if (state.index < state.pages.length - 1) {
      state.index++
      show()
      return
    }
    const next = state.pages[state.index]?.next
    if (next !== null && next !== undefined) void fetchPage(next)
  })
  close.addEventListener('click', () => {
    section.hidden = true
    state.agent = ''
  })

  /** Opens the panel on an agent's requests, from its newest. */
  function open(agentKey, violations) {
    Object.assign(state, { agent: agentKey, violations, index: 0, pages: [] })
    section.hidden = false
    $('drill-title').textContent = visible(`${violations ? 'Requests behind the counted violations' : 'Recent requests'} · ${agentKey}`)
    show()
    section.scrollIntoView({ behavior: 'smooth', block: 'nearest' })
    void fetchPage(undefined)
  }

  return { open }
}
