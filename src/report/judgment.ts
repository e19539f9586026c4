/**
 * The compliance judgment (issue 5 §2), pure: rows in, report out. A request
 * is a violation when the robots.txt in force for its host disallowed it for
 * that agent; what the agent could have known decides whether it counts.
 * No import from cloudflare:*, so it runs in plain Node too.
 */
import { compileRobotsTxt, type RobotsMatcher } from '../robots/index.ts'
import type {
  AgentEvidence, AgentReport, AgentTotalsRow, AgentVerdict, PathCount, Report, ReportInput, RuleCount,
  SpoofReport, VersionRow, ViolationClass, ViolationGroup,
} from './types.ts'

/**
 * RFC 9309 §2.4: a crawler SHOULD NOT use a cached robots.txt for more than
 * 24 hours. A request the previous version allowed, made within this long
 * after a change, may come from a legitimately cached copy.
 */
export const GRACE_MS = 24 * 3_600_000
/**
 * Judged requests below which a clean record proves little: an agent that
 * made five requests had few chances to stray. Direct evidence (a violation
 * after reading robots.txt) needs no such volume.
 */
export const MIN_JUDGED_REQUESTS = 20
/** Paths shown as examples per agent. */
export const EXAMPLE_PATHS = 5
/** Rows in topRules and topPaths. */
export const TOP_N = 10
/** Compiled versions kept per isolate: a report touches a handful. */
const COMPILED_VERSIONS = 16

const compiledCache = new Map<string, RobotsMatcher>()

/**
 * Compiles a version once and keeps the most recently used few (a 500 KiB
 * file costs a parse). A version hash names its text, so it is the whole key.
 */
function compiled(hash: string, text: string): RobotsMatcher {
  const hit = compiledCache.get(hash)
  if (hit) {
    compiledCache.delete(hash)
    compiledCache.set(hash, hit)
    return hit
  }
  const matcher = compileRobotsTxt(text)
  compiledCache.set(hash, matcher)
  if (compiledCache.size > COMPILED_VERSIONS) compiledCache.delete(compiledCache.keys().next().value as string)
  return matcher
}

/** The version served on `host` just before `hash` was first served, if any. */
export function previousVersion(versions: readonly VersionRow[], host: string, hash: string): VersionRow | undefined {
  const current = versions.find((v) => v.host === host && v.hash === hash)
  if (!current) return undefined
  let previous: VersionRow | undefined
  for (const v of versions) {
    if (v.host !== host || v.firstServed >= current.firstServed) continue
    if (!previous || v.firstServed > previous.firstServed) previous = v
  }
  return previous
}

/** Re-runs the engine on stored versions. Unknown text answers "no": absence of evidence excuses nothing. */
export function createRechecker(versions: readonly VersionRow[], texts: ReadonlyMap<string, string>) {
  return {
    /** Whether the version before the one in force allowed this request. */
    previousAllowed(g: Pick<ViolationGroup, 'host' | 'robotsVersion' | 'tokens' | 'path'>): boolean {
      const previous = previousVersion(versions, g.host, g.robotsVersion)
      if (!previous) return false
      const text = texts.get(previous.hash)
      return text !== undefined && compiled(previous.hash, text).check(g.tokens, g.path).allowed
    },
    /** Whether `group` of version `hash` disallows anything at all. */
    groupRestricts(hash: string, group: string): boolean {
      const text = texts.get(hash)
      if (text === undefined) return false
      return compiled(hash, text).model.groups.some(
        (g) => g.userAgents.some((ua) => ua.toLowerCase() === group) && g.rules.some((r) => r.type === 'disallow' && r.pattern !== ''),
      )
    },
  }
}

/**
 * Classifies one group of disallowed requests. Grace comes first, and only
 * for an agent not seen reading the new version: one that had fetched it
 * has no cached copy to excuse it.
 */
export function classifyViolation(g: ViolationGroup, previousAllowed: (g: ViolationGroup) => boolean): ViolationClass {
  if (g.inGraceWindow && !g.readVersion && previousAllowed(g)) return 'grace'
  if (g.readVersion) return 'afterFetch'
  if (g.readHost) return 'staleCopy'
  return 'neverFetched'
}

/**
 * The verdict and its reason, in order of the strength of the evidence:
 * 1. any counted violation after fetching robots.txt: it read the rules and broke them;
 * 2. counted violations without ever fetching it, over at least MIN_JUDGED_REQUESTS requests: it does not read them;
 * 3. fewer than MIN_JUDGED_REQUESTS judged requests: not enough data;
 * 4. robots.txt disallowed nothing for it: nothing to ignore, so not enough data;
 * 5. otherwise it complies.
 */
export function verdictFor(ev: Pick<AgentEvidence, 'requests' | 'violations' | 'restricted'>): { verdict: AgentVerdict; reason: string } {
  const { afterFetch, staleCopy, neverFetched, grace } = ev.violations
  if (afterFetch + staleCopy > 0) {
    // The reason names every counted violation, not only the ones after a fetch,
    // so it agrees with the violation count shown beside it.
    const before = neverFetched > 0 ? `, and ${neverFetched} more before any fetch` : ''
    return { verdict: 'ignores robots.txt', reason: `${plural(afterFetch + staleCopy, 'disallowed request')} after fetching robots.txt${before}` }
  }
  if (neverFetched > 0 && ev.requests >= MIN_JUDGED_REQUESTS) {
    return { verdict: 'ignores robots.txt', reason: `${plural(neverFetched, 'disallowed request')} in ${plural(ev.requests, 'judged request')}, without fetching robots.txt for that host first` }
  }
  if (ev.requests < MIN_JUDGED_REQUESTS) {
    return { verdict: 'not enough data', reason: `only ${plural(ev.requests, 'judged request')} (${MIN_JUDGED_REQUESTS} needed)` }
  }
  if (!ev.restricted) return { verdict: 'not enough data', reason: 'robots.txt disallowed nothing for it, so there was nothing to ignore' }
  const excused = grace > 0 ? `; ${plural(grace, 'request')} within 24 h of a rule change not counted` : ''
  return { verdict: 'complies', reason: `${plural(ev.requests, 'judged request')} and no counted violation${excused}` }
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`
}

function topKeys(counts: ReadonlyMap<string, number>, n: number): string[] {
  return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, n).map(([k]) => k)
}

/** A rule or path with its counted violations and the distinct agents behind them. */
interface RuleTally { rule: Omit<RuleCount, 'violations' | 'agents'>; violations: number; agents: Set<string> }
interface PathTally { path: Omit<PathCount, 'violations' | 'agents'>; violations: number; agents: Set<string> }

function getOr<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let value = map.get(key)
  if (value === undefined) map.set(key, (value = make()))
  return value
}

interface Tally {
  row: AgentTotalsRow
  classes: Record<ViolationClass, number>
  first: number | null
  last: number | null
  paths: Map<string, number>
  restricted: boolean
}

function emptyRow(agentKey: string, spoofed: boolean): AgentTotalsRow {
  return {
    agentKey, spoofed, agentId: null, operator: null, category: null, kind: null, declaredObeys: null,
    requests: 0, disallowed: 0, blocked: 0, verified: 0, robotsFetches: 0, lastRobotsFetch: null,
  }
}

function tallyOf(map: Map<string, Tally>, row: AgentTotalsRow): Tally {
  let t = map.get(row.agentKey)
  if (!t) {
    t = { row, classes: { afterFetch: 0, staleCopy: 0, neverFetched: 0, grace: 0 }, first: null, last: null, paths: new Map(), restricted: false }
    map.set(row.agentKey, t)
  }
  return t
}

function note(t: Tally, g: ViolationGroup): void {
  t.first = t.first === null ? g.first : Math.min(t.first, g.first)
  t.last = t.last === null ? g.last : Math.max(t.last, g.last)
  t.paths.set(g.path, (t.paths.get(g.path) ?? 0) + g.count)
}

/** Judges every agent in `input` and assembles the report. */
export function buildReport(input: ReportInput): Report {
  const real = new Map<string, Tally>()
  const spoofed = new Map<string, Tally>()
  for (const row of input.agents) tallyOf(row.spoofed ? spoofed : real, row)

  const recheck = createRechecker(input.versions, input.texts)
  const rules = new Map<string, RuleTally>()
  const paths = new Map<string, PathTally>()
  const timeline = new Map<number, { hour: number; violations: number; requests: number }>()
  const hourOf = (hour: number) => getOr(timeline, hour, () => ({ hour, violations: 0, requests: 0 }))
  for (const h of input.hourly) hourOf(h.hour).requests += h.requests

  for (const g of input.violations) {
    if (g.spoofed) {
      note(tallyOf(spoofed, emptyRow(g.agentKey, true)), g)
      continue
    }
    const t = tallyOf(real, emptyRow(g.agentKey, false))
    const cls = classifyViolation(g, recheck.previousAllowed)
    t.classes[cls] += g.count
    if (cls === 'grace') continue
    note(t, g)
    hourOf(g.hour).violations += g.count
    if (g.rule) {
      const { type, pattern, line } = g.rule
      const r = getOr(rules, `${g.host}\n${g.robotsVersion}\n${line}\n${type}\n${pattern}`, () => ({
        rule: { host: g.host, robotsVersion: g.robotsVersion, type, pattern, line }, violations: 0, agents: new Set<string>(),
      }))
      r.violations += g.count
      r.agents.add(g.agentKey)
    }
    const p = getOr(paths, `${g.host}\n${g.path}`, () => ({ path: { host: g.host, path: g.path }, violations: 0, agents: new Set<string>() }))
    p.violations += g.count
    p.agents.add(g.agentKey)
  }
  for (const use of input.groupUses) {
    const t = real.get(use.agentKey)
    if (t && !t.restricted) t.restricted = recheck.groupRestricts(use.robotsVersion, use.group)
  }

  const agents = [...real.values()].map(toAgentReport).sort(worstFirst)
  const spoofReports: SpoofReport[] = [...spoofed.values()].map((t) => ({
    agentKey: t.row.agentKey, operator: t.row.operator, requests: t.row.requests, violations: sum(t.paths.values()),
    firstViolation: t.first, lastViolation: t.last, examplePaths: topKeys(t.paths, EXAMPLE_PATHS),
  })).sort((a, b) => b.violations - a.violations || b.requests - a.requests)

  return {
    filter: input.filter,
    agents,
    spoofed: spoofReports,
    totals: {
      requests: sum(agents.map((a) => a.evidence.requests)),
      agents: agents.length,
      violations: sum(agents.map((a) => a.evidence.violations.counted)),
      grace: sum(agents.map((a) => a.evidence.violations.grace)),
      spoofedRequests: sum(spoofReports.map((s) => s.requests)),
      spoofedViolations: sum(spoofReports.map((s) => s.violations)),
      ignoring: agents.filter((a) => a.verdict === 'ignores robots.txt').length,
      truncated: input.truncated,
    },
    topRules: [...rules.values()].map((r) => ({ ...r.rule, violations: r.violations, agents: r.agents.size })).sort(byViolations).slice(0, TOP_N),
    topPaths: [...paths.values()].map((p) => ({ ...p.path, violations: p.violations, agents: p.agents.size })).sort(byViolations).slice(0, TOP_N),
    timeline: [...timeline.values()].sort((a, b) => a.hour - b.hour),
  }
}

function toAgentReport(t: Tally): AgentReport {
  const { row, classes } = t
  const evidence: AgentEvidence = {
    requests: row.requests,
    disallowed: row.disallowed,
    blocked: row.blocked,
    violations: { ...classes, counted: classes.afterFetch + classes.staleCopy + classes.neverFetched },
    firstViolation: t.first,
    lastViolation: t.last,
    examplePaths: topKeys(t.paths, EXAMPLE_PATHS),
    robotsFetches: row.robotsFetches,
    lastRobotsFetch: row.lastRobotsFetch,
    verifiedShare: row.requests > 0 ? row.verified / row.requests : 0,
    restricted: t.restricted,
  }
  return {
    agentKey: row.agentKey, agentId: row.agentId, operator: row.operator, category: row.category, kind: row.kind,
    declaredObeys: row.declaredObeys, ...verdictFor(evidence), evidence,
  }
}

function worstFirst(a: AgentReport, b: AgentReport): number {
  const ai = a.verdict === 'ignores robots.txt' ? 0 : 1
  const bi = b.verdict === 'ignores robots.txt' ? 0 : 1
  return ai - bi || b.evidence.violations.counted - a.evidence.violations.counted || b.evidence.requests - a.evidence.requests || (a.agentKey < b.agentKey ? -1 : 1)
}

function byViolations(a: { violations: number; agents: number }, b: { violations: number; agents: number }): number {
  return b.violations - a.violations || b.agents - a.agents
}

function sum(values: Iterable<number>): number {
  let total = 0
  for (const v of values) total += v
  return total
}
