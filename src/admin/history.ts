/**
 * The history of each host's robots.txt: every version stored
 * (robots_versions), when it was first served and by which deployment,
 * which one is served now, and whether its rules differ from the version
 * before it (a change of comments or sitemaps alone is no rule change). The
 * line diff itself is drawn by the dashboard and the CLI (diff.ts), never here.
 */
import { parseRobotsTxt } from '../core/robots/index.ts'

/** Versions listed at most, newest first; `truncated` says when there were more. */
export const MAX_VERSIONS = 500
/** Characters of robots.txt read to compare rules, newest first; older versions beyond it get `rulesChanged: null`. */
const TEXT_BUDGET = 8_000_000

export interface VersionInfo {
  readonly hash: string
  /** When it was first served on this host (ms). */
  readonly firstServed: number
  /** The last UTC day a judged request was recorded under it (ms), if any. */
  readonly lastUsed: number | null
  /** The deployment that first served it (Worker version id and tag), where the Worker has a version metadata binding. */
  readonly deployment: { readonly id: string; readonly tag: string | null } | null
  /** The version the host serves now: the one an isolate recorded last. */
  readonly current: boolean
  /** Whether its groups and rules differ from the version before it (true for a host's first); null when not compared. */
  readonly rulesChanged: boolean | null
  readonly lines: number
  readonly characters: number
}

export interface HostHistory {
  readonly host: string
  /** Oldest first. */
  readonly versions: readonly VersionInfo[]
}

export interface History {
  readonly hosts: readonly HostHistory[]
  readonly truncated: boolean
}

interface VersionRow {
  host: string
  hash: string
  text: string | null
  firstServed: number
  lastUsed: number | null
  deploymentId: string | null
  deploymentTag: string | null
  recordedAt: number | null
  lines: number
  characters: number
}

const COLUMNS = `host, hash, first_served AS firstServed, last_used AS lastUsed, deployment_id AS deploymentId, deployment_tag AS deploymentTag,
  recorded_at AS recordedAt, length(text) - length(replace(text, char(10), '')) + (substr(text, -1) <> char(10)) AS lines, length(text) AS characters`
const LIST_SQL = `SELECT ${COLUMNS}, CASE WHEN sum(length(text)) OVER (ORDER BY first_served DESC, host, hash) <= ?3 THEN text END AS text
  FROM robots_versions WHERE ?1 IS NULL OR host = ?1 ORDER BY first_served DESC, host, hash LIMIT ?2`
/** The version (first) and the one first served before it, each with the hash the host serves now: the one an isolate recorded last. */
const ONE_SQL = `SELECT ${COLUMNS}, text, (SELECT hash FROM robots_versions WHERE host = ?1 ORDER BY coalesce(recorded_at, first_served) DESC, first_served DESC LIMIT 1) AS currentHash
  FROM robots_versions WHERE host = ?1 AND (hash = ?2 OR first_served < (SELECT first_served FROM robots_versions WHERE host = ?1 AND hash = ?2))
  ORDER BY hash = ?2 DESC, first_served DESC LIMIT 2`

/** What a crawler obeys in a file: each group's product tokens and its rules, in file order. Comments, sitemaps and other records are left out. */
export function rulesOf(text: string): string {
  return parseRobotsTxt(text)
    .groups.map((g) => `${g.userAgents.map((a) => a.toLowerCase()).join(' ')}\t${g.rules.map((r) => `${r.type}:${r.pattern}`).join('\t')}`)
    .join('\n')
}

function info(row: VersionRow, current: boolean, rulesChanged: boolean | null): VersionInfo {
  return {
    hash: row.hash,
    firstServed: row.firstServed,
    lastUsed: row.lastUsed,
    deployment: row.deploymentId === null ? null : { id: row.deploymentId, tag: row.deploymentTag },
    current,
    rulesChanged,
    lines: row.characters === 0 ? 0 : row.lines,
    characters: row.characters,
  }
}

const servedNow = (row: VersionRow) => row.recordedAt ?? row.firstServed

/**
 * Every stored version per host (or of one host), oldest first, at most
 * MAX_VERSIONS newest ones in all.
 *
 * @example
 * const { hosts } = await getHistory(env.DB, { host: 'example.com' })
 * hosts[0]?.versions.filter((v) => v.rulesChanged).map((v) => v.firstServed) // where the timeline marks a change
 */
export async function getHistory(db: D1Database, filter: { host?: string } = {}): Promise<History> {
  const { results } = await db
    .prepare(LIST_SQL)
    .bind(filter.host?.toLowerCase() ?? null, MAX_VERSIONS + 1, TEXT_BUDGET)
    .all<VersionRow>()
  const truncated = results.length > MAX_VERSIONS
  const byHost = new Map<string, VersionRow[]>()
  for (const row of results.slice(0, MAX_VERSIONS).reverse()) byHost.set(row.host, [...(byHost.get(row.host) ?? []), row])
  const hosts = [...byHost]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([host, rows]): HostHistory => {
      const current = rows.reduce((a, b) => (servedNow(b) > servedNow(a) || (servedNow(b) === servedNow(a) && b.firstServed > a.firstServed) ? b : a))
      let previous: string | null = null
      const versions = rows.map((row, i) => {
        const rules = row.text === null ? null : rulesOf(row.text)
        // A host's first version is a change, unless older ones were cut by MAX_VERSIONS.
        const changed = rules === null || (i > 0 && previous === null) ? null : i === 0 ? !truncated : rules !== previous
        previous = rules
        return info(row, row === current, changed)
      })
      return { host, versions }
    })
  return { hosts, truncated }
}

export interface VersionText {
  readonly host: string
  readonly version: VersionInfo
  readonly text: string
  /** The version first served before it on this host, for the diff. */
  readonly previous: { readonly hash: string; readonly firstServed: number; readonly text: string } | null
}

/** One version's text with the version before it, or null when the host has no such version. */
export async function getVersionText(db: D1Database, host: string, hash: string): Promise<VersionText | null> {
  const { results } = await db.prepare(ONE_SQL).bind(host.toLowerCase(), hash).all<VersionRow & { text: string; currentHash: string }>()
  const row = results[0]
  if (row?.hash !== hash) return null
  const before = results[1] ?? null
  const changed = before === null ? true : rulesOf(row.text) !== rulesOf(before.text)
  return {
    host: row.host,
    version: info(row, row.currentHash === row.hash, changed),
    text: row.text,
    previous: before === null ? null : { hash: before.hash, firstServed: before.firstServed, text: before.text },
  }
}
