import { getAgent, registry, type AgentIdentity } from '../agents/index.ts'
import { toRobotsModel, type GuardMode, type Policy } from '../config/index.ts'
import { compileRobotsTxt, type RobotsMatcher, type Verdict } from '../robots/index.ts'
import { checkEitherWay } from './readings.ts'

/** Names every browser-like header carries; a config group named after one would catch people. */
const GENERIC_NAMES = new Set(['mozilla', 'compatible', 'applewebkit', 'khtml', 'like', 'gecko', 'chrome', 'safari', 'mobile', 'version'])

/**
 * Tokens that name no client of their own (Google-Extended, Applebot-Extended):
 * their operators fetch as another agent, so a header naming one is no bot
 * of that name, and a group for one never refuses a request.
 */
export const CONTROL_ONLY: ReadonlySet<string> = new Set<string>(registry.filter((e) => 'hasOwnUserAgent' in e && e.hasOwnUserAgent === false).flatMap((e) => [...e.tokens]))

/**
 * How the config's own groups apply, which decides the guard's mode. Where
 * the deployment serves its rules (production), that is the served file.
 * Where it does not (staging, a preview host), the served file disallows
 * everything for `*`, and the guard still takes each agent's mode from the
 * group the config gives it: a group in `block` refuses what
 * the served file disallows, rather than everything falling back to the
 * file-wide mode.
 */
interface ConfigView {
  readonly matcher: RobotsMatcher
  modeFor(group: string | null): GuardMode
  /** `guard.exempt`, lower case. */
  readonly exempt: ReadonlySet<string>
}

const views = new WeakMap<Policy, ConfigView>()

function viewOf(policy: Policy): ConfigView {
  let view = views.get(policy)
  if (view !== undefined) return view
  const { config } = policy
  const exempt = new Set(config.guard.exempt.map((t) => t.toLowerCase()))
  if (config.indexable) {
    view = { matcher: policy.matcher, modeFor: policy.modeFor, exempt }
  } else {
    const modes = new Map<string, GuardMode>()
    for (const rule of config.rules) if (rule.guard !== undefined) for (const ua of rule.userAgent) modes.set(ua.toLowerCase(), rule.guard)
    view = {
      matcher: compileRobotsTxt(toRobotsModel({ ...config, indexable: true })),
      modeFor: (group) => (group === null ? config.guard.mode : (modes.get(group) ?? config.guard.mode)),
      exempt,
    }
  }
  views.set(policy, view)
  return view
}

/** The tokens a request's agent is judged by, and whether the `*` group may apply to it. */
export interface Selection {
  readonly tokens: readonly string[]
  readonly wildcard: boolean
}

/**
 * Whether the `*` group may judge a client (by registry id and tokens):
 * not an agent whose operator says it reads only groups naming it
 * (AdsBot), nor one whose own token (its registry token, or the tool's)
 * `guard.exempt` names.
 */
export function answersWildcard(id: string | undefined, tokens: readonly string[], exempt: ReadonlySet<string>): boolean {
  const entry = id === undefined ? undefined : getAgent(id)
  const own = entry?.tokens[0] ?? tokens[0]
  return entry?.ignoresWildcardGroup !== true && !(own !== undefined && exempt.has(own))
}

/**
 * Chooses the tokens as the crawler itself would read the file: its own
 * tokens, most specific first (with the fallbacks its operator documents),
 * then any other product name in its header that the config names as a
 * group (a custom bot named only in the config); else the `*` group.
 *
 * Every automated client, bot or generic tool, answers to `*` when no group
 * names it (RFC 9309 §2.2.1), except an agent whose operator says it reads
 * only groups naming it (AdsBot), the fetchers `guard.exempt` lists
 * (acting for one person) and a client `identifyAgent` marks `unidentified`:
 * those are judged only by a group that names them.
 */
export function selectTokens(identity: AgentIdentity, policy: Policy): Selection {
  const view = viewOf(policy)
  // A client that names itself as nothing (a lone app name, a runtime behind an app) may be a
  // person's app: the `*` group, written for crawlers, never judges it; a group naming it still does.
  const wildcard = identity.unidentified !== true && answersWildcard(identity.id, identity.tokens, view.exempt)
  return { tokens: withNamedGroups(identity.tokens, identity.names, view.matcher), wildcard }
}

/**
 * The tokens an agent is judged by: its own (a control-only name such as
 * Google-Extended names no client), then each other product name of its
 * header that `matcher`'s file names as a group.
 */
export function withNamedGroups(own: readonly string[], names: readonly string[], matcher: RobotsMatcher): string[] {
  const tokens = own.filter((t) => !CONTROL_ONLY.has(t))
  for (const name of names) {
    if (!GENERIC_NAMES.has(name) && !CONTROL_ONLY.has(name) && !tokens.includes(name) && matcher.groupFor(name) === name) tokens.push(name)
  }
  return tokens
}

/**
 * A client `identifyAgent` does not know and that does not call itself a
 * bot, but whose header starts with a product the config names as a group
 * (`AcmeFetcher/2.0` with a group for `AcmeFetcher`): a custom bot the site
 * owner declared. Browser-shaped headers (`Mozilla/...`) are never taken
 * for one, so people stay untouched whatever the config names.
 */
export function declaredBot(userAgent: string | undefined, policy: Policy): AgentIdentity | null {
  if (!userAgent || userAgent.startsWith('Mozilla/')) return null
  let end = 0
  while (end < userAgent.length && end < 64 && /[A-Za-z_-]/.test(userAgent[end]!)) end++
  if (end === 0) return null
  const name = userAgent.slice(0, end).toLowerCase()
  if (GENERIC_NAMES.has(name) || CONTROL_ONLY.has(name) || viewOf(policy).matcher.groupFor(name) !== name) return null
  return { tokens: [name], kind: 'bot', obeysRobotsTxt: true, names: [name] }
}

const NO_GROUP: Verdict = Object.freeze({ allowed: true, group: null, rule: null })

/**
 * The verdict the guard enforces for one identity: the served file, read
 * both ways (guard/readings.ts). `url` is the whole URL, or a path.
 *
 * @example
 * judge(policy, identifyAgent('curl/8.5.0')!, 'https://example.com/admin/') // { allowed: false, group: '*', rule: { ... } }
 */
export function judge(policy: Policy, identity: AgentIdentity, url: string): Verdict {
  return assess(policy, identity, url).verdict
}

/** The verdict for one identity and the guard's mode for it (the config's group). */
function assess(policy: Policy, identity: AgentIdentity, url: string): { verdict: Verdict; mode: GuardMode } {
  const view = viewOf(policy)
  const { tokens, wildcard } = selectTokens(identity, policy)
  const applies = (group: string | null) => group !== null && (group !== '*' || wildcard)
  const served = policy.matcher.groupFor(tokens)
  const verdict = applies(served) ? checkEitherWay(policy, tokens, url) : NO_GROUP
  if (policy.config.indexable) return { verdict, mode: view.modeFor(verdict.group) }
  const group = view.matcher.groupFor(tokens)
  return { verdict, mode: view.modeFor(applies(group) ? group : null) }
}

/** What the guard decided for one request. */
export interface Decision {
  /** The identity judged: of several crawlers the header names, the one with the stricter verdict. */
  readonly identity: AgentIdentity
  readonly verdict: Verdict
  readonly mode: GuardMode
  /** The other crawlers the header names, by registry id (else first token); empty for most headers. */
  readonly also: readonly string[]
}

/** Refusal beats a logged violation, which beats an allowed request, which beats one not judged. */
function severity(d: { verdict: Verdict; mode: GuardMode }): number {
  if (d.mode === 'off') return 0
  if (d.verdict.allowed) return 1
  return d.mode === 'block' ? 3 : 2
}

/** How an event names an agent beside the one judged: registry id, else first token, else first name. */
export const agentKey = (identity: AgentIdentity): string => identity.id ?? identity.tokens[0] ?? identity.names[0] ?? 'unknown'

/**
 * Judges a request. A header that names several unrelated registry crawlers
 * (`Googlebot/2.1 GPTBot/1.1`, `identity.others`) is judged as each of them,
 * and the stricter verdict applies: naming a lenient crawler
 * beside a refused one gains a client nothing. Ties go to the identity
 * `identifyAgent` chose.
 *
 * @example
 * decide(policy, identifyAgent('Googlebot/2.1 GPTBot/1.1')!, 'https://example.com/articles/1')
 * // { identity: { id: 'gptbot', ... }, verdict: { allowed: false, group: 'gptbot', ... }, mode: 'block', also: ['googlebot'] }
 */
export function decide(policy: Policy, identity: AgentIdentity, url: string): Decision {
  const own = assess(policy, identity, url)
  const others = identity.others
  if (others === undefined || others.length === 0) return { identity, verdict: own.verdict, mode: own.mode, also: NONE }
  let best: Decision = { identity, verdict: own.verdict, mode: own.mode, also: NONE }
  for (const other of others) {
    const next = assess(policy, other, url)
    if (severity(next) > severity(best)) best = { identity: other, verdict: next.verdict, mode: next.mode, also: NONE }
  }
  const chosen = agentKey(best.identity)
  const also = [...new Set([identity, ...others].map(agentKey))].filter((key) => key !== chosen)
  return { ...best, also }
}

const NONE: readonly string[] = Object.freeze([])
