import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { IpRangeSet, ipRangeLists, parseIpRanges, verifyClaim } from '../../src/bots/index.ts'
import { IP_RANGES_INDEX_KEY, IP_RANGES_KEY_PREFIX, createIpRangeLoader, ipRangesKey, loadIpRanges, refreshIpRanges, type FetchFn, type IpRangesMetadata } from '../../src/storage/ip-ranges.ts'
import bingbot from '../fixtures/ip-ranges/bingbot.json?raw'
import garbage from '../fixtures/ip-ranges/garbage.html?raw'
import googlebot from '../fixtures/ip-ranges/googlebot.json?raw'
import specialCrawlers from '../fixtures/ip-ranges/special-crawlers.json?raw'
import stripeWebhooks from '../fixtures/ip-ranges/stripe-webhooks.txt?raw'
import uptimerobot from '../fixtures/ip-ranges/uptimerobot.txt?raw'

// Unit tests of src/storage/ip-ranges.ts against workerd's real KV; every
// operator's list is served by an injected fetch, so nothing leaves the machine.

const GOOGLEBOT = 'https://developers.google.com/static/search/apis/ipranges/googlebot.json'
const SPECIAL = 'https://developers.google.com/static/search/apis/ipranges/special-crawlers.json'
const USER_TRIGGERED = 'https://developers.google.com/static/search/apis/ipranges/user-triggered-fetchers-google.json'
const BING = 'https://www.bing.com/toolbox/bingbot.json'
const STRIPE = 'https://stripe.com/files/ips/ips_webhooks.txt'
const UPTIMEROBOT = 'https://uptimerobot.com/inc/files/ips/IPv4andIPv6.txt'
const PINGDOM = 'https://my.pingdom.com/probes/ipv4'
const GPTBOT = 'https://openai.com/gptbot.json'
const APPLEBOT = 'https://search.developer.apple.com/applebot.json'

const NOW = Date.UTC(2026, 3, 20, 12, 17)
const TIMEOUT_MS = 50

/** Serves the fixtures by URL; fails some lists the way real servers do. */
function fakeFetch(overrides: Record<string, string | number> = {}): FetchFn & { calls: string[] } {
  const bodies: Record<string, string | number> = { [GOOGLEBOT]: googlebot, [SPECIAL]: specialCrawlers, [BING]: bingbot, [STRIPE]: stripeWebhooks, [UPTIMEROBOT]: uptimerobot, [PINGDOM]: garbage, [USER_TRIGGERED]: 500, ...overrides }
  const calls: string[] = []
  const fetchFn = async (url: string, init: RequestInit): Promise<Response> => {
    calls.push(url)
    // Never answers: only the refresh's own time limit ends the wait.
    if (url === GPTBOT) return new Promise((_, reject) => init.signal?.addEventListener('abort', () => reject(init.signal?.reason)))
    if (url === APPLEBOT) throw new TypeError('Network connection lost.')
    const body = bodies[url]
    if (typeof body === 'number') return new Response('error', { status: body })
    return body === undefined ? new Response('not found', { status: 404 }) : new Response(body)
  }
  return Object.assign(fetchFn, { calls })
}

/** KV that counts reads, and can be made to fail, to observe the loader's memo. */
function observedKv(failing = false): { kv: KVNamespace; reads: () => number } {
  let reads = 0
  const get = async (key: string, type: 'json'): Promise<unknown> => {
    reads++
    if (failing) throw new Error('KV GET failed: 503 Service Unavailable')
    return env.ROBOTS_KV.get(key, type)
  }
  return { kv: { get } as unknown as KVNamespace, reads: () => reads }
}

// KV keeps its contents from one test to the next here: each test starts from
// an empty set of lists.
beforeEach(async () => {
  const { keys } = await env.ROBOTS_KV.list({ prefix: IP_RANGES_KEY_PREFIX })
  await Promise.all(keys.map((key) => env.ROBOTS_KV.delete(key.name)))
})

describe('refreshIpRanges', () => {
  it('fetches each distinct list once and stores the compiled set with metadata', async () => {
    const fetchFn = fakeFetch()
    const summary = await refreshIpRanges(env.ROBOTS_KV, fetchFn, NOW, { timeoutMs: TIMEOUT_MS })
    expect(fetchFn.calls.toSorted()).toEqual(ipRangeLists.map((list) => list.url).toSorted())
    expect(summary.find((r) => r.url === GOOGLEBOT)).toEqual({ url: GOOGLEBOT, ok: true, count: 13, skipped: 0 })

    const stored = await env.ROBOTS_KV.getWithMetadata<unknown, IpRangesMetadata>(ipRangesKey(GOOGLEBOT), 'json')
    expect(stored.value).toEqual(parseIpRanges(googlebot, 'google-json').set.toJSON())
    expect(stored.metadata).toEqual({ fetchedAt: NOW, count: 13, skipped: 0 })
    expect(IpRangeSet.fromJSON(stored.value).has('66.249.66.1')).toBe(true)
  })

  it('reports each failure in the summary without throwing', async () => {
    const summary = await refreshIpRanges(env.ROBOTS_KV, fakeFetch(), NOW, { timeoutMs: TIMEOUT_MS })
    const byUrl = new Map(summary.map((r) => [r.url, r]))
    expect(byUrl.get(USER_TRIGGERED)).toEqual({ url: USER_TRIGGERED, ok: false, error: 'HTTP 500' })
    expect(byUrl.get(GPTBOT)).toEqual({ url: GPTBOT, ok: false, error: `timed out after ${TIMEOUT_MS} ms` })
    expect(byUrl.get(APPLEBOT)).toEqual({ url: APPLEBOT, ok: false, error: 'Network connection lost.' })
    // An HTML page served with 200 parses to nothing, so it is not stored.
    expect(byUrl.get(PINGDOM)).toMatchObject({ ok: false, error: expect.stringMatching(/^no address parsed/) })
    expect(await env.ROBOTS_KV.get(ipRangesKey(PINGDOM))).toBeNull()
    expect(await env.ROBOTS_KV.get(ipRangesKey(USER_TRIGGERED))).toBeNull()

    const index = await env.ROBOTS_KV.get<{ urls: string[] }>(IP_RANGES_INDEX_KEY, 'json')
    expect(index?.urls.toSorted()).toEqual([BING, GOOGLEBOT, SPECIAL, STRIPE, UPTIMEROBOT].toSorted())
  })

  it('keeps the previous value of a list that fails', async () => {
    await refreshIpRanges(env.ROBOTS_KV, fakeFetch(), NOW, { timeoutMs: TIMEOUT_MS })
    const later = NOW + 3_600_000
    const summary = await refreshIpRanges(env.ROBOTS_KV, fakeFetch({ [GOOGLEBOT]: 503 }), later, { timeoutMs: TIMEOUT_MS })
    expect(summary.find((r) => r.url === GOOGLEBOT)).toEqual({ url: GOOGLEBOT, ok: false, error: 'HTTP 503' })

    const stored = await env.ROBOTS_KV.getWithMetadata<unknown, IpRangesMetadata>(ipRangesKey(GOOGLEBOT), 'json')
    expect(stored.metadata?.fetchedAt).toBe(NOW)
    expect((await env.ROBOTS_KV.getWithMetadata(ipRangesKey(BING))).metadata).toMatchObject({ fetchedAt: later })
    const index = await env.ROBOTS_KV.get<{ urls: string[] }>(IP_RANGES_INDEX_KEY, 'json')
    expect(index?.urls).toContain(GOOGLEBOT)
  })

  it('refuses a body over the size limit', async () => {
    const summary = await refreshIpRanges(env.ROBOTS_KV, fakeFetch(), NOW, { timeoutMs: TIMEOUT_MS, maxBytes: 200 })
    expect(summary.find((r) => r.url === GOOGLEBOT)).toEqual({ url: GOOGLEBOT, ok: false, error: 'body larger than 200 bytes' })
    expect(summary.find((r) => r.url === STRIPE)).toMatchObject({ ok: true, count: 12 })
  })
})

describe('loadIpRanges', () => {
  it('loads the stored lists, so a Googlebot address verifies', async () => {
    await refreshIpRanges(env.ROBOTS_KV, fakeFetch(), NOW, { timeoutMs: TIMEOUT_MS })
    const ranges = await loadIpRanges(env.ROBOTS_KV, NOW)
    expect([...ranges.keys()].toSorted()).toEqual([BING, GOOGLEBOT, SPECIAL, STRIPE, UPTIMEROBOT].toSorted())
    expect(verifyClaim('googlebot', '66.249.66.1', undefined, ranges)).toBe('verified')
    expect(verifyClaim('googlebot', '2001:4860:4801:10::1', undefined, ranges)).toBe('verified')
    expect(verifyClaim('googlebot', '203.0.113.9', undefined, ranges)).toBe('spoofed')
    // Google's user-triggered list failed to load: its fetchers stay unverified.
    expect(verifyClaim('feedfetcher-google', '203.0.113.9', undefined, ranges)).toBe('unverified')
  })

  it('reads KV once per TTL, and concurrent callers share one read', async () => {
    await refreshIpRanges(env.ROBOTS_KV, fakeFetch(), NOW, { timeoutMs: TIMEOUT_MS })
    const load = createIpRangeLoader({ ttlMs: 600_000 })
    const { kv, reads } = observedKv()
    const [a, b] = await Promise.all([load(kv, NOW), load(kv, NOW)])
    expect(a).toBe(b)
    const perLoad = reads()
    expect(perLoad).toBe(1 + 5) // the index, then each stored list
    expect(await load(kv, NOW + 599_999)).toBe(a)
    expect(reads()).toBe(perLoad)
    const reloaded = await load(kv, NOW + 600_000)
    expect(reloaded).not.toBe(a)
    expect(reads()).toBe(2 * perLoad)
  })

  it('is empty before the first refresh', async () => {
    const ranges = await createIpRangeLoader()(env.ROBOTS_KV, NOW)
    expect(ranges.size).toBe(0)
    expect(verifyClaim('googlebot', '203.0.113.9', undefined, ranges)).toBe('unverified')
  })

  it('a KV failure yields empty ranges (claims read as unverified), not an exception', async () => {
    const { kv } = observedKv(true)
    const ranges = await createIpRangeLoader()(kv, NOW)
    expect(ranges.size).toBe(0)
    expect(verifyClaim('googlebot', '203.0.113.9', undefined, ranges)).toBe('unverified')
  })

  it('after a KV failure, keeps the last good copy and retries soon', async () => {
    await refreshIpRanges(env.ROBOTS_KV, fakeFetch(), NOW, { timeoutMs: TIMEOUT_MS })
    const load = createIpRangeLoader({ ttlMs: 600_000, retryMs: 30_000 })
    const good = await load(env.ROBOTS_KV, NOW)
    const failing = observedKv(true)
    expect(await load(failing.kv, NOW + 600_000)).toBe(good)
    expect(await load(failing.kv, NOW + 629_999)).toBe(good)
    expect(failing.reads()).toBe(1)
    await load(failing.kv, NOW + 630_000)
    expect(failing.reads()).toBe(2)
  })

  it('a load that never settles (its request was cancelled) holds nobody up, and is abandoned', async () => {
    await refreshIpRanges(env.ROBOTS_KV, fakeFetch(), NOW, { timeoutMs: TIMEOUT_MS })
    let reads = 0
    const stalled = { get: () => (reads++, new Promise<never>(() => {})) } as unknown as KVNamespace
    const load = createIpRangeLoader({ waitMs: 20, abandonAfterMs: 5_000 })
    expect((await load(stalled, NOW)).size).toBe(0)
    expect((await load(stalled, NOW + 4_999)).size).toBe(0)
    expect(reads).toBe(1)
    const ranges = await load(env.ROBOTS_KV, NOW + 5_000)
    expect(verifyClaim('googlebot', '66.249.66.1', undefined, ranges)).toBe('verified')
  })

  it('skips a corrupt stored list and keeps the others', async () => {
    await refreshIpRanges(env.ROBOTS_KV, fakeFetch(), NOW, { timeoutMs: TIMEOUT_MS })
    await env.ROBOTS_KV.put(ipRangesKey(BING), '{"v":1,"v4":[1],"v6":[]}')
    const ranges = await createIpRangeLoader()(env.ROBOTS_KV, NOW)
    expect(ranges.has(BING)).toBe(false)
    expect(verifyClaim('googlebot', '66.249.66.1', undefined, ranges)).toBe('verified')
  })
})
