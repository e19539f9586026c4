/**
 * Shapes of the agent registry. The registry is data: every fact in it comes
 * from the page named in `docs`, so a reviewer can check an entry against its
 * source without reading any code.
 */

/** Cloudflare's verified-bot categories, so reports line up with Cloudflare's dashboards. */
export type AgentCategory =
  | 'Search Engine Crawler'
  | 'Search Engine Optimization'
  | 'AI Crawler'
  | 'AI Search'
  | 'AI Assistant'
  | 'Archiver'
  | 'Page Preview'
  | 'Monitoring & Analytics'
  | 'Feed Fetcher'
  | 'Advertising & Marketing'
  | 'Academic Research'
  | 'Security'
  | 'Accessibility'
  | 'Webhooks'
  | 'Aggregator'
  | 'Other'

/**
 * How a published IP-range list is laid out, so a verifier knows how to read it.
 * - `google-json`: `{"prefixes":[{"ipv4Prefix":"66.249.64.0/27"},{"ipv6Prefix":"2001:4860:4801:10::/64"}]}`,
 *   used by Google, Bing, Apple, OpenAI and Perplexity.
 * - `cidr-lines`: plain text, one CIDR block per line.
 * - `ip-lines`: plain text, one bare address per line (a /32 or /128).
 */
export type IpRangeFormat = 'google-json' | 'cidr-lines' | 'ip-lines'

export interface IpRangeList {
  readonly url: string
  readonly format: IpRangeFormat
}

/** What the operator publishes to let a site check that a request really comes from it. */
export interface AgentVerification {
  /**
   * The operator's published lists; a genuine client's address is in at least
   * one of them (Google's user-triggered fetchers use several).
   */
  readonly ipRanges?: readonly IpRangeList[]
  /** Host-name suffixes (with the leading dot) that a reverse DNS lookup, confirmed forward, must end with. */
  readonly reverseDns?: readonly string[]
}

/** One automated agent as its operator documents it. */
export interface AgentEntry {
  /** Stable key; never reuse one for a different agent. */
  readonly id: string
  /**
   * robots.txt product tokens the agent obeys, lower case, most specific
   * first, including the fallback groups its operator documents
   * (Googlebot-Image falls back to `googlebot`).
   */
  readonly tokens: readonly string[]
  /**
   * Product names by which its User-Agent header names it, matched as whole
   * names, case-insensitively. A name may hold spaces ("Yahoo! Slurp"): then
   * its words must follow one another in the header.
   */
  readonly uaNames: readonly string[]
  /**
   * Names that people's apps also use (Pinterest's app sends `[Pinterest/iOS]`).
   * They identify the agent only when the header also carries a bot signal:
   * a `+http…` URL, a `http(s)://` URL or a contact e-mail.
   */
  readonly weakUaNames?: readonly string[]
  /**
   * Names that arrive with text glued on after an underscore
   * (`Pingdom.com_bot_version_1.4_`); the part before the first `_` is matched.
   */
  readonly uaNamePrefixes?: readonly string[]
  readonly operator: string
  readonly category: AgentCategory
  /**
   * `false` for control-only tokens (Google-Extended, Applebot-Extended): their
   * fetches arrive under another agent's User-Agent, so no request is ever
   * identified as them. Absent means true.
   */
  readonly hasOwnUserAgent?: false
  /** Whether the operator says the agent applies robots.txt. */
  readonly obeysRobotsTxt: boolean
  /** The operator says the agent skips the `*` group and reads only groups naming it (AdsBot). */
  readonly ignoresWildcardGroup?: true
  readonly verification?: AgentVerification
  /**
   * The Web Bot Auth directory origin (`Signature-Agent`) the operator signs
   * this agent's requests with, e.g. `https://agent.bot.goog`. A request
   * claiming the agent with a valid signature from it is verified (ahead of
   * IP ranges), and one with an invalid signature is spoofed; an unsigned
   * request is checked as before. See src/bots/web-bot-auth.ts.
   */
  readonly signatureAgent?: string
  /** The operator's documentation the facts come from. */
  readonly docs: string
}

/**
 * A generic HTTP client or automation library. It is not a crawler and reads no
 * robots.txt, but a site owner may still name it in a group (`User-agent: curl`).
 */
export interface ToolEntry {
  /** Its own lower-case product name, which is also its token. */
  readonly token: string
  readonly uaNames: readonly string[]
  readonly operator: string
  /**
   * A language runtime or low-level library that other clients build on
   * (`Java` in `Apache-HttpClient/4.5 (Java/17)`): any other name in the header wins.
   */
  readonly generic?: true
}
