import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { type IpRangeList } from '../src/core/agents/index.ts'
import { ipRangeLists, parseIpRanges, type IpRangeSet } from '../src/verify/index.ts'

/**
 * Operators' IP-range lists for a local Worker, so a crawler claim can be
 * verified (or caught as spoofed) without the network: the fixture excerpts
 * in test/fixtures/ip-ranges, stored exactly as the Worker's cron would store
 * them. The entries are made by the cron's own `refreshIpRanges`, given a
 * fetch that serves the fixtures and a KV that keeps what is written, so the
 * key layout and stored form can never drift from the Worker's.
 */

const ROOT = new URL('../', import.meta.url)
const run = promisify(execFile)

/** Published list URL → fixture excerpt of it. Excerpts, not current copies: local use only. */
export const FIXTURE_LISTS: Readonly<Record<string, string>> = {
  'https://developers.google.com/static/crawling/ipranges/common-crawlers.json': 'test/fixtures/ip-ranges/googlebot.json',
  'https://www.bing.com/toolbox/bingbot.json': 'test/fixtures/ip-ranges/bingbot.json',
  'https://openai.com/gptbot.json': 'test/fixtures/ip-ranges/gptbot.json',
}

/** One KV write: the shape of `wrangler kv bulk put` files. */
export interface KvEntry {
  readonly key: string
  readonly value: string
  readonly metadata?: unknown
}

interface KvWriter {
  get(key: string, type: 'json'): Promise<unknown>
  put(key: string, value: string, options?: { metadata?: unknown }): Promise<void>
}

interface RefreshResult {
  readonly url: string
  readonly ok: boolean
  readonly count?: number
  readonly error?: string
}

/** What ipRangeEntries makes: the KV writes, and the lists they hold with their number of entries. */
export interface IpRangeSeed {
  readonly entries: readonly KvEntry[]
  readonly lists: readonly { readonly url: string; readonly count: number }[]
}

interface StorageModule {
  refreshIpRanges(kv: KvWriter, fetchFn: (url: string, init: RequestInit) => Promise<Response>, now?: number, options?: { readonly lists?: readonly IpRangeList[] }): Promise<RefreshResult[]>
}

// src/verify/store is typed against the Workers runtime types, which the Node
// tsconfig does not load; imported by a computed specifier, it is run
// (tsx and vitest load .ts) without being type-checked here.
const STORAGE_MODULE = new URL('src/verify/store/ip-ranges.ts', ROOT).href

/** The KV entries the cron would write for the fixture lists (each list, then the index). */
export async function ipRangeEntries(now: number = Date.now()): Promise<IpRangeSeed> {
  const { refreshIpRanges } = (await import(STORAGE_MODULE)) as StorageModule
  const lists = ipRangeLists.filter((list) => list.url in FIXTURE_LISTS)
  if (lists.length !== Object.keys(FIXTURE_LISTS).length) {
    throw new Error(
      `ip-ranges seed: the registry no longer names ${Object.keys(FIXTURE_LISTS)
        .filter((url) => !lists.some((l) => l.url === url))
        .join(', ')}`,
    )
  }
  const written = new Map<string, KvEntry>()
  const kv: KvWriter = {
    get: async () => null,
    put: async (key, value, options) => {
      written.set(key, options?.metadata === undefined ? { key, value } : { key, value, metadata: options.metadata })
    },
  }
  const serveFixture = async (url: string): Promise<Response> => {
    const file = FIXTURE_LISTS[url]
    if (file === undefined) return new Response('not a fixture', { status: 404 })
    return new Response(await readFile(new URL(file, ROOT), 'utf8'), { status: 200 })
  }
  const results = await refreshIpRanges(kv, serveFixture, now, { lists })
  const failed = results.filter((r) => !r.ok)
  if (failed.length > 0) throw new Error(`ip-ranges seed: ${failed.map((f) => `${f.url}: ${f.error ?? 'failed'}`).join('; ')}`)
  return { entries: [...written.values()], lists: results.map((r) => ({ url: r.url, count: r.count ?? 0 })) }
}

/**
 * Writes the entries into the KV that `npm run dev` reads (`.wrangler/state`,
 * binding ROBOTS_KV) with `wrangler kv bulk put --local`: the documented way
 * to put local data, and safe while `wrangler dev` runs, since both go
 * through Miniflare's storage of that directory.
 */
export async function seedLocalKv(entries: readonly KvEntry[], cwd: URL = ROOT): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'robots-edge-seed-'))
  const file = join(dir, 'ip-ranges.json')
  try {
    await writeFile(file, JSON.stringify(entries))
    await run('npx', ['wrangler', 'kv', 'bulk', 'put', file, '--local', '--binding', 'ROBOTS_KV'], {
      cwd: fileURLToPath(cwd),
      env: { ...process.env, WRANGLER_SEND_METRICS: 'false', WRANGLER_SEND_ERROR_REPORTS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false' },
      timeout: 60_000,
    })
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

/** The fixture lists compiled, keyed by list URL: what the Worker verifies claims against once they are seeded. */
export async function fixtureRanges(): Promise<Map<string, IpRangeSet>> {
  const ranges = new Map<string, IpRangeSet>()
  for (const list of ipRangeLists) {
    const file = FIXTURE_LISTS[list.url]
    if (file !== undefined) ranges.set(list.url, parseIpRanges(await readFile(new URL(file, ROOT), 'utf8'), list.format).set)
  }
  return ranges
}

/** `ROBOTS_ADMIN_TOKEN` from the environment, else from `.dev.vars` (which `npm run dev` creates); undefined when neither has it. */
export async function adminToken(cwd: URL = ROOT): Promise<string | undefined> {
  if (process.env.ROBOTS_ADMIN_TOKEN) return process.env.ROBOTS_ADMIN_TOKEN
  const text = await readFile(new URL('.dev.vars', cwd), 'utf8').catch(() => '')
  const line = text.split(/\r?\n/).find((l) => l.startsWith('ROBOTS_ADMIN_TOKEN='))
  return (
    line
      ?.slice('ROBOTS_ADMIN_TOKEN='.length)
      .trim()
      .replace(/^"(.*)"$/, '$1') || undefined
  )
}

interface Coverage {
  readonly operators: readonly { readonly lists: readonly { readonly url: string; readonly loaded: boolean }[] }[]
}

/**
 * Waits until the running Worker has loaded every list in `urls`, as its
 * coverage route (`/_robots/api/verification`) says: it re-reads KV within
 * half a minute of a refresh, so the simulation's crawlers are never judged
 * against ranges it has not seen yet. Resolves to whether they loaded in time.
 */
export async function waitForRanges(workerUrl: string, token: string, urls: readonly string[], options: { timeoutMs?: number; fetch?: typeof fetch } = {}): Promise<boolean> {
  const { timeoutMs = 45_000, fetch: fetchFn = fetch } = options
  const deadline = Date.now() + timeoutMs
  for (;;) {
    try {
      const response = await fetchFn(new URL('/_robots/api/verification', workerUrl), { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(5000) })
      if (response.ok) {
        const coverage = (await response.json()) as Coverage
        const loaded = new Set(coverage.operators.flatMap((o) => o.lists.filter((l) => l.loaded).map((l) => l.url)))
        if (urls.every((url) => loaded.has(url))) return true
      } else {
        await response.body?.cancel()
        if (response.status === 401 || response.status === 404) return false
      }
    } catch {
      // Not answering yet: try again until the deadline.
    }
    if (Date.now() >= deadline) return false
    await new Promise((resolve) => setTimeout(resolve, 1000))
  }
}
