import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { IpRangeSet, ipRangeLists, parseIpRanges, verifyClaim } from '../../src/verify/index.ts'
import { createIpRangeLoader } from '../../src/verify/store/ip-range-loader.ts'
import {
  IP_RANGES_INDEX_KEY,
  IP_RANGES_KEY_PREFIX,
  IP_RANGES_VERSION_KEY,
  ipRangesKey,
  refreshIpRanges,
  type FetchFn,
  type IpRangesIndex,
  type IpRangesMetadata,
} from '../../src/verify/store/ip-ranges.ts'
import bingbot from '../fixtures/ip-ranges/bingbot.json?raw'
import garbage from '../fixtures/ip-ranges/garbage.html?raw'
import googlebot from '../fixtures/ip-ranges/googlebot.json?raw'
import specialCrawlers from '../fixtures/ip-ranges/special-crawlers.json?raw'
import stripeWebhooks from '../fixtures/ip-ranges/stripe-webhooks.txt?raw'
import uptimerobot from '../fixtures/ip-ranges/uptimerobot.txt?raw'

// Unit tests of src/verify/store/ip-ranges.ts against workerd's real KV; every
// operator's list is served by an injected fetch, so nothing leaves the machine.

const GOOGLE = 'https://developers.google.com/static/crawling/ipranges'
const GOOGLEBOT = `${GOOGLE}/common-crawlers.json`
const SPECIAL = `${GOOGLE}/special-crawlers.json`
const USER_TRIGGERED = `${GOOGLE}/user-triggered-fetchers-google.json`
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
  const bodies: Record<string, string | number> = {
    [GOOGLEBOT]: googlebot,
    [SPECIAL]: specialCrawlers,
    [BING]: bingbot,
    [STRIPE]: stripeWebhooks,
    [UPTIMEROBOT]: uptimerobot,
    [PINGDOM]: garbage,
    [USER_TRIGGERED]: 500,
    ...overrides,
  }
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

/** KV that records which keys are read, and can be made to fail, to observe the loader's memo. */
function observedKv(failing = false): { kv: KVNamespace; reads: string[] } {
  const reads: string[] = []
  const observe = (key: string) => {
    reads.push(key)
    if (failing) throw new Error('KV GET failed: 503 Service Unavailable')
  }
  const kv = {
    get: async (key: string, type: 'json' | 'text') => (observe(key), env.ROBOTS_KV.get(key, type as 'json')),
    getWithMetadata: async (key: string, type: 'json') => (observe(key), env.ROBOTS_KV.getWithMetadata(key, type)),
  }
  return { kv: kv as unknown as KVNamespace, reads }
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

    const index = await env.ROBOTS_KV.get<IpRangesIndex>(IP_RANGES_INDEX_KEY, 'json')
    expect(index?.urls.toSorted()).toEqual([BING, GOOGLEBOT, SPECIAL, STRIPE, UPTIMEROBOT].toSorted())
    // The failures are kept for the coverage report.
    expect(index?.failures).toContainEqual({ url: USER_TRIGGERED, error: 'HTTP 500' })
    expect(index?.failures).toContainEqual({ url: GPTBOT, error: `timed out after ${TIMEOUT_MS} ms` })
  })

  it('bumps the version key with every refresh, so isolates learn of it with one small read', async () => {
    expect(await env.ROBOTS_KV.get(IP_RANGES_VERSION_KEY)).toBeNull()
    await refreshIpRanges(env.ROBOTS_KV, fakeFetch(), NOW, { timeoutMs: TIMEOUT_MS })
    const first = await env.ROBOTS_KV.get(IP_RANGES_VERSION_KEY)
    expect(first).toMatch(new RegExp(`^${NOW}-`))
    await refreshIpRanges(env.ROBOTS_KV, fakeFetch(), NOW, { timeoutMs: TIMEOUT_MS })
    expect(await env.ROBOTS_KV.get(IP_RANGES_VERSION_KEY)).not.toBe(first)
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

describe('createIpRangeLoader', () => {
  const refresh = (now = NOW) => refreshIpRanges(env.ROBOTS_KV, fakeFetch(), now, { timeoutMs: TIMEOUT_MS })

  it('loads the stored lists, so a Googlebot address verifies', async () => {
    await refresh()
    const ranges = await createIpRangeLoader()(env.ROBOTS_KV, NOW)
    expect([...ranges.keys()].toSorted()).toEqual([BING, GOOGLEBOT, SPECIAL, STRIPE, UPTIMEROBOT].toSorted())
    expect(verifyClaim('googlebot', '66.249.66.1', undefined, ranges)).toBe('verified')
    expect(verifyClaim('googlebot', '2001:4860:4801:10::1', undefined, ranges)).toBe('verified')
    expect(verifyClaim('googlebot', '203.0.113.9', undefined, ranges)).toBe('spoofed')
    // Google's user-triggered lists failed to load: its fetchers' claims cannot be checked.
    expect(verifyClaim('feedfetcher-google', '203.0.113.9', undefined, ranges)).toBe('unknown')
  })

  it('between checks, serves what it loaded; each check reads only the version key', async () => {
    await refresh()
    const load = createIpRangeLoader({ checkMs: 30_000 })
    const { kv, reads } = observedKv()
    const [a, b] = await Promise.all([load(kv, NOW), load(kv, NOW)])
    expect(a).toBe(b)
    expect(reads).toHaveLength(1 + 1 + 5) // the version, the index, then each stored list
    expect(await load(kv, NOW + 29_999)).toBe(a)
    expect(reads).toHaveLength(7)
    expect(await load(kv, NOW + 30_000)).toBe(a)
    expect(reads.slice(7)).toEqual([IP_RANGES_VERSION_KEY])
  })

  it('picks up a refresh at the next check, within checkMs', async () => {
    const load = createIpRangeLoader({ checkMs: 30_000, retryMs: 10_000 })
    const before = await load(env.ROBOTS_KV, NOW)
    expect(verifyClaim('googlebot', '203.0.113.9', undefined, before)).toBe('unknown')
    await refresh(NOW + 1_000)
    const after = await load(env.ROBOTS_KV, NOW + 10_000)
    expect(verifyClaim('googlebot', '203.0.113.9', undefined, after)).toBe('spoofed')
    expect(verifyClaim('googlebot', '66.249.66.1', undefined, after)).toBe('verified')
    // Once something is stored, the pace is checkMs.
    await refresh(NOW + 11_000)
    expect(await load(env.ROBOTS_KV, NOW + 39_999)).toBe(after)
    expect(await load(env.ROBOTS_KV, NOW + 40_000)).not.toBe(after)
  })

  it('recheck() makes the next load read the version key at once, and only then', async () => {
    const load = createIpRangeLoader({ checkMs: 30_000, retryMs: 10_000 })
    const { kv, reads } = observedKv()
    expect((await load(kv, NOW)).size).toBe(0)
    await refresh(NOW + 1)
    expect((await load(kv, NOW + 2)).size).toBe(0)
    const before = reads.length
    load.recheck()
    const after = await load(kv, NOW + 3)
    expect(reads[before]).toBe(IP_RANGES_VERSION_KEY)
    expect(verifyClaim('googlebot', '66.249.66.1', undefined, after)).toBe('verified')
    // Back to the usual pace: no read until checkMs has passed.
    const settled = reads.length
    expect(await load(kv, NOW + 4)).toBe(after)
    expect(reads).toHaveLength(settled)
  })

  it('is empty before the first refresh, and looks again soon (retryMs), reading one key', async () => {
    const load = createIpRangeLoader({ checkMs: 30_000, retryMs: 10_000 })
    const { kv, reads } = observedKv()
    expect((await load(kv, NOW)).size).toBe(0)
    expect(reads).toEqual([IP_RANGES_VERSION_KEY, IP_RANGES_INDEX_KEY])
    await load(kv, NOW + 9_999)
    expect(reads).toHaveLength(2)
    await load(kv, NOW + 10_000)
    expect(reads.slice(2)).toEqual([IP_RANGES_VERSION_KEY])
  })

  it('a full re-read after reloadMs even if the version did not change', async () => {
    await refresh()
    const load = createIpRangeLoader({ checkMs: 30_000, reloadMs: 60_000 })
    const { kv, reads } = observedKv()
    await load(kv, NOW)
    await load(kv, NOW + 60_000)
    expect(reads.filter((key) => key === IP_RANGES_INDEX_KEY)).toHaveLength(2)
  })

  it('a KV failure yields empty ranges (claims read as unknown), not an exception', async () => {
    const { kv } = observedKv(true)
    const load = createIpRangeLoader()
    const ranges = await load(kv, NOW)
    expect(ranges.size).toBe(0)
    expect(verifyClaim('googlebot', '203.0.113.9', undefined, ranges)).toBe('unknown')
    expect(load.snapshot().error).toMatch(/^KV could not be read: KV GET failed/)
  })

  it('after a KV failure, keeps the last good copy and retries soon', async () => {
    await refresh()
    const load = createIpRangeLoader({ checkMs: 30_000, retryMs: 10_000 })
    const good = await load(env.ROBOTS_KV, NOW)
    const failing = observedKv(true)
    expect(await load(failing.kv, NOW + 30_000)).toBe(good)
    expect(await load(failing.kv, NOW + 39_999)).toBe(good)
    expect(failing.reads).toHaveLength(1)
    await load(failing.kv, NOW + 40_000)
    expect(failing.reads).toHaveLength(2)
    // Back to a working KV: a full read, whatever the version says.
    const { kv, reads } = observedKv()
    const again = await load(kv, NOW + 50_000)
    expect(reads).toContain(IP_RANGES_INDEX_KEY)
    expect(load.snapshot().error).toBeNull()
    expect(verifyClaim('googlebot', '66.249.66.1', undefined, again)).toBe('verified')
  })

  it('a read that never settles (its request was cancelled) holds nobody up, and is abandoned', async () => {
    await refresh()
    let reads = 0
    const stalled = { get: () => (reads++, new Promise<never>(() => {})) } as unknown as KVNamespace
    const load = createIpRangeLoader({ waitMs: 20, abandonAfterMs: 5_000 })
    expect((await load(stalled, NOW)).size).toBe(0)
    expect((await load(stalled, NOW + 4_999)).size).toBe(0)
    expect(reads).toBe(1)
    const ranges = await load(env.ROBOTS_KV, NOW + 5_000)
    expect(verifyClaim('googlebot', '66.249.66.1', undefined, ranges)).toBe('verified')
  })

  it('skips a corrupt stored list, keeps the others, and reads again soon', async () => {
    await refresh()
    await env.ROBOTS_KV.put(ipRangesKey(BING), '{"v":1,"v4":[1],"v6":[]}')
    const load = createIpRangeLoader({ checkMs: 30_000, retryMs: 10_000 })
    const ranges = await load(env.ROBOTS_KV, NOW)
    expect(ranges.has(BING)).toBe(false)
    expect(verifyClaim('googlebot', '66.249.66.1', undefined, ranges)).toBe('verified')
    expect(load.snapshot().error).toBe(`1 stored list(s) could not be read: ${BING}`)
    await refresh(NOW + 1_000)
    expect((await load(env.ROBOTS_KV, NOW + 10_000)).has(BING)).toBe(true)
  })

  it('its snapshot says what is loaded, when the cron fetched it, and what failed', async () => {
    await refresh()
    const load = createIpRangeLoader()
    expect(load.snapshot()).toMatchObject({ loadedAt: null, index: null })
    await load(env.ROBOTS_KV, NOW + 5)
    const snapshot = load.snapshot()
    expect(snapshot).toMatchObject({ loadedAt: NOW + 5, error: null, index: { updatedAt: NOW } })
    expect(snapshot.metadata.get(GOOGLEBOT)).toEqual({ fetchedAt: NOW, count: 13, skipped: 0 })
    expect(snapshot.index?.failures.map((f) => f.url)).toContain(USER_TRIGGERED)
  })
})
