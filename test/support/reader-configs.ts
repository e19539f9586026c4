import { resolveConfig, type ResolvedConfig, type RobotsConfig } from '../../src/core/config/index.ts'
import { serializeRobotsTxt, type Group } from '../../src/core/robots/index.ts'
import shipped from '../../robots.config.ts'

// Configs whose served robots.txt the tests read with other readers than
// Google's (Python's urllib.robotparser, Protego, the first-match and 1994
// readers). The first two are realistic wildcard-free configs, the ones
// measured when the reader-safe order was chosen: nested allow and disallow, and Googlebot-Image beside Googlebot.

/** A news site: nested allow and disallow in several groups, no wildcards. */
export const NESTED: RobotsConfig = {
  rules: [
    { userAgent: '*', allow: ['/', '/account/help/', '/search/about'], disallow: ['/account/', '/search', '/drafts/', '/api/'] },
    { userAgent: 'Bingbot', allow: ['/api/public/', '/drafts/preview/'], disallow: ['/api/', '/drafts/', '/account/', '/search'], crawlDelay: 5 },
    { userAgent: ['GPTBot', 'CCBot'], allow: ['/blog/open/', '/about'], disallow: ['/blog/', '/'] },
    { userAgent: 'Applebot', allow: '/search/about', disallow: ['/search', '/account/', '/api/'] },
  ],
  sitemap: 'https://example.com/sitemap.xml',
}

/** Google's crawlers with groups of their own, the more specific listed after the less. */
export const IMAGES: RobotsConfig = {
  rules: [
    { userAgent: '*', disallow: ['/private/', '/tmp/'] },
    { userAgent: 'Googlebot', allow: '/private/press/', disallow: ['/private/', '/tmp/', '/images/raw/'] },
    { userAgent: 'Googlebot-Image', allow: ['/images/', '/images/raw/thumbs/'], disallow: ['/images/raw/', '/'] },
    { userAgent: 'Googlebot-News', allow: '/archive/today/', disallow: ['/archive/', '/private/'] },
    { userAgent: 'bingbot', disallow: '/tmp/' },
  ],
}

/** Tokens that would each have to come first: `bingbot` contains `bing`, `googlebot-news` contains `googlebot`. */
export const CYCLE: RobotsConfig = {
  rules: [
    { userAgent: ['bingbot', 'googlebot'], allow: '/a/open/', disallow: '/a/' },
    { userAgent: ['googlebot-news', 'bing'], disallow: ['/b/', '/a/open/x'] },
    { userAgent: '*', disallow: '/c/' },
  ],
}

/** `*` named beside a token, a token named in two groups, an empty group. */
export const MIXED: RobotsConfig = {
  rules: [
    { userAgent: ['*', 'Slurp'], allow: '/x/public/', disallow: ['/x/', '/y'] },
    { userAgent: 'DuckDuckBot', disallow: [] },
    { userAgent: 'slurp', disallow: '/z/' },
    { userAgent: 'Yandex', allow: ['/', '/y/ok'], disallow: '/y' },
  ],
}

/** Content-Usage lines (IETF aipref) in every group, per path too: readers must skip them and read the rules as before. */
export const CONTENT_USAGE: RobotsConfig = {
  rules: [
    { userAgent: '*', disallow: ['/private/', '/blog/drafts/'], contentUsage: { trainAi: false, search: true, paths: { '/blog/': { trainAi: true }, '/private/': { search: false } } } },
    { userAgent: 'GPTBot', allow: '/blog/', disallow: '/', contentUsage: { trainAi: false } },
    { userAgent: 'Googlebot', disallow: '/blog/drafts/', contentUsage: { paths: { '/news/': { search: true } } }, contentSignal: { search: true } },
  ],
  noindex: { path: '/search' },
}

export const CONFIGS: Readonly<Record<string, RobotsConfig>> = {
  'robots.config.ts': shipped as RobotsConfig,
  nested: NESTED,
  images: IMAGES,
  cycle: CYCLE,
  mixed: MIXED,
  'content-usage': CONTENT_USAGE,
}

export function resolved(config: RobotsConfig): ResolvedConfig {
  return resolveConfig(config, { host: 'example.com', env: 'production' }).config
}

/**
 * The file as robots-edge served it before the reader-safe order: groups in config order,
 * each group's allow rules, then its disallow rules, as written.
 */
export function servedAsWritten(config: ResolvedConfig): string {
  const groups: Group[] = config.rules.map((rule) => ({
    userAgents: [...rule.userAgent],
    rules: [...rule.allow.map((pattern) => ({ type: 'allow' as const, pattern })), ...rule.disallow.map((pattern) => ({ type: 'disallow' as const, pattern }))],
    other: rule.crawlDelay === undefined ? [] : [{ key: 'Crawl-delay', value: String(rule.crawlDelay) }],
  }))
  return serializeRobotsTxt({ groups, sitemaps: [...config.sitemap], other: [] })
}

/** Every token a config names, as written. */
export function namedTokens(config: ResolvedConfig): string[] {
  return [...new Set(config.rules.flatMap((r) => r.userAgent).filter((t) => t !== '*'))]
}

/**
 * Paths around every pattern of a config: the pattern, a path below it, one
 * beside it, and a few that no pattern names. Wildcards are filled in, so
 * wildcard rules are tried too.
 */
export function pathsFor(config: ResolvedConfig): string[] {
  const out = new Set(['/', '/index.html', '/other/page', '/x.pdf', '/a/b.pdf'])
  for (const rule of config.rules) {
    for (const pattern of [...rule.allow, ...rule.disallow]) {
      const literal = pattern.replace(/\*/g, 'x').replace(/\$$/, '')
      if (!literal.startsWith('/')) continue
      out.add(literal)
      out.add(literal + 'x')
      out.add(literal.endsWith('/') ? literal + 'page' : literal + '/page')
      if (literal.length > 1) out.add(literal.slice(0, -1))
    }
  }
  return [...out]
}
