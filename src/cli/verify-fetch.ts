import { MAX_FILE_BYTES } from '../core/robots/index.ts'

/** What a fetch needs: `fetch` itself, injectable for tests. */
export type Fetch = (input: string, init: RequestInit) => Promise<Response>

export interface HttpOptions {
  readonly fetch?: Fetch | undefined
  /** Per request. Default: 10 s. */
  readonly timeoutMs?: number | undefined
}

export const DEFAULT_TIMEOUT_MS = 10_000

/** RFC 9309 §2.3.1.2: crawlers SHOULD follow at least five consecutive redirects. */
export const MAX_REDIRECTS = 5

/** The server could not be asked at all: no connection, no answer in time. */
export class Unreachable extends Error {
  override name = 'Unreachable'
}

export interface FetchedRobotsTxt {
  /** The URL asked first: the origin's /robots.txt. */
  readonly url: string
  /** The URL that answered last. */
  readonly finalUrl: string
  /** Each redirect followed: its status and where it led. */
  readonly redirects: readonly { readonly status: number; readonly location: string }[]
  /** The last status (a redirect's, when there were too many). */
  readonly status: number
  /** More than MAX_REDIRECTS redirects: crawlers may treat the file as unavailable (RFC 9309 §2.3.1.2). */
  readonly tooManyRedirects: boolean
  /** The body decoded as UTF-8 (a byte-order mark kept), at most the first 500 KiB; null when not a success. */
  readonly text: string | null
  /** The body is longer than 500 KiB: crawlers may ignore the rest (RFC 9309 §2.5). */
  readonly truncated: boolean
  readonly etag: string | null
}

/** Why a fetch failed, in words: undici puts the system error's code in `cause`. */
function reason(error: unknown, timeoutMs: number): string {
  const e = error as { name?: string; message?: string; cause?: { code?: string; message?: string } }
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return `no answer within ${timeoutMs / 1000} s`
  const code = e?.cause?.code
  const described: Record<string, string> = { ECONNREFUSED: 'connection refused', ENOTFOUND: 'no such host', EAI_AGAIN: 'the host name could not be resolved', ECONNRESET: 'connection reset' }
  if (code !== undefined) return `${described[code] ?? e.cause?.message ?? code} (${code})`
  return e?.cause?.message ?? e?.message ?? String(error)
}

/** One request, with a timeout; Unreachable when there is no answer. */
export async function request(url: string, init: RequestInit, options: HttpOptions): Promise<Response> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
  try {
    return await (options.fetch ?? fetch)(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) })
  } catch (error) {
    throw new Unreachable(`could not reach ${url}: ${reason(error, timeoutMs)}`)
  }
}

/**
 * The first `maxBytes` of a body, and whether there was more; the rest is
 * never read. A body that stops arriving ends with the request's timeout:
 * Unreachable, as for no answer at all.
 */
export async function readPrefix(response: Response, maxBytes: number, url: string, timeoutMs: number = DEFAULT_TIMEOUT_MS): Promise<{ bytes: Uint8Array; truncated: boolean }> {
  try {
    return await readUpTo(response, maxBytes)
  } catch (error) {
    throw new Unreachable(`the body of ${url} did not arrive: ${reason(error, timeoutMs)}`)
  }
}

async function readUpTo(response: Response, maxBytes: number): Promise<{ bytes: Uint8Array; truncated: boolean }> {
  const out = new Uint8Array(maxBytes)
  let size = 0
  if (response.body === null) return { bytes: out.subarray(0, 0), truncated: false }
  const reader = response.body.getReader()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return { bytes: out.subarray(0, size), truncated: false }
    const room = maxBytes - size
    out.set(value.subarray(0, room), size)
    size += Math.min(room, value.byteLength)
    if (value.byteLength > room) {
      await reader.cancel().catch(() => undefined)
      return { bytes: out, truncated: true }
    }
  }
}

const REDIRECT = new Set([301, 302, 303, 307, 308])

/**
 * Fetches `<origin>/robots.txt` as a crawler does: redirects followed up to
 * five (RFC 9309 §2.3.1.2, across hosts too), the body read up to the 500
 * KiB crawlers must parse (§2.5) and no further, each request bounded in
 * time. Throws Unreachable when no server answers.
 */
export async function fetchRobotsTxt(origin: string, userAgent: string, options: HttpOptions = {}): Promise<FetchedRobotsTxt> {
  const first = new URL('/robots.txt', origin).href
  const redirects: { status: number; location: string }[] = []
  let url = first
  for (;;) {
    const response = await request(url, { headers: { 'User-Agent': userAgent, Accept: 'text/plain, */*' } }, options)
    const location = response.headers.get('location')
    if (REDIRECT.has(response.status) && location !== null) {
      await response.body?.cancel().catch(() => undefined)
      let next: URL
      try {
        next = new URL(location, url)
      } catch {
        throw new Unreachable(`${url} redirects to "${location}", which is no URL`)
      }
      if (redirects.length === MAX_REDIRECTS) {
        return { url: first, finalUrl: url, redirects, status: response.status, tooManyRedirects: true, text: null, truncated: false, etag: null }
      }
      if (next.protocol !== 'https:' && next.protocol !== 'http:') throw new Unreachable(`${url} redirects to ${next.href}, which is not http(s)`)
      redirects.push({ status: response.status, location: next.href })
      url = next.href
      continue
    }
    const base = { url: first, finalUrl: url, redirects, status: response.status, tooManyRedirects: false, etag: response.headers.get('etag') }
    if (response.status < 200 || response.status > 299) {
      await response.body?.cancel().catch(() => undefined)
      return { ...base, text: null, truncated: false }
    }
    const { bytes, truncated } = await readPrefix(response, MAX_FILE_BYTES, url, options.timeoutMs)
    // The byte-order mark kept, so the text compares byte for byte; the parser skips it.
    return { ...base, text: new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes), truncated }
  }
}
