/**
 * The compliance judgment, pure: counter rows in, report out. Each request's
 * class was fixed when it was recorded (src/ledger/classes.ts); here the
 * classes are only added up per agent and judged by the evidence rule
 * (src/admin/compliance.ts). No import from cloudflare:*, so it runs in plain
 * Node, over D1's counters and Analytics Engine's alike.
 */
import { compileRobotsTxt, type RobotsMatcher } from '../core/robots/index.ts'
import { GRACE_MS, isCounted, TOP_PATHS_CLASS } from '../ledger/classes.ts'
import type { AgentEvidence, AgentInfo, AgentReport, CounterRow, GraceWindow, PathCount, Report, ReportInput, SpoofReport, ViolationClass } from './types.ts'
import { COMPLIANCE_ORDER, complianceFor, pendingEnd, THRESHOLDS } from './compliance.ts'
import { withCrawlDelays } from './crawl-delay-verdict.ts'
import { operatorsOf } from './operators.ts'

export { GRACE_MS }
export { MIN_JUDGED_REQUESTS, complianceFor } from './compliance.ts'
/** Paths shown as examples per agent. */
export const EXAMPLE_PATHS = 5
/** Rows in topRules and topPaths. */
export const TOP_N = 10
/** Compiled versions kept per isolate: a report touches a handful. */
const COMPILED_VERSIONS = 16

const compiledCache = new Map<string, RobotsMatcher>()

/** Compiles a version once and keeps the most recently used few: a version hash names its text. */
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

/** Whether `group` of version `hash` disallows anything at all. Unknown text answers "no". */
export function groupRestricts(texts: ReadonlyMap<string, string>, hash: string, group: string): boolean {
  const text = texts.get(hash)
  if (text === undefined) return false
  return compiled(hash, text).model.groups.some((g) => g.userAgents.some((ua) => ua.toLowerCase() === group) && g.rules.some((r) => r.type === 'disallow' && r.pattern !== ''))
}

interface Tally {
  requests: number
  bytes: number
  pages: number
  disallowed: number
  blocked: number
  verified: number
  sampled: number
  fetches: number
  lastFetch: number | null
  first: number | null
  last: number | null
  lastSeen: number | null
  classes: Record<ViolationClass | 'unclassified', number>
}

function emptyTally(): Tally {
  return {
    requests: 0,
    bytes: 0,
    pages: 0,
    disallowed: 0,
    blocked: 0,
    verified: 0,
    sampled: 0,
    fetches: 0,
    lastFetch: null,
    first: null,
    last: null,
    lastSeen: null,
    classes: { afterFetch: 0, staleCopy: 0, neverFetched: 0, grace: 0, newHost: 0, unclassified: 0 },
  }
}

const max = (a: number | null, b: number) => (a === null ? b : Math.max(a, b))
const min = (a: number | null, b: number) => (a === null ? b : Math.min(a, b))

function add(t: Tally, row: CounterRow): void {
  t.lastSeen = max(t.lastSeen, row.last)
  t.sampled += row.sampled
  if (row.cls === 'robotsTxt') {
    t.fetches += row.requests
    t.lastFetch = max(t.lastFetch, row.last)
    return
  }
  t.requests += row.requests
  t.bytes += row.bytes ?? 0
  t.pages += row.pages ?? 0
  t.blocked += row.blocked
  if (row.verification === 'verified') t.verified += row.requests
  if (row.cls === 'allowed') return
  t.disallowed += row.requests
  if (row.cls in t.classes) t.classes[row.cls as ViolationClass] += row.requests
  // For spoofed and unchecked claims every disallowed request is a "violation" of the claim.
  if (isCounted(row.cls) || row.cls === 'spoofed' || row.cls === 'unknown') {
    t.first = min(t.first, row.first)
    t.last = max(t.last, row.last)
  }
}

function topKeys(counts: ReadonlyMap<string, number>, n: number): string[] {
  return [...counts]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, n)
    .map(([k]) => k)
}

function getOr<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let value = map.get(key)
  if (value === undefined) map.set(key, (value = make()))
  return value
}

/** Which side of the report a claim goes to. */
function sideOf(verification: string): 'real' | 'spoofed' | 'unchecked' {
  return verification === 'spoofed' ? 'spoofed' : verification === 'unknown' ? 'unchecked' : 'real'
}

/** Judges every agent in `input` and assembles the report. */
export function buildReport(input: ReportInput): Report {
  const info = new Map(input.agents.map((a) => [a.agentKey, a]))
  const sides = { real: new Map<string, Tally>(), spoofed: new Map<string, Tally>(), unchecked: new Map<string, Tally>() }
  for (const row of input.counts) add(getOr(sides[sideOf(row.verification)], row.agentKey, emptyTally), row)
  const isTool = (key: string) => info.get(key)?.kind === 'tool'

  // Example paths per agent and side; the most violated paths across crawlers.
  const examples = new Map<string, Map<string, number>>()
  const paths = new Map<string, { path: Omit<PathCount, 'violations' | 'agents'>; violations: number; agents: Set<string> }>()
  for (const p of input.paths) {
    if (p.path === '') continue
    const side = p.cls === 'spoofed' ? 'spoofed' : p.cls === 'unknown' ? 'unchecked' : isCounted(p.cls) || p.cls === TOP_PATHS_CLASS ? 'real' : null
    if (side === null) continue
    const counts = getOr(examples, `${side}\n${p.agentKey}`, () => new Map<string, number>())
    counts.set(p.path, (counts.get(p.path) ?? 0) + p.requests)
    if (side !== 'real' || isTool(p.agentKey)) continue
    const top = getOr(paths, `${p.host}\n${p.path}`, () => ({ path: { host: p.host, path: p.path }, violations: 0, agents: new Set<string>() }))
    top.violations += p.requests
    top.agents.add(p.agentKey)
  }
  const restricted = new Set<string>()
  for (const use of input.groupUses) {
    if (!restricted.has(use.agentKey) && groupRestricts(input.texts, use.robotsVersion, use.group)) restricted.add(use.agentKey)
  }

  const windows = new Map<string, GraceWindow[]>()
  for (const { agentKey, ...w } of input.graceWindows ?? []) getOr(windows, agentKey, () => []).push(w)

  const judged = withCrawlDelays(
    [...sides.real].map(([key, t]) => toAgentReport(key, t, info.get(key), examples.get(`real\n${key}`), restricted.has(key), windows.get(key) ?? [])),
    input.crawlDelays,
  )
  const agents = judged.filter((a) => a.kind !== 'tool').sort(worstFirst)
  const tools = judged.filter((a) => a.kind === 'tool').sort(worstFirst)
  const claims = (side: 'spoofed' | 'unchecked') =>
    [...sides[side]]
      .map(
        ([key, t]): SpoofReport => ({
          agentKey: key,
          operator: info.get(key)?.operator ?? null,
          requests: t.requests,
          violations: t.disallowed,
          firstViolation: t.first,
          lastViolation: t.last,
          examplePaths: topKeys(examples.get(`${side}\n${key}`) ?? new Map(), EXAMPLE_PATHS),
          lastSeen: t.lastSeen,
        }),
      )
      .sort((a, b) => b.violations - a.violations || b.requests - a.requests || (a.agentKey < b.agentKey ? -1 : 1))
  const spoofed = claims('spoofed')
  const unchecked = claims('unchecked')
  const sum = (list: readonly AgentReport[], f: (a: AgentReport) => number) => list.reduce((n, a) => n + f(a), 0)

  return {
    filter: input.filter,
    source: input.source,
    estimates: input.source === 'analytics-engine',
    agents,
    tools,
    spoofed,
    unchecked,
    operators: operatorsOf(agents, input.referrals ?? [], input.filter.agent !== undefined || input.filter.category !== undefined),
    totals: {
      requests: sum(agents, (a) => a.evidence.requests),
      agents: agents.length,
      violations: sum(agents, (a) => a.evidence.violations.counted),
      grace: sum(agents, (a) => a.evidence.violations.grace),
      newHost: sum(agents, (a) => a.evidence.violations.newHost),
      spoofedRequests: spoofed.reduce((n, s) => n + s.requests, 0),
      spoofedViolations: spoofed.reduce((n, s) => n + s.violations, 0),
      uncheckedRequests: unchecked.reduce((n, s) => n + s.requests, 0),
      uncheckedViolations: unchecked.reduce((n, s) => n + s.violations, 0),
      ignoring: agents.filter((a) => a.verdict === 'ignores robots.txt').length,
      isolated: agents.filter((a) => a.verdict === 'isolated violations').length,
      pending: agents.filter((a) => a.verdict === 'pending').length,
      tools: { agents: tools.length, requests: sum(tools, (a) => a.evidence.requests), violations: sum(tools, (a) => a.evidence.violations.counted) },
      truncated: false,
    },
    topRules: [...input.rules].sort(byViolations).slice(0, TOP_N),
    topPaths: [...paths.values()]
      .map((p) => ({ ...p.path, violations: p.violations, agents: p.agents.size }))
      .sort(byViolations)
      .slice(0, TOP_N),
    timeline: input.timeline,
    timelineBin: input.timelineBin,
    coverage: input.coverage,
    thresholds: THRESHOLDS,
  }
}

function toAgentReport(key: string, t: Tally, agent: AgentInfo | undefined, paths: ReadonlyMap<string, number> | undefined, restricted: boolean, windows: readonly GraceWindow[]): AgentReport {
  const { afterFetch, staleCopy, neverFetched, grace, newHost, unclassified } = t.classes
  const evidence: AgentEvidence = {
    requests: t.requests,
    bytes: t.bytes,
    pages: t.pages,
    disallowed: t.disallowed,
    blocked: t.blocked,
    violations: { afterFetch, staleCopy, neverFetched, grace, newHost, counted: afterFetch + staleCopy + neverFetched, unclassified },
    firstViolation: t.first,
    lastViolation: t.last,
    examplePaths: topKeys(paths ?? new Map(), EXAMPLE_PATHS),
    robotsFetches: t.fetches,
    lastRobotsFetch: t.lastFetch,
    verifiedShare: t.requests > 0 ? t.verified / t.requests : 0,
    restricted,
    sampled: t.sampled,
    graceWindows: [...windows].sort((a, b) => a.until - b.until || (a.host < b.host ? -1 : 1)),
    pendingUntil: null,
    pendingHost: null,
  }
  const { verdict, reason } = complianceFor(evidence)
  const end = verdict === 'pending' ? pendingEnd(evidence.graceWindows) : undefined
  return {
    agentKey: key,
    agentId: agent?.agentId ?? null,
    operator: agent?.operator ?? null,
    category: agent?.category ?? null,
    kind: agent?.kind ?? null,
    declaredObeys: agent?.declaredObeys ?? null,
    verdict,
    reason,
    evidence: end === undefined ? evidence : { ...evidence, pendingUntil: end.until, pendingHost: end.host },
    lastSeen: t.lastSeen,
  }
}

const excused = (a: AgentReport) => a.evidence.violations.grace + a.evidence.violations.newHost

function worstFirst(a: AgentReport, b: AgentReport): number {
  return (
    COMPLIANCE_ORDER.indexOf(a.verdict) - COMPLIANCE_ORDER.indexOf(b.verdict) ||
    b.evidence.violations.counted - a.evidence.violations.counted ||
    excused(b) - excused(a) ||
    b.evidence.requests - a.evidence.requests ||
    (a.agentKey < b.agentKey ? -1 : 1)
  )
}

function byViolations(a: { violations: number; agents: number }, b: { violations: number; agents: number }): number {
  return b.violations - a.violations || b.agents - a.agents
}
