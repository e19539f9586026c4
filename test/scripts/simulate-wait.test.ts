import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { adminToken, waitForRanges } from '../../dev/ip-ranges.ts'

// `npm run simulate` never depends on when the Worker first saw a crawler:
// after seeding the ranges it waits until the Worker's
// coverage route says they are loaded.

const LIST = 'https://developers.google.com/static/crawling/ipranges/common-crawlers.json'

function worker(loadedAfter: number) {
  let calls = 0
  const auth: string[] = []
  const fetchFn = (async (_url: string | URL | Request, init?: RequestInit) => {
    calls++
    auth.push(new Headers(init?.headers).get('authorization') ?? '')
    return Response.json({ operators: [{ lists: [{ url: LIST, loaded: calls > loadedAfter }] }] })
  }) as typeof fetch
  return { fetchFn, calls: () => calls, auth }
}

describe('waitForRanges', () => {
  it('polls the coverage route with the admin token until the seeded lists are loaded', async () => {
    const w = worker(2)
    expect(await waitForRanges('http://localhost:8787', 'secret', [LIST], { fetch: w.fetchFn, timeoutMs: 10_000 })).toBe(true)
    expect(w.calls()).toBe(3)
    expect(w.auth.every((a) => a === 'Bearer secret')).toBe(true)
  }, 15_000)

  it('gives up at once on a refused token, and after its deadline otherwise', async () => {
    const refused = (async () => new Response('{}', { status: 401 })) as typeof fetch
    expect(await waitForRanges('http://localhost:8787', 'wrong', [LIST], { fetch: refused, timeoutMs: 10_000 })).toBe(false)
    const never = worker(Number.POSITIVE_INFINITY)
    expect(await waitForRanges('http://localhost:8787', 'secret', [LIST], { fetch: never.fetchFn, timeoutMs: 0 })).toBe(false)
    expect(never.calls()).toBe(1)
  })
})

describe('adminToken', () => {
  it('reads ROBOTS_ADMIN_TOKEN from .dev.vars', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'robots-edge-token-'))
    try {
      await writeFile(join(dir, '.dev.vars'), '# local\nIP_HASH_SALT=x\nROBOTS_ADMIN_TOKEN=abc123\n')
      const saved = process.env.ROBOTS_ADMIN_TOKEN
      delete process.env.ROBOTS_ADMIN_TOKEN
      try {
        expect(await adminToken(pathToFileURL(`${dir}/`))).toBe('abc123')
        expect(await adminToken(pathToFileURL(`${dir}/missing/`))).toBeUndefined()
      } finally {
        if (saved !== undefined) process.env.ROBOTS_ADMIN_TOKEN = saved
      }
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
