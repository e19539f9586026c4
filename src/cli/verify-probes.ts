import { identifyAgent, registry, type AgentEntry, type AgentIdentity } from '../core/agents/index.ts'
import type { GuardMode, Policy } from '../core/config/index.ts'
import { decide } from '../core/judge/judge.ts'
import { REPORT_BASE } from '../core/report-base.ts'
import { readPrefix, request, Unreachable, type HttpOptions } from './verify-fetch.ts'

/** A person's browser: people are never judged, so the guard must let it through wherever it refuses a crawler. */
export const BROWSER_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'

/** One request sent to check the guard, and what it should get. */
export interface PlannedProbe {
  /** The crawler's name as its header gives it, or `browser`. */
  readonly agent: string
  /** The served group that judges it (lower case), or null for the browser. */
  readonly group: string | null
  readonly userAgent: string
  readonly path: string
  /** The guard's mode for it; null for the browser, which is never judged. */
  readonly mode: GuardMode | null
  /** Only a crawler in `block` mode on a disallowed path is refused. */
  readonly expectRefused: boolean
}

export interface Probe extends PlannedProbe {
  /** The status received; null when the request failed. */
  readonly status: number | null
  /** Refused by the guard: its configured status and body. */
  readonly refused: boolean
  readonly ok: boolean
  readonly error?: string
}

/** A served group no request was sent for, and why. */
export interface SkippedGroup {
  readonly tokens: readonly string[]
  readonly reason: string
}

/**
 * Whether a claim of this agent sent from here is told apart from the real
 * crawler: its operator publishes IP ranges, so the guard judges a claim
 * from elsewhere `spoofed` (or `unknown` while the ranges are not loaded),
 * and the report lists such claims apart, never against the agent
 * (src/verify/verify.ts, src/ledger/classes.ts). A claim of an agent without
 * published ranges would be `unverified`, counted as the agent's own
 * request: a probe must not make a crawler look as if it ignored robots.txt.
 */
function claimable(entry: AgentEntry): boolean {
  return entry.hasOwnUserAgent !== false && (entry.verification?.ipRanges?.length ?? 0) > 0
}

/** A header that names the crawler as it names itself, and says who really sends it. */
const claimOf = (entry: AgentEntry) => `Mozilla/5.0 (compatible; ${entry.uaNames[0]}/1.0; robots-edge-verify)`

/**
 * A path a disallow pattern matches: `*` as one character, a final `$`
 * dropped (RFC 9309 §2.2.3). None where the guard never judges: the
 * report's prefix, /robots.txt.
 */
function samplePath(pattern: string): string | null {
  if (pattern === '') return null
  const raw = (pattern.endsWith('$') ? pattern.slice(0, -1) : pattern).replace(/\*+/g, 'x')
  const path = raw.startsWith('/') ? raw : `/${raw}`
  if (path === '/robots.txt' || path === REPORT_BASE || path.startsWith(`${REPORT_BASE}/`)) return null
  return path
}

/** The served disallow patterns of a token (every group naming it, merged as RFC 9309 §2.2.1 says). */
function disallowsOf(policy: Policy, token: string): string[] {
  return policy.matcher.model.groups.filter((g) => g.userAgents.some((ua) => ua.toLowerCase() === token)).flatMap((g) => g.rules.filter((r) => r.type === 'disallow').map((r) => r.pattern))
}

/** The first of the token's disallowed paths that the guard's own judge disallows for this identity, with its mode. */
function disallowedPath(policy: Policy, identity: AgentIdentity, token: string, base: URL): { path: string; mode: GuardMode; group: string } | null {
  for (const pattern of disallowsOf(policy, token)) {
    const path = samplePath(pattern)
    if (path === null) continue
    const decision = decide(policy, identity, new URL(path, base).href)
    if (!decision.verdict.allowed && decision.identity.id === identity.id && decision.verdict.group !== null) return { path, mode: decision.mode, group: decision.verdict.group }
  }
  return null
}

function probeFor(policy: Policy, entry: AgentEntry, token: string, base: URL): PlannedProbe | null {
  const userAgent = claimOf(entry)
  const identity = identifyAgent(userAgent)
  if (identity === null || identity.id !== entry.id) return null
  const found = disallowedPath(policy, identity, token, base)
  if (found === null) return null
  return { agent: entry.uaNames[0]!, group: found.group, userAgent, path: found.path, mode: found.mode, expectRefused: found.mode === 'block' }
}

/** The crawlers tried first for the `*` group: the ones every site owner knows. */
const WILDCARD_FIRST = ['bingbot', 'googlebot', 'applebot', 'gptbot', 'perplexitybot']

const NOT_CLAIMABLE = 'no crawler of this group has published IP ranges: a request claiming one from here could not be told from the real crawler, and the report would count it against that crawler'

/**
 * The requests that check the guard: per served group with a disallowed
 * path, one crawler whose claim the guard can tell apart from the real one
 * (see `claimable`); for the `*` group, such a crawler that no group names;
 * and a browser on a path where a crawler is refused (else the first one
 * tried). Each expectation is the guard's own decision (core/judge).
 */
export function planProbes(policy: Policy, base: URL): { probes: PlannedProbe[]; skipped: SkippedGroup[] } {
  const probes: PlannedProbe[] = []
  const skipped: SkippedGroup[] = []
  const byToken = new Map<string, AgentEntry>()
  for (const entry of registry as readonly AgentEntry[]) if (claimable(entry) && !byToken.has(entry.tokens[0]!)) byToken.set(entry.tokens[0]!, entry)
  const seen = new Set<string>()
  for (const group of policy.matcher.model.groups) {
    const tokens = group.userAgents.map((ua) => ua.toLowerCase()).filter((t) => !seen.has(t))
    tokens.forEach((t) => seen.add(t))
    if (tokens.length === 0 || !group.rules.some((r) => r.type === 'disallow' && r.pattern !== '')) continue
    let probe: PlannedProbe | null = null
    if (tokens.includes('*')) {
      // A crawler no group names answers to `*` (RFC 9309 §2.2.1); one a site owner knows, first.
      const known = WILDCARD_FIRST.flatMap((t) => byToken.get(t) ?? [])
      for (const entry of new Set([...known, ...byToken.values()])) {
        if (policy.matcher.groupFor(entry.tokens) !== '*') continue
        probe = probeFor(policy, entry, '*', base)
        if (probe !== null && probe.group === '*') break
        probe = null
      }
    } else {
      for (const token of tokens) {
        const entry = byToken.get(token)
        if (entry !== undefined && (probe = probeFor(policy, entry, token, base)) !== null) break
      }
    }
    if (probe !== null) probes.push(probe)
    else skipped.push({ tokens, reason: NOT_CLAIMABLE })
  }
  const at = probes.find((p) => p.expectRefused) ?? probes[0]
  probes.push({ agent: 'browser', group: null, userAgent: BROWSER_UA, path: at?.path ?? '/', mode: null, expectRefused: false })
  return { probes, skipped }
}

/** Reads at most this much of a probe's answer: enough to recognise the guard's refusal body. */
const PROBE_BODY_BYTES = 64 * 1024

/**
 * Sends the probes one after another to `base`, each bounded in time; a
 * response is the guard's refusal when it has the configured status and
 * body (an origin's own 403 is not).
 */
export async function sendProbes(planned: readonly PlannedProbe[], base: URL, guard: { status: number; body: string }, options: HttpOptions): Promise<Probe[]> {
  const probes: Probe[] = []
  const refusalBytes = new TextEncoder().encode(guard.body).byteLength
  for (const probe of planned) {
    try {
      const url = new URL(probe.path, base).href
      const response = await request(url, { headers: { 'User-Agent': probe.userAgent } }, options)
      let refused = false
      if (response.status === guard.status) {
        const { bytes, truncated } = await readPrefix(response, Math.max(refusalBytes, PROBE_BODY_BYTES), url, options.timeoutMs)
        refused = !truncated && new TextDecoder().decode(bytes) === guard.body
      } else await response.body?.cancel().catch(() => undefined)
      probes.push({ ...probe, status: response.status, refused, ok: refused === probe.expectRefused })
    } catch (error) {
      if (!(error instanceof Unreachable)) throw error
      probes.push({ ...probe, status: null, refused: false, ok: false, error: error.message })
    }
  }
  return probes
}
