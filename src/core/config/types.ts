import type { KnownToken } from '../agents/index.ts'
import type { GuardMode } from '../events.ts'
import type { UsagePreferences } from './content-usage.ts'

export type { GuardMode, UsagePreferences }

/**
 * A robots.txt product token: letters, `-` and `_` (RFC 9309 §2.2.1), or `*`.
 * Known crawler tokens autocomplete; any valid token is accepted.
 */
export type UserAgent = '*' | KnownToken | (string & {})

/** Cloudflare's Content Signals (https://contentsignals.org): what the content may be used for. */
export interface ContentSignal {
  /** Building a search index and showing links and snippets. */
  search?: boolean
  /** Using the content as input to an AI answer (retrieval, grounding). */
  aiInput?: boolean
  /** Training or fine-tuning AI models. */
  aiTrain?: boolean
}

/**
 * IETF AI usage preferences (draft-ietf-aipref-attach-05, vocabulary
 * draft-ietf-aipref-vocab-07) for the crawlers of one group: `true` allows a
 * category of use (`y`), `false` disallows it (`n`), left out says nothing.
 * Categories: `trainAi` (`train-ai`: training generative AI models) and
 * `search` (`search`: search applications that link to the content).
 *
 * Written in robots.txt inside the group as `Content-Usage: <path> <prefs>`
 * (attach-05 §3; the path is required there, so the group-wide preferences
 * are written for `/`), and sent as a `Content-Usage: train-ai=n` response
 * header (attach-05 §2) on the pages the Worker passes through, by the group
 * that judges the request (the `*` group for people and for requests the
 * guard does not judge).
 *
 * Unlike `contentSignal` (Cloudflare's Content Signals, one
 * `Content-Signal:` line per group, robots.txt only, keys `search`,
 * `ai-input`, `ai-train`), this is the IETF working group's vocabulary, can
 * differ per path, and travels with each response as a header. Both may be
 * set; crawlers read the one they know.
 *
 * @example
 * contentUsage: { trainAi: false, search: true, paths: { '/blog/': { trainAi: true } } }
 * // Content-Usage: / train-ai=n, search=y
 * // Content-Usage: /blog/ train-ai=y, search=y
 */
export interface ContentUsage extends UsagePreferences {
  /**
   * Preferences for paths: RFC 9309 path patterns (`/` first; `*` and a
   * final `$` as in allow and disallow). The longest pattern that matches a
   * URL decides (attach-05 §3.1), so each path's line repeats the
   * group-wide values it does not change: robots-edge deviation, a path
   * inherits the group-wide preferences rather than starting from unknown.
   * Default: none.
   */
  paths?: Readonly<Record<string, UsagePreferences>>
}

/** An `X-Robots-Tag` rule Google and others read: `noai` and `noimageai` are read by some AI crawlers only. */
export type IndexingDirective = 'noindex' | 'nofollow' | 'noai' | 'noimageai'

/**
 * Keeps pages out of search indexes: `Disallow` stops crawling, not
 * indexing (a disallowed URL can be indexed from links without its
 * content). Sets `X-Robots-Tag` on the responses the Worker passes through
 * for matching paths; the origin's own `X-Robots-Tag` is kept beside it.
 * A crawler must be allowed to fetch the page to see it: `robots-edge lint`
 * warns when a path is also disallowed.
 *
 * @example
 * noindex: [
 *   { path: ['/search', '/*?sort='] },
 *   { path: '/drafts/', userAgent: 'Googlebot', directives: ['noindex', 'nofollow'] },
 * ]
 * // X-Robots-Tag: noindex                               (for /search?q=x)
 * // X-Robots-Tag: googlebot: noindex, googlebot: nofollow  (for /drafts/a)
 */
export interface NoindexRule {
  /** Path patterns, read as robots.txt reads them: a prefix starting with `/`, `*` for any run of characters, a final `$` for the end. */
  path: string | readonly string[]
  /**
   * Only these crawlers, written `X-Robots-Tag: googlebot: noindex` as
   * Google documents (a crawler reads the lines naming it and the lines
   * naming no one). Default: every crawler (`X-Robots-Tag: noindex`).
   */
  userAgent?: UserAgent | readonly UserAgent[]
  /** What to send. Default: `['noindex']`. */
  directives?: readonly IndexingDirective[]
}

/**
 * One group of robots.txt. The first three fields are those of Next.js's
 * `MetadataRoute.Robots` rules, so such a rule pastes in unchanged.
 */
export interface RuleConfig {
  /** The crawlers this group is for: product tokens, or `*` for every crawler no other group names. */
  userAgent: UserAgent | readonly UserAgent[]
  /** Paths they may fetch: patterns starting with `/` or `*`; `$` anchors the end. Default: none. */
  allow?: string | readonly string[]
  /** Paths they may not fetch. `'/'` is everything. Default: none (everything is allowed). */
  disallow?: string | readonly string[]
  /** Seconds between fetches, written as `Crawl-delay:` (Google ignores it; Bing and Yandex read it). Default: none. */
  crawlDelay?: number
  /** Written as `Content-Signal: search=yes, ai-train=no` (Cloudflare's Content Signals; see `ContentUsage` for how it differs). Default: none. */
  contentSignal?: ContentSignal
  /** IETF AI usage preferences, as `Content-Usage:` lines and a `Content-Usage` response header (see `ContentUsage`). Default: none. */
  contentUsage?: ContentUsage
  /** A comment written above the group. Default: none. */
  comment?: string
  /** Extra records for this group, e.g. `{ 'Clean-param': 'ref /articles/' }`. Default: none. */
  other?: Readonly<Record<string, string | number | readonly (string | number)[]>>
  /** The guard's mode for requests judged by this group. Default: the file-wide `guard.mode`. */
  guard?: GuardMode
}

/** A lone rule object, as Next.js allows: `userAgent` may be left out and means `*`. */
export type SingleRuleConfig = Omit<RuleConfig, 'userAgent'> & { userAgent?: RuleConfig['userAgent'] }

/** How the request guard treats crawlers that fetch what robots.txt forbids them. */
export interface GuardConfig {
  /**
   * `off`: judge nothing; `log`: let every request through and record the
   * verdict; `block`: refuse disallowed requests. Default: `'log'`.
   */
  mode?: GuardMode
  /** Status of a refusal, e.g. 402 or 404. Default: 403. */
  status?: number
  /** Body of a refusal. Default: a one-line plain-text explanation. */
  body?: string
  /** Extra headers on a refusal. Default: none. */
  headers?: Readonly<Record<string, string>>
  /**
   * What to do with a spoofed claim (a bot name from an IP outside its
   * operator's published ranges): `judge` it by the rules of the name it
   * claims, or `block` it on every path (in `block` mode). Default: `'judge'`.
   */
  spoofed?: 'judge' | 'block'
  /**
   * Clients the `*` group does not judge: fetchers acting on one person's
   * request, whose operators document that robots.txt does not apply to
   * them. A group that names one still judges it; every other automated
   * client (crawlers and tools such as curl or Wget) answers to `*` when no
   * group names it. Default: the registry's user-triggered fetchers
   * (`chatgpt-user`, `perplexity-user`, `meta-externalfetcher`, Google's
   * user-triggered fetchers...; `USER_TRIGGERED_FETCHERS`). `[]` judges
   * every automated client by `*`.
   */
  exempt?: readonly UserAgent[]
  /**
   * What the guard does with a group's `crawlDelay` (a robots.txt extension;
   * RFC 9309 has no Crawl-delay). `measure`: the report counts the requests
   * that came sooner than the delay after the one before. `enforce`: also
   * answers such an early request from a verified agent with 429,
   * `Retry-After` and `RateLimit` headers; needs the `CRAWL_DELAY` Durable
   * Object binding (without it, the guard measures and says so once).
   * Google ignores Crawl-delay. Default: `'measure'`.
   */
  crawlDelay?: 'measure' | 'enforce'
}

/**
 * What the Worker does with forwarding headers a client sent
 * (`X-Forwarded-For`, `-Host`, `-Proto`, `-Port`, `Forwarded`, `X-Real-IP`,
 * `True-Client-IP`, `X-Cluster-Client-IP`, `X-Client-IP` and the other
 * client-address fields origins read, `X-Original-URL`, `X-Rewrite-URL`)
 * when it passes a request on to the origin.
 * - `overwrite`: drop the client's copies; set `X-Forwarded-For`,
 *   `X-Real-IP`, `True-Client-IP`, `X-Forwarded-Host`, `X-Forwarded-Proto`
 *   and `Forwarded` to what the Worker knows (the client address from
 *   Cloudflare, the host and scheme requested). `X-Original-URL` and `X-Rewrite-URL` are dropped:
 *   origins that honour them (IIS, older Symfony) would serve another path
 *   than the one the guard judged.
 * - `pass`: forward them as the client sent them. Only for an origin that
 *   ignores them, or that sits behind a proxy of yours which sets them.
 */
export type ForwardedHeaders = 'overwrite' | 'pass'

/** The policy a site owner writes in `robots.config.ts`. */
export interface RobotsConfig {
  /** The groups of robots.txt. A lone object may leave `userAgent` out (it means `*`), as in Next.js. */
  rules: SingleRuleConfig | readonly RuleConfig[]
  /** Absolute http(s) URLs of sitemaps. Default: none. */
  sitemap?: string | readonly string[]
  /** Written as `Host:` (Yandex's preferred mirror) only when set. Default: none. */
  host?: string
  /** A comment written at the top of the file. Default: none. */
  header?: string
  /** The request guard. Default: `{ mode: 'log' }`. */
  guard?: GuardConfig
  /** `Cache-Control` of /robots.txt. Default: `'public, max-age=300'`. */
  cacheControl?: string
  /**
   * Serve these rules even where the deployment is not production (a
   * staging environment or a preview host). Default: false, and such
   * deployments serve `Disallow: /` for everyone so they are never indexed.
   */
  indexable?: boolean
  /** Hosts that are previews, matched exactly or as `*.suffix`. Default: `['*.workers.dev', '*.pages.dev']`. */
  previewHosts?: readonly string[]
  /**
   * The hosts this site answers for, as exact names, e.g. `['example.com',
   * 'www.example.com']` (list `localhost` too to try it with `npm run dev`).
   * A request for any other host is served as a preview host is (robots.txt
   * disallows everything, unless `indexable: true`), judged by that file,
   * and recorded under the one host `other-hosts.invalid`, so a client
   * inventing Host headers cannot grow the ledger. Must be the same for
   * every host and environment. Default: not set: every valid host is
   * served its own rules, and the ledger stores at most 100 distinct hosts
   * (later ones are recorded under `other-hosts.invalid`, and the report
   * says the cap was reached).
   */
  hosts?: readonly string[]
  /** Client-sent forwarding headers on the way to the origin (see `ForwardedHeaders`). Default: `'overwrite'`. */
  forwardedHeaders?: ForwardedHeaders
  /**
   * Paths kept out of search indexes with `X-Robots-Tag` (see
   * `NoindexRule`). Staging and preview hosts (where robots.txt disallows
   * everything) send `X-Robots-Tag: noindex` on every response whatever this
   * says, unless `indexable: true`. Default: none.
   */
  noindex?: NoindexRule | readonly NoindexRule[]
  /**
   * Also write what `X-Robots-Tag` says into HTML responses, as
   * `<meta name="robots" content="noindex">` (`name="googlebot"` for a rule
   * naming Googlebot) at the start of `<head>`, for tools that read only the
   * page. Default: false.
   */
  noindexMeta?: boolean
  /**
   * Agents the site must not shut out by accident, by product token (or
   * `'*'` for every agent). `robots-edge impact` flags a change that would
   * disallow a protected agent a path it crawled, and `impact --fail-on
   * protected` (the default when `CI=true`) exits 1 on one. It changes
   * nothing in robots.txt or the guard. Default: the search-engine crawlers
   * of the registry (`agents.searchEngines`: Googlebot, Bingbot, ...);
   * `[]` protects none.
   */
  protect?: readonly UserAgent[]
  /**
   * Posts a signed JSON message to a webhook (Slack, Discord or your own)
   * when the cron finds a crawler turning: see `AlertsConfig`. Default: off.
   */
  alerts?: AlertsConfig
}

/**
 * The cron's alerts. Only names of Worker secrets go here, never their
 * values: a webhook URL is a credential (whoever holds it can post), and
 * this file is committed.
 *
 * @example
 * alerts: { webhook: 'ROBOTS_ALERT_WEBHOOK', newClientRequests: 500 }
 * // then: wrangler secret put ROBOTS_ALERT_WEBHOOK; wrangler secret put ROBOTS_ALERT_SECRET
 */
export interface AlertsConfig {
  /** The Worker secret holding the webhook URL (https; http only to localhost). Default: `'ROBOTS_ALERT_WEBHOOK'`. */
  webhook?: string
  /** The Worker secret holding the key each message is signed with (HMAC-SHA256). Default: `'ROBOTS_ALERT_SECRET'`. */
  secret?: string
  /** Requests within 7 days after which a new unidentified automated client is posted. Default: 100. */
  newClientRequests?: number
  /** Spoofed requests claiming one crawler, since the last message about it, that post again. Default: 100. */
  spoofedRequests?: number
}

/** What a config function is called with: the request's host and the deployment's environment. */
export interface ConfigContext {
  /**
   * The request's host, canonical (lower case, no port, no trailing dot; see
   * canonicalHost): `other-hosts.invalid` for a host outside `hosts`,
   * `invalid-host.invalid` for a Host header that is no host name.
   */
  readonly host: string
  /** `ROBOTS_ENV` of the deployment: `'production'` unless set otherwise. */
  readonly env: string
}

export type ConfigFunction = (context: ConfigContext) => RobotsConfig
export type ConfigInput = RobotsConfig | ConfigFunction

/** Readonly all the way down; arrays and tuples keep their shape. */
type DeepReadonly<T> = T extends (...args: never[]) => unknown ? T : T extends object ? { readonly [K in keyof T]: DeepReadonly<T[K]> } : T

/** A group with every default filled in and every list a list. */
export type ResolvedRule = DeepReadonly<{
  userAgent: string[]
  allow: string[]
  disallow: string[]
  crawlDelay: number | undefined
  contentSignal: ContentSignal | undefined
  /** Content-Usage lines: the group-wide preferences under `/`, then each path's, merged with them; patterns percent-encoding-normalised. */
  contentUsage: { path: string; preferences: UsagePreferences }[]
  comment: string | undefined
  other: [string, string][]
  guard: GuardMode | undefined
}>

/** The config for one host and environment: complete and readonly. */
export type ResolvedConfig = DeepReadonly<{
  host: string
  env: string
  /** Whether this deployment serves its rules (production, or declared indexable). */
  indexable: boolean
  rules: ResolvedRule[]
  sitemap: string[]
  robotsHost: string | undefined
  header: string | undefined
  guard: Required<Omit<GuardConfig, 'headers' | 'exempt'>> & { headers: Record<string, string>; exempt: string[] }
  cacheControl: string
  /** The config's `hosts`, canonical; undefined when not set. */
  hosts: string[] | undefined
  forwardedHeaders: ForwardedHeaders
  /** Patterns percent-encoding-normalised, agents in lower case (none: every crawler), directives defaulted. */
  noindex: { paths: string[]; userAgent: string[]; directives: IndexingDirective[] }[]
  noindexMeta: boolean
  /** `protect`, lower case. */
  protect: string[]
}>
