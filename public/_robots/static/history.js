// @ts-check
/**
 * The history view: each host's robots.txt versions from
 * /api/history, when each was first served and by which deployment, and, for
 * the version selected, its text with line numbers and a line diff against
 * the version before it. robots.txt is anyone's text (a host's, an earlier
 * deploy's), so every line reaches the page as text nodes, its invisible and
 * bidi characters as marked escapes (escapedNodes).
 */
import { clear, el, escapedNodes, formatCount, formatSecond, formatTime, secondCell } from './dom.js'
import { lineDiff, splitLines } from './line-diff.js'
import { sortableTable } from './table.js'

/** Lines of a version drawn at once; a larger file shows this many around the line asked for. */
const MAX_SHOWN_LINES = 5000
/** Unchanged lines kept around each change in the diff. */
const CONTEXT = 3
/** Diff lines drawn at most (changes and their context). */
const MAX_DIFF_LINES = 2000

/** A link to a version's text (and a line in it): #robots-txt/<host>/<version>[/<line>]. */
export function versionHref(host, version, line) {
  return `#robots-txt/${encodeURIComponent(host)}/${encodeURIComponent(version)}${line ? `/${line}` : ''}`
}

/** What a history link names, or null for any other fragment. */
export function parseVersionHref(hash) {
  const m = /^#robots-txt\/([^/]+)\/([^/]+)(?:\/(\d{1,7}))?$/.exec(hash)
  if (!m) return null
  try {
    return { host: decodeURIComponent(m[1] ?? ''), version: decodeURIComponent(m[2] ?? ''), line: m[3] ? Number(m[3]) : null }
  } catch {
    return null
  }
}

/** An anchor to a version (and line): the history view opens it. */
export function versionLink(host, version, line, text) {
  const a = /** @type {HTMLAnchorElement} */ (el('a', { className: 'link mono', title: `Read ${line ? `line ${line} of ` : ''}this version of ${host}'s robots.txt` }, text))
  a.href = versionHref(host, version, line)
  // Following the link the address already shows changes no fragment: open it again all the same.
  a.addEventListener('click', () => {
    if (location.hash === a.hash) window.dispatchEvent(new HashChangeEvent('hashchange'))
  })
  return a
}

/** Which deployment first served a version, as short as it can be read. */
function deployment(v) {
  if (!v.deployment) return el('span', { className: 'muted', title: 'Not recorded: the Worker had no version metadata binding (CF_VERSION_METADATA) when it first served this version' }, '—')
  const { id, tag } = v.deployment
  return el('span', { className: 'mono', title: `Worker version ${id}${tag ? `, tag ${tag}` : ''}` }, tag || id.slice(0, 8))
}

function rulesState(v, index) {
  if (v.rulesChanged === null) return el('span', { className: 'muted', title: 'Not compared: older versions beyond what one answer reads' }, '—')
  // The oldest listed is the host's first, unless /api/history cut older ones (then its rules were not compared).
  if (index === 0) return v.rulesChanged ? el('span', { className: 'badge unknown' }, 'first version') : el('span', { className: 'muted', title: 'Older versions are not listed' }, '—')
  return v.rulesChanged ? el('span', { className: 'badge warn' }, 'rules changed') : el('span', { className: 'muted' }, 'comments or sitemaps only')
}

/** Each version as a row: the newest first, the one served now marked. */
function columns(host) {
  return [
    { label: 'First served', value: (v) => v.firstServed, cell: (v) => secondCell(v.firstServed) },
    {
      label: 'Version',
      value: (v) => v.hash,
      cell: (v) => el('span', {}, versionLink(host(), v.hash, null, v.hash.slice(0, 8)), v.current ? el('span', { className: 'badge good' }, 'served now') : null),
    },
    { label: 'Deployment', value: (v) => v.deployment?.tag ?? v.deployment?.id ?? null, cell: deployment },
    { label: 'Rules', value: (v) => (v.rulesChanged ? 1 : 0), cell: (v) => rulesState(v, v.index) },
    { label: 'Lines', numeric: true, value: (v) => v.lines, cell: (v) => formatCount(v.lines) },
    {
      label: 'Last request',
      value: (v) => v.lastUsed,
      cell: (v) => (v.lastUsed === null ? '—' : formatTime(v.lastUsed).slice(0, 10)),
      title: 'The last UTC day a judged request was recorded under it',
    },
  ]
}

/** One line of a code view: its number(s), a sign in a diff, and its text with escapes marked. */
function codeLine(numbers, text, className, id) {
  const row = el('div', { className: `line ${className}`, id }, ...numbers.map((n) => el('span', { className: 'ln', 'aria-hidden': 'true' }, n === null ? '' : String(n))))
  row.append(el('code', {}, ...escapedNodes(text)))
  return row
}

/** The version's text with line numbers; `target` is marked and brought into view. */
function textView(text, target) {
  const lines = splitLines(text)
  const start = lines.length <= MAX_SHOWN_LINES ? 0 : Math.max(0, Math.min((target ?? 1) - 1 - MAX_SHOWN_LINES / 2, lines.length - MAX_SHOWN_LINES))
  const shown = lines.slice(start, start + MAX_SHOWN_LINES)
  const view = el('div', { className: 'code', role: 'region', 'aria-label': 'robots.txt text', tabindex: 0 })
  if (start > 0) view.append(el('p', { className: 'gap' }, `Lines 1 to ${start} are not drawn (${formatCount(lines.length)} lines in all).`))
  shown.forEach((line, i) => view.append(codeLine([start + i + 1], line, start + i + 1 === target ? 'target' : '', `L${start + i + 1}`)))
  if (start + shown.length < lines.length) view.append(el('p', { className: 'gap' }, `Lines ${start + shown.length + 1} to ${lines.length} are not drawn.`))
  if (lines.length === 0) view.append(el('p', { className: 'gap' }, 'This version is empty: every path is allowed (RFC 9309 §2.3.1.1).'))
  return view
}

/** The diff against the version before: changes with CONTEXT lines around them, or a plain notice when it is too large to compute. */
function diffView(previous, text) {
  const lines = lineDiff(previous.text, text)
  if (lines === null) {
    return el(
      'p',
      { className: 'notice' },
      `The two versions differ in too many lines to compare in the browser (${formatCount(splitLines(previous.text).length)} and ${formatCount(splitLines(text).length)} lines): read each version's text, or run npm run robots -- diff.`,
    )
  }
  const changed = lines.map((l) => l.kind !== 'same')
  if (!changed.includes(true)) return el('p', { className: 'notice' }, 'Same lines as the version before: only line endings differ.')
  const near = (i) => changed.slice(Math.max(0, i - CONTEXT), i + CONTEXT + 1).includes(true)
  const view = el('div', { className: 'code diff', role: 'region', 'aria-label': 'Changes since the version before', tabindex: 0 })
  let drawn = 0
  let skipped = 0
  lines.forEach((l, i) => {
    if (!near(i) || drawn >= MAX_DIFF_LINES) return void skipped++
    if (skipped > 0) view.append(el('p', { className: 'gap' }, `⋯ ${formatCount(skipped)} unchanged lines`))
    skipped = 0
    drawn++
    view.append(codeLine([l.before, l.after, { same: '', removed: '-', added: '+' }[l.kind] ?? ''], l.text, { same: '', removed: 'del', added: 'add' }[l.kind] ?? ''))
  })
  if (drawn >= MAX_DIFF_LINES) view.append(el('p', { className: 'gap' }, `The first ${formatCount(MAX_DIFF_LINES)} lines of the diff are drawn.`))
  else if (skipped > 0) view.append(el('p', { className: 'gap' }, `⋯ ${formatCount(skipped)} unchanged lines`))
  return view
}

/**
 * Builds the history section after `anchor` and returns its controls: load()
 * lists the versions, open() shows one, changes() gives the timeline's markers.
 *
 * @param {HTMLElement} anchor
 * @param {{ api: string, host: string, getJson: (url: string) => Promise<any> }} options
 */
export function historyView(anchor, { api, host: hostFilter, getJson }) {
  const select = /** @type {HTMLSelectElement} */ (el('select', { id: 'history-host' }))
  const table = /** @type {HTMLTableElement} */ (el('table', { id: 'history-versions', className: 'data' }))
  const title = el('h3', { id: 'version-title' })
  const body = el('div', { id: 'version-body' })
  const version = el('div', { id: 'version', className: 'version', hidden: true }, title, body)
  const section = el(
    'section',
    { id: 'history', 'aria-labelledby': 'history-title' },
    el('h2', { id: 'history-title' }, 'robots.txt history'),
    el(
      'p',
      { className: 'hint' },
      'Every version each host served, when it was first served and by which deployment. The timeline marks where the rules changed; the most violated rules link to their lines. Times in UTC.',
    ),
    el('label', { className: 'inline' }, 'Host ', select),
    el('div', { className: 'scroll' }, table),
    version,
  )
  anchor.after(section)
  /** @type {{ hosts: any[], truncated: boolean }} */
  let history = { hosts: [], truncated: false }
  const versions = sortableTable(
    table,
    columns(() => select.value),
    {
      empty: 'No version of robots.txt is stored yet: it is recorded when a client first fetches /robots.txt.',
      onRowClick: (v) => void open({ host: select.value, version: v.hash, line: null }),
      rowLabel: (v) => `Read version ${v.hash.slice(0, 8)}`,
    },
  )

  function list() {
    const host = history.hosts.find((h) => h.host === select.value)
    versions.render((host?.versions ?? []).map((v, index) => ({ ...v, index })).reverse())
  }
  select.addEventListener('change', list)
  /** The latest open() request: an answer to an older one (a click and a link opening at once) is dropped, so a version is drawn once. */
  let opening = 0

  /** Lists the versions; a failure is said in the section, and the rest of the page goes on without markers. */
  async function load() {
    try {
      history = await getJson(`${api}/history${hostFilter ? `?host=${encodeURIComponent(hostFilter)}` : ''}`)
    } catch (error) {
      table.replaceChildren(el('caption', { className: 'bad' }, `The history could not be loaded: ${error instanceof Error ? error.message : String(error)}`))
      return
    }
    select.replaceChildren(
      ...history.hosts.map((h) => {
        // The value is the host as the API keys it; only the label is escaped for reading.
        const option = /** @type {HTMLOptionElement} */ (el('option', {}, `${h.host} (${h.versions.length})`))
        option.value = h.host
        return option
      }),
    )
    select.disabled = history.hosts.length < 2
    list()
    if (history.truncated) section.append(el('p', { className: 'hint' }, 'Only the newest 500 versions are listed.'))
  }

  /** Shows one version: its text (scrolled to `line`) and its diff against the one before. */
  async function open({ host, version: hash, line }) {
    const ticket = ++opening
    version.hidden = false
    title.textContent = `Loading version ${hash.slice(0, 8)}…`
    clear(body)
    section.scrollIntoView({ block: 'start' })
    try {
      const found = await getJson(`${api}/history/version?${new URLSearchParams({ host, version: hash })}`)
      if (ticket !== opening) return
      if ([...select.options].some((o) => o.value === found.host) && select.value !== found.host) {
        select.value = found.host
        list()
      }
      const v = found.version
      title.replaceChildren(
        el('span', {}, `Version ${v.hash.slice(0, 8)} of ${found.host} · first served ${formatSecond(v.firstServed)} UTC · deployment `),
        deployment(v),
        // replaceChildren writes a null as the text "null": a version no longer served gets no badge at all.
        ...(v.current ? [el('span', { className: 'badge good' }, 'served now')] : []),
      )
      const text = textView(found.text, line)
      body.replaceChildren(
        el(
          'h4',
          {},
          found.previous ? `Changes since ${found.previous.hash.slice(0, 8)} (first served ${formatSecond(found.previous.firstServed)} UTC)` : 'Changes: the first version stored for this host',
        ),
        found.previous ? diffView(found.previous, found.text) : el('p', { className: 'notice' }, 'No earlier version to compare with.'),
        el('h4', {}, `Text · ${formatCount(v.lines)} lines`),
        text,
      )
      text.querySelector('.target')?.scrollIntoView({ block: 'center' })
    } catch (error) {
      if (ticket === opening) title.textContent = `The version could not be loaded: ${error instanceof Error ? error.message : String(error)}`
    }
  }

  /** Where the rules changed, for the timeline: each host's first version too (robots-edge started serving it). */
  function changes() {
    return history.hosts.flatMap((h) => h.versions.filter((v) => v.rulesChanged).map((v) => ({ time: v.firstServed, host: h.host, hash: v.hash, first: h.versions[0] === v })))
  }

  return { load, open, changes }
}
