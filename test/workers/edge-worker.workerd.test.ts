import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test'
import { afterEach, beforeEach, describe, expect, inject, it, vi, type MockInstance } from 'vitest'
import { createEdgeWorker, createWorker } from 'robots-edge'
import config from '../../robots.config.ts'

// createEdgeWorker, the template's edge Worker (src/workers/edge-worker.ts): robots.txt,
// the guard and the cron as createWorker, with /_robots/ handed unchanged to
// the admin Worker behind the ROBOTS_ADMIN service binding. Here the binding
// is a test double in `env` that keeps what it was sent; the staging project
// drives src/workers/edge-worker.ts through a real service binding, and test/e2e the two
// built Workers.

const UA = {
  gptbot: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)',
  browser: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
}

interface Forwarded {
  method: string
  url: string
  headers: Headers
  body: string
}

/** The admin Worker's stand-in: keeps each request it is sent, answers with a mark of its own. */
function adminDouble() {
  const seen: Forwarded[] = []
  const requests: Request[] = []
  const fetcher = {
    async fetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
      const request = new Request(input, init)
      requests.push(request)
      seen.push({ method: request.method, url: request.url, headers: request.headers, body: await request.text() })
      return new Response('from the admin Worker', { status: 299, headers: { 'X-Admin': 'double', 'Content-Type': 'text/plain' } })
    },
  }
  return { fetcher, seen, requests }
}

type Worker = ReturnType<typeof createEdgeWorker>

async function call(worker: Worker, request: Request, bindings: object): Promise<Response> {
  const ctx = createExecutionContext()
  const res = await worker.fetch!(request as Parameters<NonNullable<Worker['fetch']>>[0], bindings as never, ctx)
  await waitOnExecutionContext(ctx)
  return res
}

const get = (path: string, ua: string, init: RequestInit = {}) => new Request(`https://example.com${path}`, { ...init, headers: { 'User-Agent': ua, ...(init.headers ?? {}) } })

describe('createEdgeWorker(config)', () => {
  // The guard logs one JSON line per judged request, as on Cloudflare.
  let log: MockInstance<typeof console.log>
  beforeEach(() => void (log = vi.spyOn(console, 'log').mockImplementation(() => {})))
  afterEach(() => log.mockRestore())

  const edge = createEdgeWorker(config)
  const whole = createWorker(config)

  it('forwards /_robots, /_robots/ and the API to ROBOTS_ADMIN as they came: method, path, query, Authorization, body', async () => {
    const admin = adminDouble()
    const bindings = { ...env, ROBOTS_ADMIN: admin.fetcher }
    const cases = [
      get('/_robots', UA.browser),
      get('/_robots/', UA.browser, { headers: { Authorization: 'Basic dXNlcjpzZWNyZXQ=' } }),
      get('/_robots/api/report?since=-1d&agent=gptbot&source=d1', UA.browser, { headers: { Authorization: 'Bearer the-token' } }),
      get('/_robots/api/report.csv?host=example.com', UA.browser, { method: 'POST', body: 'a=1', headers: { Authorization: 'Bearer x' } }),
    ]
    for (const request of cases) {
      const res = await call(edge, request.clone(), bindings)
      // The admin Worker's answer, untouched.
      expect(res.status).toBe(299)
      expect(res.headers.get('x-admin')).toBe('double')
      expect(await res.text()).toBe('from the admin Worker')
      const sent = admin.seen.at(-1)!
      expect(sent.method).toBe(request.method)
      expect(sent.url).toBe(request.url)
      expect(sent.headers.get('authorization')).toBe(request.headers.get('authorization'))
      expect(sent.headers.get('user-agent')).toBe(UA.browser)
      expect(sent.body).toBe(request.method === 'POST' ? 'a=1' : '')
    }
    expect(admin.seen).toHaveLength(cases.length)
  })

  it('forwards /_robots/ for a crawler its group blocks: the report is never judged, as in createWorker', async () => {
    const admin = adminDouble()
    const res = await call(edge, get('/_robots/api/report', UA.gptbot), { ...env, ROBOTS_ADMIN: admin.fetcher })
    expect(res.status).toBe(299)
    expect(admin.seen.map((r) => new URL(r.url).pathname)).toEqual(['/_robots/api/report'])
  })

  it('serves robots.txt itself, byte for byte as createWorker does, without calling the admin Worker', async () => {
    const admin = adminDouble()
    const mine = await call(edge, get('/robots.txt', UA.gptbot), { ...env, ROBOTS_ADMIN: admin.fetcher })
    const theirs = await call(whole, get('/robots.txt', UA.gptbot), env)
    expect(mine.status).toBe(200)
    expect(await mine.text()).toBe(await theirs.text())
    expect(mine.headers.get('content-type')).toBe(theirs.headers.get('content-type'))
    expect(admin.seen).toHaveLength(0)
  })

  it('guards as createWorker does: a blocked crawler gets 403, a person passes, and neither reaches the admin Worker', async () => {
    const admin = adminDouble()
    // What passes goes to an origin that echoes what it receives (test/support/echo-origin.ts).
    const bindings = { ...env, ORIGIN: inject('echoOrigin'), ROBOTS_ADMIN: admin.fetcher }
    const refused = await call(edge, get('/articles/1', UA.gptbot), bindings)
    expect(refused.status).toBe(403)
    expect(refused.status).toBe((await call(whole, get('/articles/1', UA.gptbot), env)).status)
    const person = await call(edge, get('/articles/1', UA.browser), bindings)
    expect(person.status).toBe(200)
    expect(((await person.json()) as { url: string }).url).toBe('/articles/1')
    expect(admin.seen).toHaveLength(0)
  })

  it('leaves paths that only start like the report to the site: /_robotsx is not /_robots/', async () => {
    const admin = adminDouble()
    const res = await call(edge, get('/_robotsx/page', UA.gptbot), { ...env, ROBOTS_ADMIN: admin.fetcher })
    expect(res.status).toBe(403)
    expect(admin.seen).toHaveLength(0)
  })

  it('answers /_robots/ with a 503 saying what to add to wrangler.toml when ROBOTS_ADMIN is not bound', async () => {
    const { ROBOTS_ADMIN: _bound, ...unbound } = env as typeof env & { ROBOTS_ADMIN?: unknown }
    for (const path of ['/_robots', '/_robots/', '/_robots/api/report']) {
      const res = await call(edge, get(path, UA.browser, { headers: { Authorization: 'Bearer test-admin-token' } }), unbound)
      expect(res.status, path).toBe(503)
      expect(res.headers.get('cache-control')).toBe('no-store')
      expect(res.headers.get('content-type')).toMatch(/^application\/json/)
      const { error } = (await res.json()) as { error: string }
      expect(error).toContain('ROBOTS_ADMIN')
      expect(error).toContain('[[services]]')
      expect(error).toContain('service = "robots-edge-admin"')
    }
    // Everything else works without it.
    expect((await call(edge, get('/robots.txt', UA.browser), unbound)).status).toBe(200)
  })

  it('treats a ROBOTS_ADMIN that is not a service binding as missing', async () => {
    const res = await call(edge, get('/_robots/', UA.browser), { ...env, ROBOTS_ADMIN: 'robots-edge-admin' })
    expect(res.status).toBe(503)
  })

  // The cron's upkeep (IP lists, roll-ups, pruning) is the admin Worker's: the edge asks through the binding, and its bundle carries none of it.
  it('asks the admin Worker for the upkeep on its cron, through ROBOTS_ADMIN, at a path no client is forwarded to', async () => {
    const admin = adminDouble()
    const ctx = createExecutionContext()
    edge.scheduled!({ cron: '17 * * * *', scheduledTime: Date.now(), noRetry() {} } as ScheduledController, { ...env, ROBOTS_ADMIN: admin.fetcher } as never, ctx)
    await waitOnExecutionContext(ctx)
    expect(admin.seen.map(({ method, url }) => ({ method, path: new URL(url).pathname }))).toEqual([{ method: 'POST', path: '/__robots-edge/upkeep' }])
    // A client asking for that path through the edge is not forwarded: it goes to the site like any other path.
    const client = adminDouble()
    await call(edge, get('/__robots-edge/upkeep', UA.browser, { method: 'POST' }), { ...env, ORIGIN: inject('echoOrigin'), ROBOTS_ADMIN: client.fetcher })
    expect(client.seen).toEqual([])
  })

  it('says in one log line when there is no admin Worker to run the upkeep', async () => {
    const { ROBOTS_ADMIN: _bound, ...unbound } = env as typeof env & { ROBOTS_ADMIN?: unknown }
    const ctx = createExecutionContext()
    edge.scheduled!({ cron: '17 * * * *', scheduledTime: Date.now(), noRetry() {} } as ScheduledController, unbound as never, ctx)
    await waitOnExecutionContext(ctx)
    const lines = log.mock.calls.map((c) => String(c[0])).filter((l) => l.includes('"robotsEdge":"cron"'))
    expect(lines).toHaveLength(1)
    expect(JSON.parse(lines[0]!)).toMatchObject({ error: expect.stringContaining('no ROBOTS_ADMIN service binding'), retry: 'next run' })
  })
})
