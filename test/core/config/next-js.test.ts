import { describe, expect, it } from 'vitest'
import { createPolicies, validateConfig, type RobotsConfig } from '../../../src/core/config/index.ts'
import { compileRobotsTxt, parseRobotsTxt, type ParsedRobotsTxt } from '../../../src/core/robots/index.ts'

// Valid configs produce no issues, and Next.js's `MetadataRoute.Robots`
// object pastes into robots.config.ts unchanged and means the same thing.

/** Next.js's MetadataRoute.Robots, as documented: the shape a site migrating from Next.js already has. */
interface NextRobots {
  rules:
    | { userAgent?: string | string[]; allow?: string | string[]; disallow?: string | string[]; crawlDelay?: number }
    | { userAgent: string | string[]; allow?: string | string[]; disallow?: string | string[]; crawlDelay?: number }[]
  sitemap?: string | string[]
  host?: string
}

/**
 * The file Next.js writes for such an object (app/robots.ts): per rule its
 * `User-Agent` lines (`*` when none), `Allow`, `Disallow`, then
 * `Crawl-delay` when truthy and a blank line; then `Host`, then `Sitemap`s.
 */
function nextJsRobotsTxt(data: NextRobots): string {
  const all = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v])
  let out = ''
  for (const r of all(data.rules)) {
    for (const ua of all(r.userAgent ?? '*')) out += `User-Agent: ${ua}\n`
    for (const p of all(r.allow)) out += `Allow: ${p}\n`
    for (const p of all(r.disallow)) out += `Disallow: ${p}\n`
    if (r.crawlDelay) out += `Crawl-delay: ${r.crawlDelay}\n`
    out += '\n'
  }
  if (data.host) out += `Host: ${data.host}\n`
  for (const s of all(data.sitemap)) out += `Sitemap: ${s}\n`
  return out
}

/** What a crawler reads from a file: groups with their rules and crawl delay, sitemaps, and the Host record wherever it stands. */
function meaning(parsed: ParsedRobotsTxt) {
  const records = [...parsed.other, ...parsed.groups.flatMap((g) => g.other)]
  return {
    groups: parsed.groups.map((g) => ({
      userAgents: g.userAgents.map((u) => u.toLowerCase()),
      rules: g.rules.map((r) => `${r.type} ${r.pattern}`).sort(),
      crawlDelay: g.other.find((o) => o.key.toLowerCase() === 'crawl-delay')?.value,
    })),
    sitemaps: parsed.sitemaps,
    host: records.filter((o) => o.key.toLowerCase() === 'host').map((o) => o.value),
  }
}

// The example of the Next.js documentation (app/robots.ts, "Customizing robots
// for specific user agents"), with a crawl delay and a host added.
const NEXT_EXAMPLE = {
  rules: [
    { userAgent: 'Googlebot', allow: ['/'], disallow: '/private/', crawlDelay: 2 },
    { userAgent: ['Applebot', 'Bingbot'], disallow: ['/'] },
    { userAgent: '*', allow: '/', disallow: ['/admin/', '/*.json$'] },
  ],
  sitemap: 'https://acme.com/sitemap.xml',
  host: 'https://acme.com',
} satisfies NextRobots

describe('a Next.js MetadataRoute.Robots object', () => {
  it('pastes in unchanged: it type-checks and validates without issues', () => {
    const config: RobotsConfig = NEXT_EXAMPLE
    expect(validateConfig(config)).toEqual({ errors: [], warnings: [] })
  })

  // Same groups, rules, crawl delays, host and sitemaps; the order of records within a group is ours.
  it('serialises to a file that means what Next.js would write', () => {
    const ours = createPolicies(NEXT_EXAMPLE).get('acme.com', 'production').text
    const theirs = nextJsRobotsTxt(NEXT_EXAMPLE)
    expect(meaning(parseRobotsTxt(ours))).toEqual(meaning(parseRobotsTxt(theirs)))
    expect(meaning(parseRobotsTxt(ours))).toEqual({
      groups: [
        { userAgents: ['googlebot'], rules: ['allow /', 'disallow /private/'], crawlDelay: '2' },
        { userAgents: ['applebot', 'bingbot'], rules: ['disallow /'], crawlDelay: undefined },
        { userAgents: ['*'], rules: ['allow /', 'disallow /*.json$', 'disallow /admin/'], crawlDelay: undefined },
      ],
      sitemaps: ['https://acme.com/sitemap.xml'],
      host: ['https://acme.com'],
    })
  })

  it('gives every crawler the same verdicts as the Next.js file', () => {
    const ours = compileRobotsTxt(createPolicies(NEXT_EXAMPLE).get('acme.com', 'production').text)
    const theirs = compileRobotsTxt(nextJsRobotsTxt(NEXT_EXAMPLE))
    for (const token of ['googlebot', 'applebot', 'bingbot', 'gptbot', ['googlebot-image', 'googlebot']]) {
      for (const path of ['/', '/private/x', '/admin/', '/data.json', '/data.json?x', '/blog/post']) {
        const a = ours.check(token, path)
        const b = theirs.check(token, path)
        expect({ allowed: a.allowed, group: a.group }, `${String(token)} ${path}`).toEqual({ allowed: b.allowed, group: b.group })
      }
    }
  })

  // The single-rule form of the Next.js docs (app/robots.ts, "Static robots.txt").
  it('accepts the single-rule form', () => {
    const config = { rules: { userAgent: '*', allow: '/', disallow: '/private/' }, sitemap: 'https://acme.com/sitemap.xml' } satisfies NextRobots
    expect(validateConfig(config)).toEqual({ errors: [], warnings: [] })
    expect(meaning(parseRobotsTxt(createPolicies(config).get('acme.com', 'production').text))).toEqual(meaning(parseRobotsTxt(nextJsRobotsTxt(config))))
  })
})

describe('other valid configs', () => {
  it.each<[string, RobotsConfig]>([
    ['the smallest config', { rules: { userAgent: '*', disallow: '' } }],
    [
      'every option',
      {
        rules: [
          {
            userAgent: '*',
            allow: '/',
            disallow: ['/admin/', '/*.pdf$'],
            crawlDelay: 1.5,
            contentSignal: { search: true, aiInput: true, aiTrain: false },
            comment: 'Everyone\nelse',
            other: { 'Clean-param': ['ref /articles/', 'utm_source'], 'Request-rate': 10 },
            guard: 'log',
          },
          { userAgent: ['GPTBot', 'CCBot', 'anthropic-ai', 'x_y'], disallow: '/', guard: 'block' },
        ],
        sitemap: ['https://example.com/sitemap.xml', 'http://example.com/news.xml'],
        host: 'example.com',
        header: 'robots.txt for example.com\n\nOwned by the web team',
        guard: { mode: 'block', status: 402, body: 'Pay first.\n', headers: { 'Retry-After': '3600' }, spoofed: 'block' },
        cacheControl: 'public, max-age=60',
        indexable: true,
        previewHosts: ['*.workers.dev', 'staging.example.com'],
      },
    ],
  ])('%s has no issues', (_, config) => {
    expect(validateConfig(config)).toEqual({ errors: [], warnings: [] })
  })
})
