/**
 * The replay of a changed policy: the request shapes the ledger
 * recorded (host, agent tokens, path, robots.txt version, with the requests
 * behind each), each judged once by the robots.txt it is compared with and
 * once by the candidate, the way the guard judges a request
 * (src/core/judge/judge.ts): the agent's own tokens, the `*` group unless the
 * agent does not answer to it, the path read both ways (guard/readings.ts).
 * Pure: the D1 reads are in impact-queries.ts, so it is tested in Node.
 */
import { getAgent } from '../core/agents/index.ts'
import { answersWildcard, withNamedGroups } from '../core/judge/judge.ts'
import { checkEitherWay } from '../core/judge/readings.ts'
import type { DecidingRule, RobotsMatcher, Verdict } from '../core/robots/index.ts'

/** Requests one agent made to one path of one host under one robots.txt version. */
export interface ImpactShape {
  readonly host: string
  readonly agentKey: string
  /** Lower-case product tokens, most specific first. */
  readonly tokens: readonly string[]
  /** The robots.txt version in force when the requests were made. */
  readonly version: string
  readonly path: string
  readonly requests: number
}

export interface ImpactAgentInfo {
  readonly agentId: string | null
  readonly kind: string | null
  readonly operator: string | null
  readonly category: string | null
}

/** A robots.txt to judge by: its version (content hash) and its matcher. */
export interface JudgedBy {
  readonly version: string
  readonly matcher: RobotsMatcher
}

export interface ReplayInput {
  readonly shapes: readonly ImpactShape[]
  /** All requests per host and agent in the range, replayed or not: the share's denominator. */
  readonly totals: readonly { readonly host: string; readonly agentKey: string; readonly requests: number }[]
  readonly agents: ReadonlyMap<string, ImpactAgentInfo>
  /** The robots.txt a shape is compared with (the one served now, or the one in force then); null when its text is not stored. */
  before(shape: ImpactShape): JudgedBy | null
  /** The candidate robots.txt for a host; null when none was given for it. */
  after(host: string): JudgedBy | null
  /** `guard.exempt`, lower case: clients the `*` group does not judge. */
  readonly exempt: ReadonlySet<string>
  /** Protected agents' tokens, lower case; `*` protects every agent. */
  readonly protect: ReadonlySet<string>
}

/** Which group and rule decided, in which version. */
export interface Decision {
  readonly version: string
  readonly group: string | null
  readonly rule: DecidingRule | null
}

/** Requests whose verdict changes the same way, by the same two rules. */
export interface VerdictChange {
  readonly host: string
  readonly before: Decision
  readonly after: Decision
  readonly requests: number
  /** The distinct paths behind them, most requested first (at most MAX_PATHS). */
  readonly paths: readonly { readonly path: string; readonly requests: number }[]
  readonly pathCount: number
}

/** Requests that become disallowed (`lost`) or allowed (`gained`). */
export interface ImpactDirection {
  readonly requests: number
  /** Of all the agent's requests in the range. */
  readonly share: number
  /** Distinct (host, path) pairs. */
  readonly paths: number
  /** Worst first (at most MAX_CHANGES; `requests` and `paths` count them all). */
  readonly changes: readonly VerdictChange[]
}

export interface AgentImpact extends ImpactAgentInfo {
  readonly agentKey: string
  readonly protected: boolean
  /** All its requests in the range. */
  readonly requests: number
  /** Of them, judged again (the rest were beyond the ledger's caps, or have no robots.txt to compare with). */
  readonly replayed: number
  readonly lost: ImpactDirection
  readonly gained: ImpactDirection
}

export interface ReplayResult {
  /** Worst first: protected agents losing access, then the most requests lost, then gained. */
  readonly agents: readonly AgentImpact[]
  readonly summary: {
    readonly agents: number
    /** Agents whose access changes at all. */
    readonly changed: number
    readonly requests: number
    readonly replayed: number
    readonly shapes: number
    readonly lost: number
    readonly gained: number
    /** Protected agents that lose access to paths they crawled. */
    readonly protectedLosing: readonly string[]
  }
  /** Requests not replayed for want of a robots.txt: hosts without a candidate, or a version whose text is gone. */
  readonly skipped: readonly { readonly host: string; readonly requests: number; readonly reason: 'no candidate' | 'no stored version' }[]
}

export const MAX_PATHS = 20
export const MAX_CHANGES = 50

const NO_GROUP: Verdict = { allowed: true, group: null, rule: null }

/**
 * The verdict for a shape's agent and path in one file, as the guard gives
 * it for a request from that agent (src/core/judge/judge.ts): its own tokens,
 * then the names it sends that the file names as a group, else `*` unless
 * the agent does not answer to it; no group allows. The header is not kept,
 * so the names are the registry's (its tokens and the names it sends): a
 * user-triggered fetcher (ChatGPT-User) obeys no token of its own, yet a
 * group naming it judges it.
 *
 * @example
 * judgeShape(compileRobotsTxt('User-agent: ChatGPT-User\nDisallow: /\n'), { tokens: [], path: '/x' }, 'chatgpt-user', new Set(['chatgpt-user'])).allowed // false
 */
export function judgeShape(matcher: RobotsMatcher, shape: Pick<ImpactShape, 'tokens' | 'path'>, agentId: string | undefined, exempt: ReadonlySet<string>): Verdict {
  const entry = agentId === undefined ? undefined : getAgent(agentId)
  const tokens = withNamedGroups(shape.tokens, entry ? [...entry.tokens, ...entry.uaNames.map((n) => n.toLowerCase())] : [], matcher)
  const group = matcher.groupFor(tokens)
  if (group === null || (group === '*' && !answersWildcard(agentId, shape.tokens, exempt))) return NO_GROUP
  return checkEitherWay({ matcher }, tokens, shape.path)
}

/** Whether `protect` names the agent: its key, or its own (first) token. */
function isProtected(agentKey: string, tokens: readonly string[], protect: ReadonlySet<string>): boolean {
  return protect.has('*') || protect.has(agentKey) || (tokens[0] !== undefined && protect.has(tokens[0]))
}

interface Tally {
  requests: number
  paths: Set<string>
  changes: Map<string, { change: Omit<VerdictChange, 'paths' | 'pathCount' | 'requests'>; requests: number; paths: Map<string, number> }>
}

const tally = (): Tally => ({ requests: 0, paths: new Set(), changes: new Map() })

function direction(t: Tally, total: number): ImpactDirection {
  const changes = [...t.changes.values()]
    .sort((a, b) => b.requests - a.requests)
    .slice(0, MAX_CHANGES)
    .map(({ change, requests, paths }) => ({
      ...change,
      requests,
      pathCount: paths.size,
      paths: [...paths]
        .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
        .slice(0, MAX_PATHS)
        .map(([path, n]) => ({ path, requests: n })),
    }))
  return { requests: t.requests, share: total > 0 ? t.requests / total : 0, paths: t.paths.size, changes }
}

const decision = (by: JudgedBy, v: Verdict): Decision => ({ version: by.version, group: v.group, rule: v.rule })

function note(t: Tally, shape: ImpactShape, before: Decision, after: Decision): void {
  t.requests += shape.requests
  t.paths.add(`${shape.host}\n${shape.path}`)
  const key = `${shape.host}\n${before.version}\n${before.group}\n${before.rule?.line}\n${after.group}\n${after.rule?.line}`
  let entry = t.changes.get(key)
  if (!entry) t.changes.set(key, (entry = { change: { host: shape.host, before, after }, requests: 0, paths: new Map() }))
  entry.requests += shape.requests
  entry.paths.set(shape.path, (entry.paths.get(shape.path) ?? 0) + shape.requests)
}

/**
 * Judges every shape by its `before` and `after` robots.txt and adds up,
 * per agent, the requests that become disallowed or allowed, by the rules
 * that decide them, with the distinct paths behind them and their share of
 * the agent's requests. Each shape costs two matcher checks, whatever the
 * number of requests behind it.
 *
 * @example
 * replayImpact({ shapes, totals, agents, before: () => served, after: () => candidate, exempt, protect })
 *   .summary.protectedLosing // ['googlebot', 'bingbot']
 */
export function replayImpact(input: ReplayInput): ReplayResult {
  const perAgent = new Map<string, { requests: number; replayed: number; tokens: readonly string[]; lost: Tally; gained: Tally }>()
  const agentOf = (key: string, tokens: readonly string[]) => {
    let a = perAgent.get(key)
    if (!a) perAgent.set(key, (a = { requests: 0, replayed: 0, tokens, lost: tally(), gained: tally() }))
    return a
  }
  for (const t of input.totals) agentOf(t.agentKey, []).requests += t.requests
  const skipped = new Map<string, { host: string; requests: number; reason: 'no candidate' | 'no stored version' }>()
  for (const shape of input.shapes) {
    const a = agentOf(shape.agentKey, shape.tokens)
    if (a.tokens.length === 0) a.tokens = shape.tokens
    const before = input.before(shape)
    const after = input.after(shape.host)
    if (!before || !after) {
      const reason = after ? 'no stored version' : 'no candidate'
      const s = skipped.get(`${shape.host}\n${reason}`) ?? { host: shape.host, requests: 0, reason }
      s.requests += shape.requests
      skipped.set(`${shape.host}\n${reason}`, s)
      continue
    }
    a.replayed += shape.requests
    const id = input.agents.get(shape.agentKey)?.agentId ?? undefined
    const was = judgeShape(before.matcher, shape, id, input.exempt)
    const will = judgeShape(after.matcher, shape, id, input.exempt)
    if (was.allowed === will.allowed) continue
    note(was.allowed ? a.lost : a.gained, shape, decision(before, was), decision(after, will))
  }
  const agents: AgentImpact[] = [...perAgent].map(([agentKey, a]) => {
    const info = input.agents.get(agentKey)
    const requests = Math.max(a.requests, a.replayed)
    return {
      agentKey,
      agentId: info?.agentId ?? null,
      kind: info?.kind ?? null,
      operator: info?.operator ?? null,
      category: info?.category ?? null,
      protected: isProtected(agentKey, a.tokens, input.protect),
      requests,
      replayed: a.replayed,
      lost: direction(a.lost, requests),
      gained: direction(a.gained, requests),
    }
  })
  agents.sort(worstFirst)
  const sum = (f: (a: AgentImpact) => number) => agents.reduce((n, a) => n + f(a), 0)
  return {
    agents,
    summary: {
      agents: agents.length,
      changed: agents.filter((a) => a.lost.requests > 0 || a.gained.requests > 0).length,
      requests: sum((a) => a.requests),
      replayed: sum((a) => a.replayed),
      shapes: input.shapes.length,
      lost: sum((a) => a.lost.requests),
      gained: sum((a) => a.gained.requests),
      protectedLosing: agents.filter((a) => a.protected && a.lost.requests > 0).map((a) => a.agentKey),
    },
    skipped: [...skipped.values()],
  }
}

function worstFirst(a: AgentImpact, b: AgentImpact): number {
  const losing = (x: AgentImpact) => (x.protected && x.lost.requests > 0 ? 1 : 0)
  return losing(b) - losing(a) || b.lost.requests - a.lost.requests || b.gained.requests - a.gained.requests || b.requests - a.requests || (a.agentKey < b.agentKey ? -1 : 1)
}

/** What a replay could not judge again, and why. */
export interface EstimateFacts {
  /** Requests recorded beyond SHAPE_CAP distinct paths per agent, host and day before shapes were kept uncapped (rows under path '', not replayed). */
  readonly beyondCap: number
  readonly shapeCap: number
  /** Requests whose shapes were beyond the most one replay reads (not replayed). */
  readonly beyondRead: number
  readonly maxShapes: number
  /** Shapes are kept from this time on (ms; 0: since the ledger began). */
  readonly shapesSince: number
  /**
   * Requests judged exactly per path group (`/articles/*`): groups whose
   * paths no rule of either file tells apart, judged once each (`groups`).
   */
  readonly grouped?: number
  readonly groups?: number
}

/** The literal a rule pattern starts with (before any `*` or a final `$`), and whether anything follows it. */
function leadingLiteral(pattern: string): { literal: string; rest: boolean } {
  const star = pattern.indexOf('*')
  const literal = star >= 0 ? pattern.slice(0, star) : pattern.endsWith('$') ? pattern.slice(0, -1) : pattern
  // `L*` (stars only after the literal) matches what `L` matches.
  const rest = star >= 0 ? !/^\**$/.test(pattern.slice(star)) : pattern.endsWith('$')
  return { literal, rest }
}

/**
 * Whether every rule of every group in `matcher` matches either all plain
 * paths that start with `prefix` or none of them: then one check of the
 * prefix gives every such path's verdict (RFC 9309 §2.2.2: rules match as
 * prefixes, the longest match wins, so the same rules match, with the same
 * lengths). A rule that reaches into the group (longer than the prefix, or
 * with a wildcard or `$` after a literal the prefix starts with) splits it;
 * so does any escape or non-ASCII octet, which the engine normalises.
 */
export function uniformOver(matcher: RobotsMatcher, prefix: string): boolean {
  for (const group of matcher.model.groups) {
    for (const rule of group.rules) {
      if (rule.pattern === '') continue
      if (/[^ -~]|%/.test(rule.pattern)) return false
      const { literal, rest } = leadingLiteral(rule.pattern)
      if (prefix.startsWith(literal)) {
        if (rest) return false
      } else if (literal.startsWith(prefix)) return false
    }
  }
  return true
}
