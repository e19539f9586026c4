import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { registry, type AgentEntry } from '../../src/core/agents/index.ts'
import { ipRangeListsOf, ipRangeLists, parseIpRanges, verifyClaim, type IpRangeSet, type VerificationRanges } from '../../src/verify/index.ts'

const fixture = (name: string): string => readFileSync(new URL(`../fixtures/ip-ranges/${name}`, import.meta.url), 'utf8')

// Google's lists, where "Verify requests from Google crawlers and fetchers" puts them.
const GOOGLE = 'https://developers.google.com/static/crawling/ipranges'
const GOOGLEBOT_LIST = `${GOOGLE}/common-crawlers.json`
const SPECIAL_CRAWLERS_LIST = `${GOOGLE}/special-crawlers.json`
const FETCHERS_GOOGLE_LIST = `${GOOGLE}/user-triggered-fetchers-google.json`
const FETCHERS_GCP_LIST = `${GOOGLE}/user-triggered-fetchers.json`
const AGENTS_LIST = `${GOOGLE}/user-triggered-agents.json`
const BINGBOT_LIST = 'https://www.bing.com/toolbox/bingbot.json'

const ranges: ReadonlyMap<string, IpRangeSet> = new Map([
  [GOOGLEBOT_LIST, parseIpRanges(fixture('googlebot.json'), 'google-json').set],
  [SPECIAL_CRAWLERS_LIST, parseIpRanges(fixture('special-crawlers.json'), 'google-json').set],
  [BINGBOT_LIST, parseIpRanges(fixture('bingbot.json'), 'google-json').set],
])
const none: VerificationRanges = new Map()

const GOOGLEBOT_IP = '66.249.66.1'
const OUTSIDE_IP = '203.0.113.9'

describe('verified by Cloudflare', () => {
  // cf.verifiedBotCategory: set for bots on Cloudflare's verified-bots list.
  // It says the client is some verified bot, not which: the operator's own
  // list decides first, so a verified SEO crawler sending a Googlebot header
  // is still a spoofed Googlebot.
  it('a non-empty cf.verifiedBotCategory verifies where no list is loaded', () => {
    expect(verifyClaim('claudebot', OUTSIDE_IP, { verifiedBotCategory: 'AI Crawler' }, none)).toBe('verified')
    expect(verifyClaim('googlebot', OUTSIDE_IP, { verifiedBotCategory: 'Search Engine Crawler' }, none)).toBe('verified')
  })

  it("does not outweigh the operator's published list", () => {
    expect(verifyClaim('googlebot', OUTSIDE_IP, { verifiedBotCategory: 'Search Engine Optimization' }, ranges)).toBe('spoofed')
    expect(verifyClaim('googlebot', GOOGLEBOT_IP, { verifiedBotCategory: 'Search Engine Crawler' }, ranges)).toBe('verified')
  })

  it('an empty cf.verifiedBotCategory says nothing', () => {
    expect(verifyClaim('googlebot', OUTSIDE_IP, { verifiedBotCategory: '' }, ranges)).toBe('spoofed')
  })

  // cf.botManagement.verifiedBot: Bot Management's flag.
  it('cf.botManagement.verifiedBot === true verifies where no list is loaded; the list decides where one is', () => {
    expect(verifyClaim('googlebot', OUTSIDE_IP, { botManagement: { verifiedBot: true } }, none)).toBe('verified')
    expect(verifyClaim('googlebot', OUTSIDE_IP, { botManagement: { verifiedBot: true } }, ranges)).toBe('spoofed')
    expect(verifyClaim('googlebot', OUTSIDE_IP, { botManagement: { verifiedBot: false } }, ranges)).toBe('spoofed')
    expect(verifyClaim('googlebot', GOOGLEBOT_IP, { botManagement: { verifiedBot: false } }, ranges)).toBe('verified')
  })
})

describe("verified by the operator's published IP ranges", () => {
  it('Googlebot from an address in common-crawlers.json', () => {
    expect(verifyClaim('googlebot', GOOGLEBOT_IP, undefined, ranges)).toBe('verified')
    expect(verifyClaim('googlebot', '2001:4860:4801:10::1', undefined, ranges)).toBe('verified')
    expect(verifyClaim('googlebot', '::ffff:66.249.66.1', {}, ranges)).toBe('verified')
  })

  it('agents that share a list verify against it (Googlebot-Image uses common-crawlers.json)', () => {
    expect(ipRangeListsOf('googlebot-image').map((l) => l.url)).toEqual([GOOGLEBOT_LIST])
    expect(verifyClaim('googlebot-image', GOOGLEBOT_IP, undefined, ranges)).toBe('verified')
    expect(verifyClaim('bingbot', '157.55.39.10', undefined, ranges)).toBe('verified')
    expect(verifyClaim('adidxbot', '157.55.39.10', undefined, ranges)).toBe('verified')
  })

  it('accepts a lookup function instead of a map', () => {
    const lookup: VerificationRanges = (url) => ranges.get(url)
    expect(verifyClaim('googlebot', GOOGLEBOT_IP, undefined, lookup)).toBe('verified')
    expect(verifyClaim('googlebot', OUTSIDE_IP, undefined, lookup)).toBe('spoofed')
  })
})

describe('unverified: nothing to check against', () => {
  it('no claim (agentId undefined), even when Cloudflare vouches for a bot', () => {
    expect(verifyClaim(undefined, GOOGLEBOT_IP, undefined, ranges)).toBe('unverified')
    expect(verifyClaim(undefined, GOOGLEBOT_IP, { verifiedBotCategory: 'Search Engine Crawler' }, ranges)).toBe('unverified')
  })

  it('the operator publishes no IP list', () => {
    expect(verifyClaim('claudebot', OUTSIDE_IP, undefined, ranges)).toBe('unverified')
    // Yandex documents only reverse DNS, which the request path does not do.
    expect(verifyClaim('yandexbot', OUTSIDE_IP, undefined, ranges)).toBe('unverified')
    expect(verifyClaim('not-in-the-registry', OUTSIDE_IP, undefined, ranges)).toBe('unverified')
  })
})

describe('unknown: the operator publishes ranges, but they are not loaded here', () => {
  // Missing ranges are not an answer: the claim cannot be
  // checked, so it is counted neither for nor against the operator.
  it('the list is not loaded yet, or loaded empty', () => {
    expect(verifyClaim('googlebot', OUTSIDE_IP, undefined, none)).toBe('unknown')
    expect(verifyClaim('googlebot', OUTSIDE_IP, undefined, () => undefined)).toBe('unknown')
    expect(verifyClaim('googlebot', OUTSIDE_IP, undefined, new Map([[GOOGLEBOT_LIST, parseIpRanges('', 'cidr-lines').set]]))).toBe('unknown')
    expect(verifyClaim('googlebot', null, undefined, none)).toBe('unknown')
    // Applebot's list is published but absent from these ranges.
    expect(verifyClaim('applebot', OUTSIDE_IP, undefined, ranges)).toBe('unknown')
  })

  it('unless Cloudflare vouches for the client', () => {
    expect(verifyClaim('applebot', OUTSIDE_IP, { verifiedBotCategory: 'Search Engine Crawler' }, ranges)).toBe('verified')
  })
})

describe('several lists per agent', () => {
  // Google's user-triggered fetchers come from any of three lists; a genuine
  // fetcher must not read as spoofed because its list was not the first.
  const gcp = parseIpRanges('{"prefixes":[{"ipv4Prefix":"34.100.0.0/16"}]}', 'google-json').set
  const googleOwned = parseIpRanges('{"prefixes":[{"ipv4Prefix":"74.125.210.0/24"}]}', 'google-json').set
  const agents = parseIpRanges('{"prefixes":[{"ipv6Prefix":"2001:4860:4802::/48"}]}', 'google-json').set
  const all = new Map([
    [FETCHERS_GOOGLE_LIST, googleOwned],
    [FETCHERS_GCP_LIST, gcp],
    [AGENTS_LIST, agents],
  ])

  it("Google's user-triggered fetchers are on every list Google documents for them", () => {
    expect(ipRangeListsOf('feedfetcher-google').map((l) => l.url)).toEqual([FETCHERS_GOOGLE_LIST, FETCHERS_GCP_LIST, AGENTS_LIST])
    expect(ipRangeListsOf('google-agent').map((l) => l.url)).toEqual([FETCHERS_GOOGLE_LIST, FETCHERS_GCP_LIST, AGENTS_LIST])
    expect(ipRangeListsOf('googlebot').map((l) => l.url)).toEqual([GOOGLEBOT_LIST])
    expect(ipRangeListsOf('adsbot-google').map((l) => l.url)).toEqual([SPECIAL_CRAWLERS_LIST])
  })

  it('an address in any one of them verifies', () => {
    expect(verifyClaim('feedfetcher-google', '74.125.210.9', undefined, all)).toBe('verified')
    expect(verifyClaim('feedfetcher-google', '34.100.1.2', undefined, all)).toBe('verified')
    expect(verifyClaim('google-agent', '2001:4860:4802::9', undefined, all)).toBe('verified')
  })

  it('spoofed only when every list that could vouch is loaded', () => {
    expect(verifyClaim('feedfetcher-google', OUTSIDE_IP, undefined, all)).toBe('spoofed')
    const withoutGcp = new Map([
      [FETCHERS_GOOGLE_LIST, googleOwned],
      [AGENTS_LIST, agents],
    ])
    expect(verifyClaim('feedfetcher-google', OUTSIDE_IP, undefined, withoutGcp)).toBe('unknown')
    expect(verifyClaim('feedfetcher-google', '74.125.210.9', undefined, withoutGcp)).toBe('verified')
  })

  it('the user-owned Cloud list never vouches for Googlebot', () => {
    const withCommon = new Map([...all, [GOOGLEBOT_LIST, ranges.get(GOOGLEBOT_LIST)!]])
    expect(verifyClaim('googlebot', '34.100.1.2', undefined, withCommon)).toBe('spoofed')
  })
})

describe('spoofed: the operator publishes ranges and the address is outside them', () => {
  it("Googlebot from an address outside Google's ranges", () => {
    expect(verifyClaim('googlebot', OUTSIDE_IP, undefined, ranges)).toBe('spoofed')
    expect(verifyClaim('googlebot', '2001:db8::1', undefined, ranges)).toBe('spoofed')
  })

  it('no address, or one that does not parse', () => {
    expect(verifyClaim('googlebot', null, undefined, ranges)).toBe('spoofed')
    expect(verifyClaim('googlebot', '', undefined, ranges)).toBe('spoofed')
    expect(verifyClaim('googlebot', 'unknown', undefined, ranges)).toBe('spoofed')
  })

  it('each class of client checks only its own list', () => {
    // A Googlebot address is not an AdsBot (special-crawlers) address, nor a Bing one.
    expect(verifyClaim('adsbot-google', GOOGLEBOT_IP, undefined, ranges)).toBe('spoofed')
    expect(verifyClaim('adsbot-google', '66.249.90.70', undefined, ranges)).toBe('verified')
    expect(verifyClaim('bingbot', GOOGLEBOT_IP, undefined, ranges)).toBe('spoofed')
  })
})

describe('the lists the registry names', () => {
  it("each list once, every agent's list among them", () => {
    const urls = ipRangeLists.map((list) => list.url)
    expect(new Set(urls).size).toBe(urls.length)
    expect(urls).toEqual(expect.arrayContaining([GOOGLEBOT_LIST, SPECIAL_CRAWLERS_LIST, BINGBOT_LIST]))
    for (const entry of registry as readonly AgentEntry[]) {
      for (const list of entry.verification?.ipRanges ?? []) expect(ipRangeLists, entry.id).toContainEqual(list)
    }
  })
})
