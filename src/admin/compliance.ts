/**
 * The evidence rule, pure: from one agent's counted requests to
 * its verdict and the sentence behind it.
 */
import type { AgentEvidence, AgentCompliance, ComplianceThresholds } from './types.ts'

/**
 * Judged requests below which a clean record proves little: an agent that
 * made five requests had few chances to stray. The same volume is needed
 * before violations by an agent never seen reading robots.txt say it ignores
 * the file (it may simply not have got to it yet).
 */
export const MIN_JUDGED_REQUESTS = 20
/** "Ignores robots.txt" needs at least this many counted violations... */
export const REPEATED_AT_LEAST = 3
/** ...making at least this share of the agent's judged requests; fewer are isolated violations. */
export const REPEATED_SHARE = 0.01

export const THRESHOLDS: ComplianceThresholds = {
  repeatedAtLeast: REPEATED_AT_LEAST, repeatedShare: REPEATED_SHARE, minRequests: MIN_JUDGED_REQUESTS, graceHours: 24,
}

export function plural(n: number, noun: string): string {
  return `${n.toLocaleString('en-US')} ${noun}${n === 1 ? '' : 's'}`
}

type Evidence = Pick<AgentEvidence, 'requests' | 'restricted'> & {
  readonly violations: Pick<AgentEvidence['violations'], 'afterFetch' | 'staleCopy' | 'neverFetched' | 'grace'> & { readonly newHost?: number }
}

/** What was not held against the agent, for the reason's tail. */
function excused(grace: number, newHost: number): string {
  const parts = [
    grace > 0 ? `${plural(grace, 'request')} within 24 h of a rule change` : '',
    newHost > 0 ? `${plural(newHost, 'request')} in the first 24 h robots-edge served the host` : '',
  ].filter(Boolean)
  return parts.length > 0 ? `; ${parts.join(' and ')} not counted` : ''
}

/**
 * The verdict and its reason, in order of the strength of the evidence:
 * 1. counted violations by an agent never seen fetching robots.txt, in fewer
 *    than MIN_JUDGED_REQUESTS requests: not enough data;
 * 2. fewer than REPEATED_AT_LEAST counted violations, or under REPEATED_SHARE
 *    of its requests: isolated violations (one stray request in 197 is not a
 *    pattern);
 * 3. otherwise: ignores robots.txt, after fetching it or without ever doing so;
 * 4. no counted violation in fewer than MIN_JUDGED_REQUESTS requests: not enough data;
 * 5. robots.txt disallowed nothing for it: nothing to ignore, so not enough data;
 * 6. otherwise it complies.
 */
export function complianceFor(ev: Evidence): { verdict: AgentCompliance; reason: string } {
  const { afterFetch, staleCopy, neverFetched, grace } = ev.violations
  const newHost = ev.violations.newHost ?? 0
  const read = afterFetch + staleCopy
  const counted = read + neverFetched
  if (counted > 0) {
    if (read === 0 && ev.requests < MIN_JUDGED_REQUESTS) {
      return { verdict: 'not enough data', reason: `only ${plural(ev.requests, 'judged request')} (${MIN_JUDGED_REQUESTS} needed), ${plural(counted, 'disallowed request')} without fetching robots.txt` }
    }
    if (counted < REPEATED_AT_LEAST || counted < REPEATED_SHARE * ev.requests) {
      return {
        verdict: 'isolated violations',
        reason: `${plural(counted, 'counted violation')} in ${plural(ev.requests, 'judged request')}: fewer than ${REPEATED_AT_LEAST}, or under ${REPEATED_SHARE * 100} % of its requests, is not a pattern`,
      }
    }
    if (read > 0) {
      // The reason names every counted violation, not only the ones after a
      // fetch, so it agrees with the violation count shown beside it.
      const before = neverFetched > 0 ? `, and ${neverFetched} more before any fetch` : ''
      return { verdict: 'ignores robots.txt', reason: `${plural(read, 'disallowed request')} after fetching robots.txt${before}` }
    }
    return { verdict: 'ignores robots.txt', reason: `${plural(neverFetched, 'disallowed request')} in ${plural(ev.requests, 'judged request')}, without fetching robots.txt for that host first` }
  }
  if (ev.requests < MIN_JUDGED_REQUESTS) {
    return { verdict: 'not enough data', reason: `only ${plural(ev.requests, 'judged request')} (${MIN_JUDGED_REQUESTS} needed)` }
  }
  if (!ev.restricted) return { verdict: 'not enough data', reason: 'robots.txt disallowed nothing for it, so there was nothing to ignore' }
  return { verdict: 'complies', reason: `${plural(ev.requests, 'judged request')} and no counted violation${excused(grace, newHost)}` }
}
