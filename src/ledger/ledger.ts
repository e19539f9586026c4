/**
 * The compliance ledger in D1: each judged request is classified
 * when it is recorded and counted, exactly, in the same transaction as its
 * raw row, which is kept as a sample for the drill-down. Functions take a
 * D1Database, not the Env. Every value is bound, never spliced into SQL text.
 */
import type { JudgedRequest } from '../core/events.ts'
import { isCounted } from './classes.ts'
import { crawlTimesStatement } from './crawl-times.ts'
import {
  INSERT_GROUPS,
  INSERT_RAW,
  RAW_ORDER,
  TOUCH_VERSIONS,
  UPSERT_AGENTS,
  UPSERT_COUNTS_HOURLY,
  UPSERT_FETCHES,
  UPSERT_LATE_DAILY,
  UPSERT_LATE_TIMELINE,
  UPSERT_MINUTES,
  UPSERT_PATHS,
  UPSERT_LATE_RULES,
  INSERT_SHAPE_PACKS,
  UPSERT_SHAPE_PATHS,
} from './ledger-sql.ts'
import { agentKey, agentsOf, dayOf, groupsOf, HOUR_MS, hourOf, PATH_CAP, SAMPLE_BUDGET, summariseFetches, VIOLATION_SAMPLE_BUDGET, toEventRow, toFact, versionDaysOf, type Fact } from './rollups.ts'
import { previousAllowed } from './versions.ts'
import { referralStatement } from './referrals.ts'
import { bytesStatement } from './served.ts'

export { recordRobotsVersion, type Deployment } from './versions.ts'
export { pruneLedger, type PruneOptions, type PruneResult } from './prune.ts'
export { rollUpLedger, type RollUpOptions, type RollUpResult } from './rollup.ts'
export { mergeShapePacks, type MergeOptions, type MergeResult } from './shape-packs.ts'

/**
 * A set of statements binds one JSON string of its events' facts and one of
 * their raw rows; D1 takes strings up to 2 MB. A call is cut into sets whose
 * strings stay within CHUNK_CHARS characters each, measured as they are
 * built (at most 2 bytes a character: paths and hosts are ASCII once parsed,
 * a header value is Latin-1), applied in order in the same batch. Every set
 * upserts each of its counters once, so the fewer the sets, the fewer the
 * rows written: a queue consumer's batch (up to 100 messages of 20 events)
 * is normally one set.
 */
const CHUNK_CHARS = 900_000

/** Options of writeEvents. */
export interface WriteEventsOptions {
  /**
   * Raw rows kept per agent, hour, verification and class (over every host). Default
   * SAMPLE_BUDGET (3), and VIOLATION_SAMPLE_BUDGET (20) for counted
   * violations; when given, it is the budget of every class.
   */
  sampleBudget?: number
  /** More statements committed in the same transaction as the events (the recorder's journal retirements, the queue consumer's applied message ids). Default: none. */
  also?: readonly D1PreparedStatement[] | undefined
}

/** The sampling budgets bound to the SQL (?2 every class, ?3 counted violations), and their name in the isolate's memory. */
interface Budget {
  readonly other: number
  readonly violations: number
  readonly key: string
}

/** A random id, unique per agent, host and millisecond (the raw table's key): 52 bits. */
function randomId(): number {
  return Math.floor(Math.random() * 2 ** 52)
}

/**
 * Per isolate: the sampling groups (agent, hour, verification, class) whose budget D1 said
 * was spent. Their raw rows would be turned away, so they are not sent at
 * all; D1 still decides, this only saves the bytes. Bounded, and only this
 * hour's and the last's are kept.
 */
const spent = new Set<string>()
const MAX_SPENT = 20_000

/** Marks a group spent once the raw rows its counters returned add up to its budget (other hosts' counters, not returned, only make it later). */
function noteSpent(rows: readonly { grp: string; sampled: number }[], budget: Budget): void {
  const kept = new Map<string, number>()
  for (const r of rows) kept.set(r.grp, (kept.get(r.grp) ?? 0) + r.sampled)
  for (const [grp, n] of kept) {
    const cls = grp.slice(grp.lastIndexOf('\n') + 1)
    if (n < (isCounted(cls) ? budget.violations : budget.other)) continue
    if (spent.size >= MAX_SPENT) spent.clear()
    spent.add(`${budget.key}\n${grp}`)
  }
}

const spentKey = (e: JudgedRequest, cls: string, budget: string) => `${budget}\n${agentKey(e.agent)}\n${hourOf(e.time)}\n${e.verification}\n${cls}`

/** One event as a set of statements binds it: its fact and, unless its sampling group is spent, its raw row, each as JSON. */
interface Bound {
  readonly e: JudgedRequest
  readonly fact: Fact
  readonly factJson: string
  readonly rawJson: string | null
}

function bound(e: JudgedRequest, budget: Budget): Bound {
  const base = toFact(e, null)
  // Only a genuine claim's disallowed request needs the previous version.
  const fact = base.c === null ? toFact(e, previousAllowed(e)) : base
  if (fact.c !== null && spent.has(spentKey(e, fact.c, budget.key))) return { e, fact, factJson: JSON.stringify(fact), rawJson: null }
  const row: Record<string, unknown> = { ...toEventRow(e), id: randomId(), known: fact.c, prev_allowed: fact.p }
  return { e, fact, factJson: JSON.stringify(fact), rawJson: JSON.stringify(RAW_ORDER.map((c) => row[c])) }
}

/** `all` cut into sets whose fact and raw strings each stay within CHUNK_CHARS. */
function chunksOf(all: readonly Bound[]): Bound[][] {
  const chunks: Bound[][] = []
  let chunk: Bound[] = []
  let facts = 2
  let raws = 2
  for (const b of all) {
    const f = b.factJson.length + 1
    const r = (b.rawJson?.length ?? 0) + 1
    if (chunk.length > 0 && (facts + f > CHUNK_CHARS || raws + r > CHUNK_CHARS)) {
      chunks.push(chunk)
      chunk = []
      facts = 2
      raws = 2
    }
    chunk.push(b)
    facts += f
    raws += r
  }
  if (chunk.length > 0) chunks.push(chunk)
  return chunks
}

/**
 * Whether a chunk's shapes are written as packs (a row per day, host, agent
 * and version, and its deletion when the cron folds it: about two rows per
 * key) rather than a row per path: when its distinct paths outnumber twice
 * its keys. A queue consumer's batch nearly always is; an isolate's write
 * of a request or two never is.
 */
function packed(chunk: readonly Bound[]): boolean {
  const keys = new Set<string>()
  const paths = new Set<string>()
  for (const { e, fact } of chunk) {
    if (e.type !== 'request' || e.verification === 'spoofed') continue
    const key = `${fact.a}\n${fact.h}\n${fact.r}\n${dayOf(fact.t)}`
    keys.add(key)
    paths.add(`${key}\n${fact.pa}`)
  }
  return paths.size > 2 * keys.size
}

const jsonArray = (items: readonly string[]) => `[${items.join(',')}]`

/** The statements for one chunk, and its facts (bound again to read back the classes SQL decided). */
function chunkStatements(db: D1Database, chunk: readonly Bound[], budget: Budget): { statements: D1PreparedStatement[]; facts: string; hourly: number } {
  const events = chunk.map((b) => b.e)
  let unsettled = false
  let disallowed = false
  let requests = false
  // The cron rolls up only hours that ended over an hour ago: requests of the
  // last two hours cannot be late, and most batches skip those statements.
  const lateBefore = hourOf(Date.now()) - HOUR_MS
  let late = false
  // Minutes are written for requests up to three hours old (ledger-sql.ts UPSERT_MINUTES): a late batch skips the statement.
  let recent = false
  for (const { e, fact } of chunk) {
    late ||= e.time < lateBefore
    recent ||= e.time >= lateBefore - 2 * HOUR_MS
    disallowed ||= e.type === 'request' && !e.allowed
    requests ||= e.type === 'request' && e.verification !== 'spoofed'
    unsettled ||= fact.c === null
  }
  const facts = jsonArray(chunk.map((b) => b.factJson))
  const raws = chunk.flatMap((b) => (b.rawJson === null ? [] : [b.rawJson]))
  // The per-path and per-rule statements read only the facts they count: fewer rows read.
  const disallowedFacts = disallowed ? jsonArray(chunk.filter((b) => b.fact.q === 1 && b.fact.c !== 'allowed').map((b) => b.factJson)) : '[]'
  const unsettledFacts = unsettled && late ? jsonArray(chunk.filter((b) => b.fact.c === null).map((b) => b.factJson)) : '[]'
  const statements = [db.prepare(TOUCH_VERSIONS).bind(JSON.stringify(versionDaysOf(events)))]
  if (raws.length > 0) statements.push(db.prepare(INSERT_RAW).bind(jsonArray(raws), budget.other, budget.violations))
  // Late requests first: their daily share of samples is read from counts_hourly as it was.
  if (late) statements.push(db.prepare(UPSERT_LATE_DAILY).bind(facts, budget.other, budget.violations), db.prepare(UPSERT_LATE_TIMELINE).bind(facts))
  const hourly = statements.push(db.prepare(UPSERT_COUNTS_HOURLY).bind(facts, budget.other, budget.violations)) - 1
  if (disallowed) statements.push(db.prepare(UPSERT_PATHS).bind(disallowedFacts, PATH_CAP))
  // A late request's day may be totalled already (shape_groups_daily), which only the packs are read beside.
  if (requests) statements.push(late || packed(chunk) ? db.prepare(INSERT_SHAPE_PACKS).bind(facts, randomId()) : db.prepare(UPSERT_SHAPE_PATHS).bind(facts))
  if (requests && recent) statements.push(db.prepare(UPSERT_MINUTES).bind(facts, lateBefore - 2 * HOUR_MS))
  // Violations per rule come from the shapes (the cron adds them up); only late requests are written per rule.
  if (unsettled && late) statements.push(db.prepare(UPSERT_LATE_RULES).bind(unsettledFacts))
  const groups = groupsOf(events)
  if (groups.length > 0) statements.push(db.prepare(INSERT_GROUPS).bind(JSON.stringify(groups)))
  return { statements, facts, hourly }
}

/**
 * Writes `events` in ONE `db.batch` (one transaction): who fetched which
 * robots.txt version first, then per request its class (src/ledger/classes.ts),
 * its raw row within the sampling budget, and the exact counters per hour,
 * path and rule (the cron rolls hours up into days, src/ledger/rollup.ts)
 * and the request shapes a replay of a changed policy reads (per day).
 * Rejects when D1 does; the recorder counts it. (Analytics Engine gets its
 * points from the edge when events are recorded, not from here.)
 *
 * @example
 * await writeEvents(env.DB, events)
 * @returns the number of events written.
 */
export async function writeEvents(db: D1Database, written: readonly JudgedRequest[], opts: WriteEventsOptions = {}): Promise<number> {
  // Counters, not requests: people's referrals (src/ledger/referrals.ts) and streamed bodies' bytes
  // (src/ledger/served.ts), in the same transaction, after the requests they add to.
  const counters = [referralStatement(db, written), bytesStatement(db, written)].filter((s) => s !== undefined)
  const events = counters.length === 0 ? written : written.filter((e) => e.type !== 'referral' && e.type !== 'bytes')
  if (events.length === 0) {
    if (counters.length > 0) await db.batch([...counters, ...(opts.also ?? [])])
    return written.length
  }
  const given = opts.sampleBudget === undefined ? undefined : Math.max(0, Math.trunc(opts.sampleBudget))
  const other = given ?? SAMPLE_BUDGET
  const violations = given ?? VIOLATION_SAMPLE_BUDGET
  const budget: Budget = { other, violations, key: `${other}/${violations}` }
  // Fetches first: a fetch counts from the moment it was recorded, for the
  // requests of this very batch too.
  const statements: D1PreparedStatement[] = [db.prepare(UPSERT_AGENTS).bind(JSON.stringify(agentsOf(events)))]
  const fetches = summariseFetches(events)
  if (fetches.length > 0) statements.push(db.prepare(UPSERT_FETCHES).bind(JSON.stringify(fetches)))
  const chunks = chunksOf(events.map((e) => bound(e, budget)))
  const hourly: number[] = []
  for (const chunk of chunks) {
    const prepared = chunkStatements(db, chunk, budget)
    hourly.push(statements.length + prepared.hourly)
    statements.push(...prepared.statements)
  }
  // Requests under a Crawl-delay: their times, measured by the cron across isolates.
  const times = crawlTimesStatement(db, events)
  if (times !== null) statements.push(times)
  const results = await db.batch([...statements, ...counters, ...(opts.also ?? [])])
  for (const k of hourly) noteSpent((results[k]?.results ?? []) as { grp: string; sampled: number }[], budget)
  return written.length
}
