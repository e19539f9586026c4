/** A rule inside a group (RFC 9309 §2.2.2). */
export interface Rule {
  readonly type: 'allow' | 'disallow'
  /** The pattern as written in the file, whitespace trimmed; normalised only when compiled. */
  readonly pattern: string
  /** 1-based line in the file it was parsed from; absent in a hand-built model. */
  readonly line?: number
}

/** Any record that is not user-agent, allow, disallow or sitemap (crawl-delay, content-signal, host, ...). */
export interface OtherRecord {
  /** The key as written (its case kept), e.g. `Crawl-delay`. */
  readonly key: string
  readonly value: string
  readonly line?: number
}

/** A group (RFC 9309 §2.1): one or more user-agent lines followed by rules. */
export interface Group {
  /**
   * The product tokens of its user-agent lines, as the matcher reads them:
   * `*`, or the leading run of letters, `-` and `_` (so `Googlebot/2.1` is `Googlebot`).
   */
  readonly userAgents: readonly string[]
  readonly rules: readonly Rule[]
  /** Records such as crawl-delay that appeared inside this group. */
  readonly other: readonly OtherRecord[]
  readonly line?: number
  /** A comment the serializer writes above the group; the parser does not read comments back. */
  readonly comment?: string
}

/** What a robots.txt says, independent of how it was written. */
export interface RobotsTxtModel {
  readonly groups: readonly Group[]
  readonly sitemaps: readonly string[]
  /** Records outside any group (a `Host:` before the first user-agent line, say). */
  readonly other: readonly OtherRecord[]
  /** Comment lines written at the top of the file by the serializer; ignored by the parser. */
  readonly header?: string
}

export type DiagnosticCode =
  | 'bom'
  | 'file-too-large'
  | 'line-too-long'
  | 'missing-colon'
  | 'typo-accepted'
  | 'rule-outside-group'
  | 'invalid-product-token'
  | 'agent-value-truncated'
  | 'pattern-start'
  | 'unknown-key'
  | 'nul-byte'
  | 'malformed-line'

/** What the parser saw on one line that a reader would want to know about. */
export interface ParseDiagnostic {
  readonly code: DiagnosticCode
  /** 1-based; 0 for the file as a whole. */
  readonly line: number
  /** The offending text, when there is one (a key, a value). */
  readonly detail?: string
}

export interface ParsedRobotsTxt extends RobotsTxtModel {
  /** The line of each entry of `sitemaps`, in the same order. */
  readonly sitemapLines: readonly number[]
  readonly diagnostics: readonly ParseDiagnostic[]
  /** Number of lines the parser read. */
  readonly lines: number
  /**
   * The user-agent values of each group as written (`Googlebot/2.1`, where
   * `groups` holds the token `Googlebot`), for readers that compare the
   * whole value (see readers.ts) and for writing a file back unchanged.
   */
  readonly agentValues: readonly (readonly string[])[]
}

/** The rule that decided a verdict, with its provenance. */
export interface DecidingRule {
  readonly type: 'allow' | 'disallow'
  readonly pattern: string
  readonly line: number
}

export interface Verdict {
  readonly allowed: boolean
  /**
   * Which group applied: `'*'`, the (lower-case) product token whose groups
   * applied, or `null` when the file has no group for this agent at all.
   */
  readonly group: string | null
  /**
   * The rule that decided, or `null` when no rule matched. An empty
   * `Disallow:` matches with priority 0 and is reported, but never disallows
   * (RFC 9309 §2.2.2).
   */
  readonly rule: DecidingRule | null
}

export type Severity = 'error' | 'warning' | 'info'

/** What one reader makes of an example URL (see readers.ts). */
export interface ReaderReading {
  /** `rfc9309`: Google's reading; `first-match`: the 1996 draft, urllib.robotparser; `prefix-1994`: the 1994 document. */
  readonly reader: 'rfc9309' | 'first-match' | 'prefix-1994'
  readonly allowed: boolean
  /** The line of the rule that decided, or 0 when none did. */
  readonly line: number
}

export type LintCode =
  | DiagnosticCode
  | 'empty-group'
  | 'crawl-delay'
  | 'sitemap-url'
  | 'no-groups'
  /** Readers disagree, and the reader-safe order (`lint --fix`) makes them agree. */
  | 'reader-order'
  | 'reader-group'
  /** Readers disagree, and no order can make them agree. */
  | 'reader-wildcard'
  | 'reader-extension'
  | 'reader-allow'
  | 'no-inherit'
  | 'unsupported-directive'
  | 'crawl-delay-ignored'
  | 'unsafe-character'

export interface LintDiagnostic {
  readonly code: LintCode
  readonly severity: Severity
  readonly line: number
  readonly message: string
  readonly fix?: string
  /** For reader differences: the crawler and URL tried, and each reader's verdict and deciding line. */
  readonly example?: { readonly crawler: string; readonly url: string; readonly readings: readonly ReaderReading[] }
}
