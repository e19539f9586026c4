import { describe, expect, it } from 'vitest'
import { parseIpRanges, type IpRangeSet } from '../../src/verify/index.ts'
import { LOAD_COMMAND, loadCommandFor, STALE_AFTER_MS, verificationCoverage, type LoadedRanges } from '../../src/verify/coverage.ts'

// Verification coverage per operator, from what one isolate has loaded; each
// warning names the command that fixes it.

const LISTS = 'https://developers.google.com/static/crawling/ipranges'
const NOW = Date.UTC(2026, 3, 20, 12, 0)
const HOUR = 3_600_000

const someRanges = (): IpRangeSet => parseIpRanges('{"prefixes":[{"ipv4Prefix":"66.249.64.0/27"}]}', 'google-json').set

function snapshot(loaded: Record<string, number>, extra: Partial<LoadedRanges> = {}, source?: 'live' | 'snapshot'): LoadedRanges {
  const ranges = new Map<string, IpRangeSet>()
  const metadata = new Map<string, { fetchedAt: number; count: number; skipped: number; source?: 'live' | 'snapshot' }>()
  for (const [url, fetchedAt] of Object.entries(loaded)) {
    ranges.set(url, someRanges())
    metadata.set(url, { fetchedAt, count: 1, skipped: 0, ...(source ? { source } : {}) })
  }
  return { ranges, metadata, index: null, loadedAt: NOW, error: null, ...extra }
}

const google = (s: LoadedRanges) => verificationCoverage(s, NOW).operators.find((o) => o.operator === 'Google')!

describe('verificationCoverage', () => {
  it("nothing loaded: says so in the issue's words, for every operator that publishes ranges", () => {
    const coverage = verificationCoverage(snapshot({}), NOW)
    expect(google(snapshot({}))).toMatchObject({
      status: 'missing',
      message: "Google's IP ranges are not loaded: claims to be Google's crawlers cannot be checked. Run `npx robots-edge ranges` to load them.",
      fix: LOAD_COMMAND,
    })
    expect(coverage.operators.map((o) => o.operator)).toEqual(expect.arrayContaining(['Google', 'Microsoft', 'OpenAI', 'Apple']))
    expect(coverage.operators.every((o) => o.status === 'missing' && o.message?.includes('`npx robots-edge ranges`') && o.fix === LOAD_COMMAND)).toBe(true)
    expect(coverage.fix).toBe(LOAD_COMMAND)
  })

  it("lists each of Google's five lists, and the agents checked against them", () => {
    const g = google(snapshot({}))
    expect(g.lists.map((l) => l.url.slice(LISTS.length + 1))).toEqual([
      'common-crawlers.json',
      'special-crawlers.json',
      'user-triggered-fetchers-google.json',
      'user-triggered-fetchers.json',
      'user-triggered-agents.json',
    ])
    expect(g.agents).toEqual(expect.arrayContaining(['googlebot', 'adsbot-google', 'feedfetcher-google']))
  })

  it('some loaded: partial, naming the missing files', () => {
    const g = google(snapshot({ [`${LISTS}/common-crawlers.json`]: NOW - HOUR, [`${LISTS}/special-crawlers.json`]: NOW - HOUR }))
    expect(g.status).toBe('partial')
    expect(g.message).toBe(
      "Some of Google's IP ranges are not loaded (user-triggered-fetchers-google.json, user-triggered-fetchers.json, user-triggered-agents.json): claims they would settle cannot be checked. Run `npx robots-edge ranges` to load them.",
    )
    expect(g.lists[0]).toMatchObject({ loaded: true, fetchedAt: NOW - HOUR, entries: 1, stale: false, source: 'live' })
    expect(g.lists[4]).toMatchObject({ loaded: false, source: null })
  })

  it('all loaded and fresh: ok, no message', () => {
    const all = Object.fromEntries(google(snapshot({})).lists.map((l) => [l.url, NOW - 2 * HOUR]))
    expect(google(snapshot(all))).toMatchObject({ status: 'ok', message: null, fix: null })
  })

  it('a copy older than a day is stale, and the message says how old', () => {
    const all = Object.fromEntries(google(snapshot({})).lists.map((l) => [l.url, NOW - HOUR]))
    all[`${LISTS}/special-crawlers.json`] = NOW - STALE_AFTER_MS - 3 * 24 * HOUR
    const g = google(snapshot(all))
    expect(g.status).toBe('stale')
    expect(g.message).toBe(
      "Google's IP ranges are stale (fetched 4 days ago): claims to be Google's crawlers are checked against an old copy. Run `npx robots-edge ranges` to load fresh copies; the cron's log line says why its hourly refresh failed.",
    )
  })

  it("carries the last refresh's errors and times", () => {
    const s = snapshot({}, { index: { updatedAt: NOW - HOUR, failures: [{ url: `${LISTS}/common-crawlers.json`, error: 'HTTP 503' }] }, error: 'KV could not be read: boom' })
    const coverage = verificationCoverage(s, NOW)
    expect(coverage).toMatchObject({ time: NOW, refreshedAt: NOW - HOUR, loadedAt: NOW, error: 'KV could not be read: boom' })
    expect(google(s).lists[0]?.error).toBe('HTTP 503')
  })

  it('copies from the shipped snapshot are labelled with its date and the command that loads the live lists, fresh or not', () => {
    const day = Date.UTC(2026, 7, 22)
    const all = Object.fromEntries(google(snapshot({})).lists.map((l) => [l.url, day]))
    const old = google(snapshot(all, {}, 'snapshot'))
    expect(old.message).toBe(
      "Google's IP ranges come from the snapshot of 2026-08-22, not the live lists: claims are checked against that copy. Run `npx robots-edge ranges` where the operators' sites are reachable to load the live lists.",
    )
    expect(old.lists.every((l) => l.source === 'snapshot')).toBe(true)
    // A snapshot younger than a day is still not the live list.
    const young = Object.fromEntries(Object.keys(all).map((url) => [url, NOW - HOUR]))
    expect(google(snapshot(young, {}, 'snapshot'))).toMatchObject({ status: 'ok', fix: LOAD_COMMAND, message: expect.stringContaining('snapshot of 2026-04-20') })
    // Some lists missing, the others from the snapshot: the warning says both.
    const some = google(snapshot({ [`${LISTS}/common-crawlers.json`]: day }, {}, 'snapshot'))
    expect(some.status).toBe('partial')
    expect(some.message).toMatch(
      /^Some of Google's IP ranges are not loaded \(special-crawlers\.json, .+\): claims they would settle cannot be checked\. The loaded ones come from the snapshot of 2026-08-22, not the live lists\. Run `npx robots-edge ranges` to load them\.$/,
    )
  })

  it("names --remote with the Worker's own origin when it is not on this machine", () => {
    const fix = loadCommandFor('https://www.example.com/_robots/api/verification?x=1')
    expect(fix).toBe('npx robots-edge ranges --remote https://www.example.com')
    expect(loadCommandFor('http://localhost:8787/_robots/api/verification')).toBe(LOAD_COMMAND)
    expect(loadCommandFor('http://127.0.0.1:8791/')).toBe(LOAD_COMMAND)
    expect(loadCommandFor('not a url')).toBe(LOAD_COMMAND)
    const remote = verificationCoverage(snapshot({}), NOW, STALE_AFTER_MS, fix)
    expect(remote.fix).toBe(fix)
    expect(remote.operators[0]?.message).toContain(`Run \`${fix}\``)
  })
})
