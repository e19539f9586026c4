import { readFileSync } from 'node:fs'
import { rng } from '../dev/harness.ts'

export const SHORT_ROBOTS = `User-agent: *
Allow: /
Disallow: /admin/
Disallow: /cart
Disallow: /*.pdf$
Disallow: /*?sessionid=

User-agent: GPTBot
User-agent: CCBot
Disallow: /

Sitemap: https://example.com/sitemap.xml
`

const AGENTS = [
  'Googlebot',
  'Googlebot-Image',
  'Googlebot-News',
  'bingbot',
  'Slurp',
  'DuckDuckBot',
  'Baiduspider',
  'YandexBot',
  'Applebot',
  'GPTBot',
  'ChatGPT-User',
  'OAI-SearchBot',
  'ClaudeBot',
  'anthropic-ai',
  'CCBot',
  'PerplexityBot',
  'Bytespider',
  'Amazonbot',
  'meta-externalagent',
  'FacebookBot',
  'Google-Extended',
  'Applebot-Extended',
  'AhrefsBot',
  'SemrushBot',
  'MJ12bot',
  'DotBot',
  'PetalBot',
  'Yeti',
  'SeznamBot',
  'Sogou',
  'Exabot',
  'ia_archiver',
  'archive.org_bot',
  'Twitterbot',
  'LinkedInBot',
  'Pinterestbot',
  'cohere-ai',
  'Diffbot',
  'YouBot',
  'Timpibot',
]
const WORDS = [
  'admin',
  'search',
  'cart',
  'checkout',
  'account',
  'api',
  'private',
  'tmp',
  'cgi-bin',
  'wp-admin',
  'print',
  'feed',
  'tag',
  'category',
  'user',
  'login',
  'static',
  'assets',
  'images',
  'docs',
  'café',
  'ツ',
]

/**
 * A long real-world-style file, like those of large news and retail sites:
 * many agent groups, each with a few dozen rules mixing prefixes, `*`, `$`
 * and query patterns. Deterministic.
 */
export function longRobots(targetBytes: number, seed = 7): string {
  const r = rng(seed)
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!
  const lines: string[] = ['# robots.txt for https://www.example.com/', '']
  let size = 0
  let g = 0
  while (size < targetBytes) {
    const agents = g === 0 ? ['*'] : [AGENTS[g % AGENTS.length]!, ...(r() < 0.3 ? [pick(AGENTS)] : [])]
    g++
    for (const a of agents) lines.push(`User-agent: ${a}`)
    const n = 10 + Math.floor(r() * 30)
    for (let k = 0; k < n; k++) {
      const depth = 1 + Math.floor(r() * 3)
      let p = ''
      for (let d = 0; d < depth; d++) p += '/' + pick(WORDS)
      const shape = r()
      if (shape < 0.15) p = '/*' + p + '*'
      else if (shape < 0.25) p += '/*.php$'
      else if (shape < 0.35) p += '?*sort='
      else if (shape < 0.5) p += '/'
      lines.push(`${r() < 0.2 ? 'Allow' : 'Disallow'}: ${p}`)
    }
    if (r() < 0.2) lines.push(`Crawl-delay: ${1 + Math.floor(r() * 10)}`)
    lines.push('')
    size = lines.reduce((s, l) => s + l.length + 1, 0)
  }
  lines.push('Sitemap: https://www.example.com/sitemap.xml')
  return lines.join('\n')
}

/** Request URLs in the same shape as the rules: a realistic mix of hits and misses. */
export function urls(count: number, seed = 11): string[] {
  const r = rng(seed)
  const out: string[] = []
  for (let i = 0; i < count; i++) {
    const depth = 1 + Math.floor(r() * 4)
    let p = ''
    for (let d = 0; d < depth; d++) p += '/' + WORDS[Math.floor(r() * WORDS.length)]!
    if (r() < 0.3) p += '/page-' + Math.floor(r() * 1000) + (r() < 0.5 ? '.php' : '.html')
    if (r() < 0.3) p += '?sort=asc&page=' + Math.floor(r() * 20)
    out.push('https://www.example.com' + encodeURI(p).replace(/%[0-9a-f]{2}/gi, (m) => m.toUpperCase()))
  }
  return out
}

export const TOKENS = ['googlebot', 'bingbot', 'gptbot', 'claudebot', 'somebot', 'googlebot-image', 'ccbot', 'yandexbot']

/** The real robots.txt files in bench/fixtures (see its README for their sources). The path works from bench/ and from the bundle in dist/. */
export const REAL_FILES = ['amazon.com', 'spiegel.de', 'en.wikipedia.org', 'yandex.ru'] as const

export function realFile(site: (typeof REAL_FILES)[number]): string {
  return readFileSync(new URL(`../bench/fixtures/${site}.txt`, import.meta.url), 'utf8')
}

/** Crawlers asking a real file: its own groups' and others, as a site sees them. */
export const REAL_TOKENS = ['googlebot', 'bingbot', 'gptbot', 'ccbot', 'yandex', 'semrushbot', 'ahrefsbot', 'examplebot']

/**
 * URLs on a real file's site: half of them near its own rules (each pattern
 * with its wildcards filled in, and a path below it), half ordinary pages;
 * shuffled deterministically, so neither engine sees long runs of one kind.
 */
export function realUrls(site: string, text: string, count = 2048, seed = 5): string[] {
  const r = rng(seed)
  const near: string[] = []
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*(?:dis)?allow\s*:\s*(\S+)/i.exec(line)
    if (m === null) continue
    const literal = m[1]!.replace(/\*/g, 'x').replace(/\$$/, '')
    if (literal.startsWith('/')) near.push(literal, literal.endsWith('/') ? `${literal}page-1` : `${literal}/page-1`)
  }
  const out: string[] = []
  for (let i = 0; i < count; i++) {
    const path =
      i % 2 === 0 && near.length > 0 ? near[Math.floor(r() * near.length)]! : `/${WORDS[Math.floor(r() * WORDS.length)]}/${Math.floor(r() * 100000)}-article.html${r() < 0.2 ? '?ref=home' : ''}`
    out.push(`https://www.${site}${encodeURI(path).replace(/%25([0-9A-F]{2})/gi, '%$1')}`)
  }
  return out
}

/**
 * About `targetBytes` of real robots.txt: the four files again and again,
 * each copy with its own user-agent tokens (`googlebot` becomes
 * `googlebot-c3`) and its own paths (`/wiki/` becomes `/c3/wiki/`), so that
 * every group and every rule is distinct, as in a large site's file.
 */
export function realRobots(targetBytes: number): string {
  const files = REAL_FILES.map(realFile)
  let out = ''
  for (let copy = 0; out.length < targetBytes; copy++) {
    out +=
      files[copy % files.length]!.replace(/^(\s*user-agent\s*:\s*)([A-Za-z_-]+)/gim, (_, key: string, token: string) => `${key}${token}-c${copy}`).replace(
        /^(\s*(?:dis)?allow\s*:\s*)([/*])/gim,
        (_, key: string, head: string) => `${key}/c${copy}${head === '/' ? '/' : '/*'}`,
      ) + '\n'
  }
  // Whole lines, within the size crawlers must read (RFC 9309 §2.5).
  return out.slice(0, out.lastIndexOf('\n', targetBytes) + 1)
}
