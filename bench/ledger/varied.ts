/**
 * The ledger bench's varied traffic (issue 18): 64 agents over 4 hosts for a
 * week, a rule change, a host first served mid-week, stale copies, spoofed
 * and unchecked claims, and violators whose disallowed paths hardly ever
 * repeat, so distinct violating (agent, path) pairs grow with the traffic
 * (more than 200,000 at 1M events). Deterministic, like workload.ts, and
 * the ground truth follows from how each agent is built, never from the
 * classifier under test.
 */
import type { EventAgent, JudgedRequest, Verification } from '../../src/core/events.ts'
import { compileRobotsTxt, type RobotsMatcher } from '../../src/core/robots/index.ts'
import { rng } from '../../dev/harness.ts'
import { SPAN, START, type Spec, type Workload, workloadKit } from './workload.ts'

const HOUR = 3_600_000
const DAY = 24 * HOUR
const CHANGE = START + 3.5 * DAY
const REFETCH = 6 * HOUR

const BASE = 'User-agent: *\nDisallow: /admin/\nDisallow: /private/\n'
export const VARIED_VERSIONS = [
  { host: 'a.example', hash: 'va-v1', text: `${BASE}Allow: /\n`, time: START - 30 * DAY },
  { host: 'a.example', hash: 'va-v2', text: `${BASE}Disallow: /drafts/\nAllow: /\n`, time: CHANGE },
  { host: 'b.example', hash: 'vb-v1', text: `${BASE}Allow: /\n`, time: START - 30 * DAY },
  { host: 'c.example', hash: 'vc-v1', text: `${BASE}Allow: /\n`, time: START - 30 * DAY },
  // A host first served on the fifth day: its first 24 hours are a new host's.
  { host: 'd.example', hash: 'vd-v1', text: `${BASE}Allow: /\n`, time: START + 4 * DAY },
] as const
const HOSTS = ['a.example', 'b.example', 'c.example', 'd.example'] as const
const NEW_HOST = 'd.example'
const NEW_HOST_FROM = START + 4 * DAY

const bot = (id: string, category: string): EventAgent => ({ id, tokens: [id], kind: 'bot', operator: `Operator of ${id}`, category, obeysRobotsTxt: true })
const CATEGORIES = ['AI Crawler', 'Search Engine Crawler', 'AI Search', 'Search Engine Optimization', 'Page Preview']

function specs(): Spec[] {
  const out: Spec[] = []
  const add = (n: number, f: (i: number) => Spec) => {
    for (let i = 0; i < n; i++) out.push(f(i))
  }
  const v = (i: number): Verification => (i % 2 === 0 ? 'verified' : 'unverified')
  const cat = (i: number) => CATEGORIES[i % CATEGORIES.length]!
  add(30, (i) => ({ agent: bot(`complier-${i}`, cat(i)), weight: 1 + (i % 5), behaviour: 'complies', rate: 0, verification: v(i), section: 'agents', expected: 'complies' }))
  add(14, (i) => ({ agent: bot(`ignorer-${i}`, cat(i)), weight: 3 + (i % 4), behaviour: 'ignores', rate: 0.7, verification: v(i), section: 'agents', expected: 'ignores robots.txt' }))
  add(8, (i) => ({ agent: bot(`never-${i}`, cat(i)), weight: 3 + (i % 3), behaviour: 'never', rate: 0.6, verification: v(i), section: 'agents', expected: 'ignores robots.txt' }))
  add(3, (i) => ({ agent: bot(`stale-${i}`, cat(i)), weight: 2, behaviour: 'stale', rate: 0.3, verification: v(i), section: 'agents', expected: 'ignores robots.txt' }))
  add(4, (i) => ({ agent: bot(`isolated-${i}`, cat(i)), weight: 1, behaviour: 'isolated', rate: 0, verification: v(i), section: 'agents', expected: 'isolated violations' }))
  add(2, (i) => ({ agent: bot(`complier-${i}`, cat(i)), weight: 1, behaviour: 'never', rate: 0.3, verification: 'spoofed', section: 'spoofed' }))
  add(1, (i) => ({ agent: bot(`complier-${i + 2}`, cat(i)), weight: 1, behaviour: 'never', rate: 0.3, verification: 'unknown', section: 'unchecked' }))
  add(2, (i) => ({
    agent: { tokens: [`tool-${i}`], kind: 'tool', obeysRobotsTxt: false },
    weight: 1,
    behaviour: 'never',
    rate: 0.2,
    verification: 'unverified',
    section: 'tools',
    expected: 'ignores robots.txt',
  }))
  return out
}

export const VARIED_AGENTS: readonly Spec[] = specs()

const matchers = new Map<string, RobotsMatcher>(VARIED_VERSIONS.map((v) => [v.hash, compileRobotsTxt(v.text)]))

function versionAt(host: string, time: number): string {
  let hash = ''
  for (const v of VARIED_VERSIONS) if (v.host === host && v.time <= time) hash = v.hash
  return hash
}

/** The varied week of `total` events, the same stream for the same seed; `pairs` counts distinct violating (agent, path) pairs so far. */
export function createVariedWorkload(total: number, seed = 18): Workload & { readonly pairs: number } {
  const random = rng(seed)
  const known = new Map<string, { hash: string; at: number }>()
  const seen = new Map<Spec, number>()
  const { truth, keyOf, spec, tally, event } = workloadKit(VARIED_AGENTS, random, matchers, versionAt)
  const pairs = new Set<string>()
  const expected = new Map(VARIED_AGENTS.filter((a) => a.expected).map((a) => [keyOf(a), a.expected!]))
  let i = 0
  const int = (n: number) => Math.floor(random() * n)

  const allowedPath = () => {
    const r = random()
    if (r < 0.5) return `/articles/${int(40_000)}`
    if (r < 0.8) return `/products/${int(10_000)}`
    if (r < 0.95) return `/tags/${int(500)}`
    return ['/', '/about', '/feed.xml', '/search?q=robots'][int(4)]!
  }
  const forbiddenPath = () => (random() < 0.5 ? `/private/doc-${int(1_000_000)}` : `/admin/page-${int(1_000_000)}`)

  function next(): JudgedRequest {
    const time = START + Math.floor(((i + 0.5) * SPAN) / total)
    i++
    const a = spec()
    const served = time >= NEW_HOST_FROM ? HOSTS : HOSTS.filter((h) => h !== NEW_HOST)
    const host = a.behaviour === 'stale' ? 'a.example' : served[int(served.length)]!
    const t = tally(a)
    const fetches = a.behaviour !== 'never'
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
    let path = allowedPath()
    let counts = false
    if (a.behaviour === 'complies' && read?.hash === 'va-v1' && random() < 0.05) {
      // A cached v1 allows /drafts/; within 24 h of the change that is grace (RFC 9309 §2.4).
      path = `/drafts/post-${int(50)}`
    } else if ((a.behaviour === 'ignores' || a.behaviour === 'never') && random() < a.rate) {
      path = forbiddenPath()
      const firstDay = host === NEW_HOST && time < NEW_HOST_FROM + DAY
      counts = a.verification !== 'spoofed' && a.verification !== 'unknown' && !(a.behaviour === 'never' && firstDay)
    } else if (a.behaviour === 'stale' && time >= CHANGE + DAY && random() < a.rate) {
      path = `/drafts/post-${int(5_000)}`
      counts = true
    } else if (a.behaviour === 'isolated' && (n === 10 || n === 20)) {
      path = `/admin/page-${n}`
      counts = true
    }
    const e = event(a, host, time, path)
    if (counts) {
      t.counted++
      pairs.add(`${a.agent.tokens[0]}\n${path}`)
    } else if (!e.allowed) t.excused++
    if (counts && e.allowed) throw new Error(`varied workload: ${path} was meant to be disallowed on ${host}`)
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
    get pairs() {
      return pairs.size
    },
  }
}
