/**
 * Query parameters as the report's routes read them: each value checked, a
 * bad one refused with a message that names it and says what would do.
 */
import type { Context } from 'hono'
import type { AdminEnv } from './env.ts'
import type { ReportFilter } from './types.ts'

const HOUR = 3_600_000
export const DAY = 24 * HOUR
/** The longest range one report covers: the daily rollups' retention (storage/prune.ts). */
export const MAX_RANGE = 400 * DAY

/** A query parameter that failed validation: the 400's message names it and says what would do. */
export class BadParam extends Error {
  constructor(
    readonly param: string,
    message: string,
  ) {
    super(`${param}: ${message}`)
  }
}

const RELATIVE = /^(\d{1,5})([hdw])$/
const UNIT_MS: Record<string, number> = { h: HOUR, d: DAY, w: 7 * DAY }
const EPOCH_MS = /^\d{1,15}$/
const ISO_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?)?$/
const TIME_HELP = 'use an ISO date-time (2026-01-05T10:00Z), milliseconds since the epoch, or a time ago such as 24h, 7d or 2w'

/**
 * A time as the API accepts it: an ISO date or date-time (UTC unless it
 * carries an offset), milliseconds since the epoch, or a time ago (`24h`,
 * `7d`, `2w`). Null for anything else.
 */
export function parseTime(value: string, now: number): number | null {
  const relative = RELATIVE.exec(value)
  if (relative) return now - Number(relative[1]) * UNIT_MS[relative[2]!]!
  if (EPOCH_MS.test(value)) return Number(value)
  const iso = ISO_TIME.exec(value)
  if (!iso) return null
  // Date.parse rolls 2026-02-30 over into March: a day the month lacks is a typo, not a time.
  const [year, month, day] = [Number(iso[1]), Number(iso[2]), Number(iso[3])]
  if (new Date(Date.UTC(year, month - 1, day)).getUTCDate() !== day || month < 1 || month > 12) return null
  // A date-time without an offset is read as UTC, wherever the caller runs.
  const ms = Date.parse(value.includes('T') && iso[4] === undefined ? `${value}Z` : value)
  return Number.isFinite(ms) ? ms : null
}

export const HOST = /^[a-z0-9.\-[\]:]{1,253}$/i
/** Agent keys and categories are bound, never spliced, so this only keeps out controls and absurd lengths. */
export const PRINTABLE = /^[^\x00-\x1f\x7f]+$/

/** The query's single values, refusing parameters it does not know and repeated ones (a typo must not go unnoticed). */
export function readQuery(url: URL, allowed: readonly string[]): Map<string, string> {
  const values = new Map<string, string>()
  for (const [name, value] of url.searchParams) {
    if (!allowed.includes(name)) throw new BadParam(name, `unknown parameter; this endpoint takes ${allowed.join(', ')}`)
    if (values.has(name)) throw new BadParam(name, 'given more than once')
    values.set(name, value)
  }
  return values
}

export function text(name: string, value: string | undefined, max: number, pattern: RegExp, help: string): string | undefined {
  if (value === undefined || value === '') return undefined
  if (value.length > max || !pattern.test(value)) throw new BadParam(name, `${JSON.stringify(value.slice(0, 80))} is not ${help}`)
  return value
}

export const hostParam = (v: string | undefined) => text('host', v, 253, HOST, 'a host name (example.com)')

export function time(name: string, value: string | undefined, now: number): number | undefined {
  if (value === undefined || value === '') return undefined
  const ms = parseTime(value, now)
  if (ms === null) throw new BadParam(name, `${JSON.stringify(value.slice(0, 80))} is not a time; ${TIME_HELP}`)
  return ms
}

/** `since` and `until` from a query (`until` defaults to now, `since` to `defaultRange` before it), at most MAX_RANGE apart. */
export function readRange(q: ReadonlyMap<string, string>, now: number, defaultRange: number): { since: number; until: number } {
  const until = time('until', q.get('until'), now) ?? now
  const since = time('since', q.get('since'), now) ?? until - defaultRange
  if (since >= until) throw new BadParam('since', `must be before until (${new Date(until).toISOString()})`)
  if (until - since > MAX_RANGE) throw new BadParam('since', `the range may cover at most ${MAX_RANGE / DAY} days`)
  return { since, until }
}

/**
 * The range and filters of a query (`since`, `until`, `host`, `agent`, and
 * `category` where `names` allows it; other allowed names are the caller's):
 * the last 7 days by default.
 */
export function filterOf(url: URL, now: number, names: readonly string[]): ReportFilter {
  const q = readQuery(url, names)
  const filter: ReportFilter = readRange(q, now, 7 * DAY)
  const host = hostParam(q.get('host'))
  const agent = text('agent', q.get('agent'), 128, PRINTABLE, 'an agent key (gptbot)')
  const category = text('category', q.get('category'), 64, PRINTABLE, 'a category (AI Crawler)')
  if (host !== undefined) filter.host = host
  // Product tokens compare case-insensitively (RFC 9309 §2.2.1), and agent keys are stored in lower case.
  if (agent !== undefined) filter.agent = agent.toLowerCase()
  if (category !== undefined) filter.category = category
  return filter
}

/** Bad input is a 400 naming the parameter; a ledger that cannot be read is a 503, logged. Never a bare 500. */
export function failure(c: Context, error: unknown): Response {
  if (error instanceof BadParam) return c.json({ error: error.message, param: error.param }, 400)
  console.error('robots-edge: the report could not be read', error)
  return c.json({ error: 'the ledger (D1) could not be read; see the Worker logs' }, 503)
}

/** The ledger: a Worker without a `DB` binding records nothing, and its report is a 503 that says why. */
export function ledgerOf(c: Context<AdminEnv>): D1Database {
  const db = c.env?.DB
  if (db === undefined) throw new Error('no D1 binding "DB": this Worker records nothing')
  return db
}
