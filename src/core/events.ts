/**
 * What the guard hands to its `record` hook: one judged request, or one
 * fetch of /robots.txt by an identified agent. The ledger (D1), the Analytics
 * Engine sink and the report all read this one shape.
 */

/**
 * How far a claimed identity is confirmed (see src/verify/verify.ts):
 * `verified` (the operator's published ranges, or Cloudflare, vouch for it),
 * `unverified` (the operator publishes nothing to check against), `spoofed`
 * (the address is outside every range the operator publishes), `unknown`
 * (the operator publishes ranges but they are not loaded here yet, so the
 * claim cannot be checked; it is never counted for or against the operator).
 */
export type Verification = 'verified' | 'unverified' | 'spoofed' | 'unknown'

/** The guard's modes: judge nothing, judge and record, judge and refuse. */
export type GuardMode = 'off' | 'log' | 'block'

/**
 * What a Web Bot Auth signature on the request showed (src/verify/web-bot-auth.ts).
 * Absent when the request carried no `Signature` header.
 */
export interface SignatureEvidence {
  /**
   * `valid`: a key from `directory` signed it; `invalid`: it fails (bad bytes,
   * expired, wrong host, unknown key...); `unverifiable`: no key could be had
   * (directory unreachable, unsupported algorithm), which says nothing about the signer.
   */
  readonly status: 'valid' | 'invalid' | 'unverifiable'
  /** The directory origin its `Signature-Agent` named, e.g. `https://chatgpt.com`, once validated. Client-sent: escape it wherever it is shown. */
  readonly directory?: string
  /** Why it is not valid, a short code (`expired`, `bad-signature`, `unknown-key`, `timeout`...). */
  readonly reason?: string
  /** The signature decided `verification` (method `signature`): valid from the claimed agent's own directory, or invalid on a claim of an agent that signs. */
  readonly decided: boolean
}

export interface EventAgent {
  /** Registry id, when the agent is in the registry. */
  readonly id?: string
  /** Lower-case product tokens it obeys, most specific first. */
  readonly tokens: readonly string[]
  readonly kind: 'bot' | 'tool'
  readonly operator?: string
  readonly category?: string
  readonly obeysRobotsTxt: boolean
}

export interface JudgedRequest {
  /**
   * `request` for a judged request; `robots-txt` for a fetch of /robots.txt
   * itself; `referral` for a person who arrived on an HTML page from an
   * operator's product (`referrer`): only its host, day and `referrer` are
   * ever stored, as a count; `bytes` for the size of a judged request's
   * streamed body, known once it has been sent (the same event again, with
   * `bytes`: it adds to that request's count, never counts a request).
   */
  readonly type: 'request' | 'robots-txt' | 'referral' | 'bytes'
  /** Milliseconds since the epoch. */
  readonly time: number
  /**
   * The host the request was for, canonical (canonicalHost: lower case, no
   * port, no trailing dot, at most 253 characters), or one shared key:
   * `other-hosts.invalid` (outside the config's `hosts`, or beyond the
   * ledger's cap on distinct hosts), `invalid-host.invalid` (no host name).
   */
  readonly host: string
  readonly method: string
  /** Path and query as requested, at most 2048 characters. */
  readonly path: string
  /** The User-Agent header, at most 512 characters. Agent-controlled: escape it wherever it is shown. */
  readonly userAgent: string
  readonly agent: EventAgent
  readonly verification: Verification
  /** The request's Web Bot Auth signature, when it carried one. */
  readonly signature?: SignatureEvidence
  /** The group that applied: a lower-case token, `*`, or null when the file has none for this agent. */
  readonly group: string | null
  /** Whether robots.txt (the version in force) allowed this request; always true for type `robots-txt`. */
  readonly allowed: boolean
  /** The rule that decided, with its line in the served file. */
  readonly rule: { readonly type: 'allow' | 'disallow'; readonly pattern: string; readonly line: number } | null
  readonly mode: GuardMode
  /** What the guard did: let it through, or refuse it. */
  readonly action: 'pass' | 'block'
  /** The status the visitor got from the guard (the refusal status when blocked; 0 when passed on). */
  readonly status: number
  /** Hash of the robots.txt text in force for this host (the version). */
  readonly robotsVersion: string
  /** `request.cf.country`, when Cloudflare supplies it. */
  readonly country?: string
  /** `request.cf.asn`, when Cloudflare supplies it. */
  readonly asn?: number
  /** Salted SHA-256 of the client IP (hex, truncated); the raw address is never stored. */
  readonly ipHash?: string
  /**
   * Other crawlers the same User-Agent names (`Googlebot/2.1 GPTBot/1.1`), by
   * registry id (else first token). `agent` is the one judged: the stricter
   * verdict of them all. Absent when the header names one crawler.
   */
  readonly also?: readonly string[]
  /**
   * Seconds of `Crawl-delay` in the group that applied (`group`), as served;
   * absent when that group sets none. Crawl-delay is no part of RFC 9309: an
   * extension Bing and Yandex read (Google ignores it). The ledger measures
   * the spacing of an agent's requests against it (src/ledger/crawl-delay.ts).
   */
  readonly crawlDelay?: number
  /**
   * The bytes of the response body served to it: its Content-Length (0 for
   * HEAD and empty bodies). Absent when the body had no Content-Length: its
   * bytes follow, counted as it streams, in an event of type `bytes`.
   */
  readonly bytes?: number
  /** Whether the response was an HTML page (Content-Type text/html): a page crawled, or a page a referral led to. */
  readonly page?: boolean
  /** For type `referral`: the Referer's host, one of the registry's referrer hosts. */
  readonly referrer?: string
}
