import { registry, type AgentEntry } from '../agents/index.ts'

/**
 * Who the `*` group does not judge by default: fetchers acting
 * on one person's request, whose operators document that robots.txt does not
 * apply to such a fetch. RFC 9309 §2.2.1 makes `*` the group of every
 * crawler without one of its own, so every other automated client (crawlers
 * and generic tools such as curl, python-requests or Wget) answers to it.
 *
 * Derived from the registry: an agent whose operator says it does not apply
 * robots.txt (`obeysRobotsTxt: false`) and that acts for a person, meaning an
 * AI assistant's fetcher (ChatGPT-User, Perplexity-User, Meta's
 * externalfetcher...) or one of Google's user-triggered fetchers (Google says
 * "because the fetch was requested by a user, these fetchers generally
 * ignore robots.txt rules"). Crawlers that ignore robots.txt for other
 * reasons (an archiver, a security scanner) are not exempt: they are exactly
 * what a site owner wants to see.
 */

/** Whether the registry documents `entry` as a fetcher acting for one person, outside robots.txt. */
export function isUserTriggeredFetcher(entry: AgentEntry): boolean {
  if (entry.obeysRobotsTxt) return false
  return entry.category === 'AI Assistant' || entry.userTriggered === true
}

/**
 * The default of `guard.exempt`: each user-triggered fetcher's own token, lower case.
 *
 * @example
 * USER_TRIGGERED_FETCHERS.includes('chatgpt-user') // → true
 */
export const USER_TRIGGERED_FETCHERS: readonly string[] = Object.freeze((registry as readonly AgentEntry[]).filter(isUserTriggeredFetcher).map((entry) => entry.tokens[0]!))
