import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createApp } from '../../src/app.ts'

// Requests that pass go to the site: to ORIGIN when set, else on a
// Cloudflare route to the zone's origin with fetch(request).

const app = createApp({ rules: [{ userAgent: '*', disallow: '/private/' }] })

async function send(url: string, origin: string, init: RequestInit = {}) {
  const forwarded: Request[] = []
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, options) => {
    forwarded.push(new Request(input as RequestInfo, options))
    return new Response('from the origin')
  })
  const ctx = createExecutionContext()
  const res = await app.fetch(new Request(url, init), { ...env, ORIGIN: origin }, ctx)
  await waitOnExecutionContext(ctx)
  return { res, forwarded }
}

afterEach(() => {
  vi.restoreAllMocks()
})

describe('pass-through', () => {
  it('sends path and query to ORIGIN, with the loop-guard header', async () => {
    const { res, forwarded } = await send('https://site.example/a/b?x=1', 'https://origin.example')
    expect(await res.text()).toBe('from the origin')
    expect(forwarded.map((r) => r.url)).toEqual(['https://origin.example/a/b?x=1'])
    expect(forwarded[0]!.headers.get('x-robots-edge-hop')).toBe('1')
  })

  it('keeps a path that starts with // on ORIGIN (never another host: no open proxy)', async () => {
    const { forwarded } = await send('https://site.example//evil.example/steal?x=1', 'https://origin.example', { headers: { Cookie: 'session=secret' } })
    expect(forwarded).toHaveLength(1)
    expect(new URL(forwarded[0]!.url).host).toBe('origin.example')
    expect(new URL(forwarded[0]!.url).pathname).toBe('//evil.example/steal')
  })

  it('answers a misconfigured ORIGIN with 502, not 500', async () => {
    const { res, forwarded } = await send('https://site.example/a', 'origin.example.com')
    expect(res.status).toBe(502)
    expect(forwarded).toEqual([])
  })

  it('without ORIGIN, on a route, fetches the request itself from the zone', async () => {
    const { res, forwarded } = await send('https://site.example/page?q=1', '')
    expect(res.status).toBe(200)
    expect(forwarded.map((r) => r.url)).toEqual(['https://site.example/page?q=1'])
  })

  it('answers an unreachable origin with 502', async () => {
    vi.spyOn(globalThis, 'fetch').mockRejectedValue(new Error('connect ECONNREFUSED'))
    const ctx = createExecutionContext()
    const res = await app.fetch(new Request('https://site.example/a'), { ...env, ORIGIN: 'https://origin.example' }, ctx)
    expect(res.status).toBe(502)
  })
})
