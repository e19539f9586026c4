/**
 * The hosts people arrive from when they follow a link in an operator's
 * product, each with the operator (as the registry names it) and its source:
 * the product's own address (the host is where the product is served), or
 * the operator's published list of its domains (Google's supported_domains). A host pattern ending in `.*` stands for the
 * operator's country domains. The edge matches Referer hosts with one
 * pattern (../referrer-host.ts), tested against this list; the report maps
 * each counted host back to its operator here. The Worker never loads this file.
 *
 * Apps often send no Referer (and a browser's referrer policy may strip it),
 * so referrals counted this way are a floor, as Cloudflare Radar says of its
 * own crawl-to-refer ratio.
 */
export interface ReferrerHost {
  /** Lower-case host, or `www.google.*`-style for a family of country domains. */
  readonly host: string
  /** The operator, spelled as the registry's agents spell it. */
  readonly operator: string
  /** The product the link was followed from. */
  readonly product: string
  /** Where the host is documented: the product's address, or the operator's list of its domains. */
  readonly source: string
}

export const referrerHosts: readonly ReferrerHost[] = [
  { host: 'chatgpt.com', operator: 'OpenAI', product: 'ChatGPT', source: 'https://chatgpt.com/' },
  { host: 'perplexity.ai', operator: 'Perplexity', product: 'Perplexity', source: 'https://www.perplexity.ai/' },
  { host: 'www.perplexity.ai', operator: 'Perplexity', product: 'Perplexity', source: 'https://www.perplexity.ai/' },
  { host: 'claude.ai', operator: 'Anthropic', product: 'Claude', source: 'https://claude.ai/' },
  { host: 'gemini.google.com', operator: 'Google', product: 'Gemini', source: 'https://gemini.google.com/' },
  { host: 'www.google.*', operator: 'Google', product: 'Google Search', source: 'https://www.google.com/supported_domains' },
  { host: 'copilot.microsoft.com', operator: 'Microsoft', product: 'Copilot', source: 'https://copilot.microsoft.com/' },
  { host: 'www.bing.com', operator: 'Microsoft', product: 'Bing', source: 'https://www.bing.com/' },
  { host: 'duckduckgo.com', operator: 'DuckDuckGo', product: 'DuckDuckGo', source: 'https://duckduckgo.com/' },
  { host: 'yandex.*', operator: 'Yandex', product: 'Yandex Search', source: 'https://yandex.com/' },
]

/** The entry a counted Referer host belongs to; undefined for a host not in the list. */
export function referrerOf(host: string): ReferrerHost | undefined {
  const h = host.toLowerCase()
  return referrerHosts.find((r) => (r.host.endsWith('.*') ? h.startsWith(r.host.slice(0, -1)) : h === r.host))
}
