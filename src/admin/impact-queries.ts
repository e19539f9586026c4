/**
 * The replay's reads from the D1 ledger: the request shapes of
 * whole UTC days (the packed shapes, src/ledger/shape-packs.ts), the robots.txt each host serves now, and
 * the agents. Two small batches; the shapes are read grouped and capped in SQL, so the cost
 * follows the distinct shapes, not the requests. Filters are bound values.
 */
import { contentHash } from '../core/config/hash.ts'
import { compileRobotsTxt, type RobotsMatcher } from '../core/robots/index.ts'
import { SHAPE_CAP } from '../ledger/rollups.ts'
import { GROUP_OF, GROUPS_DAY, PACK_TABLES, PLAIN } from '../ledger/shape-sql.ts'
import { replayImpact, uniformOver, type EstimateFacts, type ImpactAgentInfo, type ImpactShape, type JudgedBy, type ReplayResult } from './impact.ts'

const DAY = 86_400_000
/**
 * Distinct paths one replay judges one by one, most requested first. Beyond
 * it, paths are judged per group (`/articles/*`) where no rule tells the
 * group's paths apart; what is left beyond it is counted as not replayed.
 */
export const MAX_SHAPES = 50_000

export interface ImpactFilter {
  since: number
  until: number
  host?: string
  agent?: string
}

export interface ImpactOptions {
  /** The candidate robots.txt per host; `*` for every host not named. */
  readonly candidates: ReadonlyMap<string, string>
  readonly exempt: ReadonlySet<string>
  readonly protect: ReadonlySet<string>
  /** Distinct paths judged one by one at most (beyond: per path group). Default MAX_SHAPES. */
  readonly maxShapes?: number
}

export interface ImpactReport extends ReplayResult {
  readonly filter: ImpactFilter
  /** The whole UTC days replayed ([since, until)). */
  readonly days: { readonly since: number; readonly until: number }
  /** Per host: the version compared with (`before`, under `current`) and the candidate's. */
  readonly hosts: readonly { readonly host: string; readonly before: string | null; readonly after: string | null }[]
  /** What the replay covers (describeEstimate, in impact.ts, says it in a sentence). */
  readonly estimate: EstimateFacts & {
    /** True when every request in the range was judged again. */
    readonly exact: boolean
  }
  /** D1's count of rows read by the replay's queries. */
  readonly rowsRead: number
}

/** The filter on a table's (or alias's) columns: whole days ?1 to ?2, host ?3, agent ?4 (null: any). */
const rangeOf = (t: string) => `${t}.day >= ?1 AND ${t}.day < ?2 AND (?3 IS NULL OR ${t}.host = ?3) AND (?4 IS NULL OR ${t}.agent_key = ?4)`
const RANGE = rangeOf('t')
/** The same over the days the cron has not totalled yet (from GROUPS_DAY on): one lower bound, so the key's range starts there. */
const OPEN_RANGE = RANGE.replace('t.day >= ?1', `t.day >= max(?1, ${GROUPS_DAY})`)
/** The groups named in ?5 (JSON [host, agent, group] triples). */
const NAMED = `IN (SELECT value ->> 0, value ->> 1, value ->> 2 FROM json_each(?5))`
/**
 * One row per host, agent and path group over the range: its requests, its
 * paths (at least its distinct paths: a path is counted once per pack, day
 * and version), whether it holds a single path (then `path`), and how many
 * paths are not plain. Read from the packs' totals (src/ledger/shape-packs.ts),
 * never their bodies, and from the per-path shapes (shapes_daily: small
 * writes, and those before the packs), read as their totals per group for
 * the days the cron has totalled (shape_groups_daily), row by row after. Path
 * '' holds requests recorded beyond the old per-day cap.
 */
const packTotals = (table: string) =>
  `SELECT t.host, t.agent_key, g.value ->> 0 AS grp, t.agent_tokens, g.value ->> 1 AS requests, g.value ->> 2 AS paths, g.value ->> 3 AS min_path,
    g.value ->> 4 AS max_path, g.value ->> 5 AS unplain FROM ${table} t, json_each(CASE WHEN json_valid(t.groups) THEN t.groups ELSE '[]' END) g WHERE ${RANGE}`
const GROUPS_SQL = `SELECT host, agent_key AS agentKey, grp AS "group", max(agent_tokens) AS tokens, sum(requests) AS requests,
    sum(paths) AS paths, min(min_path) AS path, min(min_path) = max(max_path) AS single, sum(unplain) AS unplain
  FROM (${PACK_TABLES.map(packTotals).join(' UNION ALL ')}
    UNION ALL SELECT host, agent_key, grp, agent_tokens, requests, paths, min_path, max_path, unplain FROM shape_groups_daily t WHERE ${RANGE}
    UNION ALL SELECT host, agent_key, ${GROUP_OF}, agent_tokens, requests, 1, path, path, NOT ${PLAIN} FROM shapes_daily t WHERE ${OPEN_RANGE})
  GROUP BY host, agent_key, grp`
/** The paths of the groups in ?5 in a pack table's bodies. */
const packPaths = (table: string) =>
  `SELECT host, agent_key, path, agent_tokens, requests FROM (SELECT t.host, t.agent_key, e.value ->> 0 AS path, t.agent_tokens, e.value ->> 1 AS requests
    FROM ${table} t, json_each(CASE WHEN json_valid(t.body) THEN t.body ELSE '[]' END) e
    WHERE ${RANGE} AND EXISTS (SELECT 1 FROM json_each(CASE WHEN json_valid(t.groups) THEN t.groups ELSE '[]' END) g WHERE (t.host, t.agent_key, g.value ->> 0) ${NAMED}))
    WHERE (host, agent_key, ${GROUP_OF}) ${NAMED}`
/**
 * The paths of the groups in ?5, most requested first, at most ?6: from the
 * packs' bodies; for a day the cron has totalled, from the group's list
 * when it has one, else from that day's per-path rows of the agent (a seek
 * by day, host, agent and version); for a day after, from the per-path rows.
 * Each request is read from one place only.
 */
const PATHS_SQL = `SELECT host, agent_key AS agentKey, path, max(agent_tokens) AS tokens, sum(requests) AS requests
  FROM (${PACK_TABLES.map(packPaths).join(' UNION ALL ')}
    UNION ALL SELECT t.host, t.agent_key, l.value ->> 0 AS path, t.agent_tokens, l.value ->> 1 AS requests
      FROM shape_groups_daily t, json_each(CASE WHEN json_valid(t.list) THEN t.list ELSE '[]' END) l
      WHERE ${RANGE} AND t.list IS NOT NULL AND (t.host, t.agent_key, t.grp) ${NAMED}
    UNION ALL SELECT s.host, s.agent_key, s.path, s.agent_tokens, s.requests
      FROM shape_groups_daily t CROSS JOIN shapes_daily s ON s.day = t.day AND s.host = t.host AND s.agent_key = t.agent_key AND s.robots_version = t.robots_version
      WHERE ${RANGE} AND t.list IS NULL AND (t.host, t.agent_key, t.grp) ${NAMED} AND s.path <> '' AND ${GROUP_OF.replaceAll('path', 's.path')} = t.grp
    UNION ALL SELECT host, agent_key, path, agent_tokens, requests FROM shapes_daily t
      WHERE ${OPEN_RANGE} AND path <> '' AND (host, agent_key, ${GROUP_OF}) ${NAMED})
  GROUP BY host, agent_key, path ORDER BY requests DESC LIMIT ?6`
const STATE_SQL = `SELECT value FROM ledger_state WHERE name = 'shapes_since'`
/** ?1: the hosts, as JSON. The version served now: the one an isolate recorded last. */
const CURRENT_SQL = `SELECT host, hash, text FROM (SELECT host, hash, text,
    row_number() OVER (PARTITION BY host ORDER BY coalesce(recorded_at, first_served) DESC, first_served DESC) AS n
  FROM robots_versions WHERE host IN (SELECT value FROM json_each(?1))) WHERE n = 1`

const AGENTS_SQL = `SELECT agent_key AS agentKey, agent_id AS agentId, kind, operator, category FROM agents WHERE agent_key IN (SELECT value FROM json_each(?1))`

interface GroupRow {
  host: string
  agentKey: string
  group: string
  tokens: string
  requests: number
  paths: number
  path: string
  single: number
  unplain: number
}

interface ShapeRow {
  host: string
  agentKey: string
  path: string
  tokens: string
  requests: number
}

/**
 * Replays the ledger's request shapes over `filter` (whole UTC days)
 * against the candidate robots.txt of each host, compared with the robots.txt
 * each host serves now (a change already deployed is no news).
 *
 * @example
 * const impact = await getImpact(env.DB, { since: Date.now() - 7 * 86_400_000, until: Date.now() },
 *   { candidates: new Map([['*', 'User-agent: *\nDisallow: /articles/\n']]), exempt: new Set(), protect: new Set(['googlebot']) })
 */
export async function getImpact(db: D1Database, filter: ImpactFilter, opts: ImpactOptions): Promise<ImpactReport> {
  const days = { since: Math.floor(filter.since / DAY) * DAY, until: Math.max(Math.ceil(filter.until / DAY) * DAY, Math.floor(filter.since / DAY) * DAY + DAY) }
  const f = [days.since, days.until, filter.host?.toLowerCase() ?? null, filter.agent?.toLowerCase() ?? null]
  const maxShapes = Math.max(1, Math.trunc(opts.maxShapes ?? MAX_SHAPES))
  const first = await db.batch([db.prepare(GROUPS_SQL).bind(...f), db.prepare(STATE_SQL)])
  const [groups, state] = first.map((r) => r.results) as [GroupRow[], { value: number }[]]
  const totalsBy = new Map<string, { host: string; agentKey: string; requests: number; other: number }>()
  for (const g of groups) {
    const key = `${g.host}\n${g.agentKey}`
    const t = totalsBy.get(key) ?? { host: g.host, agentKey: g.agentKey, requests: 0, other: 0 }
    t.requests += g.requests
    if (g.group === '') t.other += g.requests
    totalsBy.set(key, t)
  }
  const totals = [...totalsBy.values()]
  const hosts = [...new Set(totals.map((t) => t.host))].sort()
  const second = await db.batch([db.prepare(CURRENT_SQL).bind(JSON.stringify(hosts)), db.prepare(AGENTS_SQL).bind(JSON.stringify([...new Set(totals.map((t) => t.agentKey))]))])
  let rowsRead = [...first, ...second].reduce((n, r) => n + (r.meta.rows_read ?? 0), 0)
  const [current, agentRows] = second.map((r) => r.results) as [{ host: string; hash: string; text: string }[], ({ agentKey: string } & ImpactAgentInfo)[]]

  const compiled = new Map<string, RobotsMatcher>()
  const judgedBy = (version: string, text: string): JudgedBy => {
    let matcher = compiled.get(version)
    if (!matcher) compiled.set(version, (matcher = compileRobotsTxt(text)))
    return { version, matcher }
  }
  const served = new Map(current.map((v) => [v.host, judgedBy(v.hash, v.text)]))
  const candidates = new Map<string, JudgedBy | null>()
  const candidate = (host: string): JudgedBy | null => {
    if (!candidates.has(host)) {
      const text = opts.candidates.get(host) ?? opts.candidates.get('*')
      candidates.set(host, text === undefined ? null : judgedBy(contentHash(text), text))
    }
    return candidates.get(host)!
  }
  const tokensOf = (t: string) => (t === '' ? [] : t.split(' '))
  // Up to maxShapes paths (rows: an upper bound on distinct paths), each is judged. Beyond, a group is
  // judged once, by its prefix, when it holds only plain paths that no rule
  // of either file tells apart (exact all the same); else path by path.
  const grouping = groups.reduce((n, g) => n + (g.group === '' ? 0 : g.paths), 0) > maxShapes
  const shapes: ImpactShape[] = []
  const split: GroupRow[] = []
  let grouped = 0
  let groupCount = 0
  for (const g of groups) {
    if (g.group === '') continue
    if (!grouping && g.single !== 1) {
      split.push(g)
      continue
    }
    if (g.single === 1) {
      shapes.push({ host: g.host, agentKey: g.agentKey, tokens: tokensOf(g.tokens), version: '', path: g.path, requests: g.requests })
      continue
    }
    const was = served.get(g.host)
    const will = candidate(g.host)
    if (g.unplain === 0 && (!was || uniformOver(was.matcher, g.group)) && (!will || uniformOver(will.matcher, g.group))) {
      // Shown as `/articles/*`: any path of the group, judged the same as its prefix.
      shapes.push({ host: g.host, agentKey: g.agentKey, tokens: tokensOf(g.tokens), version: '', path: `${g.group}*`, requests: g.requests })
      grouped += g.requests
      groupCount++
    } else split.push(g)
  }
  let beyondRead = 0
  if (split.length > 0) {
    const read = await db
      .prepare(PATHS_SQL)
      .bind(...f, JSON.stringify(split.map((g) => [g.host, g.agentKey, g.group])), maxShapes)
      .all<ShapeRow>()
    rowsRead += read.meta.rows_read ?? 0
    for (const r of read.results) shapes.push({ ...r, tokens: tokensOf(r.tokens), version: '' })
    beyondRead = split.reduce((n, g) => n + g.requests, 0) - read.results.reduce((n, r) => n + r.requests, 0)
  }
  const result = replayImpact({
    shapes,
    totals,
    agents: new Map(agentRows.map(({ agentKey, ...info }) => [agentKey, info])),
    before: (s) => served.get(s.host) ?? null,
    after: candidate,
    exempt: opts.exempt,
    protect: opts.protect,
  })
  const beyondCap = totals.reduce((n, t) => n + t.other, 0)
  const shapesSince = state[0]?.value ?? 0
  const facts = { beyondCap, shapeCap: SHAPE_CAP, beyondRead, maxShapes, shapesSince, grouped, groups: groupCount }
  return {
    filter,
    days,
    hosts: hosts.map((host) => ({ host, before: served.get(host)?.version ?? null, after: candidate(host)?.version ?? null })),
    ...result,
    estimate: { ...facts, exact: beyondCap === 0 && beyondRead === 0 && shapesSince <= days.since },
    rowsRead,
  }
}
