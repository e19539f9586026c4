/**
 * The evidence rule, pure: from one agent's counted requests to its
 * compliance and the sentence behind it.
 */
import type { AgentCompliance, AgentEvidence, ComplianceThresholds, GraceWindow } from './types.ts'

/** Compliance values in the order the report ranks them, worst first. */
export const COMPLIANCE_ORDER: readonly AgentCompliance[] = ['ignores robots.txt', 'isolated violations', 'pending', 'complies', 'not enough data']

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
  repeatedAtLeast: REPEATED_AT_LEAST,
  repeatedShare: REPEATED_SHARE,
  minRequests: MIN_JUDGED_REQUESTS,
  graceHours: 24,
}

export function plural(n: number, noun: string): string {
  return `${n.toLocaleString('en-US')} ${noun}${n === 1 ? '' : 's'}`
}

type Evidence = Pick<AgentEvidence, 'requests' | 'restricted'> & {
  readonly violations: Pick<AgentEvidence['violations'], 'afterFetch' | 'staleCopy' | 'neverFetched' | 'grace'> & { readonly newHost?: number }
  /** Default: none known (the reason then names no time). */
  readonly graceWindows?: readonly GraceWindow[]
}

/** A time as the report's sentences write it, "2026-11-28 02:10 UTC": rounded up to the minute, so nothing before it still counts as grace. */
export function utcMinute(ms: number): string {
  return `${new Date(Math.ceil(ms / 60_000) * 60_000).toISOString().slice(0, 16).replace('T', ' ')} UTC`
}

/** Windows the agent has not been seen on since they ended: what keeps it pending. */
export function openWindows(windows: readonly GraceWindow[]): GraceWindow[] {
  return windows.filter((w) => !w.seenSince)
}

/** When disallowed requests start to count again: the open window that ends first, with its host. */
export function pendingEnd(windows: readonly GraceWindow[]): GraceWindow | undefined {
  return openWindows(windows).reduce<GraceWindow | undefined>((first, w) => (first === undefined || w.until < first.until ? w : first), undefined)
}

/**
 * Whether every excused request lies in a window the agent has been seen on
 * since it ended. Unknown windows (Analytics Engine, a pruned version) settle
 * nothing: a grace period never clears on its own.
 */
function settled(excused: number, windows: readonly GraceWindow[]): boolean {
  return windows.reduce((n, w) => n + w.requests, 0) >= excused && openWindows(windows).length === 0
}

/** The disallowed requests a grace period excused: "60 disallowed requests in the host's first 24 h". */
function excusedRequests(grace: number, newHost: number, windows: readonly GraceWindow[]): string {
  const hosts = (cls: GraceWindow['cls']) => new Set(windows.filter((w) => w.cls === cls).map((w) => w.host)).size
  const firstDay = `in ${hosts('newHost') > 1 ? `the first 24 h of ${hosts('newHost')} hosts` : "the host's first 24 h"}`
  const ruleChange = `within 24 h of a rule change${hosts('grace') > 1 ? ` (on ${hosts('grace')} hosts)` : ''}`
  if (newHost > 0 && grace > 0) return `${plural(newHost, 'disallowed request')} ${firstDay} and ${grace.toLocaleString('en-US')} ${ruleChange}`
  return `${plural(newHost + grace, 'disallowed request')} ${newHost > 0 ? firstDay : ruleChange}`
}

/**
 * When excused requests would count: "judged from 2026-11-28 02:10 UTC if
 * they go on". With several hosts, the earliest end, and its host.
 */
function judgedFrom(windows: readonly GraceWindow[]): string {
  const end = pendingEnd(windows)
  if (end === undefined) return 'judged once the 24 h grace ends, if they go on'
  const hosts = (list: readonly GraceWindow[]) => new Set(list.map((w) => w.host)).size
  const earliest = hosts(openWindows(windows)) > 1 ? ' (the earliest of its hosts)' : ''
  const where = hosts(windows) > 1 ? ` on ${end.host}${earliest}` : ''
  return `judged from ${utcMinute(end.until)}${where} if they go on`
}

/**
 * The verdict and its reason, in order of the strength of the evidence:
 * 1. counted violations by an agent never seen fetching robots.txt, in fewer
 *    than MIN_JUDGED_REQUESTS requests: not enough data;
 * 2. fewer than REPEATED_AT_LEAST counted violations, or under REPEATED_SHARE
 *    of its requests: isolated violations (one stray request in 197 is not a
 *    pattern);
 * 3. otherwise: ignores robots.txt, after fetching it or without ever doing so;
 * 4. no counted violation, but disallowed requests in a grace period it has
 *    not been seen on since that period ended: pending. The grace periods
 *    keep a crawler on a cached copy from being accused (RFC 9309 §2.4); they
 *    never clear it, whatever the volume: only its requests after them can;
 * 5. no counted violation in fewer than MIN_JUDGED_REQUESTS requests: not enough data;
 * 6. robots.txt disallowed nothing for it: nothing to ignore, so not enough data;
 * 7. otherwise it complies.
 * Reasons of 1 and 2 also name the requests still waiting in a grace period.
 */
export function complianceFor(ev: Evidence): { verdict: AgentCompliance; reason: string } {
  const { afterFetch, staleCopy, neverFetched, grace } = ev.violations
  const newHost = ev.violations.newHost ?? 0
  const windows = ev.graceWindows ?? []
  const read = afterFetch + staleCopy
  const counted = read + neverFetched
  const excused = grace + newHost
  const done = settled(excused, windows)
  const more = excused > 0 ? `; ${plural(excused, 'more disallowed request')} in a grace period, ${done ? 'not counted' : judgedFrom(windows)}` : ''
  if (counted > 0) {
    if (read === 0 && ev.requests < MIN_JUDGED_REQUESTS) {
      return {
        verdict: 'not enough data',
        reason: `only ${plural(ev.requests, 'judged request')} (${MIN_JUDGED_REQUESTS} needed), ${plural(counted, 'disallowed request')} without fetching robots.txt${more}`,
      }
    }
    if (counted < REPEATED_AT_LEAST || counted < REPEATED_SHARE * ev.requests) {
      return {
        verdict: 'isolated violations',
        reason: `${plural(counted, 'counted violation')} in ${plural(ev.requests, 'judged request')}: fewer than ${REPEATED_AT_LEAST}, or under ${REPEATED_SHARE * 100} % of its requests, is not a pattern${more}`,
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
  if (excused > 0 && !done) return { verdict: 'pending', reason: `${excusedRequests(grace, newHost, windows)}; ${judgedFrom(windows)}` }
  if (ev.requests < MIN_JUDGED_REQUESTS) {
    return { verdict: 'not enough data', reason: `only ${plural(ev.requests, 'judged request')} (${MIN_JUDGED_REQUESTS} needed)` }
  }
  if (!ev.restricted) return { verdict: 'not enough data', reason: 'robots.txt disallowed nothing for it, so there was nothing to ignore' }
  const since = excused > 0 ? `; ${excusedRequests(grace, newHost, windows)} not counted, none since` : ''
  return { verdict: 'complies', reason: `${plural(ev.requests, 'judged request')} and no counted violation${since}` }
}
