import { identifyAgent } from '../../src/core/agents/index.ts'
import { verifyClaim, type VerificationRanges } from '../../src/verify/index.ts'
import type { Policy } from '../../src/core/config/index.ts'
import { declaredBot, judge } from '../../src/core/judge/judge.ts'
import { CLIENTS, SITE_PATHS, pick, randomSource, type ClientSpec } from '../../dev/simulate/clients.ts'

/**
 * The load test's request mix, and what the Worker must do with each
 * request: record it in the ledger or not, refuse it (403) or not. The
 * expectation is computed with the Worker's own identification and
 * judgement, as src/edge/middleware/robots-txt.ts and bot-guard.ts apply them, so
 * "sent" counts exactly the requests the ledger has to hold.
 */

export interface Template {
  /** Who sent it, for the breakdown. */
  readonly label: string
  readonly path: string
  readonly userAgent: string
  readonly ip: string
  /** An event must reach the ledger for it. */
  readonly recorded: boolean
  /** The guard must answer 403; every other request 200. */
  readonly refused: boolean
}

const byName = (name: string): ClientSpec => {
  const spec = CLIENTS.find((c) => c.name === name)
  if (spec === undefined) throw new Error(`loadtest: no client named ${name} in dev/simulate/clients.ts`)
  return spec
}

const EXTRA_BOTS: readonly ClientSpec[] = [
  {
    name: 'ClaudeBot',
    role: 'ignores',
    userAgent: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)',
    ip: '203.0.113.40',
    weight: 0,
    expected: '',
  },
  { name: 'AhrefsBot', role: 'complies', userAgent: 'Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)', ip: '203.0.113.50', weight: 0, expected: '' },
  { name: 'Go-http-client', role: 'tool', userAgent: 'Go-http-client/1.1', ip: '198.51.100.12', weight: 0, expected: '' },
]

/**
 * Who fills each of 20 slots: 9 people, 7 crawler page requests (two of
 * them refused by the config's block groups, one spoofed), 2 robots.txt
 * fetches by crawlers, 2 tools (one reading robots.txt).
 */
function slots(): readonly (readonly ClientSpec[])[] {
  const browsers = CLIENTS.filter((c) => c.role === 'browser')
  const [claude, ahrefs, go] = EXTRA_BOTS as [ClientSpec, ClientSpec, ClientSpec]
  const crawlers = [byName('Googlebot'), byName('Bingbot'), byName('Applebot'), byName('GPTBot'), claude, ahrefs]
  return [
    ...Array.from({ length: 9 }, () => browsers),
    [byName('Googlebot')],
    [byName('Bingbot'), byName('Applebot'), ahrefs],
    [byName('Googlebot'), byName('Bingbot')],
    [byName('GPTBot')],
    [byName('Bytespider'), claude],
    [byName('Googlebot (spoofed)')],
    [byName('Applebot'), ahrefs],
    crawlers, // robots.txt
    crawlers, // robots.txt
    [byName('curl'), byName('python-requests'), go],
    [byName('python-requests'), go], // robots.txt
  ]
}
const ROBOTS_SLOTS = new Set([16, 17, 19])

export interface Expectation {
  readonly recorded: boolean
  readonly refused: boolean
}

/** What the Worker does with one request, by its own rules (robotsTxt + onFetch, then botGuard). */
export function expectationFor(policy: Policy, ranges: VerificationRanges, path: string, userAgent: string, ip: string): Expectation {
  if (path === '/robots.txt') {
    const fetcher = identifyAgent(userAgent)
    return { recorded: fetcher !== null && fetcher.unidentified !== true, refused: false }
  }
  if (path.startsWith('/_robots/')) return { recorded: false, refused: false }
  const identity = identifyAgent(userAgent) ?? declaredBot(userAgent, policy)
  if (identity === null) return { recorded: false, refused: false }
  const verdict = judge(policy, identity, path)
  // An unidentified client no group names passes unjudged and unrecorded, as the guard does.
  if (identity.unidentified === true && verdict.group === null) return { recorded: false, refused: false }
  const mode = policy.modeFor(verdict.group)
  if (mode === 'off') return { recorded: false, refused: false }
  const spoofed = verifyClaim(identity.id, ip, undefined, ranges) === 'spoofed'
  const refused = mode === 'block' && (!verdict.allowed || (spoofed && policy.config.guard.spoofed === 'block'))
  return { recorded: true, refused }
}

/** The rotation every connection cycles through: `size` requests, deterministic. */
export function buildWorkload(policy: Policy, ranges: VerificationRanges, size = 200): Template[] {
  const table = slots()
  const random = randomSource(5)
  const out: Template[] = []
  for (let i = 0; i < size; i++) {
    const slot = i % table.length
    const spec = pick(table[slot]!, random)!
    const path = ROBOTS_SLOTS.has(slot) ? '/robots.txt' : pick(SITE_PATHS, random)!
    out.push({ label: spec.name.startsWith('browser') ? 'browsers' : spec.name, path, userAgent: spec.userAgent, ip: spec.ip, ...expectationFor(policy, ranges, path, spec.userAgent, spec.ip) })
  }
  return out
}

/** One line on the mix, for the output. */
export function describeWorkload(templates: readonly Template[]): string {
  const share = (n: number) => `${Math.round((n / templates.length) * 100)}%`
  const people = templates.filter((t) => t.label === 'browsers').length
  const robots = templates.filter((t) => t.path === '/robots.txt').length
  const recorded = templates.filter((t) => t.recorded).length
  const refused = templates.filter((t) => t.refused).length
  return `${templates.length} requests in rotation: ${share(people)} people, ${share(templates.length - people)} crawlers and tools (${share(robots)} robots.txt fetches); ${share(recorded)} to be recorded, ${share(refused)} to be refused`
}
