import { env, SELF } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { ipRangeLists } from '../../src/verify/index.ts'
import { IP_RANGES_INDEX_KEY, IP_RANGES_KEY_PREFIX, ipRangesKey } from '../../src/verify/store/ip-ranges.ts'
import { checkSnapshot, type IpRangesSnapshot } from '../../src/cli/ip-ranges-snapshot.ts'
import { buildSnapshot } from '../../src/cli/ip-ranges-snapshot-writer.ts'
import { ranges } from '../../src/cli/ranges.ts'
import googlebot from '../fixtures/ip-ranges/googlebot.json?raw'
import uptimerobot from '../fixtures/ip-ranges/uptimerobot.txt?raw'

// Integration tests through the Worker's entry (test/worker/entry.ts): the
// dashboard's coverage warns that no list is loaded, `robots-edge ranges`
// loads the lists through the admin API (as `--remote` does with a deployed
// Worker; locally it runs the same route in-process), and the warning goes.
// Every operator's list is a fixture served by an injected fetch, and the
// snapshot is one the writer (`npm run ranges:snapshot`) made from those
// fixtures: test data, not real published lists.

const ORIGIN = 'http://localhost'
const TOKEN = 'test-admin-token'
const GOOGLEBOT = 'https://developers.google.com/static/crawling/ipranges/common-crawlers.json'

/** The operators' URLs answer with fixtures, except `failing`; the Worker's URL reaches the Worker entry. */
function network(failing: readonly string[] = []): typeof fetch {
  return async (input, init) => {
    const url = input instanceof Request ? input.url : String(input)
    if (url.startsWith(`${ORIGIN}/`)) return SELF.fetch(url, init)
    if (failing.includes(url)) throw new TypeError('fetch failed')
    const list = ipRangeLists.find((l) => l.url === url)
    if (list === undefined) return new Response('not found', { status: 404 })
    return new Response(list.format === 'google-json' ? googlebot : uptimerobot)
  }
}

/**
 * A test snapshot written on 2026-08-22 by the snapshot writer, from the
 * googlebot.json fixture alone (every other URL answered 404), and read back
 * as the CLI reads a file (the Workers runtime cannot read one).
 */
async function testSnapshot(): Promise<IpRangesSnapshot> {
  const serveGoogle = async (url: string) => (url === GOOGLEBOT ? new Response(googlebot) : new Response('not found', { status: 404 }))
  const written = await buildSnapshot({ fetch: serveGoogle, now: () => Date.UTC(2026, 7, 22), timeoutMs: 1000 })
  return checkSnapshot(JSON.parse(JSON.stringify(written)), 'test snapshot')
}

function io() {
  const out: string[] = []
  const err: string[] = []
  return { out, err, io: { out: (l: string) => void out.push(l), err: (l: string) => void err.push(l), isTTY: false, env: { ROBOTS_ADMIN_TOKEN: TOKEN } } }
}

interface Coverage {
  fix: string
  operators: { operator: string; status: string; message: string | null; fix: string | null; lists: { url: string; loaded: boolean; source: string | null }[] }[]
}

async function coverage(): Promise<Coverage> {
  const res = await SELF.fetch(`${ORIGIN}/_robots/api/verification`, { headers: { Authorization: `Bearer ${TOKEN}` } })
  expect(res.status).toBe(200)
  return (await res.json()) as Coverage
}

// KV keeps its contents from one test to the next here: each starts with no list stored.
beforeEach(async () => {
  const { keys } = await env.ROBOTS_KV.list({ prefix: IP_RANGES_KEY_PREFIX })
  await Promise.all(keys.map((k) => env.ROBOTS_KV.delete(k.name)))
})

describe('robots-edge ranges, through the Worker entry', () => {
  it('before: every operator is warned about, with the command that fixes it; after: no warning is left', async () => {
    const before = await coverage()
    const google = before.operators.find((o) => o.operator === 'Google')!
    expect(google).toMatchObject({ status: 'missing', fix: 'npx robots-edge ranges' })
    expect(google.message).toContain('Run `npx robots-edge ranges` to load them.')

    const { out, io: cli } = io()
    const code = await ranges({ url: ORIGIN, fetch: network(), snapshotData: await testSnapshot(), now: () => Date.now() }, cli)
    expect(code).toBe(0)
    expect(out[0]).toBe(`Loaded ${ipRangeLists.length} of ${ipRangeLists.length} IP-range lists into ${ORIGIN}:`)
    expect(out.find((l) => l.includes('common-crawlers.json'))).toMatch(
      /✓ +Google +common-crawlers\.json +13 entries +live, fetched \d{4}-\d\d-\d\d \d\d:\d\d UTC from https:\/\/developers\.google\.com/,
    )

    const after = await coverage()
    expect(after.operators.filter((o) => o.message !== null)).toEqual([])
    expect(after.operators.every((o) => o.status === 'ok' && o.lists.every((l) => l.loaded && l.source === 'live'))).toBe(true)
  })

  it('a list that cannot be fetched comes from the snapshot, labelled with its date in the CLI and the API; one in neither is said to be missing', async () => {
    const bing = 'https://www.bing.com/toolbox/bingbot.json'
    const { out, io: cli } = io()
    const code = await ranges({ url: ORIGIN, fetch: network([GOOGLEBOT, bing]), snapshotData: await testSnapshot() }, cli)
    expect(code).toBe(0)
    expect(out.find((l) => l.includes('common-crawlers.json'))).toMatch(/13 entries +snapshot of 2026-08-22 \(live fetch failed: fetch failed\)/)
    expect(out.find((l) => l.includes('bingbot.json'))).toMatch(/not loaded +live fetch failed \(fetch failed\); the snapshot of 2026-08-22 has no copy \(HTTP 404\)$/)
    expect(out).toContain("To load the live lists, run `npx robots-edge ranges --remote http://localhost` where the operators' sites are reachable.")

    const { operators } = await coverage()
    const google = operators.find((o) => o.operator === 'Google')!
    expect(google.lists[0]).toMatchObject({ url: GOOGLEBOT, loaded: true, source: 'snapshot' })
    expect(google.message).toContain('snapshot of 2026-08-22')
    expect(operators.find((o) => o.operator === 'Microsoft')).toMatchObject({ status: 'missing', fix: 'npx robots-edge ranges' })
    // Stored as the cron stores a list: the Worker verifies against it.
    const stored = await env.ROBOTS_KV.getWithMetadata(ipRangesKey(GOOGLEBOT), 'json')
    expect(stored.metadata).toEqual({ fetchedAt: Date.UTC(2026, 7, 22), count: 13, skipped: 0, source: 'snapshot' })
  })

  it('--snapshot tries no operator URL, and --json says where each list came from', async () => {
    const tried: string[] = []
    const watch: typeof fetch = (input, init) => {
      tried.push(input instanceof Request ? input.url : String(input))
      return network()(input, init)
    }
    const { out, io: cli } = io()
    expect(await ranges({ url: ORIGIN, fetch: watch, snapshot: true, json: true, snapshotData: await testSnapshot() }, cli)).toBe(0)
    expect(tried).toEqual([`${ORIGIN}/_robots/api/ip-ranges`])
    const doc = JSON.parse(out.join('\n')) as { ok: boolean; snapshot: { date: string }; lists: { url: string; loaded: boolean; source: string | null; error: string | null }[] }
    expect(doc.ok).toBe(true)
    expect(doc.snapshot.date).toBe('2026-08-22')
    expect(doc.lists.filter((l) => l.loaded).map((l) => [l.url, l.source])).toEqual([[GOOGLEBOT, 'snapshot']])
    expect(doc.lists.find((l) => l.url === 'https://openai.com/gptbot.json')?.error).toBe('the snapshot of 2026-08-22 has no copy (HTTP 404)')
  })

  it('nothing to load: exit 1, and the Worker is not called', async () => {
    const tried: string[] = []
    const offline: typeof fetch = async (input) => {
      tried.push(String(input))
      throw new TypeError('fetch failed')
    }
    const empty: IpRangesSnapshot = { ...(await testSnapshot()), lists: [] }
    const { out, io: cli } = io()
    expect(await ranges({ url: ORIGIN, fetch: offline, snapshotData: empty }, cli)).toBe(1)
    expect(out[0]).toBe('No IP-range list was loaded into nothing.')
    expect(tried.some((u) => u.startsWith(ORIGIN))).toBe(false)
  })

  it('no snapshot shipped and the operators unreachable: exit 1, one line says so, the warning stays', async () => {
    const offline: typeof fetch = async (input, init) => {
      const url = input instanceof Request ? input.url : String(input)
      if (url.startsWith(`${ORIGIN}/`)) return SELF.fetch(url, init)
      throw new TypeError('fetch failed')
    }
    const { out, io: cli } = io()
    expect(await ranges({ url: ORIGIN, fetch: offline, snapshotData: null }, cli)).toBe(1)
    expect(out.filter((l) => l.includes('ships no IP-range snapshot'))).toEqual([
      "Note: this copy of robots-edge ships no IP-range snapshot: run `npm run ranges:snapshot` on a machine with internet, or `robots-edge ranges` where the operators' URLs are reachable.",
    ])
    expect((await coverage()).operators.find((o) => o.operator === 'Google')).toMatchObject({ status: 'missing', fix: 'npx robots-edge ranges' })
  })
})

describe('POST /_robots/api/ip-ranges', () => {
  const post = (body: string, token: string | null = TOKEN) =>
    SELF.fetch(`${ORIGIN}/_robots/api/ip-ranges`, {
      method: 'POST',
      body,
      headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    })
  const list = { url: GOOGLEBOT, format: 'ip-lines', text: '66.249.64.0/27\n', source: 'live', fetchedAt: Date.UTC(2026, 10, 1) }

  it('needs the admin token', async () => {
    expect((await post(JSON.stringify({ lists: [list] }), null)).status).toBe(401)
    expect((await post(JSON.stringify({ lists: [list] }), 'wrong')).status).toBe(401)
    expect(await env.ROBOTS_KV.get(IP_RANGES_INDEX_KEY)).toBeNull()
  })

  it('refuses bad bodies with a 400 that names the field, and stores nothing', async () => {
    const cases: [string, string][] = [
      ['not json', 'body: is not JSON'],
      ['{}', 'body: the body must be JSON { "lists"'],
      [JSON.stringify({ lists: [{ ...list, url: 'https://evil.example/list.txt' }] }), 'lists[0].url must be one of the published lists'],
      [JSON.stringify({ lists: [{ ...list, format: 'yaml' }] }), 'lists[0].format must be one of google-json, cidr-lines, ip-lines'],
      [JSON.stringify({ lists: [{ ...list, source: 'guess' }] }), 'lists[0].source must be "live" or "snapshot"'],
      [JSON.stringify({ lists: [{ ...list, fetchedAt: 'yesterday' }] }), 'lists[0].fetchedAt must be a time'],
      [JSON.stringify({ lists: [list, list] }), 'lists[1].url is given twice'],
    ]
    for (const [body, error] of cases) {
      const res = await post(body)
      expect(res.status, body).toBe(400)
      expect(((await res.json()) as { error: string }).error).toContain(error)
    }
    expect(await env.ROBOTS_KV.get(IP_RANGES_INDEX_KEY)).toBeNull()
  })

  it('a list that parses to nothing is refused and the stored copy kept', async () => {
    expect((await post(JSON.stringify({ lists: [list] }))).status).toBe(200)
    const res = await post(JSON.stringify({ lists: [{ ...list, text: '<html>error</html>', fetchedAt: Date.UTC(2026, 10, 2) }] }))
    expect(await res.json()).toEqual({ stored: [{ url: GOOGLEBOT, ok: false, source: 'live', fetchedAt: Date.UTC(2026, 10, 2), skipped: 1, error: 'no address parsed (1 entries skipped)' }] })
    const stored = await env.ROBOTS_KV.getWithMetadata(ipRangesKey(GOOGLEBOT), 'json')
    expect(stored.metadata).toMatchObject({ fetchedAt: Date.UTC(2026, 10, 1), count: 1 })
  })
})
