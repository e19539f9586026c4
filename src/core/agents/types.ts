/**
 * Shapes of the agent registry. The registry is data: every fact in it comes
 * from the operator's page that `agentDocs(id)` names (src/core/agents/registry/sources.ts),
 * so a reviewer can check an entry against its source without reading any code.
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
 * What an agent does with what it fetches: the axis on which site owners
 * decide, independent of who operates it.
 * - `training`: collects content to train AI models or build training data sets (GPTBot, CCBot).
 * - `search`: builds an index that a search engine or an AI answer engine
 *   retrieves from and cites (Googlebot, OAI-SearchBot, PerplexityBot).
 * - `user-fetch`: fetches one page because a person just asked for it: an
 *   assistant's lookup (ChatGPT-User), a link preview, a read-aloud.
 * - `agent`: an autonomous agent that browses and acts for a person over
 *   several steps: browser agents (Operator, Manus), coding agents and CLIs.
 * - `archive`: keeps copies of pages (Internet Archive, Common Crawl's WARCs are `training`).
 * - `analysis`: crawls to analyse pages rather than serve them: SEO tools,
 *   ad verification, security scanners, research.
 * - `service`: a service the site or its readers signed up for: uptime
 *   monitors, webhooks, feed readers, site verification.
 */
export type AgentPurpose = 'training' | 'search' | 'user-fetch' | 'agent' | 'archive' | 'analysis' | 'service'

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
   * Names that arrive with text glued on after `_` or `-`
   * (`Pingdom.com_bot_version_1.4_`, `amazon-kendra-customer-id-…`); the
   * text before one of the word's first four `_` or `-` is matched.
   */
  readonly uaNamePrefixes?: readonly string[]
  readonly operator: string
  /** Cloudflare's category, so reports line up with Cloudflare's dashboards. */
  readonly category: AgentCategory
  /** What it does with what it fetches; the presets in `agents` are derived from it. */
  readonly purpose: AgentPurpose
  /**
   * `false` when no header names the agent, so no request is ever identified
   * as it: control-only tokens (Google-Extended, Applebot-Extended), whose
   * fetches arrive under another agent's User-Agent, and agents that send a
   * browser's User-Agent (Operator). Absent means true.
   */
  readonly hasOwnUserAgent?: false
  /** Whether the operator says the agent applies robots.txt. */
  readonly obeysRobotsTxt: boolean
  /**
   * The operator documents it as fetching only when a person asks for a page
   * (Google's user-triggered fetchers). With `obeysRobotsTxt: false`, the `*`
   * group does not judge it by default (`guard.exempt`), as for AI assistants' fetchers.
   */
  readonly userTriggered?: true
  /** The operator says the agent skips the `*` group and reads only groups naming it (AdsBot). */
  readonly ignoresWildcardGroup?: true
  readonly verification?: AgentVerification
  /**
   * The Web Bot Auth directory origin (`Signature-Agent`) the operator signs
   * this agent's requests with, e.g. `https://agent.bot.goog`. A request
   * claiming the agent with a valid signature from it is verified (ahead of
   * IP ranges), and one with an invalid signature is spoofed; an unsigned
   * request is checked as before. See src/verify/web-bot-auth.ts.
   */
  readonly signatureAgent?: string
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
