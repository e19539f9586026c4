import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test'
import { afterEach, describe, expect, inject, it, vi } from 'vitest'
import { createApp } from '../../src/package/app.ts'
import type { RobotsConfig } from '../../src/core/config/index.ts'

// Requests that pass go to the site: to ORIGIN when set, else on a
// Cloudflare route to the zone's origin with fetch(request). The origin here
// is a real HTTP server in Node that echoes what it received
// (test/support/echo-origin.ts), so what these tests see crossed a connection.

const ECHO = inject('echoOrigin')
const CONFIG: RobotsConfig = { rules: [{ userAgent: '*', disallow: '/private/' }] }
const app = createApp(CONFIG)

interface Echo {
  method: string
  url: string
  headers: Record<string, string>
  fields: [string, string][]
  body: string
}

async function send(url: string, origin: string, init: RequestInit = {}, bindings: Partial<Env> = {}, through = app) {
  const ctx = createExecutionContext()
  const res = await through.fetch(new Request(url, init), { ...env, ORIGIN: origin, ...bindings }, ctx)
  await waitOnExecutionContext(ctx)
  return res
}

/** Sends through the Worker to the echo origin; returns what the origin received. */
async function echoed(path: string, init: RequestInit = {}, bindings: Partial<Env> = {}, through = app): Promise<{ status: number; echo: Echo }> {
  const res = await send(`https://site.example${path}`, ECHO, init, bindings, through)
  expect(res.status, await res.clone().text()).toBe(200)
  return { status: res.status, echo: (await res.json()) as Echo }
}

describe('pass-through (mocked fetch)', () => {
  afterEach(() => {
    vi.restoreAllMocks()
  })

  function capture() {
    const forwarded: Request[] = []
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, options) => {
      forwarded.push(new Request(input as RequestInfo, options))
      return new Response('from the origin')
    })
    return forwarded
  }

  it('sends path and query to ORIGIN', async () => {
    const forwarded = capture()
    const res = await send('https://site.example/a/b?x=1', 'https://origin.example')
    expect(await res.text()).toBe('from the origin')
    expect(forwarded.map((r) => r.url)).toEqual(['https://origin.example/a/b?x=1'])
  })

  it('keeps a path that starts with // on ORIGIN (never another host: no open proxy)', async () => {
    const forwarded = capture()
    await send('https://site.example//evil.example/steal?x=1', 'https://origin.example', { headers: { Cookie: 'session=secret' } })
    expect(forwarded).toHaveLength(1)
    expect(new URL(forwarded[0]!.url).host).toBe('origin.example')
    expect(new URL(forwarded[0]!.url).pathname).toBe('//evil.example/steal')
  })

  it('answers a misconfigured ORIGIN with 502, not 500', async () => {
    const forwarded = capture()
    const res = await send('https://site.example/a', 'origin.example.com')
    expect(res.status).toBe(502)
    expect(forwarded).toEqual([])
  })

  it('without ORIGIN, on a route, fetches the request itself from the zone', async () => {
    const forwarded = capture()
    const res = await send('https://site.example/page?q=1', '')
    expect(res.status).toBe(200)
    expect(forwarded.map((r) => r.url)).toEqual(['https://site.example/page?q=1'])
  })

  it('answers an unreachable origin with 502', async () => {
    vi.spyOn(globalThis, 'fetch').mockRejectedValue(new Error('connect ECONNREFUSED'))
    const res = await send('https://site.example/a', 'https://origin.example')
    expect(res.status).toBe(502)
  })
})

describe('hop-by-hop headers never reach the origin (RFC 9110 §7.6.1)', () => {
  it('drops Connection and every header it names, Keep-Alive, Proxy-*, TE, Trailer, Upgrade and Expect', async () => {
    const { echo } = await echoed('/page', {
      headers: {
        Connection: 'keep-alive, X-Internal-Token, x-Second',
        'X-Internal-Token': 'secret',
        'X-Second': '2',
        'Keep-Alive': 'timeout=5',
        'Proxy-Connection': 'keep-alive',
        'Proxy-Authorization': 'Basic dXNlcjpwYXNz',
        TE: 'trailers',
        Trailer: 'X-Checksum',
        Upgrade: 'h2c',
        Expect: '100-continue',
        Cookie: 'session=abc',
        Accept: 'text/html',
      },
    })
    for (const name of ['connection', 'x-internal-token', 'x-second', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'te', 'trailer', 'upgrade', 'expect']) {
      expect(echo.headers, name).not.toHaveProperty(name)
    }
    // End-to-end headers go on untouched.
    expect(echo.headers.cookie).toBe('session=abc')
    expect(echo.headers.accept).toBe('text/html')
  })

  it("a POST with Expect: 100-continue gets the origin's answer, body and all", async () => {
    const { echo } = await echoed('/form', { method: 'POST', body: 'name=robots', headers: { Expect: '100-continue', 'Content-Type': 'application/x-www-form-urlencoded' } })
    expect(echo).toMatchObject({ method: 'POST', url: '/form', body: 'name=robots' })
    expect(echo.headers).not.toHaveProperty('expect')
  }, 15_000)

  it('a WebSocket upgrade to an origin that does not speak it is answered, never a 5xx', async () => {
    const res = await send(`https://site.example/socket`, ECHO, {
      headers: { Upgrade: 'websocket', Connection: 'Upgrade', 'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==', 'Sec-WebSocket-Version': '13' },
    })
    expect(res.status).toBeLessThan(500)
  })
})

describe('the loop marker', () => {
  it("a client-sent marker is replaced by the Worker's own, never answered with 508", async () => {
    for (const forged of ['1', 'true', '0'.repeat(64), 'x'.repeat(10_000)]) {
      const { echo } = await echoed('/page', { headers: { 'X-Robots-Edge-Hop': forged } })
      expect(echo.headers['x-robots-edge-hop']).not.toBe(forged)
      expect(echo.headers['x-robots-edge-hop']).toMatch(/^[0-9a-f]{64}$/)
    }
  })

  it('a request that comes back with the real marker is stopped with 508, in any isolate of the deployment', async () => {
    const { echo } = await echoed('/page')
    const marker = echo.headers['x-robots-edge-hop']!
    // A second app stands for another isolate: the marker derives from IP_HASH_SALT, a per-deployment secret.
    const other = createApp(CONFIG)
    const looped = await send('https://site.example/page', ECHO, { headers: { 'X-Robots-Edge-Hop': marker } }, {}, other)
    expect(looped.status).toBe(508)
    // Another deployment (another salt) does not recognise it.
    const elsewhere = await send('https://site.example/page', ECHO, { headers: { 'X-Robots-Edge-Hop': marker } }, { IP_HASH_SALT: 'another-deployment' })
    expect(elsewhere.status).toBe(200)
  })

  it('without IP_HASH_SALT, a random token per isolate still stops a loop into the same isolate', async () => {
    const { echo } = await echoed('/page', {}, { IP_HASH_SALT: undefined })
    const marker = echo.headers['x-robots-edge-hop']!
    expect(marker).toMatch(/^[0-9a-f-]{36}$/)
    expect((await send('https://site.example/page', ECHO, { headers: { 'X-Robots-Edge-Hop': marker } }, { IP_HASH_SALT: undefined })).status).toBe(508)
    expect((await send('https://site.example/page', ECHO, { headers: { 'X-Robots-Edge-Hop': '1' } }, { IP_HASH_SALT: undefined })).status).toBe(200)
  })
})

describe('forwarding headers', () => {
  const forged = {
    'X-Forwarded-For': '6.6.6.6',
    'X-Forwarded-Host': 'evil.example',
    'X-Forwarded-Proto': 'http',
    'X-Forwarded-Port': '8443',
    'X-Forwarded-Prefix': '/admin',
    Forwarded: 'for=6.6.6.6;host=evil.example;proto=http',
    'X-Real-IP': '6.6.6.6',
    'X-Original-URL': '/private/secret',
    'X-Rewrite-URL': '/private/secret',
    'CF-Connecting-IP': '203.0.113.7',
  }
  // Every other field an origin or framework may read as the client's address, forged.
  const forgedAddresses = Object.fromEntries(
    [
      'True-Client-IP',
      'X-Cluster-Client-IP',
      'X-Client-IP',
      'Client-IP',
      'Fastly-Client-IP',
      'X-Original-Forwarded-For',
      'X-Forwarded',
      'Forwarded-For',
      'X-ProxyUser-Ip',
      'X-Envoy-External-Address',
      'X-AppEngine-User-IP',
      'AppEngine-User-IP',
      'Fly-Client-IP',
      'X-Remote-IP',
      'X-Remote-Addr',
      'X-Originating-IP',
      'CF-Connecting-IPv6',
      'CF-Pseudo-IPv4',
    ].map((name) => [name, '6.6.6.6']),
  )

  it("by default, the client's copies are replaced by what the Worker knows", async () => {
    const { echo } = await echoed('/page?q=1', { headers: forged })
    expect(echo.headers).toMatchObject({
      'x-forwarded-for': '203.0.113.7',
      'x-real-ip': '203.0.113.7',
      'x-forwarded-host': 'site.example',
      'x-forwarded-proto': 'https',
      forwarded: 'for=203.0.113.7;host="site.example";proto=https',
    })
    for (const name of ['x-forwarded-port', 'x-forwarded-prefix', 'x-original-url', 'x-rewrite-url']) expect(echo.headers, name).not.toHaveProperty(name)
    expect(echo.url).toBe('/page?q=1')
  })

  it('by default, no client-address field the client sent reaches the origin: each is dropped, or set from CF-Connecting-IP', async () => {
    const { echo } = await echoed('/page', { headers: { ...forged, ...forgedAddresses } })
    expect(echo.headers['true-client-ip']).toBe('203.0.113.7')
    const leaked = echo.fields.filter(([, value]) => value.includes('6.6.6.6'))
    expect(leaked).toEqual([])
    for (const name of Object.keys(forgedAddresses)) if (name !== 'True-Client-IP') expect(echo.headers, name).not.toHaveProperty(name.toLowerCase())
  })

  it('quotes an IPv6 client in Forwarded (RFC 7239 §6)', async () => {
    const { echo } = await echoed('/page', { headers: { 'CF-Connecting-IP': '2001:db8::7' } })
    expect(echo.headers.forwarded).toBe('for="[2001:db8::7]";host="site.example";proto=https')
  })

  it('never writes a client address that is not an address', async () => {
    const { echo } = await echoed('/page', { headers: { 'CF-Connecting-IP': '1.2.3.4", for=evil' } })
    expect(echo.headers).not.toHaveProperty('x-forwarded-for')
    expect(echo.headers).not.toHaveProperty('true-client-ip')
    expect(echo.headers.forwarded).toBe('host="site.example";proto=https')
  })

  it("forwardedHeaders: 'pass' forwards them as the client sent them", async () => {
    const passing = createApp({ ...CONFIG, forwardedHeaders: 'pass' })
    const { echo } = await echoed('/page', { headers: forged }, {}, passing)
    expect(echo.headers).toMatchObject({ 'x-forwarded-host': 'evil.example', 'x-original-url': '/private/secret', forwarded: 'for=6.6.6.6;host=evil.example;proto=http' })
    const passed = (await echoed('/page', { headers: forgedAddresses }, {}, passing)).echo
    expect(passed.headers).toMatchObject({ 'true-client-ip': '6.6.6.6', 'x-cluster-client-ip': '6.6.6.6' })
  })
})
