import type { AgentIdentity } from '../agents/index.ts'
import type { Policy } from '../config/index.ts'
import type { EventAgent, GuardMode, JudgedRequest, Verification } from '../events.ts'
import type { Verdict } from '../robots/index.ts'

const MAX_PATH = 2048

/** Per policy's config: its groups' Crawl-delay by lower-case token (`*` included), built once. */
const delays = new WeakMap<object, Map<string, number>>()

/**
 * The Crawl-delay (seconds) of the served group `group`; undefined when it
 * sets none, and where the deployment serves disallow-all (no delay in that file).
 */
export function crawlDelayOf(policy: Policy, group: string | null): number | undefined {
  const { config } = policy
  let map = delays.get(config.rules)
  if (map === undefined) {
    delays.set(config.rules, (map = new Map()))
    for (const rule of config.rules) for (const ua of rule.userAgent) if (rule.crawlDelay) map.set(ua.toLowerCase(), rule.crawlDelay)
  }
  return config.indexable ? map.get(group!) : undefined
}
const MAX_UA = 512

/** The request.cf fields the ledger keeps (never the client IP). */
interface CfFields {
  country?: unknown
  asn?: unknown
}

export function eventAgent(identity: AgentIdentity): EventAgent {
  // Assigned field by field: conditional spreads cost more than the rest of
  // the event on the guard's hot path.
  const agent: { -readonly [K in keyof EventAgent]: EventAgent[K] } = { tokens: identity.tokens, kind: identity.kind, obeysRobotsTxt: identity.obeysRobotsTxt }
  if (identity.id !== undefined) agent.id = identity.id
  if (identity.operator !== undefined) agent.operator = identity.operator
  if (identity.category !== undefined) agent.category = identity.category
  return agent
}

export interface EventInput {
  type: JudgedRequest['type']
  request: Request
  url: URL
  identity: AgentIdentity
  policy: Policy
  verdict: Verdict
  verification: Verification
  mode: GuardMode
  action: JudgedRequest['action']
  status: number
  /** Other crawlers the header names (`Decision#also`). Default: none. */
  also?: readonly string[]
}

/** Builds the event recorded for one judged request (or robots.txt fetch). */
export function buildEvent(input: EventInput): JudgedRequest {
  const { request, url, verdict } = input
  const cf = (request as { cf?: CfFields }).cf
  const asn = typeof cf?.asn === 'number' ? cf.asn : undefined
  const country = typeof cf?.country === 'string' ? cf.country : undefined
  const event: { -readonly [K in keyof JudgedRequest]: JudgedRequest[K] } = {
    type: input.type,
    time: Date.now(),
    // The key the policy was built for: canonical, and the shared key for a
    // host outside `hosts` or an invalid Host, so clients cannot mint new ones.
    host: input.policy.config.host,
    method: request.method,
    path: (url.pathname + url.search).slice(0, MAX_PATH),
    userAgent: (request.headers.get('user-agent') ?? '').slice(0, MAX_UA),
    agent: eventAgent(input.identity),
    verification: input.verification,
    group: verdict.group,
    allowed: verdict.allowed,
    rule: verdict.rule,
    mode: input.mode,
    action: input.action,
    status: input.status,
    robotsVersion: input.policy.version,
  }
  if (country !== undefined) event.country = country
  if (asn !== undefined) event.asn = asn
  if (input.also !== undefined && input.also.length > 0) event.also = input.also
  const delay = crawlDelayOf(input.policy, verdict.group)
  if (delay !== undefined) event.crawlDelay = delay
  return event
}

/**
 * Salted SHA-256 of the client IP, first 16 hex digits: enough to count
 * distinct clients, useless to recover the address. Without a salt nothing
 * is stored: an unsalted hash of an IPv4 address is reversible by brute force.
 */
export async function hashIp(ip: string | null, salt: string | undefined): Promise<string | undefined> {
  if (!ip || !salt) return undefined
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`${salt}\n${ip}`))
  return [...new Uint8Array(digest, 0, 8)].map((b) => b.toString(16).padStart(2, '0')).join('')
}
