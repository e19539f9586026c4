import type { Verification } from '../core/events.ts'
import type { IpRangeSet } from './ip-ranges.ts'
import { getAgent, registry } from '../core/agents/registry.ts'
import type { AgentEntry, IpRangeList } from '../core/agents/types.ts'

/**
 * Whether a request that names a known agent really comes from it.
 *
 * The rule, in order:
 * 1. No registry id (nothing was claimed): `unverified`.
 * 2. The operator publishes no IP list: `verified` when Cloudflare vouches
 *    for the client, else `unverified`. Operators that document only reverse
 *    DNS (`verification.reverseDns`) land here: a DNS round trip per request
 *    is too slow for the request path.
 * 3. The client IP is in one of the agent's loaded lists: `verified`. An
 *    agent may have several lists (Google's user-triggered fetchers come from
 *    three), and any one of them vouches.
 * 4. Every one of its lists is loaded and none holds the IP (or there is no
 *    IP): `spoofed`. The operator's own lists decide before Cloudflare's flag,
 *    because that flag (`request.cf.verifiedBotCategory`,
 *    `botManagement.verifiedBot`) says the client is *some* verified bot, not
 *    that it is the one its User-Agent names: a verified SEO crawler sending a
 *    Googlebot header is still no Googlebot.
 * 5. Some list that could vouch for it is not loaded (the cron has not
 *    stored it yet, or KV could not be read): `verified` when Cloudflare
 *    vouches, else `unknown`. Missing ranges are not an answer: a claim that
 *    cannot be checked is never counted for or against the operator.
 */

/** The parts of `request.cf` that carry Cloudflare's own bot verification. */
export interface CfBotSignals {
  readonly verifiedBotCategory?: string
  readonly botManagement?: { readonly verifiedBot?: boolean }
}

/**
 * Loaded IP-range lists keyed by list URL (`verification.ipRanges[].url`), since
 * several agents share one list (every Google common crawler uses common-crawlers.json)
 * and each list is fetched and stored once. A map or a lookup function; a list
 * that is missing is "not loaded".
 */
export type VerificationRanges = ReadonlyMap<string, IpRangeSet> | ((url: string) => IpRangeSet | undefined)

function distinctLists(): readonly IpRangeList[] {
  const byUrl = new Map<string, IpRangeList>()
  for (const entry of registry as readonly AgentEntry[]) {
    for (const list of entry.verification?.ipRanges ?? []) if (!byUrl.has(list.url)) byUrl.set(list.url, list)
  }
  return Object.freeze([...byUrl.values()])
}

/** Every distinct IP-range list the registry names, once each, in registry order. */
export const ipRangeLists: readonly IpRangeList[] = distinctLists()

/** The lists an agent's claim is checked against; empty when its operator publishes none. */
export function ipRangeListsOf(agentId: string): readonly IpRangeList[] {
  return getAgent(agentId)?.verification?.ipRanges ?? []
}

/**
 * Decide how far a claimed identity is confirmed (the rule is above). Pure and
 * synchronous: the ranges are loaded beforehand (src/verify/store/ip-ranges.ts).
 * An empty list counts as not loaded, so a list that parsed to nothing never
 * turns every real crawler into a spoofer. Never throws.
 *
 * @param agentId registry id from `identifyAgent(...)?.id`
 * @param ip the client address (`CF-Connecting-IP`), or null when unknown
 * @param cf `request.cf`
 * @example
 * verifyClaim('googlebot', '66.249.66.1', request.cf, await createIpRangeLoader()(env.ROBOTS_KV)) // → 'verified'
 */
export function verifyClaim(agentId: string | undefined, ip: string | null, cf: CfBotSignals | undefined, ranges: VerificationRanges): Verification {
  if (agentId === undefined) return 'unverified'
  const lists = ipRangeListsOf(agentId)
  if (lists.length === 0) return cloudflareVouches(cf) ? 'verified' : 'unverified'
  let missing = false
  for (const list of lists) {
    const set = typeof ranges === 'function' ? ranges(list.url) : ranges.get(list.url)
    if (set === undefined || set.size === 0) {
      missing = true
      continue
    }
    if (ip !== null && set.has(ip)) return 'verified'
  }
  if (!missing) return 'spoofed'
  return cloudflareVouches(cf) ? 'verified' : 'unknown'
}

/** Whether Cloudflare says the client is one of its verified bots (any of them: see rule 4 above). */
export function cloudflareVouches(cf: CfBotSignals | undefined): boolean {
  const category = cf?.verifiedBotCategory
  return (typeof category === 'string' && category.length > 0) || cf?.botManagement?.verifiedBot === true
}

/** The bot-verification fields of a request's `cf` object, when the runtime supplies one. */
export function cfOf(request: Request): CfBotSignals | undefined {
  return (request as { cf?: CfBotSignals }).cf
}
