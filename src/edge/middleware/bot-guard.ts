import type { Context, MiddlewareHandler } from 'hono'
import { identifyAgent, type AgentIdentity } from '../../core/agents/index.ts'
import { referrerHost } from '../../core/agents/referrer-host.ts'
import { cfOf, cloudflareVouches } from '../../verify/verify.ts'
import type { Policies, Policy } from '../../core/config/index.ts'
import type { JudgedRequest, Verification } from '../../core/events.ts'
import { buildEvent, crawlDelayOf, hashIp } from '../../core/judge/event.ts'
import { agentKey, decide, declaredBot } from '../../core/judge/judge.ts'
import { mayNormalize, normalizedPath } from '../../core/judge/path-readings.ts'
import { decodeUnreserved } from '../../core/judge/readings.ts'
import type { Verdict } from '../../core/robots/index.ts'
import { deploymentEnvOf } from './robots-txt.ts'

/** What later handlers can read with `c.get('robotsJudgment')`: who asked, the robots.txt verdict on the URL, and what the guard did. */
export interface RobotsJudgment {
  readonly identity: AgentIdentity
  readonly verdict: Verdict
  readonly verification: Verification
  readonly action: 'pass' | 'block'
}

export type BotGuardEnv = {
  Variables: {
    robotsJudgment?: RobotsJudgment
    /** @deprecated The same object as `robotsJudgment`, under the name it had first: it holds a judgment, not a verdict. */
    robotsVerdict?: RobotsJudgment
  }
}

/**
 * Receives each judged request and each fetch of /robots.txt by an
 * identified agent, with the policy that judged it: the one record hook of
 * the guard, robots.txt, the edge's options and the Worker's ledger. Also
 * the counters' events: `referral` (a person sent from an operator's
 * product) and `bytes` (a streamed body's size, for a request already
 * recorded); see JudgedRequest.type.
 */
export type RecordFn = (event: JudgedRequest, c: Context, policy: Policy) => Promise<void> | void

export interface BotGuardOptions {
  /** The per-isolate policy store (`createPolicies(config)`), shared with `robotsTxt()`. */
  policies: Policies
  /**
   * Confirms a claimed identity (see src/verify/verify.ts for the rule the
   * Worker uses). Default: `verified` when Cloudflare says so
   * (`request.cf.verifiedBotCategory` or `botManagement.verifiedBot`), else
   * `unverified`.
   */
  verify?: (c: Context, identity: AgentIdentity) => Verification | Promise<Verification>
  /** Receives each judged request, through `ctx.waitUntil`; its failure never reaches the visitor. Default: none. */
  record?: RecordFn
  /** Salt for the client-IP hash in recorded events. Default: none (no hash stored). */
  ipSalt?: (c: Context) => string | undefined
  /**
   * Whether this response waits (at most HOLD_MS) for `record` to resolve.
   * The Worker's ledger asks for it only while D1 refuses writes, so that
   * each event is counted in KV before its response leaves. Default: never.
   */
  hold?: (c: Context) => boolean
  /** Paths never judged, each with everything below it: the project's own pages. Default: `['/_robots']`. */
  exclude?: readonly string[]
  /** Shapes a refusal. Default: the config's `guard.status`, `body` and `headers`. */
  onBlock?: (c: Context, judgment: RobotsJudgment, policy: Policy) => Response | Promise<Response>
  /** Writes one JSON log line per judged request. Default: `console.log` (Workers Logs, Logpush). */
  log?: (line: string) => void
  /**
   * With `guard.crawlDelay: 'enforce'`: seconds a verified agent's request
   * (keyed `host\nagent`) is too early for its group's Crawl-delay (ms), or 0.
   * Default: none (nothing enforced).
   */
  pace?: (c: Context, key: string, delayMs: number) => Promise<number>
  /**
   * Records the bytes served to each judged request (its Content-Length, or
   * its streamed body counted) and whether it was an HTML page. Default:
   * true; `npm run bench -- bytes` measures the cost against false.
   */
  countBytes?: boolean
}

/**
 * The structured log line of a judged request (Workers Logs, Logpush): flat
 * and compact, the fields people filter on. The full event, with the whole
 * User-Agent, goes to the ledger; writing all of it here cost several
 * percent of throughput.
 */
export function logLine(event: JudgedRequest): string {
  const line: Record<string, unknown> = {
    robotsEdge: event.type === 'request' ? 'judged' : 'robots-txt',
    host: event.host,
    method: event.method,
    path: event.path.slice(0, 256),
    agent: event.agent.id ?? event.agent.tokens[0] ?? 'unknown',
    verification: event.verification,
    group: event.group,
    allowed: event.allowed,
    rule: event.rule === null ? null : `${event.rule.type}: ${event.rule.pattern} (line ${event.rule.line})`,
    mode: event.mode,
    action: event.action,
    status: event.status,
    version: event.robotsVersion,
    ua: event.userAgent.slice(0, 160),
  }
  // Other crawlers an ambiguous header names (`Googlebot/2.1 GPTBot/1.1`).
  if (event.also !== undefined) line.also = event.also
  return JSON.stringify(line)
}

/** Cloudflare's own verdict on the client, when the zone has it. */
export function cloudflareVerification(c: Context): Verification {
  return cloudflareVouches(cfOf(c.req.raw)) ? 'verified' : 'unverified'
}

/**
 * Judges every request from an automated client by the rules it was served:
 * the same compiled matcher that rendered /robots.txt for this host. People
 * and unidentified clients (`AgentIdentity.unidentified`, unless a group
 * names them) pass untouched; `log` records the verdict; `block`
 * refuses a disallowed request; an allowed request always passes. Mount it
 * after `robotsTxt()`.
 *
 * Crawlers and generic tools alike answer to `*` when no group names them,
 * except the fetchers `guard.exempt` lists. A path is disallowed when it is
 * as requested, with its percent-encoded unreserved octets decoded, or as
 * an origin that merges slashes, resolves dot segments and decodes `%2F`
 * may read it (guard/readings.ts). Where the deployment serves disallow-all (staging, a
 * preview host), each agent keeps the mode of its config group. A header
 * naming several crawlers is judged by the stricter verdict.
 *
 * @example
 * app.use(robotsTxt({ policies }))
 * app.use(botGuard({ policies, record: (event) => recorder.record(event) }))
 */
export function botGuard(options: BotGuardOptions): MiddlewareHandler<BotGuardEnv> {
  const { policies, record, onBlock, ipSalt } = options
  if (typeof policies?.get !== 'function') throw new TypeError('botGuard: `policies` must come from createPolicies(config).')
  const verify = options.verify ?? cloudflareVerification
  const exclude = (options.exclude ?? ['/_robots']).map((p) => p.replace(/\/+$/, ''))
  const under = (path: string) => exclude.some((p) => path === p || path.startsWith(`${p}/`))
  // Excluded only if the origin's reading is too: `/_robots/..%2Fprivate/x` is no page of ours (guard/path-readings.ts).
  const excluded = (path: string) => {
    if (!under(path)) return false
    const decoded = decodeUnreserved(path)
    return !mayNormalize(decoded) || under(normalizedPath(decoded))
  }
  const log = options.log ?? ((line: string) => console.log(line))

  const keep = (c: Context, event: JudgedRequest, policy: Policy): Promise<void> | undefined => {
    // A referral is a person's visit, and a `bytes` event a count for one already kept: neither is logged or hashed.
    const counter = event.type === 'referral' || event.type === 'bytes'
    if (!counter) log(logLine(event))
    if (record === undefined) return
    const salt = counter ? undefined : ipSalt?.(c)
    const ip = c.req.header('cf-connecting-ip') ?? null
    // Off the response path; a failure is the recorder's to count, never the visitor's.
    const work = hashIp(ip, salt)
      .then((ipHash) => record(ipHash === undefined ? event : { ...event, ipHash }, c, policy))
      .catch((error: unknown) => console.error('robots-edge: record failed', error))
    waitUntil(c, work)
    return held(c, work, options.hold)
  }

  /**
   * Records `event` with what `res`, its response, says of itself: whether
   * it is an HTML page, and its Content-Length. A body without one is
   * counted as it streams (a copy replaces it in `c.res`), and its size
   * recorded once sent, as a `bytes` event: the request's own event never
   * waits for its body, which a caller may never read.
   */
  const keepServed = (c: Context, event: JudgedRequest, policy: Policy, res: Response): Promise<void> | undefined => {
    if (options.countBytes === false) return keep(c, event, policy)
    const page = /^text\/html/i.test(res.headers.get('content-type') ?? '')
    const length = res.body === null || c.req.method === 'HEAD' ? 0 : Number(res.headers.get('content-length') ?? Number.NaN)
    if (length >= 0 || res.status === 101) return keep(c, { ...event, page, bytes: length >= 0 ? length : 0 }, policy)
    let bytes = 0
    let sending: Promise<void> | undefined
    const counter = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, out) {
        bytes += chunk.byteLength
        // Waited for from the first chunk sent: a body nobody reads holds nothing open.
        if (sending === undefined) waitUntil(c, (sending = sent.then(() => void keep(c, { ...event, type: 'bytes', bytes }, policy))))
        out.enqueue(chunk)
      },
    })
    // Ends when the body is sent, or when the client goes away (then what was sent so far).
    const sent = res.body!.pipeTo(counter.writable).catch(() => {})
    c.res = new Response(counter.readable, res)
    return keep(c, { ...event, page }, policy)
  }

  /** Judges one request; null when it is not to be judged (mode off) or cannot be. */
  const assess = async (c: Context): Promise<{ judgment: RobotsJudgment; policy: Policy; event: JudgedRequest; wait: number } | null> => {
    try {
      const url = new URL(c.req.url)
      const policy = policies.get(url.hostname, deploymentEnvOf(c))
      const userAgent = c.req.header('user-agent')
      // People and unidentified clients pass untouched.
      const identity = identifyAgent(userAgent) ?? declaredBot(userAgent, policy)
      if (identity === null) return null
      // The whole URL: a path such as `//docs/x` alone would read as a host.
      const decision = decide(policy, identity, url.href)
      const { verdict, mode } = decision
      if (mode === 'off') return null
      // A client that names itself as nothing, and that no group names, is not judged: it passes
      // unrecorded, as a person does, rather than appearing in the report as a bot.
      if (decision.identity.unidentified === true && verdict.group === null) return null
      const verification = await verify(c, decision.identity)
      const refuse = mode === 'block' && (!verdict.allowed || (verification === 'spoofed' && policy.config.guard.spoofed === 'block'))
      // Crawl-delay (an extension; not in RFC 9309), enforced on verified agents only: an unverified claim must not pace the real crawler.
      const delay = !refuse && verification === 'verified' && policy.config.guard.crawlDelay === 'enforce' ? crawlDelayOf(policy, verdict.group) : undefined
      const wait = delay && options.pace ? await options.pace(c, `${policy.config.host}\n${agentKey(decision.identity)}`, delay * 1000) : 0
      const judgment: RobotsJudgment = { identity: decision.identity, verdict, verification, action: refuse || wait ? 'block' : 'pass' }
      const event = buildEvent({
        type: 'request',
        request: c.req.raw,
        url,
        identity: decision.identity,
        policy,
        verdict,
        verification,
        mode,
        action: judgment.action,
        status: refuse ? policy.config.guard.status : wait && 429,
        also: decision.also,
      })
      return { judgment, policy, event, wait }
    } catch (error) {
      // Bad input is never the visitor's 5xx: judge nothing and pass.
      console.error('robots-edge: guard failed, request passed unjudged', error)
      return null
    }
  }

  return async function botGuard(c, next) {
    const path = c.req.path
    if (path === '/robots.txt' || excluded(path)) return next()
    const assessed = await assess(c)
    if (assessed === null) {
      // Not judged (a person, mostly): counted as a referral when it came from an operator's product to an HTML page.
      const referrer = referrerHost(c.req.header('referer'))
      await next()
      if (referrer !== undefined && record !== undefined && /^text\/html/i.test(c.res.headers.get('content-type') ?? '')) {
        const url = new URL(c.req.url)
        const policy = policies.get(url.hostname, deploymentEnvOf(c))
        await keep(
          c,
          {
            type: 'referral',
            time: Date.now(),
            host: policy.config.host,
            method: c.req.method,
            path: '',
            userAgent: '',
            agent: PERSON,
            verification: 'unverified',
            group: null,
            allowed: true,
            rule: null,
            mode: 'off',
            action: 'pass',
            status: 0,
            robotsVersion: policy.version,
            referrer,
          },
          policy,
        )
      }
      return
    }
    const { judgment, policy, event, wait } = assessed
    c.set('robotsJudgment', judgment)
    c.set('robotsVerdict', judgment)
    if (judgment.action === 'block') {
      if (onBlock && !wait) {
        c.res = await onBlock(c, judgment, policy)
        await keepServed(c, event, policy, c.res)
        return c.res
      }
      // Too early: 429 with Retry-After (RFC 9110 §10.2.3) and the RateLimit fields (draft-ietf-httpapi-ratelimit-headers-10 §3, §4): one request per delay.
      const { status, body, headers } = wait
        ? {
            status: 429,
            body: `Too early: wait ${event.crawlDelay} s between requests (this site's Crawl-delay).\n`,
            headers: { 'Retry-After': `${wait}`, 'RateLimit-Policy': `"crawl-delay";q=1;w=${Math.ceil(event.crawlDelay!)}`, RateLimit: `"crawl-delay";r=0;t=${wait}` },
          }
        : policy.config.guard
      // The refusal's size is known: its body is the config's text.
      await keep(c, { ...event, page: false, bytes: new TextEncoder().encode(body).byteLength }, policy)
      return new Response(body, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', ...headers } })
    }
    await next()
    await keepServed(c, event, policy, c.res)
  }
}

/** The agent of a referral event: a person, no agent at all. */
const PERSON = { tokens: [], kind: 'tool', obeysRobotsTxt: false } as const

function waitUntil(c: Context, work: Promise<unknown>): void {
  try {
    c.executionCtx.waitUntil(work)
  } catch {
    // No execution context (a unit test calling app.request): the promise still runs.
  }
}

/**
 * The `onFetch` hook for `robotsTxt()`: records each fetch of /robots.txt by
 * an identified agent, the evidence that it read the rules in force.
 */
export function recordRobotsFetch(options: Pick<BotGuardOptions, 'record' | 'verify' | 'ipSalt' | 'hold'>): (c: Context, policy: Policy) => Promise<void> | undefined {
  const verify = options.verify ?? cloudflareVerification
  return (c, policy) => {
    const identity = identifyAgent(c.req.header('user-agent'))
    // An unidentified client is no agent the report can name (see `AgentIdentity.unidentified`).
    if (identity === null || identity.unidentified === true || options.record === undefined) return
    const record = options.record
    const work = (async () => {
      const url = new URL(c.req.url)
      const verification = await verify(c, identity)
      const verdict: Verdict = { allowed: true, group: policy.matcher.groupFor(identity.tokens), rule: null }
      const also = (identity.others ?? []).map(agentKey)
      const event = buildEvent({ type: 'robots-txt', request: c.req.raw, url, identity, policy, verdict, verification, mode: policy.config.guard.mode, action: 'pass', status: 0, also })
      const ipHash = await hashIp(c.req.header('cf-connecting-ip') ?? null, options.ipSalt?.(c))
      await record(ipHash === undefined ? event : { ...event, ipHash }, c, policy)
    })().catch((error: unknown) => console.error('robots-edge: record failed', error))
    waitUntil(c, work)
    return held(c, work, options.hold)
  }
}

/** A response waits this long at most for its event to be made durable: a slow KV never hangs it. */
const HOLD_MS = 2000

/** `work`, bounded, when `hold` asks the response to wait for it; otherwise nothing to wait for. */
function held(c: Context, work: Promise<void>, hold: BotGuardOptions['hold']): Promise<void> | undefined {
  // The timer, if left, ends with the request.
  return hold?.(c) ? Promise.race([work, new Promise<void>((resolve) => setTimeout(resolve, HOLD_MS))]) : undefined
}
