import { createExecutionContext, env, SELF, waitOnExecutionContext } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { createApp, createWorker } from '../../src/package/app.ts'
import type { ConfigInput } from '../../src/core/config/index.ts'
import type { JudgedRequest, Verification } from '../../src/core/events.ts'

// Requests go to localhost, as with `npm run dev`: no origin, so what passes
// gets the local page. The guard through the real Worker entry (robots.config.ts: `*` logged,
// GPTBot/CCBot and AI training crawlers blocked), and through the same
// composition (createApp) with other configs and an injected recorder.

const UA = {
  googlebot: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  googlebotImage: 'Googlebot-Image/1.0',
  gptbot: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)',
  bingbot: 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
  chrome: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  safariIphone: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  instagram: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 338.0.0.15.95',
  curl: 'curl/8.5.0',
}

const get = (path: string, ua?: string, init: RequestInit = {}) => SELF.fetch(`http://localhost${path}`, { ...init, headers: { ...(ua ? { 'User-Agent': ua } : {}), ...(init.headers ?? {}) } })

/** Runs `config` through createApp, recording every event. */
function harness(config: ConfigInput, verification: Verification = 'unverified') {
  const events: JudgedRequest[] = []
  const app = createApp(config, { record: (event) => void events.push(event), verify: () => verification })
  const fetch = async (path: string, ua: string, host = 'localhost') => {
    const ctx = createExecutionContext()
    const res = await app.fetch(new Request(`https://${host}${path}`, { headers: { 'User-Agent': ua } }), env, ctx)
    await waitOnExecutionContext(ctx)
    return res
  }
  return { events, fetch }
}

describe('through the real Worker entry', () => {
  it('refuses GPTBot on a disallowed path with 403, and serves it /robots.txt itself', async () => {
    const refused = await get('/articles/1', UA.gptbot)
    expect(refused.status).toBe(403)
    expect(refused.headers.get('cache-control')).toBe('no-store')
    expect(await refused.text()).toContain('robots.txt disallows')
    const robots = await get('/robots.txt', UA.gptbot)
    expect(robots.status).toBe(200)
    expect(await robots.text()).toContain('User-agent: GPTBot')
  })

  it('logs but never refuses in log mode (Googlebot on a disallowed path)', async () => {
    const res = await get('/private/secret', UA.googlebot)
    expect(res.status).toBe(200)
    expect(await res.text()).toContain('robots-edge is running')
  })

  it.each(['/', '/admin/', '/private/x', '/a.pdf', '/articles/1?x=<script>'])('never refuses a browser (%s)', async (path) => {
    for (const ua of [UA.chrome, UA.safariIphone, UA.instagram, undefined]) {
      const res = await get(path, ua)
      expect(res.status, `${ua} ${path}`).toBe(200)
    }
  })

  it.each([
    ['an empty header', ''],
    ['a 64 KiB header', 'GPTBot/1.0 ' + 'x'.repeat(65536)],
    ['control characters', 'GPTBot/1.0\u0001\u0002'],
    ['HTML', 'Evil<script>alert(1)</script>Bot/1.0'],
    ['SQL', "Bot'; DROP TABLE events; --"],
  ])('never answers 5xx to %s', async (_name, ua) => {
    for (const path of ['/', '/%', '/%zz/..%2f..%2f', '/a?%%%', '//double//slash', '/' + 'x'.repeat(8000)]) {
      const res = await get(path, ua)
      expect(res.status, `${path}`).toBeLessThan(500)
    }
  })
})

describe('modes', () => {
  const config = (mode: 'off' | 'log' | 'block'): ConfigInput => ({
    rules: [{ userAgent: '*', disallow: '/private/' }],
    guard: { mode },
  })

  it('off: judges and records nothing', async () => {
    const h = harness(config('off'))
    expect((await h.fetch('/private/x', UA.bingbot)).status).toBe(200)
    expect(h.events).toEqual([])
  })

  it('log: passes a disallowed request and records the verdict with its rule', async () => {
    const h = harness(config('log'))
    expect((await h.fetch('/private/x', UA.bingbot)).status).toBe(200)
    expect(h.events).toHaveLength(1)
    expect(h.events[0]).toMatchObject({
      type: 'request',
      host: 'localhost',
      path: '/private/x',
      allowed: false,
      group: '*',
      mode: 'log',
      action: 'pass',
      rule: { type: 'disallow', pattern: '/private/', line: 2 },
      agent: { id: 'bingbot', tokens: ['bingbot'] },
    })
  })

  it('block: refuses a disallowed request, passes an allowed one, records both', async () => {
    const h = harness(config('block'))
    expect((await h.fetch('/private/x', UA.bingbot)).status).toBe(403)
    expect((await h.fetch('/public', UA.bingbot)).status).toBe(200)
    expect(h.events.map((e) => [e.path, e.allowed, e.action, e.status])).toEqual([
      ['/private/x', false, 'block', 403],
      ['/public', true, 'pass', 0],
    ])
  })

  it('block: the refusal status, body and headers are configurable', async () => {
    const h = harness({ rules: [{ userAgent: '*', disallow: '/' }], guard: { mode: 'block', status: 402, body: 'Pay up.\n', headers: { 'Retry-After': '3600' } } })
    const res = await h.fetch('/x', UA.bingbot)
    expect(res.status).toBe(402)
    expect(res.headers.get('retry-after')).toBe('3600')
    expect(await res.text()).toBe('Pay up.\n')
  })

  it('a group can override the file-wide mode', async () => {
    const h = harness({
      rules: [
        { userAgent: '*', disallow: '/' },
        { userAgent: 'bingbot', disallow: '/', guard: 'block' },
      ],
      guard: { mode: 'log' },
    })
    expect((await h.fetch('/x', UA.bingbot)).status).toBe(403)
    expect((await h.fetch('/x', UA.googlebot)).status).toBe(200)
  })

  it('records fetches of /robots.txt by identified agents, not by people', async () => {
    const h = harness(config('log'))
    await h.fetch('/robots.txt', UA.bingbot)
    await h.fetch('/robots.txt', UA.chrome)
    expect(h.events.map((e) => [e.type, e.agent.id, e.allowed])).toEqual([['robots-txt', 'bingbot', true]])
  })
})

describe('choosing the group as the crawler does', () => {
  it('Googlebot-Image falls back to the googlebot group only when it has no group of its own', async () => {
    const without = harness({
      rules: [
        { userAgent: '*', allow: '/' },
        { userAgent: 'Googlebot', disallow: '/photos/' },
      ],
      guard: { mode: 'block' },
    })
    expect((await without.fetch('/photos/1.jpg', UA.googlebotImage)).status).toBe(403)
    expect(without.events[0]).toMatchObject({ group: 'googlebot' })

    const own = harness({
      rules: [
        { userAgent: 'Googlebot', disallow: '/photos/' },
        { userAgent: 'Googlebot-Image', allow: '/' },
      ],
      guard: { mode: 'block' },
    })
    expect((await own.fetch('/photos/1.jpg', UA.googlebotImage)).status).toBe(200)
    expect(own.events[0]).toMatchObject({ group: 'googlebot-image', allowed: true })
  })

  it('a Google-Extended group never refuses a request (its fetches arrive as Googlebot)', async () => {
    const h = harness({ rules: [{ userAgent: 'Google-Extended', disallow: '/' }], guard: { mode: 'block' } })
    expect((await h.fetch('/article', UA.googlebot)).status).toBe(200)
    expect((await h.fetch('/article', 'Google-Extended/1.0')).status).toBe(200)
  })

  // A name with no bot word of its own (`AcmeFetcher` would be a bot by its name alone).
  it('judges a custom bot named only in the config', async () => {
    const h = harness({
      rules: [
        { userAgent: '*', allow: '/' },
        { userAgent: 'AcmeSync', disallow: '/catalog/' },
      ],
      guard: { mode: 'block' },
    })
    expect((await h.fetch('/catalog/1', 'AcmeSync/2.0 (internal)')).status).toBe(403)
    expect((await h.fetch('/about', 'AcmeSync/2.0 (internal)')).status).toBe(200)
    expect(h.events[0]).toMatchObject({ group: 'acmesync', agent: { tokens: ['acmesync'] } })
    // The same name inside a browser's header is never taken for the bot.
    expect((await h.fetch('/catalog/1', `${UA.chrome} AcmeSync/2.0`)).status).toBe(200)
  })

  it('a browser is never refused, whatever the config names', async () => {
    const h = harness({
      rules: [
        { userAgent: '*', disallow: '/' },
        { userAgent: ['Chrome', 'Safari', 'Mozilla'], disallow: '/' },
      ],
      guard: { mode: 'block' },
    })
    for (const ua of [UA.chrome, UA.safariIphone, UA.instagram]) expect((await h.fetch('/x', ua)).status).toBe(200)
    expect(h.events).toEqual([])
  })

  it('a fetcher acting for one person is judged only by a group naming it', async () => {
    const chatgptUser = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot'
    const star = harness({ rules: [{ userAgent: '*', disallow: '/' }], guard: { mode: 'block' } })
    expect((await star.fetch('/x', chatgptUser)).status).toBe(200)
    const named = harness({ rules: [{ userAgent: 'ChatGPT-User', disallow: '/' }], guard: { mode: 'block' } })
    expect((await named.fetch('/x', chatgptUser)).status).toBe(403)
  })

  it('exposes the verdict to later handlers', async () => {
    const app = createApp(
      { rules: [{ userAgent: '*', disallow: '/private/' }] },
      {
        routes: (a) => a.get('/private/echo', (c) => c.json({ verdict: c.get('robotsVerdict')?.verdict ?? null })),
      },
    )
    const ctx = createExecutionContext()
    const res = await app.fetch(new Request('http://localhost/private/echo', { headers: { 'User-Agent': UA.bingbot } }), env, ctx)
    await waitOnExecutionContext(ctx)
    expect(await res.json()).toEqual({ verdict: { allowed: false, group: '*', rule: { type: 'disallow', pattern: '/private/', line: 2 } } })
  })

  it('sets the judgment as robotsJudgment, and the same object under its first name, robotsVerdict', async () => {
    const app = createApp(
      { rules: [{ userAgent: '*', disallow: '/private/' }] },
      {
        routes: (a) => a.get('/private/echo', (c) => c.json({ same: c.get('robotsJudgment') === c.get('robotsVerdict'), action: c.get('robotsJudgment')?.action ?? null })),
      },
    )
    const ctx = createExecutionContext()
    const res = await app.fetch(new Request('http://localhost/private/echo', { headers: { 'User-Agent': UA.bingbot } }), env, ctx)
    await waitOnExecutionContext(ctx)
    expect(await res.json()).toEqual({ same: true, action: 'pass' })
  })
})

describe("the project's own pages", () => {
  it.each(['/_robots', '/_robots/', '/_robots/api/report'])('are never judged (%s)', async (path) => {
    const h = harness({ rules: [{ userAgent: '*', disallow: '/' }], guard: { mode: 'block' } })
    const res = await h.fetch(path, UA.bingbot)
    expect(res.status).not.toBe(403)
    expect(h.events).toEqual([])
  })

  it('but a path that only starts with the same letters is', async () => {
    const h = harness({ rules: [{ userAgent: '*', disallow: '/' }], guard: { mode: 'block' } })
    expect((await h.fetch('/_robotsx', UA.bingbot)).status).toBe(403)
  })
})

describe('review fixes', () => {
  it('a Google-Extended group never refuses even a header that names itself Google-Extended', async () => {
    const h = harness({ rules: [{ userAgent: 'Google-Extended', disallow: '/' }], guard: { mode: 'block' } })
    const res = await h.fetch('/article', 'Mozilla/5.0 (compatible; Google-Extended/1.0; +http://www.google.com/bot.html)')
    expect(res.status).toBe(200)
    expect(h.events.every((e) => e.group !== 'google-extended')).toBe(true)
  })

  it('never refuses Ecosia users (an `@` in a browser header is no bot signal)', async () => {
    const h = harness({ rules: [{ userAgent: '*', disallow: '/' }], guard: { mode: 'block' } })
    const ecosia = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1 (Ecosia ios@9.0.0.2263)'
    expect((await h.fetch('/private/report.pdf', ecosia)).status).toBe(200)
    expect(h.events).toEqual([])
  })

  it('judges a path that starts with // as a path, not as a host', async () => {
    const h = harness({ rules: [{ userAgent: '*', disallow: '/x' }], guard: { mode: 'block' } })
    expect((await h.fetch('//docs/x?y', UA.bingbot)).status).toBe(200)
    expect(h.events[0]).toMatchObject({ path: '//docs/x?y', allowed: true })
    expect((await h.fetch('/x/1', UA.bingbot)).status).toBe(403)
  })

  it('a preview host with a trailing dot is still a preview', async () => {
    const h = harness({ rules: [{ userAgent: '*', allow: '/' }] })
    const body = await (await h.fetch('/robots.txt', UA.bingbot, 'x.someone.workers.dev.')).text()
    expect(body).toContain('Disallow: /')
  })
})

describe('verification through the Worker', () => {
  const googlebot = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'

  async function judged(config: ConfigInput, init: { cf?: Record<string, unknown>; ip?: string }) {
    const events: JudgedRequest[] = []
    const worker = createWorker(config, { record: (event) => void events.push(event) })
    const ctx = createExecutionContext()
    const request = new Request('http://localhost/private/x', {
      headers: { 'User-Agent': googlebot, ...(init.ip ? { 'CF-Connecting-IP': init.ip } : {}) },
      ...(init.cf ? { cf: init.cf } : {}),
    })
    const res = await worker.fetch!(request as Request<unknown, IncomingRequestCfProperties>, env, ctx)
    await waitOnExecutionContext(ctx)
    return { res, events }
  }

  it("takes Cloudflare's verified-bot flag when no operator list is loaded", async () => {
    const { events } = await judged({ rules: [{ userAgent: '*', disallow: '/private/' }] }, { cf: { verifiedBotCategory: 'Search Engine Crawler' } })
    expect(events[0]?.verification).toBe('verified')
  })

  it("is unknown without Cloudflare's flag while Google's list is not loaded: missing ranges are not an answer", async () => {
    const { events } = await judged({ rules: [{ userAgent: '*', disallow: '/private/' }] }, { ip: '203.0.113.9' })
    expect(events[0]?.verification).toBe('unknown')
  })
})

describe('spoofed claims', () => {
  it('spoofed: block refuses a spoofed claim on any path in block mode; judge leaves it to the rules', async () => {
    const block = harness({ rules: [{ userAgent: '*', allow: '/' }], guard: { mode: 'block', spoofed: 'block' } }, 'spoofed')
    expect((await block.fetch('/anything', UA.googlebot)).status).toBe(403)
    expect(block.events[0]).toMatchObject({ verification: 'spoofed', action: 'block', allowed: true })
    const judge = harness({ rules: [{ userAgent: '*', allow: '/' }], guard: { mode: 'block' } }, 'spoofed')
    expect((await judge.fetch('/anything', UA.googlebot)).status).toBe(200)
    const log = harness({ rules: [{ userAgent: '*', allow: '/' }], guard: { mode: 'log', spoofed: 'block' } }, 'spoofed')
    expect((await log.fetch('/anything', UA.googlebot)).status).toBe(200)
  })
})
