/**
 * Request shapes, packed (migrations/0080): what a replay of a changed
 * policy reads (src/admin/impact-queries.ts) and what the cron adds up per
 * rule (src/ledger/rules-sql.ts).
 *
 * A write inserts one pack per day, host, agent and robots.txt version it
 * saw, into shape_inbox: every path with its requests (and its counted
 * violations and the rule they broke), as JSON, beside each path group's
 * totals. So the rows a write costs follow the agents and hosts in it, not
 * its distinct paths: a crawler that seldom fetches a path twice would
 * otherwise cost a row per request. A small write, with hardly more paths
 * than keys, still upserts a row per path into shapes_daily (ledger.ts
 * `packed`): a pack would cost as much, and its deletion besides. Every
 * reader adds the three tables up.
 *
 * The cron (mergeShapePacks) folds a key's inbox packs into pages of
 * shape_packs, each path once per page, and deletes them in the same
 * transaction, so every sum read from both tables is the same before and
 * after a merge. Pages are bounded in bytes and paths; a small page is
 * reopened by the next merge, so a key holds one page per PAGE_PATHS paths
 * a day, not one per run.
 */

import { groupOf, type PackEntry, TOP_PATHS, TOTAL_GROUPS } from './shape-sql.ts'
import { DAY_MS, dayOf, HOUR_MS } from './rollups.ts'

export { GROUP_OF, groupOf, PACK_TABLES, type PackEntry, PLAIN, SHAPE_PATHS_SQL } from './shape-sql.ts'

/** Columns of a pack row, in the order the merge binds them. */
const PACK_COLUMNS = 'day, host, agent_key, robots_version, seq, agent_tokens, requests, paths, violations, groups, body'

/** A page of shape_packs holds at most this many paths... */
export const PAGE_PATHS = 4000
/** ...and at most this many characters of JSON (a D1 row takes 2 MB). */
export const PAGE_CHARS = 256_000
/** A page smaller than both halves is reopened by the next merge of its key. */
const OPEN_PATHS = PAGE_PATHS / 2
const OPEN_CHARS = PAGE_CHARS / 4

/** Inbox packs read per merge round, and their characters at most (the memory a round holds). */
const ROUND_PACKS = 2000
const ROUND_CHARS = 8_000_000

/** Options of mergeShapePacks. */
export interface MergeOptions {
  /** Wall time one run may spend, ms; the next run goes on. Default 60,000. */
  budgetMs?: number
}

/** What mergeShapePacks did. */
export interface MergeResult {
  /** Inbox packs folded into pages (and deleted). */
  readonly merged: number
  /** Pages written. */
  readonly pages: number
  /** Days of shapes_daily totalled per group (shape_groups_daily). */
  readonly days: number
  /** False when the time budget stopped it with packs left in the inbox or days left to total. */
  readonly complete: boolean
}

interface InboxRow {
  day: number
  host: string
  agent_key: string
  robots_version: string
  seq: number
  agent_tokens: string
  body: string
}

/**
 * The next round's inbox packs after the cursor ?1..?5 (a row value), in key
 * order, up to ROUND_PACKS and ROUND_CHARS characters (always at least one).
 */
const ROUND_SQL = `SELECT day, host, agent_key, robots_version, seq, agent_tokens, body FROM (
    SELECT *, sum(length(body)) OVER (ORDER BY day, host, agent_key, robots_version, seq ROWS UNBOUNDED PRECEDING) AS upto,
      row_number() OVER (ORDER BY day, host, agent_key, robots_version, seq) AS n
    FROM (SELECT * FROM shape_inbox WHERE (day, host, agent_key, robots_version, seq) > (?1, ?2, ?3, ?4, ?5)
      ORDER BY day, host, agent_key, robots_version, seq LIMIT ${ROUND_PACKS}))
  WHERE upto <= ${ROUND_CHARS} OR n = 1 ORDER BY day, host, agent_key, robots_version, seq`

/** The small pages of the keys in ?1 (JSON [day, host, agent, version] arrays), which a merge reopens. */
const OPEN_SQL = `SELECT day, host, agent_key, robots_version, seq, agent_tokens, body FROM shape_packs
  WHERE (day, host, agent_key, robots_version) IN (SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3 FROM json_each(?1))
    AND paths < ${OPEN_PATHS} AND length(body) < ${OPEN_CHARS}`

const DELETE_INBOX = `DELETE FROM shape_inbox WHERE (day, host, agent_key, robots_version, seq) IN (
  SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4 FROM json_each(?1))`
const DELETE_PAGES = DELETE_INBOX.replace('shape_inbox', 'shape_packs')
const INSERT_PAGE = `INSERT INTO shape_packs (${PACK_COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)`

/** A random page id (the key's last column): 52 bits. */
const randomSeq = () => Math.floor(Math.random() * 2 ** 52)

const plain = (path: string) => !/[%\\]|\/\/|\/\.|[^\x00-\x7f]/.test(path)

/** Adds `entries` into `into`, path by path: requests and violations add up; a rule is kept once known. */
function fold(into: Map<string, PackEntry>, entries: readonly PackEntry[]): void {
  for (const e of entries) {
    if (!Array.isArray(e) || typeof e[0] !== 'string') continue
    const had = into.get(e[0])
    if (!had) {
      into.set(e[0], e.length > 2 ? [e[0], Number(e[1]) || 0, Number(e[2]) || 0, e[3] ?? null, e[4] ?? null, e[5] ?? null] : [e[0], Number(e[1]) || 0])
      continue
    }
    had[1] += Number(e[1]) || 0
    if (e.length > 2 && (Number(e[2]) || 0) > 0) {
      const v = (had.length > 2 ? (had[2] as number) : 0) + (Number(e[2]) || 0)
      into.set(e[0], [e[0], had[1], v, had[3] ?? e[3] ?? null, had[4] ?? e[4] ?? null, had[5] ?? e[5] ?? null])
    }
  }
}

/** `entries` (sorted by path) cut into pages within PAGE_PATHS and PAGE_CHARS. */
function pagesOf(entries: readonly PackEntry[]): PackEntry[][] {
  const pages: PackEntry[][] = []
  let page: PackEntry[] = []
  let chars = 2
  for (const e of entries) {
    const size = JSON.stringify(e).length + 1
    if (page.length > 0 && (page.length >= PAGE_PATHS || chars + size > PAGE_CHARS)) {
      pages.push(page)
      page = []
      chars = 2
    }
    page.push(e)
    chars += size
  }
  if (page.length > 0) pages.push(page)
  return pages
}

type Key = [day: number, host: string, agent: string, version: string]
const keyOf = (r: InboxRow): Key => [r.day, r.host, r.agent_key, r.robots_version]

/** A page's group totals, as the write path's SQL makes them (ledger-sql.ts INSERT_SHAPE_PACKS): [group, requests, paths, min_path, max_path, unplain]. */
function groupsOf(page: readonly PackEntry[]): [string, number, number, string, string, number][] {
  const groups = new Map<string, [string, number, number, string, string, number]>()
  for (const e of page) {
    const g = groupOf(e[0])
    const t = groups.get(g)
    if (!t) groups.set(g, [g, e[1], 1, e[0], e[0], plain(e[0]) ? 0 : 1])
    else {
      t[1] += e[1]
      t[2]++
      if (e[0] < t[3]) t[3] = e[0]
      if (e[0] > t[4]) t[4] = e[0]
      t[5] += plain(e[0]) ? 0 : 1
    }
  }
  return [...groups.values()]
}

/**
 * Folds the inbox into pages, in rounds of at most ROUND_PACKS packs, each
 * one transaction: the round's packs are deleted and their keys' pages
 * written together, so a replay or the rules roll-up sees every request
 * once, before or after. A body that does not parse is kept in the inbox
 * (and still read) rather than lost. Then totals per group the per-path
 * shapes of each day that is over (totalDays), so a replay reads a row per
 * group and day there too. One fold runs at a time (a lease in
 * ledger_state); another returns at once, not complete. Run it from the cron
 * trigger, after rollUpLedger.
 *
 * @example
 * await mergeShapePacks(env.DB, { budgetMs: 30_000 })
 */
export async function mergeShapePacks(db: D1Database, opts: MergeOptions = {}): Promise<MergeResult> {
  const started = Date.now()
  const deadline = started + Math.max(0, opts.budgetMs ?? 60_000)
  // One fold at a time: two would read the same packs, and the second's pages would count them again
  // (its deletes find nothing to delete). The lease outlasts the budget by far more than a batch takes.
  const until = deadline + LEASE_MARGIN_MS
  const lease = await db.prepare(ACQUIRE).bind(until, started).run()
  if ((lease.meta.changes ?? 0) === 0) return { merged: 0, pages: 0, days: 0, complete: false }
  try {
    const folded = await foldInbox(db, deadline)
    const totalled = folded.complete ? await totalDays(db, deadline) : { days: 0, complete: false }
    return { ...folded, days: totalled.days, complete: totalled.complete }
  } finally {
    await db.prepare(RELEASE).bind(until).run()
  }
}

/** ledger_state `shape_fold_until`: while a fold holds it, the time its lease ends (ms). Taken when absent or over (?2: now). */
const ACQUIRE = `INSERT INTO ledger_state (name, value) VALUES ('shape_fold_until', ?1)
  ON CONFLICT (name) DO UPDATE SET value = excluded.value WHERE value < ?2`
const RELEASE = `UPDATE ledger_state SET value = 0 WHERE name = 'shape_fold_until' AND value = ?1`
const LEASE_MARGIN_MS = 10 * 60_000

/** The first day from ?1 on, before ?2, with shapes in any table (each keyed by day first: a seek each). */
const NEXT_DAY = `SELECT min(day) AS day FROM (${['shapes_daily', 'shape_inbox', 'shape_packs'].map((t) => `SELECT min(day) AS day FROM ${t} WHERE day >= ?1 AND day < ?2`).join(' UNION ALL ')})`

/**
 * Totals shapes_daily per group for each day that is over, and puts the
 * day's top paths of counted violations in place of its first ones
 * (TOP_PATHS), in one transaction a day with the state that says so. A day is closed an hour
 * after its hours are rolled up (`rolled_hour`): a write cannot take that
 * long, so no request it holds as not late (ledger.ts) can land in a day
 * already totalled.
 */
async function totalDays(db: D1Database, deadline: number): Promise<{ days: number; complete: boolean }> {
  const state = async (name: string) => (await db.prepare('SELECT value FROM ledger_state WHERE name = ?1').bind(name).first<number>('value')) ?? 0
  const until = dayOf((await state('rolled_hour')) - HOUR_MS)
  let from = await state('shape_groups_day')
  let days = 0
  const setState = (value: number) =>
    db.prepare("INSERT INTO ledger_state (name, value) VALUES ('shape_groups_day', ?1) ON CONFLICT (name) DO UPDATE SET value = max(value, excluded.value)").bind(value)
  while (from < until) {
    if (Date.now() >= deadline) return { days, complete: false }
    // Any day with shapes: a day of packs only has no totals to write, but its top paths all the same.
    const next = await db.prepare(NEXT_DAY).bind(from, until).first<number | null>('day')
    if (next === null || next === undefined) {
      await setState(until).run()
      return { days, complete: true }
    }
    await db.batch([db.prepare(TOTAL_GROUPS).bind(next), ...TOP_PATHS.map((sql) => db.prepare(sql).bind(next)), setState(next + DAY_MS)])
    days++
    from = next + DAY_MS
  }
  return { days, complete: true }
}

/** Folds the inbox into pages (mergeShapePacks). */
async function foldInbox(db: D1Database, deadline: number): Promise<{ merged: number; pages: number; complete: boolean }> {
  let cursor: unknown[] = [-1, '', '', '', -1]
  let merged = 0
  let pages = 0
  for (;;) {
    if (Date.now() >= deadline) return { merged, pages, complete: false }
    const rows = (
      await db
        .prepare(ROUND_SQL)
        .bind(...cursor)
        .all<InboxRow>()
    ).results
    if (rows.length === 0) return { merged, pages, complete: true }
    const last = rows[rows.length - 1]!
    cursor = [...keyOf(last), last.seq]
    const byKey = new Map<string, { key: Key; tokens: string; rows: InboxRow[] }>()
    for (const r of rows) {
      const id = JSON.stringify(keyOf(r))
      const k = byKey.get(id) ?? { key: keyOf(r), tokens: r.agent_tokens, rows: [] }
      if (r.agent_tokens > k.tokens) k.tokens = r.agent_tokens
      k.rows.push(r)
      byKey.set(id, k)
    }
    const open = (
      await db
        .prepare(OPEN_SQL)
        .bind(JSON.stringify([...byKey.values()].map((k) => k.key)))
        .all<InboxRow>()
    ).results
    for (const p of open) {
      const k = byKey.get(JSON.stringify(keyOf(p)))
      if (!k) continue
      if (p.agent_tokens > k.tokens) k.tokens = p.agent_tokens
      k.rows.push({ ...p, seq: -1 - p.seq })
    }
    const statements: D1PreparedStatement[] = []
    const done: unknown[][] = []
    const reopened: unknown[][] = []
    for (const k of byKey.values()) {
      const entries = new Map<string, PackEntry>()
      const used: InboxRow[] = []
      for (const r of k.rows) {
        let body: unknown
        try {
          body = JSON.parse(r.body)
        } catch {
          continue
        }
        if (!Array.isArray(body)) continue
        fold(entries, body as PackEntry[])
        used.push(r)
      }
      if (used.length === 0) continue
      for (const r of used) {
        if (r.seq < 0) reopened.push([...k.key, -1 - r.seq])
        else done.push([...k.key, r.seq])
      }
      for (const page of pagesOf([...entries.values()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)))) {
        const requests = page.reduce((n, e) => n + e[1], 0)
        const violations = page.reduce((n, e) => n + (e.length > 2 ? (e[2] as number) : 0), 0)
        statements.push(db.prepare(INSERT_PAGE).bind(...k.key, randomSeq(), k.tokens, requests, page.length, violations, JSON.stringify(groupsOf(page)), JSON.stringify(page)))
        pages++
      }
    }
    if (done.length + reopened.length > 0) {
      await db.batch([db.prepare(DELETE_INBOX).bind(JSON.stringify(done)), db.prepare(DELETE_PAGES).bind(JSON.stringify(reopened)), ...statements])
    }
    merged += done.length
  }
}
