/**
 * Shapes of the compliance report: what the judgment reads (counter rows the
 * queries load from D1, or from Analytics Engine) and what it returns. Plain
 * data, no I/O, so the judgment runs in plain Node.
 */
import type { RequestClass, TOP_PATHS_CLASS, VIOLATION_CLASSES } from '../ledger/classes.ts'

export type { RequestClass }

/**
 * The plain answer per agent, worst first: `ignores robots.txt` needs
 * repeated evidence; a few counted violations are `isolated violations`;
 * `pending` is an agent whose only disallowed requests fell in a 24 h grace
 * period (RFC 9309 §2.4): not yet held against it, never cleared either.
 */
export type AgentCompliance = 'ignores robots.txt' | 'isolated violations' | 'pending' | 'complies' | 'not enough data'

/**
 * A grace period one agent's disallowed requests fell in, on one host:
 * `newHost`, the first 24 h robots-edge served the host; `grace`, the 24 h
 * after a rule change (RFC 9309 §2.4: a cached copy may be used that long).
 */
export interface GraceWindow {
  readonly host: string
  readonly cls: 'grace' | 'newHost'
  /** The agent's disallowed requests in it. */
  readonly requests: number
  /** When the window ends, in ms since the epoch: its disallowed requests on this host count from then. */
  readonly until: number
  /**
   * Whether the agent made a judged request on this host after `until`, in
   * the report's range. From `until` on, a disallowed request would have
   * counted: a request then, with no counted violation, settles the window
   * (a cached copy explains what came before); none, and it stays open.
   */
  readonly seenSince: boolean
}

/**
 * Why a disallowed request was made, as far as the ledger could tell when it
 * recorded it (src/ledger/classes.ts): `afterFetch`, `staleCopy` and
 * `neverFetched` are counted; `grace` (24 h after a rule change, RFC 9309
 * §2.4) and `newHost` (24 h after robots-edge first served the host) are not.
 */
export type ViolationClass = (typeof VIOLATION_CLASSES)[number]

/** Where the report's numbers come from. */
export type ReportSource = 'd1' | 'analytics-engine'

/** Report filters. Times are ms since the epoch; `since` inclusive, `until` exclusive. */
export interface ReportFilter {
  since: number
  until: number
  host?: string
  /** Agent key (registry id, else first token, else `unknown`); matched case-insensitively. */
  agent?: string
  category?: string
}

/** An agent as the ledger first saw it. */
export interface AgentInfo {
  readonly agentKey: string
  readonly agentId: string | null
  readonly kind: string | null
  readonly operator: string | null
  readonly category: string | null
  /** What the registry says of the agent; null when unknown. */
  readonly declaredObeys: boolean | null
}

/** Counted requests of one agent, verification and class over the report's range. */
export interface CounterRow {
  readonly agentKey: string
  readonly verification: string
  readonly cls: RequestClass
  readonly requests: number
  readonly blocked: number
  /** Of them, kept as raw rows (request samples). */
  readonly sampled: number
  readonly first: number
  readonly last: number
  /** Bytes served to them, and how many were HTML pages; absent where the source keeps neither (Analytics Engine). */
  readonly bytes?: number
  readonly pages?: number
}

/** Requests to one path by one agent in one class. Path '' holds the paths beyond the per-day cap. */
export interface PathRow {
  /** A request class, or TOP_PATHS_CLASS: a closed day's top paths of every counted class together (src/ledger/shape-sql.ts TOP_PATHS). */
  readonly cls: RequestClass | typeof TOP_PATHS_CLASS
  readonly agentKey: string
  readonly host: string
  readonly path: string
  readonly requests: number
}

/** A group of robots.txt that applied to an agent's genuine requests. */
export interface GroupUse {
  readonly agentKey: string
  readonly robotsVersion: string
  readonly group: string
}

/** One bin of the timeline (`hour` is its start, ms): a minute, an hour or a day, from the span of activity (src/admin/coverage.ts timelineBinFor). */
export interface TimelineBin {
  readonly hour: number
  readonly violations: number
  readonly requests: number
}

/** What a report's window covers, exactly. Times in ms. */
export interface Coverage {
  /** The whole hours the counts cover (from the first hour starting in the range). */
  readonly counts: { readonly since: number; readonly until: number }
  /** The raw request samples behind the drill-down, or null when none are kept for the range. */
  readonly samples: {
    readonly since: number
    readonly until: number
    /** Samples kept, of `requests` counted in the range. */
    readonly kept: number
    readonly requests: number
    /** At most this many per agent, hour, host, verification and class. */
    readonly budgetPerHour: number
  } | null
  /** Most violated rules and paths, and example paths, count whole UTC days. */
  readonly paths: { readonly since: number; readonly until: number; readonly other: number }
  /** The same in one sentence, e.g. "counts cover the full 7 days; request samples cover the last 2.3 days". */
  readonly summary: string
}

/** A GraceWindow of one agent, as the queries load it. */
export interface GraceWindowRow extends GraceWindow {
  readonly agentKey: string
}

/** Everything the judgment needs, loaded by src/admin/queries.ts or src/admin/analytics-engine.ts. */
export interface ReportInput {
  /** The grace periods behind `grace` and `newHost` counts; default none (the source cannot tell). */
  readonly graceWindows?: readonly GraceWindowRow[]
  readonly filter: ReportFilter
  readonly source: ReportSource
  readonly agents: readonly AgentInfo[]
  readonly counts: readonly CounterRow[]
  readonly paths: readonly PathRow[]
  readonly rules: readonly RuleCount[]
  readonly groupUses: readonly GroupUse[]
  /** robots.txt text by version hash, for the versions in groupUses. */
  readonly texts: ReadonlyMap<string, string>
  readonly timeline: readonly TimelineBin[]
  readonly timelineBin: number
  readonly coverage: Coverage
  /** Crawl-delay counts per agent; default none. */
  readonly crawlDelays?: readonly CrawlDelayRow[]
  /** People sent by each referring host over the range's days (src/admin/operators.ts); default none. */
  readonly referrals?: readonly ReferralCount[]
}

/** People who arrived on an HTML page from one referring host (a registry referrer host) over the report's days. */
export interface ReferralCount {
  readonly referrer: string
  readonly visits: number
}

/**
 * What one operator's crawlers took and its products gave back, over the
 * report's range: Cloudflare Radar's crawl-to-refer ratio. Genuine claims
 * only (spoofed and unchecked ones apart); tools apart.
 */
export interface OperatorReport {
  readonly operator: string
  /** HTML pages its crawlers were served (judged requests answered with Content-Type text/html). */
  readonly crawled: number
  /** Judged requests by its crawlers, HTML or not. */
  readonly requests: number
  /** Bytes served to its crawlers. */
  readonly bytes: number
  /** HTML visits by people whose Referer was one of its hosts. Apps often send no Referer: a floor. */
  readonly referred: number
  /** crawled ÷ referred; null when referred is 0. */
  readonly crawlToRefer: number | null
  /** The referring hosts behind `referred`, most visits first. */
  readonly referrers: readonly ReferralCount[]
}

export interface AgentEvidence {
  readonly requests: number
  /**
   * Bytes served to its judged requests (Content-Length, or the streamed
   * body counted), and how many of them were HTML pages. Requests recorded
   * before bytes were counted add 0.
   */
  readonly bytes: number
  readonly pages: number
  /** Disallowed requests of any class, grace included. */
  readonly disallowed: number
  readonly blocked: number
  readonly violations: Readonly<Record<ViolationClass, number>> & {
    readonly counted: number
    /** Disallowed, recorded before classes existed and no longer kept raw: not counted. */
    readonly unclassified: number
  }
  /** First and last counted violation. */
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
  /** Its requests kept as raw samples (the drill-down shows them). */
  readonly sampled: number
  /**
   * The grace periods its `grace` and `newHost` requests fell in, one per
   * host and class, earliest end first. Empty when it had none, or when the
   * source cannot tell (Analytics Engine keeps no host's first day).
   */
  readonly graceWindows: readonly GraceWindow[]
  /**
   * For a `pending` agent: when its disallowed requests start to count, in
   * ms since the epoch like every time in the report: the earliest end of
   * the `graceWindows` it has not been seen on since (on that window's host;
   * `pendingHost`). Null for any other verdict, and when the source cannot tell.
   */
  readonly pendingUntil: number | null
  /** The host `pendingUntil` applies to; null with it. */
  readonly pendingHost: string | null
}

export interface AgentReport {
  readonly agentKey: string
  readonly agentId: string | null
  readonly operator: string | null
  readonly category: string | null
  readonly kind: string | null
  readonly declaredObeys: boolean | null
  readonly verdict: AgentCompliance
  /** One sentence behind the verdict, for people. */
  readonly reason: string
  readonly evidence: AgentEvidence
  /** Its last request or robots.txt fetch in the range. */
  readonly lastSeen: number | null
  /** How its requests kept the Crawl-delay of its group (src/admin/crawl-delay.ts); absent when its groups set none. */
  readonly crawlDelay?: CrawlDelayReport
}

/** The Crawl-delay verdict: a line of its own beside the robots.txt verdict. */
export type CrawlDelayVerdict = 'ignores Crawl-delay' | 'keeps Crawl-delay' | 'not enough data'

/**
 * An agent's requests under a Crawl-delay (a robots.txt extension, not in
 * RFC 9309), over the report's whole UTC days, all hosts together.
 */
export interface CrawlDelayReport {
  /** The longest delay in force, in seconds. */
  readonly seconds: number
  /** Its requests (robots.txt fetches included) to hosts whose group for it sets a delay. */
  readonly requests: number
  /** Those that came sooner than the delay after its previous request to the same host. */
  readonly early: number
  /** Recorded too late to be measured (after a later request was rolled up): counted in `requests`, never early. */
  readonly late: number
  readonly verdict: CrawlDelayVerdict
  /** The verdict line, e.g. "ignores Crawl-delay (41% of requests early)". */
  readonly reason: string
}

/** Crawl-delay counts of one agent, as the queries load them. */
export interface CrawlDelayRow {
  readonly agentKey: string
  readonly delayMs: number
  readonly requests: number
  readonly early: number
  readonly late: number
}

/**
 * Requests that claimed an agent's identity and failed verification
 * (`spoofed`), or could not be checked (`unchecked`: its operator's ranges
 * were not loaded). Never counted against that agent.
 */
export interface SpoofReport {
  /** The agent claimed. */
  readonly agentKey: string
  readonly operator: string | null
  readonly requests: number
  /** Disallowed requests among them. */
  readonly violations: number
  readonly firstViolation: number | null
  readonly lastViolation: number | null
  readonly examplePaths: readonly string[]
  readonly lastSeen: number | null
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

/** The evidence rule, stated with the numbers the judgment uses. */
export interface ComplianceThresholds {
  /** Fewer counted violations than this are isolated. */
  readonly repeatedAtLeast: number
  /** So are counted violations under this share of the agent's judged requests. */
  readonly repeatedShare: number
  /** Judged requests needed to call a clean record "complies", or never-fetched violations "ignores". */
  readonly minRequests: number
  /** Hours after a rule change, and after robots-edge first serves a host, that are not held against a crawler. */
  readonly graceHours: number
}

export interface Report {
  readonly filter: ReportFilter
  readonly source: ReportSource
  /** True when counts are estimates from sampled data (Analytics Engine). */
  readonly estimates: boolean
  /** Crawlers, worst first (src/admin/compliance.ts's COMPLIANCE_ORDER), by counted violations, then pending ones by waiting requests, then by requests. */
  readonly agents: readonly AgentReport[]
  /** Generic tools (curl, python-requests, ...), judged alike and reported apart from the crawlers. */
  readonly tools: readonly AgentReport[]
  readonly spoofed: readonly SpoofReport[]
  /** Claims that could not be checked (the operator's ranges were not loaded): never counted against it. */
  readonly unchecked: readonly SpoofReport[]
  /** Per operator, what its crawlers took and its products referred back: the crawl-to-refer ratio. */
  readonly operators: readonly OperatorReport[]
  readonly totals: {
    /** Crawlers' judged requests (tools, spoofed and unchecked claims apart). */
    readonly requests: number
    readonly agents: number
    /** Counted violations (grace, first-day, spoofed, unchecked and tools excluded). */
    readonly violations: number
    readonly grace: number
    readonly newHost: number
    readonly spoofedRequests: number
    readonly spoofedViolations: number
    readonly uncheckedRequests: number
    readonly uncheckedViolations: number
    readonly ignoring: number
    readonly isolated: number
    /** Crawlers whose only disallowed requests fell in a grace period. */
    readonly pending: number
    readonly tools: { readonly agents: number; readonly requests: number; readonly violations: number }
    /** Always false: counts come from counters, which no cap cuts. Kept for readers of the first version. */
    readonly truncated: boolean
  }
  /** Rules behind the most counted violations (crawlers'). */
  readonly topRules: readonly RuleCount[]
  readonly topPaths: readonly PathCount[]
  /** Per bin (`timelineBin` ms: a minute for activity up to three hours old, an hour up to a week, else a day) with any judged request or counted violation, in order. */
  readonly timeline: readonly TimelineBin[]
  readonly timelineBin: number
  readonly coverage: Coverage
  readonly thresholds: ComplianceThresholds
}

/** One stored event (a request sample), as the drill-down returns it. */
export interface LedgerEvent {
  readonly id: number
  readonly type: 'request' | 'robots-txt'
  readonly time: number
  readonly host: string
  readonly agentKey: string
  readonly agentId: string | null
  readonly tokens: readonly string[]
  /** Other crawlers an ambiguous header named. */
  readonly also: readonly string[]
  readonly kind: string
  readonly operator: string | null
  readonly category: string | null
  readonly verification: string
  /** The class fixed when it was recorded. */
  readonly class: RequestClass
  /** Whether it is a counted violation. */
  readonly counted: boolean
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
