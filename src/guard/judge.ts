import { getAgent, registry, type AgentIdentity } from '../bots/index.ts'
import type { Policy } from '../config/index.ts'
import type { Verdict } from '../robots/index.ts'

/** Names every browser-like header carries; a config group named after one would catch people. */
const GENERIC_NAMES = new Set(['mozilla', 'compatible', 'applewebkit', 'khtml', 'like', 'gecko', 'chrome', 'safari', 'mobile', 'version'])

/** The tokens a request's agent is judged by, and whether the `*` group may apply to it. */
export interface Selection {
  readonly tokens: readonly string[]
  readonly wildcard: boolean
}

/**
 * Chooses the tokens as the crawler itself would read the served file: its
 * own tokens, most specific first (with the fallbacks its operator
 * documents), then any other product name in its header that the file names
 * as a group (a custom bot named only in the config); else the `*` group.
 *
 * The `*` group does not apply to an agent whose operator says it reads only
 * groups naming it (AdsBot), nor to one whose operator says it does not
 * apply robots.txt at all (fetchers acting for one person): those are judged
 * only by a group that names them.
 */
export function selectTokens(identity: AgentIdentity, policy: Policy): Selection {
  // A header claiming a control-only name (Google-Extended) is no such client.
  const tokens = identity.tokens.filter((t) => !CONTROL_ONLY.has(t))
  for (const name of identity.names) {
    if (!GENERIC_NAMES.has(name) && !CONTROL_ONLY.has(name) && !tokens.includes(name) && policy.matcher.groupFor(name) === name) tokens.push(name)
  }
  const entry = identity.id === undefined ? undefined : getAgent(identity.id)
  const wildcard = identity.obeysRobotsTxt && entry?.ignoresWildcardGroup !== true
  return { tokens, wildcard }
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
  if (GENERIC_NAMES.has(name) || CONTROL_ONLY.has(name) || policy.matcher.groupFor(name) !== name) return null
  return { tokens: [name], kind: 'bot', obeysRobotsTxt: true, names: [name] }
}

/**
 * Tokens that name no client of their own (Google-Extended, Applebot-Extended):
 * their operators fetch as another agent, so a header naming one is no bot
 * of that name, and a group for one never refuses a request.
 */
const CONTROL_ONLY = new Set<string>(registry.filter((e) => 'hasOwnUserAgent' in e && e.hasOwnUserAgent === false).flatMap((e) => [...e.tokens]))

const NO_GROUP: Verdict = Object.freeze({ allowed: true, group: null, rule: null })

/** The verdict for one request: the same compiled matcher that produced the served robots.txt. */
export function judge(policy: Policy, identity: AgentIdentity, url: string): Verdict {
  const { tokens, wildcard } = selectTokens(identity, policy)
  const group = policy.matcher.groupFor(tokens)
  if (group === null || (group === '*' && !wildcard)) return NO_GROUP
  return policy.matcher.check(tokens, url)
}
