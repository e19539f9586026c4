import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test'
import { Hono } from 'hono'
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest'
import { withRobotsEdge, type JudgedRequest } from 'robots-edge'
import { botGuard, createPolicies, robotsEdge, robotsTxt } from 'robots-edge/hono'
import { compileRobotsTxt } from 'robots-edge/engine'
import { identifyAgent } from 'robots-edge/bots'

// The package's forms, through its entry points as a consumer imports them
// (in this repository `robots-edge` resolves to the source): withRobotsEdge
// around a module Worker, robotsEdge() in front of a Hono app's own routes,
// and the parts. test/package runs the same from the packed tarball.

const UA = {
  gptbot: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)',
  googlebot: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  browser: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
}

const config = {
  rules: [
    { userAgent: '*', disallow: '/private/' },
    { userAgent: 'GPTBot', disallow: '/', guard: 'block' as const },
  ],
  sitemap: 'https://shop.example/sitemap.xml',
}

interface Fetchable {
  fetch(request: Request, env: never, ctx: ExecutionContext): Response | Promise<Response>
}

async function call(worker: Fetchable | { fetch?: unknown }, path: string, ua: string, bindings: object = env, init: RequestInit = {}): Promise<Response> {
  const ctx = createExecutionContext()
  const request = new Request(`https://shop.example${path}`, { ...init, headers: { 'User-Agent': ua, ...(init.headers ?? {}) } })
  const res = await (worker as Fetchable).fetch(request, bindings as never, ctx)
  await waitOnExecutionContext(ctx)
  return res
}

describe('withRobotsEdge(config, handler)', () => {
  // Its guard and cron log to the console, as on Cloudflare: kept, and asserted where it matters.
  let console_: MockInstance<typeof console.log>
  beforeEach(() => void (console_ = vi.spyOn(console, 'log').mockImplementation(() => {})))
  afterEach(() => console_.mockRestore())
  const logged = () => console_.mock.calls.map(([line]) => String(line))

  function shop() {
    const seen: Request[] = []
    const crons: number[] = []
    const handler = {
      greeting: 'shop',
      async fetch(request: Request) {
        seen.push(request)
        // `this` is the handler itself, as when the runtime calls it.
        return new Response(`${this.greeting}: ${new URL(request.url).pathname}`, { headers: { 'X-Shop': '1' } })
      },
      async scheduled(controller: ScheduledController) {
        crons.push(controller.scheduledTime)
      },
      async queue() {},
    } satisfies ExportedHandler<Env> & { greeting: string }
    return { handler, seen, crons, worker: withRobotsEdge(config, handler) }
  }

  it('serves /robots.txt from the config and never calls the handler for it', async () => {
    const { worker, seen } = shop()
    const res = await call(worker, '/robots.txt', UA.googlebot)
    expect(await res.text()).toContain('Sitemap: https://shop.example/sitemap.xml')
    expect(seen).toHaveLength(0)
  })

  it('refuses a blocked crawler before the handler, and hands everyone else the original request', async () => {
    const { worker, seen } = shop()
    expect((await call(worker, '/cart', UA.gptbot)).status).toBe(403)
    expect(seen).toHaveLength(0)
    expect(logged().map((line) => JSON.parse(line))).toMatchObject([{ robotsEdge: 'judged', agent: 'gptbot', action: 'block', path: '/cart' }])
    const res = await call(worker, '/cart?id=7', UA.browser, env, { method: 'POST', body: 'qty=2', headers: { 'Content-Type': 'text/plain' } })
    expect(await res.text()).toBe('shop: /cart')
    expect(res.headers.get('x-shop')).toBe('1')
    expect(seen[0]!.method).toBe('POST')
    expect(seen[0]!.url).toBe('https://shop.example/cart?id=7')
    expect(await seen[0]!.text()).toBe('qty=2')
    expect((await call(worker, '/private/x', UA.googlebot)).status).toBe(200)
  })

  it("keeps the handler's own members and runs its scheduled beside robots-edge's cron", async () => {
    const { worker, crons, handler } = shop()
    expect(worker.queue).toBe(handler.queue)
    const ctx = createExecutionContext()
    // Without ROBOTS_KV the cron fetches no IP ranges (tests never reach the internet); it prunes the ledger.
    await worker.scheduled!({ cron: '17 * * * *', scheduledTime: 1_800_000_000_000, noRetry() {} }, { DB: env.DB } as never, ctx)
    await waitOnExecutionContext(ctx)
    expect(crons).toEqual([1_800_000_000_000])
    expect(JSON.parse(logged().at(-1)!)).toMatchObject({ robotsEdge: 'cron', ipRanges: 'Error: no ROBOTS_KV binding', prune: { expired: 0 } })
  })

  it('answers 404 where the handler has no fetch, and refuses what is not a handler', async () => {
    const worker = withRobotsEdge(config, { scheduled() {} })
    expect((await call(worker, '/x', UA.browser)).status).toBe(404)
    expect(() => withRobotsEdge(config, null as never)).toThrow(/module Worker's handler/)
  })

  it('throws a bad config at construction, never on a request', () => {
    expect(() => withRobotsEdge({ rules: [{ userAgent: 'Brightbot 1.0', disallow: '/' }] }, { fetch: () => new Response() })).toThrow(/rules\[0\]\.userAgent/)
  })
})

describe('robotsEdge(config, options?) in a Hono app', () => {
  function app(options: Parameters<typeof robotsEdge>[1] = {}) {
    const edge = robotsEdge(config, { log: () => {}, ...options })
    const hono = new Hono()
    hono.use(edge)
    hono.get('/', (c) => c.text('home'))
    hono.get('/articles/:id', (c) => c.text(`article for ${c.get('robotsVerdict')?.identity.tokens[0] ?? 'a person'}`))
    return { edge, hono }
  }

  it("goes on to the app's own routes, with the verdict, and leaves unknown paths to the app (no catch-all)", async () => {
    const { hono } = app()
    expect(await (await call(hono, '/articles/1', UA.googlebot)).text()).toBe('article for googlebot')
    expect(await (await call(hono, '/articles/1', UA.browser)).text()).toBe('article for a person')
    const missing = await call(hono, '/nowhere', UA.browser)
    expect(missing.status).toBe(404)
    expect(await missing.text()).toBe('404 Not Found')
    expect((await call(hono, '/articles/1', UA.gptbot)).status).toBe(403)
  })

  it('records through `record`, serves the report under /_robots/ unless `report: false`', async () => {
    const events: JudgedRequest[] = []
    const { hono } = app({ record: (event) => void events.push(event) })
    await call(hono, '/articles/2', UA.gptbot)
    await call(hono, '/robots.txt', UA.googlebot)
    expect(events.map((e) => [e.type, e.agent.id, e.action])).toEqual([
      ['request', 'gptbot', 'block'],
      ['robots-txt', 'googlebot', 'pass'],
    ])
    expect((await call(hono, '/_robots/api/report', UA.browser)).status).toBe(401)
    const without = app({ report: false }).hono
    expect(await (await call(without, '/_robots/api/report', UA.browser)).text()).toBe('404 Not Found')
  })

  it('without DB or ROBOTS_KV: serves and guards, and says so once, not per request', async () => {
    const warnings: string[] = []
    const { hono } = app({ warn: (m) => void warnings.push(m) })
    for (let i = 0; i < 3; i++) {
      expect((await call(hono, '/robots.txt', UA.googlebot, {})).status).toBe(200)
      expect((await call(hono, '/articles/1', UA.gptbot, {})).status).toBe(403)
    }
    expect(warnings).toHaveLength(2)
    expect(warnings[0]).toMatch(/^robots-edge: no D1 binding "DB", so recording is off .*migrations_dir = "node_modules\/robots-edge\/migrations"/)
    expect(warnings[1]).toMatch(/^robots-edge: no KV binding "ROBOTS_KV"/)
  })

  it('says nothing about bindings it does not use: the test env has both, and record/verify replace them', async () => {
    const warnings: string[] = []
    await call(app({ warn: (m) => void warnings.push(m) }).hono, '/', UA.browser)
    await call(app({ warn: (m) => void warnings.push(m), record: () => {}, verify: () => 'unverified' }).hono, '/', UA.browser, {})
    expect(warnings).toEqual([])
  })

  it("exposes the cron on the middleware, for the Worker's default export", async () => {
    const { edge } = app()
    const spy = vi.spyOn(console, 'log').mockImplementation(() => {})
    try {
      const ctx = createExecutionContext()
      edge.scheduled({ cron: '17 * * * *', scheduledTime: Date.now(), noRetry() {} }, {}, ctx)
      await waitOnExecutionContext(ctx)
      expect(JSON.parse(String(spy.mock.calls[0]?.[0]))).toEqual({
        robotsEdge: 'cron',
        ipRanges: 'Error: no ROBOTS_KV binding',
        losses: 'Error: no ROBOTS_KV binding',
        prune: 'Error: no DB binding',
        retry: 'next run',
      })
    } finally {
      spy.mockRestore()
    }
  })
})

describe('the parts and the other entry points', () => {
  it('robotsTxt() and botGuard() share one createPolicies(config)', async () => {
    const policies = createPolicies(config)
    const hono = new Hono()
    hono.use(robotsTxt({ policies }))
    hono.use(botGuard({ policies, log: () => {} }))
    hono.get('*', (c) => c.text('page'))
    expect(await (await call(hono, '/robots.txt', UA.browser)).text()).toContain('User-agent: GPTBot')
    expect((await call(hono, '/x', UA.gptbot)).status).toBe(403)
    expect(await (await call(hono, '/x', UA.browser)).text()).toBe('page')
  })

  it('robots-edge/engine and robots-edge/bots are the engine and the registry', () => {
    const robots = compileRobotsTxt('User-agent: *\nDisallow: /admin/\n')
    expect(robots.check(['googlebot'], 'https://example.com/admin/x')).toMatchObject({ allowed: false, rule: { line: 2 } })
    expect(identifyAgent(UA.googlebot)?.tokens).toEqual(['googlebot'])
  })
})
