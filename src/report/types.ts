/**
 * Shapes of the compliance report: what the judgment reads (rows the
 * queries load) and what it returns. Plain data, no I/O, so the judgment
 * runs in plain Node.
 */

/** The plain answer per agent. */
export type AgentVerdict = 'ignores robots.txt' | 'complies' | 'not enough data'

/**
 * Why a disallowed request was made, as far as the ledger can tell:
 * - `afterFetch`: the agent (or its operator) had fetched the version in force: it read the rules and ignored them.
 * - `staleCopy`: it had fetched only an earlier version for this host, and the grace period does not apply.
 * - `neverFetched`: it had never been seen fetching robots.txt for this host.
 * - `grace`: within 24 h of a rule change the previous version allowed it (RFC 9309 §2.4 caching): not counted.
 */
export type ViolationClass = 'afterFetch' | 'staleCopy' | 'neverFetched' | 'grace'

/** Report filters. Times are ms since the epoch; `since` inclusive, `until` exclusive. */
export interface ReportFilter {
  since: number
  until: number
  host?: string
  /** Agent key (registry id, else first token, else `unknown`). */
  agent?: string
  category?: string
}

/** Per agent (and whether the claim was spoofed): counts over the report's range. */
export interface AgentTotalsRow {
  readonly agentKey: string
  readonly spoofed: boolean
  readonly agentId: string | null
  readonly operator: string | null
  readonly category: string | null
  readonly kind: string | null
  /** What the registry says of the agent; null when requests disagree or it is unknown. */
  readonly declaredObeys: boolean | null
  readonly requests: number
  readonly disallowed: number
  readonly blocked: number
  readonly verified: number
  readonly robotsFetches: number
  readonly lastRobotsFetch: number | null
}

/** Identical disallowed requests within one hour, with what the ledger knew when they were made. */
export interface ViolationGroup {
  readonly agentKey: string
  readonly spoofed: boolean
  readonly host: string
  readonly robotsVersion: string
  readonly tokens: readonly string[]
  readonly path: string
  readonly rule: { readonly type: 'allow' | 'disallow'; readonly pattern: string; readonly line: number } | null
  readonly hour: number
  readonly count: number
  readonly first: number
  readonly last: number
  /** Made within the grace period after the version in force was first served. */
  readonly inGraceWindow: boolean
  /** The agent or its operator had fetched the version in force before. */
  readonly readVersion: boolean
  /** The agent or its operator had fetched some version for this host before. */
  readonly readHost: boolean
}

/** A robots.txt version as stored, without its text. */
export interface VersionRow {
  readonly host: string
  readonly hash: string
  readonly firstServed: number
}

/** A group of robots.txt that applied to an agent's (non-spoofed) requests. */
export interface GroupUse {
  readonly agentKey: string
  readonly robotsVersion: string
  readonly group: string
}

/** Everything the judgment needs, loaded by src/report/queries.ts. */
export interface ReportInput {
  readonly filter: ReportFilter
  readonly agents: readonly AgentTotalsRow[]
  readonly violations: readonly ViolationGroup[]
  readonly versions: readonly VersionRow[]
  /** robots.txt text by version hash, for the versions the judgment must re-run. */
  readonly texts: ReadonlyMap<string, string>
  readonly groupUses: readonly GroupUse[]
  /** Judged, non-spoofed requests per hour. */
  readonly hourly: readonly { readonly hour: number; readonly requests: number }[]
  /** Whether the violation rows were cut at the query's limit. */
  readonly truncated: boolean
}

export interface AgentEvidence {
  readonly requests: number
  /** Disallowed requests of any class, grace included. */
  readonly disallowed: number
  readonly blocked: number
  readonly violations: Readonly<Record<ViolationClass, number>> & { readonly counted: number }
  /** First and last counted violation (grace excluded). */
  readonly firstViolation: number | null
  readonly lastViolation: number | null
  /** Most frequent paths among counted violations. */
  readonly examplePaths: readonly string[]
  readonly robotsFetches: number
  readonly lastRobotsFetch: number | null
  /** Verified requests / all judged requests (0 when none). */
  readonly verifiedShare: number
  /** Whether robots.txt disallowed anything at all for this agent: otherwise there was nothing to ignore. */
  readonly restricted: boolean
}

export interface AgentReport {
  readonly agentKey: string
  readonly agentId: string | null
  readonly operator: string | null
  readonly category: string | null
  readonly kind: string | null
  readonly declaredObeys: boolean | null
  readonly verdict: AgentVerdict
  /** One sentence behind the verdict, for people. */
  readonly reason: string
  readonly evidence: AgentEvidence
}

/** Requests that claimed an agent's identity and failed verification. Never counted against that agent. */
export interface SpoofReport {
  /** The agent imitated. */
  readonly agentKey: string
  readonly operator: string | null
  readonly requests: number
  readonly violations: number
  readonly firstViolation: number | null
  readonly lastViolation: number | null
  readonly examplePaths: readonly string[]
}

export interface RuleCount {
  readonly host: string
  readonly robotsVersion: string
  readonly type: 'allow' | 'disallow'
  readonly pattern: string
  readonly line: number
  readonly violations: number
  readonly agents: number
}

export interface PathCount {
  readonly host: string
  readonly path: string
  readonly violations: number
  readonly agents: number
}

export interface Report {
  readonly filter: ReportFilter
  /** Worst first: ignoring agents by counted violations, then the rest by requests. */
  readonly agents: readonly AgentReport[]
  readonly spoofed: readonly SpoofReport[]
  readonly totals: {
    readonly requests: number
    readonly agents: number
    /** Counted violations (grace and spoofed excluded). */
    readonly violations: number
    readonly grace: number
    readonly spoofedRequests: number
    readonly spoofedViolations: number
    readonly ignoring: number
    /** True when the violation rows hit the query limit: counts are then lower bounds. */
    readonly truncated: boolean
  }
  /** Rules behind the most counted violations. */
  readonly topRules: readonly RuleCount[]
  readonly topPaths: readonly PathCount[]
  /** Per hour with any judged request or counted violation, in order. */
  readonly timeline: readonly { readonly hour: number; readonly violations: number; readonly requests: number }[]
}

/** One stored event, as the drill-down returns it. */
export interface LedgerEvent {
  readonly id: number
  readonly type: 'request' | 'robots-txt'
  readonly time: number
  readonly host: string
  readonly agentKey: string
  readonly agentId: string | null
  readonly tokens: readonly string[]
  readonly kind: string
  readonly operator: string | null
  readonly category: string | null
  readonly verification: string
  readonly method: string
  readonly path: string
  /** Agent-controlled: escape it wherever it is shown. */
  readonly userAgent: string
  readonly allowed: boolean
  readonly rule: { readonly type: 'allow' | 'disallow'; readonly pattern: string; readonly line: number } | null
  readonly group: string | null
  readonly mode: string
  readonly action: string
  readonly status: number
  readonly robotsVersion: string
  readonly country: string | null
  readonly asn: number | null
  readonly ipHash: string | null
}
