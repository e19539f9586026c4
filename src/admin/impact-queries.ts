/**
 * The replay's reads from the D1 ledger: the request shapes of
 * whole UTC days (shapes_daily), the robots.txt each host serves now, and
 * the agents. Two small batches; the shapes are read grouped and capped in SQL, so the cost
 * follows the distinct shapes, not the requests. Filters are bound values.
 */
import { contentHash } from '../core/config/hash.ts'
import { compileRobotsTxt, type RobotsMatcher } from '../core/robots/index.ts'
import { SHAPE_CAP } from '../ledger/rollups.ts'
import { replayImpact, type EstimateFacts, type ImpactAgentInfo, type ImpactShape, type JudgedBy, type ReplayResult } from './impact.ts'

const DAY = 86_400_000
/** Distinct shapes one replay reads, most requested first; the rest are counted as not replayed. */
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
  /** Distinct shapes read at most. Default MAX_SHAPES. */
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

const RANGE = `day >= ?1 AND day < ?2 AND (?3 IS NULL OR host = ?3) AND (?4 IS NULL OR agent_key = ?4)`
const TOTALS_SQL = `SELECT host, agent_key AS agentKey, sum(requests) AS requests, sum(CASE WHEN path = '' THEN requests ELSE 0 END) AS other
  FROM shapes_daily WHERE ${RANGE} GROUP BY host, agent_key`
const SHAPES_SQL = `SELECT host, agent_key AS agentKey, robots_version AS version, path, max(agent_tokens) AS tokens, sum(requests) AS requests
  FROM shapes_daily WHERE ${RANGE} AND path <> '' GROUP BY host, agent_key, robots_version, path ORDER BY requests DESC LIMIT ?5`
const STATE_SQL = `SELECT value FROM ledger_state WHERE name = 'shapes_since'`
/** ?1: the hosts, as JSON. The version served now: the one an isolate recorded last. */
const CURRENT_SQL = `SELECT host, hash, text FROM (SELECT host, hash, text,
    row_number() OVER (PARTITION BY host ORDER BY coalesce(recorded_at, first_served) DESC, first_served DESC) AS n
  FROM robots_versions WHERE host IN (SELECT value FROM json_each(?1))) WHERE n = 1`

const AGENTS_SQL = `SELECT agent_key AS agentKey, agent_id AS agentId, kind, operator, category FROM agents WHERE agent_key IN (SELECT value FROM json_each(?1))`

interface ShapeRow {
  host: string
  agentKey: string
  version: string
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
  const first = await db.batch([db.prepare(TOTALS_SQL).bind(...f), db.prepare(SHAPES_SQL).bind(...f, maxShapes), db.prepare(STATE_SQL)])
  const [totals, rows, state] = first.map((r) => r.results) as [{ host: string; agentKey: string; requests: number; other: number }[], ShapeRow[], { value: number }[]]
  const hosts = [...new Set(totals.map((t) => t.host))].sort()
  const second = await db.batch([db.prepare(CURRENT_SQL).bind(JSON.stringify(hosts)), db.prepare(AGENTS_SQL).bind(JSON.stringify([...new Set(totals.map((t) => t.agentKey))]))])
  const rowsRead = [...first, ...second].reduce((n, r) => n + (r.meta.rows_read ?? 0), 0)
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
  const shapes: ImpactShape[] = rows.map((r) => ({ ...r, tokens: r.tokens === '' ? [] : r.tokens.split(' ') }))
  const result = replayImpact({
    shapes,
    totals,
    agents: new Map(agentRows.map(({ agentKey, ...info }) => [agentKey, info])),
    before: (s) => served.get(s.host) ?? null,
    after: candidate,
    exempt: opts.exempt,
    protect: opts.protect,
  })
  const requests = totals.reduce((n, t) => n + t.requests, 0)
  const beyondCap = totals.reduce((n, t) => n + t.other, 0)
  const beyondRead = requests - beyondCap - rows.reduce((n, r) => n + r.requests, 0)
  const shapesSince = state[0]?.value ?? 0
  const facts = { beyondCap, shapeCap: SHAPE_CAP, beyondRead, maxShapes, shapesSince }
  return {
    filter,
    days,
    hosts: hosts.map((host) => ({ host, before: served.get(host)?.version ?? null, after: candidate(host)?.version ?? null })),
    ...result,
    estimate: { ...facts, exact: beyondCap === 0 && beyondRead === 0 && shapesSince <= days.since },
    rowsRead,
  }
}
