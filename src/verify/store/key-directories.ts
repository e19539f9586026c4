import { directoryLifetime, directoryUrl, importDirectoryKey, parseKeyDirectory, type CacheBounds, type DirectoryFailure, type DirectoryKey, type KeyLookup } from '../key-directory.ts'
import { readBoundedText } from '../../core/http/bounded-body.ts'
import { createNodeDirectoryFetch, isNodeRuntime, PRIVATE_ADDRESS, type DirectoryLookup } from './node-directory-fetch.ts'

export type { DirectoryFailure, DirectoryLookup, KeyLookup }

/**
 * Web Bot Auth key directories, fetched on demand and cached twice: per
 * isolate, and in Workers KV so other isolates skip the fetch. Lookups are
 * keyed by directory URL and key id (draft-ietf-webbotauth-httpsig-protocol
 * §"Validating Message Signature": "Key lookup MUST be keyed on the (URL, key) pair"); a directory is
 * stored whole, under `web-bot-auth:v1:<directory URL>`, since its few keys
 * arrive in one response.
 *
 * The origins come from clients, so every fetch is bounded (§"Server-Side Request Forgery"): https on
 * port 443 only (checked by the caller), no redirect followed, a time and a
 * size limit, a per-isolate fetch budget, and failures remembered briefly.
 * In Node, a name that resolves to a private address is refused too
 * (node-directory-fetch.ts); on Cloudflare the platform's egress rules do that.
 */

export type FetchLike = (url: string, init: RequestInit) => Promise<Response>

export interface KeyDirectoryOptions {
  /** Default: in a Worker, the global `fetch`, looked up at each call; in Node, node:https with every address checked (node-directory-fetch.ts). */
  readonly fetch?: FetchLike
  /** Node only, with the default `fetch`: resolves a directory's host. Default: node:dns `lookup`. */
  readonly lookup?: DirectoryLookup
  /** Time for one fetch, headers and body. Default: 2000 ms. */
  readonly timeoutMs?: number
  /** Largest body read. Default: 64 KiB. */
  readonly maxBytes?: number
  /** How long a directory is reused (its `Cache-Control`, within bounds). Default: 5 minutes to 24 hours, 1 hour when unstated. */
  readonly lifetime?: CacheBounds
  /** How long a failed fetch is remembered. Default: 60 s (the draft's guidance: at most five minutes). */
  readonly failureSeconds?: number
  /** A key id missing from a copy at least this old triggers one refetch (keys rotate). Default: 300 s. */
  readonly refetchAfterSeconds?: number
  /** Directory fetches per isolate per minute, over all origins. Default: 30. */
  readonly fetchesPerMinute?: number
}

/** The two Workers KV calls used here (a `KVNamespace` is one). */
export interface DirectoryStore {
  get(key: string, type: 'json'): Promise<unknown>
  put(key: string, value: string, options: { expirationTtl: number }): Promise<void>
}

/** Finds the Ed25519 key `keyId` in the directory at `origin`. Never throws. */
export type KeyResolver = (origin: string, keyId: string) => Promise<KeyLookup>

export interface KeyDirectories {
  /** The resolver for one request: its KV namespace (optional) and clock. */
  resolver(kv: DirectoryStore | undefined, now?: number): KeyResolver
}

/** Prefix of every KV key this module writes. */
export const KEY_DIRECTORY_PREFIX = 'web-bot-auth:v1:'

interface Stored {
  readonly keys: readonly DirectoryKey[]
  readonly unsupported: readonly string[]
  readonly fetchedAt: number
  readonly freshUntil: number
}
interface Entry extends Stored {
  retryAt?: number
}
type Fetched = { ok: true; stored: Stored } | { ok: false; reason: DirectoryFailure }

const MAX_ENTRIES = 512

/**
 * The Worker keeps one per isolate (src/edge/wiring.ts).
 *
 * @example
 * const directories = createKeyDirectories()
 * const lookup = await directories.resolver(env.ROBOTS_KV)('https://agent.bot.goog', keyid)
 */
export function createKeyDirectories(options: KeyDirectoryOptions = {}): KeyDirectories {
  const { timeoutMs = 2000, maxBytes = 64 * 1024, failureSeconds = 60, refetchAfterSeconds = 300, fetchesPerMinute = 30 } = options
  const bounds = options.lifetime ?? { floor: 300, ceiling: 86_400, fallback: 3600 }
  const fetchFn: FetchLike = options.fetch ?? (isNodeRuntime() ? createNodeDirectoryFetch(options.lookup) : (url, init) => fetch(url, init))
  const entries = new Map<string, Entry>()
  const failures = new Map<string, { reason: DirectoryFailure; until: number }>()
  const imported = new Map<string, CryptoKey>()
  const inflight = new Map<string, { promise: Promise<Fetched>; startedAt: number }>()
  let budget = { windowStart: 0, used: 0 }

  const remember = <V>(map: Map<string, V>, key: string, value: V) => {
    if (map.size >= MAX_ENTRIES && !map.has(key)) map.delete(map.keys().next().value!)
    map.set(key, value)
  }

  async function answer(entry: Stored, origin: string, keyId: string): Promise<KeyLookup> {
    const key = entry.keys.find((k) => k.kid === keyId)
    if (key === undefined) return entry.unsupported.includes(keyId) ? { status: 'unsupported' } : { status: 'absent' }
    const id = `${directoryUrl(origin)}\n${keyId}`
    let crypto = imported.get(id)
    if (crypto === undefined) {
      const made = await importDirectoryKey(key)
      if (made === null) return { status: 'absent' }
      remember(imported, id, (crypto = made))
    }
    return { status: 'found', key: crypto, ...(key.nbf !== undefined && { nbf: key.nbf }), ...(key.exp !== undefined && { exp: key.exp }) }
  }

  // One fetch per origin at a time. A fetch belongs to the request that
  // started it, and workerd cancels a request's I/O when it ends, so others
  // wait for it no longer than the fetch's own time limit, and a fetch older
  // than twice that is presumed lost.
  async function fetchShared(origin: string, now: number): Promise<Fetched> {
    const running = inflight.get(origin)
    if (running !== undefined && now - running.startedAt < 2 * timeoutMs) return race(running.promise, timeoutMs).catch((): Fetched => ({ ok: false, reason: 'timeout' }))
    if (now - budget.windowStart >= 60_000) budget = { windowStart: now, used: 0 }
    if (budget.used >= fetchesPerMinute) return { ok: false, reason: 'busy' }
    budget.used++
    const promise = fetchDirectory(origin, now)
    inflight.set(origin, { promise, startedAt: now })
    try {
      return await promise
    } finally {
      if (inflight.get(origin)?.promise === promise) inflight.delete(origin)
    }
  }

  async function fetchDirectory(origin: string, now: number): Promise<Fetched> {
    const attempt = (async (): Promise<Fetched> => {
      const response = await fetchFn(directoryUrl(origin), {
        // §"Key Distribution and Discovery": "MUST NOT automatically follow HTTP redirects"; only a 200 is a directory.
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
        headers: { accept: 'application/http-message-signatures-directory+json, application/json;q=0.5' },
      })
      if (response.status !== 200) {
        await response.body?.cancel().catch(() => undefined)
        return { ok: false, reason: response.status >= 300 && response.status < 400 ? 'redirect' : 'http-status' }
      }
      const text = await readBoundedText(response, maxBytes)
      if (text === null) return { ok: false, reason: 'too-large' }
      const parsed = await parseKeyDirectory(text)
      if (parsed === null) return { ok: false, reason: 'not-a-directory' }
      const lifetime = directoryLifetime(response.headers, bounds)
      return { ok: true, stored: { keys: parsed.keys, unsupported: parsed.unsupported, fetchedAt: now, freshUntil: now + lifetime * 1000 } }
    })()
    try {
      return await race(attempt, timeoutMs)
    } catch (error) {
      if (!(error instanceof Error)) return { ok: false, reason: 'network' }
      if (error.name === PRIVATE_ADDRESS) return { ok: false, reason: 'private-address' }
      return { ok: false, reason: error.name === 'TimeoutError' || error.name === 'AbortError' ? 'timeout' : 'network' }
    }
  }

  async function readStored(kv: DirectoryStore, origin: string): Promise<Entry | undefined> {
    try {
      const value = (await kv.get(`${KEY_DIRECTORY_PREFIX}${directoryUrl(origin)}`, 'json')) as Stored | null
      if (value === null || typeof value !== 'object' || !Array.isArray(value.keys) || !Array.isArray(value.unsupported) || typeof value.freshUntil !== 'number' || typeof value.fetchedAt !== 'number')
        return undefined
      return { ...value }
    } catch (error) {
      console.error('robots-edge: could not read a cached key directory', error)
      return undefined
    }
  }

  async function store(kv: DirectoryStore | undefined, origin: string, stored: Stored, now: number): Promise<void> {
    if (kv === undefined) return
    // Kept past its freshness, so an outage of the directory does not revoke
    // its keys at once (§"Discovery Failure": a failed fetch "MUST NOT evict a cached entry").
    const ttl = Math.ceil((stored.freshUntil - now) / 1000) + bounds.ceiling
    await kv.put(`${KEY_DIRECTORY_PREFIX}${directoryUrl(origin)}`, JSON.stringify(stored), { expirationTtl: Math.max(60, ttl) }).catch((error: unknown) => {
      console.error('robots-edge: could not cache a key directory', error)
    })
  }

  return {
    resolver: (kv, now = Date.now()) =>
      async function resolveKey(origin, keyId) {
        let entry = entries.get(origin) ?? (kv === undefined ? undefined : await readStored(kv, origin))
        // A copy past its freshness and its stale allowance is no copy.
        if (entry !== undefined && now >= entry.freshUntil + bounds.ceiling * 1000) entry = undefined
        const fresh = entry !== undefined && now < entry.freshUntil
        const missing = entry !== undefined && !entry.keys.some((k) => k.kid === keyId) && !entry.unsupported.includes(keyId)
        const rotated = fresh && missing && now - entry!.fetchedAt >= refetchAfterSeconds * 1000
        const retrying = entry?.retryAt !== undefined && now < entry.retryAt
        if (entry !== undefined && ((fresh && !rotated) || retrying)) {
          remember(entries, origin, entry)
          return answer(entry, origin, keyId)
        }
        const failed = failures.get(origin)
        if (entry === undefined && failed !== undefined && now < failed.until) return { status: 'failed', reason: failed.reason }
        const result = await fetchShared(origin, now)
        if (result.ok) {
          remember(entries, origin, result.stored)
          failures.delete(origin)
          await store(kv, origin, result.stored, now)
          return answer(result.stored, origin, keyId)
        }
        if (entry !== undefined) {
          // Serve the last good copy and try again later.
          remember(entries, origin, { ...entry, retryAt: now + failureSeconds * 1000 })
          return answer(entry, origin, keyId)
        }
        if (result.reason !== 'busy') remember(failures, origin, { reason: result.reason, until: now + failureSeconds * 1000 })
        return { status: 'failed', reason: result.reason }
      },
  }
}

/** Settles with `promise`, or rejects with a TimeoutError after `ms`, whichever comes first. */
function race<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error(`no answer within ${ms} ms`), { name: 'TimeoutError' })), ms)
  })
  return Promise.race([promise, deadline]).finally(() => {
    if (timer !== undefined) clearTimeout(timer)
  })
}
