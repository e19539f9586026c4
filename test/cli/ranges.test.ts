// Tests of `ranges` in plain Node: the snapshot writer (`npm run ranges:snapshot`),
// the reader, a package with no snapshot, and the local path, where the
// command stores the lists in the local KV that wrangler's platform proxy
// opens in a temporary directory (as `npm run dev` lays it out). The path
// through the Worker entry (--remote, and the warnings going away) is
// test/worker/ranges-command.test.ts.
//
// No real published list is used: the writer fetches the hand-made excerpts
// in test/fixtures/ip-ranges/ through an injected fetch, and the snapshot it
// writes is the test fixture the other tests load with --snapshot-file.
import { existsSync, readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CliError, reportFailure } from '../../src/cli/errors.ts'
import { checkSnapshot, NO_SNAPSHOT, readSnapshot, snapshotPath, type IpRangesSnapshot } from '../../src/cli/ip-ranges-snapshot.ts'
import { buildSnapshot, writeSnapshot } from '../../src/cli/ip-ranges-snapshot-writer.ts'
import { run } from '../../src/cli/main.ts'
import { ranges } from '../../src/cli/ranges.ts'
import { ipRangeLists, parseIpRanges } from '../../src/verify/index.ts'
import { captureIo, jsonOf } from '../support/cli-io.ts'

const FIXTURES = new URL('../fixtures/ip-ranges/', import.meta.url)
const GOOGLE = 'https://developers.google.com/static/crawling/ipranges'
/** Which fixture answers for which published URL; every other URL answers 404. */
const SERVED: Record<string, string> = {
  [`${GOOGLE}/common-crawlers.json`]: 'googlebot.json',
  [`${GOOGLE}/special-crawlers.json`]: 'special-crawlers.json',
  'https://www.bing.com/toolbox/bingbot.json': 'bingbot.json',
  'https://openai.com/gptbot.json': 'gptbot.json',
  'https://stripe.com/files/ips/ips_webhooks.txt': 'stripe-webhooks.txt',
  'https://uptimerobot.com/inc/files/ips/IPv4andIPv6.txt': 'uptimerobot.txt',
  // An error page served with 200: the writer refuses it as the cron would.
  'https://www.perplexity.com/perplexitybot.json': 'garbage.html',
}
const WRITTEN_AT = Date.UTC(2026, 10, 27, 5, 0)

const fixtureFetch = async (url: string): Promise<Response> => {
  const file = SERVED[url]
  return file === undefined ? new Response('not found', { status: 404 }) : new Response(readFileSync(new URL(file, FIXTURES), 'utf8'))
}

let dir = ''
let snapshotFile = ''
let written: IpRangesSnapshot
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'robots-edge-ranges-'))
  snapshotFile = join(dir, 'data', 'ip-ranges-snapshot.json')
  written = await buildSnapshot({ fetch: fixtureFetch, now: () => WRITTEN_AT, timeoutMs: 1000 })
  writeSnapshot(snapshotFile, written)
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('the snapshot writer (npm run ranges:snapshot), over the fixture lists', () => {
  it("writes a dated file the reader accepts: each list's URL, retrieval time and entries", () => {
    const read = readSnapshot(snapshotFile)
    expect(read).toEqual(written)
    expect(read?.snapshot).toBe('2026-11-27')
    const good = Object.keys(SERVED).filter((url) => !url.includes('perplexity'))
    expect(written.lists.map((l) => l.url).sort()).toEqual(good.sort())
    for (const list of written.lists) {
      expect(list.retrieved, list.url).toBe('2026-11-27T05:00:00.000Z')
      const { count, skipped } = parseIpRanges(list.entries.join('\n'), 'ip-lines')
      expect([count, skipped], list.url).toEqual([list.entries.length, 0])
    }
    const bing = written.lists.find((l) => l.url.endsWith('/bingbot.json'))!
    expect(bing.entries).toEqual(['157.55.39.0/24', '207.46.13.0/24', '40.77.167.0/24', '13.66.139.0/24', '13.66.144.0/24', '52.167.144.0/24', '199.30.24.0/23'])
    const about = (JSON.parse(readFileSync(snapshotFile, 'utf8')) as { about: string }).about
    expect(about).toContain('npm run ranges:snapshot')
  })

  it('names every list it could not fetch, with the reason', () => {
    const urls = [...written.lists.map((l) => l.url), ...written.missing.map((m) => m.url)]
    expect(urls.sort()).toEqual(ipRangeLists.map((l) => l.url).sort())
    expect(written.missing.find((m) => m.url === 'https://search.developer.apple.com/applebot.json')?.reason).toBe('HTTP 404')
    expect(written.missing.find((m) => m.url.endsWith('/perplexitybot.json'))?.reason).toMatch(/^no address parsed/)
  })

  it('a timeout or a network error is a reason, not a crash', async () => {
    const offline = async (): Promise<Response> => {
      throw new TypeError('fetch failed', { cause: new Error('getaddrinfo ENOTFOUND openai.com') })
    }
    const snap = await buildSnapshot({ fetch: offline, now: () => WRITTEN_AT, lists: ipRangeLists.slice(0, 1) })
    expect(snap).toEqual({ snapshot: '2026-11-27', lists: [], missing: [{ url: ipRangeLists[0]!.url, reason: 'fetch failed: getaddrinfo ENOTFOUND openai.com' }] })
  })

  it('a file edited into another shape is an error naming the field', () => {
    expect(() => checkSnapshot({ ...written, snapshot: 'last week' }, 'x.json')).toThrow(
      new CliError('x.json: snapshot is not as robots-edge writes it; write the file again with `npm run ranges:snapshot`'),
    )
    expect(() => checkSnapshot({ ...written, lists: [{ ...written.lists[0], entries: [1] }] }, 'x.json')).toThrow(/lists\[0\]\.entries/)
    expect(() => checkSnapshot({ ...written, missing: [{ url: 'x' }] }, 'x.json')).toThrow(/missing\[0\]/)
    expect(() => checkSnapshot(null, 'x.json')).toThrow(CliError)
    expect(() => readSnapshot(join(dir, 'no-such-snapshot.json'))).toThrow(/could not be read/)
  })
})

describe('a package that ships no snapshot', () => {
  it('the reader says none, rather than failing', () => {
    expect(snapshotPath()).toMatch(/\/data\/ip-ranges-snapshot\.json$/)
    expect(readSnapshot(undefined, join(dir, 'not-shipped.json'))).toBeNull()
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { files: string[]; scripts: Record<string, string> }
    // Shipped when the release step wrote it; packing never fetches.
    expect(pkg.files).toContain('data/')
    expect(pkg.scripts['ranges:snapshot']).toBe('tsx scripts/ranges-snapshot.ts')
    expect(Object.values(pkg.scripts).filter((s) => s.includes('ranges-snapshot'))).toHaveLength(1)
  })

  it('--snapshot: the one line, exit 1, nothing stored', async () => {
    const io = captureIo()
    const failure = await ranges({ persistTo: dir, snapshot: true, snapshotData: null }, io).catch((error: unknown) => error)
    expect(failure).toEqual(new CliError(NO_SNAPSHOT))
    expect(io.stdout).toEqual([])
    expect(reportFailure(failure, io, false)).toBe(1)
    expect(io.stderr).toEqual([`robots-edge: ${NO_SNAPSHOT}`])
  })

  it.skipIf(existsSync(snapshotPath()))('through the CLI, in this checkout (no data/ip-ranges-snapshot.json): the same line, exit 1', async () => {
    const io = captureIo()
    expect(await run(['ranges', '--snapshot'], io)).toBe(1)
    expect(io.stderr).toEqual([`robots-edge: ${NO_SNAPSHOT}`])
    const json = captureIo()
    expect(await run(['ranges', '--snapshot', '--json'], json)).toBe(1)
    expect(jsonOf(json)).toMatchObject({ ok: false, error: NO_SNAPSHOT })
  })

  it('offline: each list says why it is not loaded, one line says there is no snapshot, exit 1', async () => {
    const io = captureIo()
    const offline: typeof fetch = async () => {
      throw new TypeError('fetch failed')
    }
    expect(await ranges({ persistTo: dir, fetch: offline, snapshotData: null }, io)).toBe(1)
    expect(io.stdout[0]).toBe('No IP-range list was loaded into nothing.')
    expect(io.text()).toMatch(/✗ +Google +common-crawlers\.json +not loaded +live fetch failed \(fetch failed\); no snapshot to fall back to$/m)
    expect(io.stdout.filter((l) => l.includes('ships no IP-range snapshot'))).toEqual([`Note: ${NO_SNAPSHOT}.`])
    const json = captureIo()
    expect(await ranges({ persistTo: dir, fetch: offline, snapshotData: null, json: true }, json)).toBe(1)
    expect(jsonOf(json)).toMatchObject({ ok: false, snapshot: null, note: NO_SNAPSHOT })
  })
})

describe('ranges: the local KV', { timeout: 60_000 }, () => {
  it("--snapshot --snapshot-file stores the snapshot's lists where `npm run dev` reads them, labelled as the snapshot", async () => {
    const io = captureIo()
    expect(await ranges({ persistTo: dir, snapshot: true, snapshotFile }, io)).toBe(0)
    expect(io.stdout[0]).toBe(`Loaded ${written.lists.length} of ${ipRangeLists.length} IP-range lists into local KV (${dir}):`)
    expect(io.text()).toMatch(/✓ +Microsoft +bingbot\.json +7 entries +snapshot of 2026-11-27$/m)
    expect(io.text()).toContain("Snapshot of 2026-11-27: copies fetched from the operators' URLs by `npm run ranges:snapshot`. Not live data:")
    expect(io.text()).toContain("To load the live lists, run `npx robots-edge ranges` where the operators' sites are reachable")

    const { getPlatformProxy } = await import('wrangler')
    const proxy = await getPlatformProxy<{ ROBOTS_KV: { get(key: string, type: 'json'): Promise<unknown>; getWithMetadata(key: string): Promise<{ metadata: unknown }> } }>({
      persist: { path: `${dir}/v3` },
      remoteBindings: false,
    })
    try {
      const index = (await proxy.env.ROBOTS_KV.get('ip-ranges:v1:index', 'json')) as { urls: string[] }
      expect(index.urls.sort()).toEqual(written.lists.map((l) => l.url).sort())
      const bing = await proxy.env.ROBOTS_KV.getWithMetadata('ip-ranges:v1:https://www.bing.com/toolbox/bingbot.json')
      expect(bing.metadata).toEqual({ fetchedAt: WRITTEN_AT, count: 7, skipped: 0, source: 'snapshot' })
    } finally {
      await proxy.dispose()
    }
  })

  it('without --snapshot, a list that cannot be fetched falls back to the snapshot, and --json says so', async () => {
    const io = captureIo()
    const offline: typeof fetch = async () => {
      throw new TypeError('fetch failed', { cause: new Error('getaddrinfo ENOTFOUND developers.google.com') })
    }
    expect(await ranges({ persistTo: dir, fetch: offline, json: true, snapshotFile }, io)).toBe(0)
    const doc = jsonOf(io) as { snapshot: unknown; lists: { url: string; loaded: boolean; source: string | null; liveError: string | null; error: string | null }[] }
    expect(doc.snapshot).toEqual({ date: '2026-11-27' })
    const google = doc.lists.find((l) => l.url.endsWith('/common-crawlers.json'))!
    expect(google).toMatchObject({ loaded: true, source: 'snapshot', liveError: 'fetch failed: getaddrinfo ENOTFOUND developers.google.com' })
    expect(doc.lists.find((l) => l.url.endsWith('/applebot.json'))).toMatchObject({
      loaded: false,
      source: null,
      error: 'live fetch failed (fetch failed: getaddrinfo ENOTFOUND developers.google.com); the snapshot of 2026-11-27 has no copy (HTTP 404)',
    })
  })
})

describe('ranges: arguments', () => {
  it('--help names --snapshot, --snapshot-file and --remote; other commands refuse them', async () => {
    const help = captureIo()
    expect(await run(['ranges', '--help'], help)).toBe(0)
    expect(help.text()).toContain('--snapshot')
    expect(help.text()).toContain('--snapshot-file <file>')
    expect(help.text()).toContain('--remote <url>')
    const wrong = captureIo()
    expect(await run(['print', '--snapshot'], wrong)).toBe(2)
    expect(wrong.stderr[0]).toBe('robots-edge: print takes no --snapshot.')
    const wrongFile = captureIo()
    expect(await run(['print', '--snapshot-file', 'x.json'], wrongFile)).toBe(2)
    expect(wrongFile.stderr[0]).toBe('robots-edge: print takes no --snapshot-file.')
    const bare = captureIo()
    expect(await run(['ranges', '--remote'], bare)).toBe(2)
    expect(bare.stderr[0]).toMatch(/--remote needs the Worker's URL/)
    const absent = captureIo()
    expect(await run(['ranges', '--snapshot', '--snapshot-file', join(tmpdir(), 'no-such-snapshot.json')], absent)).toBe(1)
    expect(absent.stderr[0]).toMatch(/^robots-edge: the IP-range snapshot could not be read \(.+no-such-snapshot\.json\): ENOENT/)
  })
})
