/**
 * Who the simulation plays: crawlers that follow robots.txt, crawlers that
 * do not, a spoofer, generic tools and people. Each client has its own IP
 * (sent as CF-Connecting-IP) and a behaviour; which paths count as allowed
 * is read from the robots.txt the Worker serves, not assumed, so the mix
 * stays right when robots.config.ts changes.
 */

/** What a client does with robots.txt. */
export type Role =
  | 'complies' // fetches robots.txt first, then only allowed paths
  | 'ignores' // fetches robots.txt, then disallowed paths anyway
  | 'never-reads' // never fetches robots.txt, hits disallowed paths
  | 'spoofed' // a crawler's User-Agent from an IP outside its operator's list
  | 'tool' // curl, python-requests: no robots.txt, any path
  | 'browser' // people: any path, never judged

export interface ClientSpec {
  /** Shown in the summary. */
  readonly name: string
  readonly role: Role
  readonly userAgent: string
  /** Sent as CF-Connecting-IP. */
  readonly ip: string
  /** Relative share of the traffic. */
  readonly weight: number
  /** Paths this client prefers, if the rules let it (see choosePath). */
  readonly favourite?: string
  /** What the ledger should show for it. */
  readonly expected: string
  /** Its operator's IP list is not seeded locally: the report lists its claim as not checked. */
  readonly unchecked?: boolean
}

/** A small site: articles, products, documents, an admin area, private pages with a public press kit. */
export const SITE_PATHS: readonly string[] = [
  '/',
  '/about',
  '/contact',
  '/articles/',
  '/articles/2026/edge-crawlers',
  '/articles/2026/robots-txt-explained',
  '/articles/2025/year-in-review',
  '/blog/hello-world',
  '/products/widget',
  '/products/gadget?color=blue',
  '/search?q=robots',
  '/docs/guide.pdf',
  '/docs/pricing.pdf',
  '/images/hero.jpg',
  '/feed.xml',
  '/admin/',
  '/admin/login',
  '/private/report',
  '/private/drafts/roadmap',
  '/private/press/kit',
  '/private/press/logo.png',
]

const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'

/**
 * The cast. IPs: Google's, Bing's and GPTBot's inside the fixture lists the
 * simulation seeds (so those claims verify, and GPTBot's violations count
 * against OpenAI's crawler), Apple's list not seeded (its claim cannot be
 * checked: unknown), everything else in the documentation ranges of RFC 5737.
 */
export const CLIENTS: readonly ClientSpec[] = [
  { name: 'Googlebot', role: 'complies', userAgent: GOOGLEBOT, ip: '66.249.66.1', weight: 12, expected: "complies; verified (IP in Google's list)" },
  {
    name: 'Bingbot',
    role: 'complies',
    userAgent: 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
    ip: '157.55.39.12',
    weight: 8,
    expected: "complies; verified (IP in Bing's list)",
  },
  {
    name: 'Applebot',
    role: 'complies',
    userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)',
    ip: '17.58.101.9',
    weight: 5,
    unchecked: true,
    expected: "complies; unknown (Apple's list is not seeded locally, so the claim cannot be checked)",
  },
  {
    name: 'GPTBot',
    role: 'ignores',
    userAgent: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)',
    ip: '20.171.206.20',
    weight: 10,
    favourite: '/articles/',
    expected: "read robots.txt, then ignored it: disallowed requests after a fetch; verified (IP in OpenAI's list)",
  },
  {
    name: 'Bytespider',
    role: 'never-reads',
    userAgent: 'Mozilla/5.0 (Linux; Android 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Mobile Safari/537.36 (compatible; Bytespider; spider-feedback@bytedance.com)',
    ip: '203.0.113.30',
    weight: 6,
    expected: 'never read robots.txt: disallowed requests, no fetch; "pending" in the host\'s first 24 h, then "ignores robots.txt"',
  },
  { name: 'Googlebot (spoofed)', role: 'spoofed', userAgent: GOOGLEBOT, ip: '203.0.113.66', weight: 6, expected: 'recorded as spoofed, reported apart from the real Googlebot' },
  { name: 'curl', role: 'tool', userAgent: 'curl/8.5.0', ip: '198.51.100.10', weight: 4, expected: 'recorded as a tool, judged by the * group (in log mode: recorded, not refused)' },
  {
    name: 'python-requests',
    role: 'tool',
    userAgent: 'python-requests/2.32.3',
    ip: '198.51.100.11',
    weight: 4,
    expected: 'recorded as a tool, judged by the * group (in log mode: recorded, not refused)',
  },
  ...[
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:128.0) Gecko/20100101 Firefox/128.0',
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
    'Mozilla/5.0 (Linux; Android 14; SAMSUNG SM-S921B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36',
  ].map((userAgent, i): ClientSpec => ({ name: `browser ${i + 1}`, role: 'browser', userAgent, ip: `192.0.2.${10 + i}`, weight: 7.5, expected: 'people: never refused, never recorded' })),
]

/** Deterministic pseudo-random numbers in [0, 1), so a run can be repeated (the benchmarks' mulberry32). */
export { rng as randomSource } from '../harness.ts'

/** Picks one of `items` at random, or undefined when there is none. */
export function pick<T>(items: readonly T[], random: () => number): T | undefined {
  return items.length === 0 ? undefined : items[Math.floor(random() * items.length)]
}
