/**
 * The guard's side of referrals: whether a Referer names one of the hosts
 * people follow links from in an operator's product. One pattern rather than
 * the registry's list (registry/referrers.ts, with each host's operator and
 * source), so the edge Worker carries a few dozen bytes, not the list; a test
 * (test/core/agents/referrers.test.ts) holds the two to each other.
 */
const REFERRER_HOST =
  /^(?:chatgpt\.com|(?:www\.)?perplexity\.ai|claude\.ai|gemini\.google\.com|copilot\.microsoft\.com|www\.bing\.com|duckduckgo\.com|www\.google\.(?:com?\.)?[a-z]{2,3}|yandex\.(?:ru|com|com\.tr|by|kz|uz))$/

/**
 * The Referer's host when it is a registry referrer host, else undefined.
 * Only an absolute http(s) URL counts; a userinfo part or any odd form is no
 * match (browsers send none: Fetch's "strip url for use as a referrer").
 */
export function referrerHost(referer: string | null | undefined): string | undefined {
  const host = referer ? /^https?:\/\/([^/?#@:]+)(?::\d*)?(?:[/?#]|$)/i.exec(referer)?.[1]?.toLowerCase() : undefined
  return host !== undefined && REFERRER_HOST.test(host) ? host : undefined
}
