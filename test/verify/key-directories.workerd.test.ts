import { env } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import { createKeyDirectories, KEY_DIRECTORY_PREFIX, type DirectoryStore } from '../../src/verify/store/key-directories.ts'
import { createSigner, DIRECTORY, fakeFetch, type TestSigner } from '../support/web-bot-auth-signer.ts'

// The directory cache in workerd, with the real KV binding: per isolate,
// in KV across isolates (a second createKeyDirectories stands for another
// isolate), the response's Cache-Control, brief negative caching, and the
// fetch budget. Time is injected, so no test waits.

const ORIGIN = 'https://signer.example'
const T0 = Date.UTC(2026, 9, 1)
const MINUTE = 60_000

let signer: TestSigner
let rotated: TestSigner
beforeAll(async () => {
  signer = await createSigner()
  rotated = await createSigner()
})

const served =
  (body: () => string, headers: Record<string, string> = { 'cache-control': 'max-age=3600' }) =>
  () =>
    new Response(body(), { headers })

async function clearKv(): Promise<void> {
  const { keys } = await env.ROBOTS_KV.list({ prefix: KEY_DIRECTORY_PREFIX })
  await Promise.all(keys.map((k) => env.ROBOTS_KV.delete(k.name)))
}

describe('caching a directory', () => {
  it('fetches once, then answers from the isolate, and from KV in another isolate', async () => {
    await clearKv()
    const { fetch, calls } = fakeFetch({ [DIRECTORY]: served(() => signer.directory()) })
    const first = createKeyDirectories({ fetch })
    expect((await first.resolver(env.ROBOTS_KV, T0)(ORIGIN, signer.keyId)).status).toBe('found')
    expect((await first.resolver(undefined, T0 + MINUTE)(ORIGIN, signer.keyId)).status).toBe('found')
    expect(calls).toHaveLength(1)

    // Stored under the directory URL, holding the key by its id.
    const stored = await env.ROBOTS_KV.get<{ keys: { kid: string }[]; freshUntil: number }>(`${KEY_DIRECTORY_PREFIX}${DIRECTORY}`, 'json')
    expect(stored?.keys.map((k) => k.kid)).toEqual([signer.keyId])
    expect(stored?.freshUntil).toBe(T0 + 3600_000)

    const other = createKeyDirectories({ fetch })
    const found = await other.resolver(env.ROBOTS_KV, T0 + MINUTE)(ORIGIN, signer.keyId)
    expect(found.status).toBe('found')
    expect(calls).toHaveLength(1)
  })

  it("refetches when the response's max-age runs out, not before", async () => {
    await clearKv()
    const { fetch, calls } = fakeFetch({ [DIRECTORY]: served(() => signer.directory(), { 'cache-control': 'max-age=600' }) })
    const directories = createKeyDirectories({ fetch })
    await directories.resolver(env.ROBOTS_KV, T0)(ORIGIN, signer.keyId)
    await directories.resolver(env.ROBOTS_KV, T0 + 9 * MINUTE)(ORIGIN, signer.keyId)
    expect(calls).toHaveLength(1)
    await directories.resolver(env.ROBOTS_KV, T0 + 11 * MINUTE)(ORIGIN, signer.keyId)
    expect(calls).toHaveLength(2)
  })

  it('holds a no-store directory for the floor, so clients cannot make it fetch on every request', async () => {
    await clearKv()
    const { fetch, calls } = fakeFetch({ [DIRECTORY]: served(() => signer.directory(), { 'cache-control': 'no-store' }) })
    const directories = createKeyDirectories({ fetch })
    for (let i = 0; i < 10; i++) await directories.resolver(env.ROBOTS_KV, T0 + i * 1000)(ORIGIN, signer.keyId)
    expect(calls).toHaveLength(1)
    await directories.resolver(env.ROBOTS_KV, T0 + 6 * MINUTE)(ORIGIN, signer.keyId)
    expect(calls).toHaveLength(2)
  })

  it('picks up a rotated key: an unknown key id refetches a copy older than five minutes, once', async () => {
    await clearKv()
    let body = signer.directory()
    const { fetch, calls } = fakeFetch({ [DIRECTORY]: served(() => body) })
    const directories = createKeyDirectories({ fetch })
    await directories.resolver(env.ROBOTS_KV, T0)(ORIGIN, signer.keyId)
    // Too recent a copy: the key is absent, nothing refetched.
    expect(await directories.resolver(env.ROBOTS_KV, T0 + MINUTE)(ORIGIN, rotated.keyId)).toEqual({ status: 'absent' })
    expect(calls).toHaveLength(1)
    body = rotated.directory([signer.publicJwk])
    expect((await directories.resolver(env.ROBOTS_KV, T0 + 6 * MINUTE)(ORIGIN, rotated.keyId)).status).toBe('found')
    expect(calls).toHaveLength(2)
  })
})

describe('failures', () => {
  it('remembers a failed fetch for a minute, then tries again', async () => {
    await clearKv()
    let up = false
    const { fetch, calls } = fakeFetch({ [DIRECTORY]: () => (up ? new Response(signer.directory()) : new Response('down', { status: 503 })) })
    const directories = createKeyDirectories({ fetch })
    expect(await directories.resolver(env.ROBOTS_KV, T0)(ORIGIN, signer.keyId)).toEqual({ status: 'failed', reason: 'http-status' })
    up = true
    expect(await directories.resolver(env.ROBOTS_KV, T0 + 30_000)(ORIGIN, signer.keyId)).toEqual({ status: 'failed', reason: 'http-status' })
    expect(calls).toHaveLength(1)
    expect((await directories.resolver(env.ROBOTS_KV, T0 + 61_000)(ORIGIN, signer.keyId)).status).toBe('found')
    expect(calls).toHaveLength(2)
  })

  it('keeps the last good copy when a refresh fails (an outage revokes no key)', async () => {
    await clearKv()
    let up = true
    const { fetch, calls } = fakeFetch({ [DIRECTORY]: () => (up ? new Response(signer.directory(), { headers: { 'cache-control': 'max-age=300' } }) : new Response('down', { status: 500 })) })
    const directories = createKeyDirectories({ fetch })
    await directories.resolver(env.ROBOTS_KV, T0)(ORIGIN, signer.keyId)
    up = false
    expect((await directories.resolver(env.ROBOTS_KV, T0 + 10 * MINUTE)(ORIGIN, signer.keyId)).status).toBe('found')
    expect((await directories.resolver(env.ROBOTS_KV, T0 + 10 * MINUTE + 1000)(ORIGIN, signer.keyId)).status).toBe('found')
    expect(calls).toHaveLength(2)
    // Another isolate, KV only: the stale copy serves there too.
    expect((await createKeyDirectories({ fetch }).resolver(env.ROBOTS_KV, T0 + 20 * MINUTE)(ORIGIN, signer.keyId)).status).toBe('found')
  })

  it('caps directory fetches per isolate, so random origins cannot make it fetch without end', async () => {
    const { fetch, calls } = fakeFetch({})
    const directories = createKeyDirectories({ fetch, fetchesPerMinute: 5 })
    const results = []
    for (let i = 0; i < 8; i++) results.push(await directories.resolver(undefined, T0)(`https://s${i}.example`, 'k'))
    expect(calls).toHaveLength(5)
    expect(results.slice(5)).toEqual(Array(3).fill({ status: 'failed', reason: 'busy' }))
    expect((await directories.resolver(undefined, T0 + MINUTE)('https://s9.example', 'k')).status).toBe('failed')
    expect(calls).toHaveLength(6)
  })

  it('shares one fetch between concurrent lookups of a directory', async () => {
    let release!: () => void
    const gate = new Promise<void>((r) => (release = r))
    const { fetch, calls } = fakeFetch({ [DIRECTORY]: async () => (await gate, new Response(signer.directory())) })
    const resolve = createKeyDirectories({ fetch }).resolver(undefined, T0)
    const lookups = Promise.all([resolve(ORIGIN, signer.keyId), resolve(ORIGIN, signer.keyId), resolve(ORIGIN, rotated.keyId)])
    release()
    expect((await lookups).map((l) => l.status)).toEqual(['found', 'found', 'absent'])
    expect(calls).toHaveLength(1)
  })

  it('survives a KV namespace that throws', async () => {
    const broken = { get: async () => Promise.reject<unknown>(new Error('KV down')), put: async () => Promise.reject<void>(new Error('KV down')) } satisfies DirectoryStore
    const { fetch } = fakeFetch({ [DIRECTORY]: served(() => signer.directory()) })
    const errors: unknown[] = []
    const original = console.error
    console.error = (...args: unknown[]) => void errors.push(args)
    try {
      expect((await createKeyDirectories({ fetch }).resolver(broken, T0)(ORIGIN, signer.keyId)).status).toBe('found')
    } finally {
      console.error = original
    }
    expect(errors).toHaveLength(2)
  })
})
