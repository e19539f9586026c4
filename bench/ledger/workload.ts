/**
 * The ledger bench's traffic: a week of crawler requests in a realistic mix
 * (about 20 agents, a few hundred paths, 3 hosts, a rule change, a newly
 * served host), generated deterministically, so the Worker that writes it
 * and the bench that checks the result see the same stream. Every request is
 * judged by the real engine against the version in force; the ground truth
 * (which disallowed requests must count) follows from how each agent is
 * built to behave, never from the classifier under test.
 */
import type { EventAgent, JudgedRequest, Verification } from '../../src/core/events.ts'
import { compileRobotsTxt, type RobotsMatcher } from '../../src/core/robots/index.ts'
import { rng } from '../../dev/harness.ts'

const HOUR = 3_600_000
const DAY = 24 * HOUR
/** Monday 5 January 2026, 00:00 UTC. */
export const START = Date.UTC(2026, 0, 5)
export const SPAN = 7 * DAY
/** a.example's rule change: v2 adds Disallow: /drafts/. */
export const CHANGE = START + 3.5 * DAY
const REFETCH = 6 * HOUR

const BASE = 'User-agent: *\nDisallow: /admin/\nDisallow: /private/\n'
export const VERSIONS = [
  { host: 'a.example', hash: 'a-v1', text: `${BASE}Allow: /\n`, time: START - 30 * DAY },
  { host: 'a.example', hash: 'a-v2', text: `${BASE}Disallow: /drafts/\nAllow: /\n`, time: CHANGE },
  { host: 'b.example', hash: 'b-v1', text: `${BASE}Allow: /\n`, time: START - 30 * DAY },
  // Served from the start of the week: its first day is a newly served host's.
  { host: 'c.example', hash: 'c-v1', text: `${BASE}Allow: /\n`, time: START },
] as const
const HOSTS = ['a.example', 'b.example', 'c.example'] as const

const range = (n: number, f: (i: number) => string) => Array.from({ length: n }, (_, i) => f(i))
const ALLOWED = [...range(200, (i) => `/articles/${i}`), ...range(100, (i) => `/products/${i}`), '/', '/about', '/search?q=robots', '/feed.xml']
const FORBIDDEN = [...range(30, (i) => `/admin/page-${i}`), ...range(20, (i) => `/private/doc-${i}`)]
const DRAFTS = range(20, (i) => `/drafts/post-${i}`)

type Behaviour = 'complies' | 'ignores' | 'never' | 'stale' | 'isolated' | 'quiet'
/** Which part of the report an agent's requests land in. */
export type Section = 'agents' | 'tools' | 'spoofed' | 'unchecked'

/** One simulated agent: who it is, how often it comes, how it behaves, and the verdict it is built to earn. */
export interface Spec {
  readonly agent: EventAgent
  readonly weight: number
  readonly behaviour: Behaviour
  /** Share of its requests to disallowed paths. */
  readonly rate: number
  readonly verification: Verification
  readonly section: Section
  /** The verdict it is built to earn (agents and tools). */
  readonly expected?: string
}

const bot = (id: string, operator: string, category: string, tokens: string[] = [id]): EventAgent => ({ id, tokens, kind: 'bot', operator, category, obeysRobotsTxt: true })
const tool = (token: string): EventAgent => ({ tokens: [token], kind: 'tool', obeysRobotsTxt: false })
const complies = (agent: EventAgent, weight: number, verification: Verification = 'verified'): Spec => ({
  agent,
  weight,
  behaviour: 'complies',
  rate: 0,
  verification,
  section: 'agents',
  expected: 'complies',
})

export const AGENTS: readonly Spec[] = [
  complies(bot('googlebot', 'Google', 'Search Engine Crawler'), 20),
  complies(bot('bingbot', 'Microsoft', 'Search Engine Crawler'), 12),
  complies(bot('applebot', 'Apple', 'Search Engine Crawler', ['applebot', 'googlebot']), 5, 'unverified'),
  complies(bot('yandexbot', 'Yandex', 'Search Engine Crawler', ['yandexbot', 'yandex']), 4),
  complies(bot('duckduckbot', 'DuckDuckGo', 'Search Engine Crawler'), 3, 'unverified'),
  complies(bot('claudebot', 'Anthropic', 'AI Crawler'), 6, 'unverified'),
  complies(bot('ccbot', 'Common Crawl Foundation', 'AI Crawler'), 4, 'unverified'),
  complies(bot('amazonbot', 'Amazon', 'AI Crawler'), 3),
  complies(bot('semrushbot', 'Semrush', 'Search Engine Optimization'), 3, 'unverified'),
  complies(bot('ahrefsbot', 'Ahrefs', 'Search Engine Optimization'), 4),
  { agent: bot('gptbot', 'OpenAI', 'AI Crawler'), weight: 10, behaviour: 'ignores', rate: 0.15, verification: 'verified', section: 'agents', expected: 'ignores robots.txt' },
  { agent: bot('perplexitybot', 'Perplexity', 'AI Search'), weight: 4, behaviour: 'ignores', rate: 0.05, verification: 'verified', section: 'agents', expected: 'ignores robots.txt' },
  { agent: bot('dotbot', 'Moz', 'Search Engine Optimization'), weight: 2, behaviour: 'ignores', rate: 0.02, verification: 'unverified', section: 'agents', expected: 'ignores robots.txt' },
  { agent: bot('bytespider', 'ByteDance', 'AI Crawler'), weight: 8, behaviour: 'never', rate: 0.2, verification: 'unverified', section: 'agents', expected: 'ignores robots.txt' },
  {
    agent: bot('petalbot', 'Huawei (Petal Search)', 'Search Engine Crawler'),
    weight: 3,
    behaviour: 'never',
    rate: 0.015,
    verification: 'unverified',
    section: 'agents',
    expected: 'ignores robots.txt',
  },
  { agent: bot('facebookexternalhit', 'Meta', 'Page Preview'), weight: 2, behaviour: 'stale', rate: 0.2, verification: 'unverified', section: 'agents', expected: 'ignores robots.txt' },
  { agent: bot('mj12bot', 'Majestic', 'Search Engine Optimization'), weight: 2, behaviour: 'isolated', rate: 0, verification: 'unverified', section: 'agents', expected: 'isolated violations' },
  { agent: bot('googlebot', 'Google', 'Search Engine Crawler'), weight: 2, behaviour: 'never', rate: 0.3, verification: 'spoofed', section: 'spoofed' },
  { agent: bot('bingbot', 'Microsoft', 'Search Engine Crawler'), weight: 1, behaviour: 'never', rate: 0.2, verification: 'unknown', section: 'unchecked' },
  { agent: tool('curl'), weight: 1, behaviour: 'never', rate: 0.1, verification: 'unverified', section: 'tools', expected: 'ignores robots.txt' },
  { agent: tool('python-requests'), weight: 1, behaviour: 'quiet', rate: 0, verification: 'unverified', section: 'tools', expected: 'complies' },
]

/** What the stream holds per agent and section, by construction. */
export interface Truth {
  requests: number
  /** Disallowed requests that must count as violations. */
  counted: number
  /** Disallowed requests that must not: grace, first day on a new host, spoofed and unchecked claims. */
  excused: number
  fetches: number
}

export interface Workload {
  /** The next `n` events (fewer at the end of the stream). */
  take(n: number): JudgedRequest[]
  /** The ground truth so far, keyed `section\nagentKey`. */
  readonly truth: ReadonlyMap<string, Truth>
  readonly expected: ReadonlyMap<string, string>
  readonly remaining: number
}

const matchers = new Map<string, RobotsMatcher>(VERSIONS.map((v) => [v.hash, compileRobotsTxt(v.text)]))

/**
 * What both workloads share: picking an agent by weight, its ground truth
 * (keyed `section\nagentKey`), and its event judged by the real engine
 * against the version in force.
 */
export function workloadKit(specs: readonly Spec[], random: () => number, versions: ReadonlyMap<string, RobotsMatcher>, versionAt: (host: string, time: number) => string) {
  const weights = specs.reduce((n, a) => n + a.weight, 0)
  const truth = new Map<string, Truth>()
  const keyOf = (a: Spec) => `${a.section}\n${a.agent.id ?? a.agent.tokens[0]}`
  return {
    truth,
    keyOf,
    spec(): Spec {
      let r = random() * weights
      for (const a of specs) if ((r -= a.weight) < 0) return a
      return specs[0]!
    },
    tally(a: Spec): Truth {
      const key = keyOf(a)
      let t = truth.get(key)
      if (!t) truth.set(key, (t = { requests: 0, counted: 0, excused: 0, fetches: 0 }))
      return t
    },
    event(a: Spec, host: string, time: number, path: string | null): JudgedRequest {
      const hash = versionAt(host, time)
      const verdict = path === null ? { allowed: true, group: null, rule: null } : versions.get(hash)!.check(a.agent.tokens, path)
      return {
        type: path === null ? 'robots-txt' : 'request',
        time,
        host,
        method: 'GET',
        path: path ?? '/robots.txt',
        userAgent: `Mozilla/5.0 (compatible; ${a.agent.tokens[0]}/1.0)`,
        agent: a.agent,
        verification: a.verification,
        group: verdict.group,
        allowed: verdict.allowed,
        rule: verdict.rule,
        mode: 'log',
        action: 'pass',
        status: 0,
        robotsVersion: hash,
        country: 'US',
        asn: 64500,
        ipHash: (a.agent.tokens[0] ?? 'x').padEnd(16, '0').slice(0, 16),
      }
    },
  }
}

function versionAt(host: string, time: number): string {
  let hash = ''
  for (const v of VERSIONS) if (v.host === host && v.time <= time) hash = v.hash
  return hash
}

/** A week of `total` events (robots.txt fetches included), the same stream for the same seed. */
export function createWorkload(total: number, seed = 9): Workload {
  const random = rng(seed)
  const known = new Map<string, { hash: string; at: number }>()
  const seen = new Map<Spec, number>()
  const { truth, keyOf, spec, tally, event } = workloadKit(AGENTS, random, matchers, versionAt)
  const expected = new Map(AGENTS.filter((a) => a.expected).map((a) => [keyOf(a), a.expected!]))
  let i = 0
  const pickFrom = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!

  function next(): JudgedRequest {
    const time = START + Math.floor(((i + 0.5) * SPAN) / total)
    i++
    const a = spec()
    const host = a.behaviour === 'stale' ? 'a.example' : pickFrom(HOSTS)
    const t = tally(a)
    const fetches = a.behaviour === 'complies' || a.behaviour === 'ignores' || a.behaviour === 'isolated' || a.behaviour === 'stale'
    const k = `${a.agent.tokens[0]}\n${a.verification}\n${host}`
    const read = known.get(k)
    if (fetches && (!read || (a.behaviour !== 'stale' && time - read.at >= REFETCH))) {
      known.set(k, { hash: versionAt(host, time), at: time })
      t.fetches++
      return event(a, host, time, null)
    }
    t.requests++
    const n = (seen.get(a) ?? 0) + 1
    seen.set(a, n)
    let path = pickFrom(ALLOWED)
    let counts = false
    if (a.behaviour === 'complies' && read?.hash === 'a-v1' && random() < 0.05) {
      // A cached v1 allows /drafts/; within 24 h of the change that is grace (RFC 9309 §2.4).
      path = pickFrom(DRAFTS)
    } else if ((a.behaviour === 'ignores' || a.behaviour === 'never') && random() < a.rate) {
      path = pickFrom(FORBIDDEN)
      counts = a.verification !== 'spoofed' && a.verification !== 'unknown' && !(a.behaviour === 'never' && host === 'c.example' && time < START + DAY)
    } else if (a.behaviour === 'stale' && time >= CHANGE + DAY && random() < a.rate) {
      path = pickFrom(DRAFTS)
      counts = true
    } else if (a.behaviour === 'isolated' && (n === 10 || n === 20)) {
      path = pickFrom(FORBIDDEN)
      counts = true
    }
    const e = event(a, host, time, path)
    if (counts) t.counted++
    else if (!e.allowed) t.excused++
    if (counts && e.allowed) throw new Error(`workload: ${path} was meant to be disallowed on ${host}`)
    return e
  }

  return {
    take(n) {
      const out: JudgedRequest[] = []
      while (out.length < n && i < total) out.push(next())
      return out
    },
    truth,
    expected,
    get remaining() {
      return total - i
    },
  }
}
