import { createExecutionContext, env, SELF, waitOnExecutionContext } from 'cloudflare:test'
import { afterEach, describe, expect, inject, it, vi } from 'vitest'
import { createWorker } from '../../src/package/app.ts'
import type { RobotsConfig } from '../../src/core/config/index.ts'

// Integration tests of the response headers beyond robots.txt, through the
// Worker's entry (createWorker, what src/workers/edge-worker.ts exports) in workerd:
// `X-Robots-Tag` from `noindex` rules and on every staging and preview
// response, `Content-Usage` (draft-ietf-aipref-attach-05 §2) from the group
// that judges the request, and `<meta name="robots">` with `noindexMeta`.
// The origin is a spy on fetch, so each test says what the site answered.

const CONFIG: RobotsConfig = {
  rules: [
    { userAgent: '*', disallow: '/private/', contentUsage: { trainAi: false, search: true, paths: { '/open/': { trainAi: true } } } },
    { userAgent: 'GPTBot', disallow: '/blocked/', guard: 'block', contentUsage: { trainAi: false, search: false } },
    { userAgent: 'Bingbot', allow: '/' },
  ],
  noindex: [{ path: ['/search', '/*?sort='] }, { path: '/drafts/', userAgent: 'Googlebot', directives: ['noindex', 'nofollow'] }, { path: '/ai/$', directives: ['noai', 'noimageai'] }],
}

const BROWSER = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36'
const GPTBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.2; +https://openai.com/gptbot'
const BINGBOT = 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)'

/** The site behind the Worker answers with these headers and body. */
function origin(headers: Record<string, string> = {}, body = 'from the origin') {
  return vi.spyOn(globalThis, 'fetch').mockImplementation(async () => new Response(body, { headers: { 'Content-Type': 'text/plain', ...headers } }))
}

const worker = createWorker(CONFIG, { record: () => {} })
const metaWorker = createWorker({ ...CONFIG, noindexMeta: true }, { record: () => {} })

async function get(url: string, init: { ua?: string; headers?: Record<string, string>; bindings?: Partial<Env>; through?: typeof worker } = {}) {
  const ctx = createExecutionContext()
  const request = new Request(url, { headers: { 'User-Agent': init.ua ?? BROWSER, ...init.headers } })
  const res = await (init.through ?? worker).fetch!(request as Request<unknown, IncomingRequestCfProperties>, { ...env, ORIGIN: 'https://origin.example', ...init.bindings }, ctx)
  await waitOnExecutionContext(ctx)
  return res
}

const tagOf = (res: Response) => res.headers.get('x-robots-tag')

afterEach(() => {
  vi.restoreAllMocks()
})

describe('X-Robots-Tag on a production host', () => {
  it("marks the paths a noindex rule matches, with the engine's * and $", async () => {
    origin()
    expect(tagOf(await get('https://site.example/search?q=shoes'))).toBe('noindex')
    expect(tagOf(await get('https://site.example/shoes?sort=price'))).toBe('noindex')
    expect(tagOf(await get('https://site.example/ai/'))).toBe('noai, noimageai')
    expect(tagOf(await get('https://site.example/ai/page'))).toBeNull()
    expect(tagOf(await get('https://site.example/shoes'))).toBeNull()
  })

  // Google's documented form names the crawler before each directive meant for it alone.
  it('writes a rule for one crawler as "agent: directive"', async () => {
    origin()
    expect(tagOf(await get('https://site.example/drafts/a'))).toBe('googlebot: noindex, googlebot: nofollow')
  })

  it("merges the origin's own X-Robots-Tag instead of replacing it, without repeating it", async () => {
    origin({ 'X-Robots-Tag': 'noarchive' })
    expect(tagOf(await get('https://site.example/search'))).toBe('noarchive, noindex')
    expect(tagOf(await get('https://site.example/shoes'))).toBe('noarchive')
    vi.restoreAllMocks()
    origin({ 'X-Robots-Tag': 'NoIndex, bingbot: nosnippet' })
    expect(tagOf(await get('https://site.example/search'))).toBe('NoIndex, bingbot: nosnippet')
    expect(tagOf(await get('https://site.example/drafts/x'))).toBe('NoIndex, bingbot: nosnippet, googlebot: noindex, googlebot: nofollow')
  })

  it('ignores what the client sends: its X-Robots-Tag and Content-Usage neither add nor remove anything', async () => {
    const site = origin()
    const res = await get('https://site.example/shoes', { headers: { 'X-Robots-Tag': 'noindex', 'Content-Usage': 'train-ai=y' } })
    expect(tagOf(res)).toBeNull()
    expect(res.headers.get('content-usage')).toBe('train-ai=n, search=y')
    expect(tagOf(await get('https://site.example/search', { headers: { 'X-Robots-Tag': 'all' } }))).toBe('noindex')
    expect(site).toHaveBeenCalled()
  })

  it('leaves /robots.txt and the body alone', async () => {
    origin()
    const txt = await get('https://site.example/robots.txt')
    expect(tagOf(txt)).toBeNull()
    expect(txt.headers.get('content-usage')).toBeNull()
    expect(await txt.text()).toContain('Content-Usage: / train-ai=n, search=y\n')
    const page = await get('https://site.example/search')
    expect(await page.text()).toBe('from the origin')
  })
})

describe('X-Robots-Tag fields as they cross the wire', () => {
  // Headers#get joins fields with ", ", hiding how many there were: the
  // Worker's response headers go, as request headers, to the echo origin (a
  // real HTTP server), which reports each field line it received.
  const ECHO = inject('echoOrigin')
  const fetchForReal = globalThis.fetch

  async function fieldsOf(res: Response): Promise<string[]> {
    const echo = (await (await fetchForReal(ECHO, { headers: res.headers })).json()) as { fields: [string, string][] }
    return echo.fields.filter(([name]) => name === 'x-robots-tag').map(([, value]) => value)
  }

  it("keeps each of the origin's fields as its own, and sends the Worker's directives in fields of their own", async () => {
    const headers = new Headers({ 'Content-Type': 'text/plain' })
    headers.append('X-Robots-Tag', 'googlebot: nofollow')
    headers.append('X-Robots-Tag', 'noarchive')
    vi.spyOn(globalThis, 'fetch').mockImplementation(async () => new Response('from the origin', { headers }))
    // Checks the echo itself: two fields appended in workerd arrive as two lines.
    expect(await fieldsOf(new Response(null, { headers }))).toEqual(['googlebot: nofollow', 'noarchive'])
    expect(await fieldsOf(await get('https://site.example/search'))).toEqual(['googlebot: nofollow', 'noarchive', 'noindex'])
    expect(await fieldsOf(await get('https://site.example/drafts/a'))).toEqual(['googlebot: nofollow', 'noarchive', 'googlebot: noindex, googlebot: nofollow'])
    expect(await fieldsOf(await get('https://site.example/shoes'))).toEqual(['googlebot: nofollow', 'noarchive'])
  })

  // A directive after an `agent:` may be that agent's alone: only those before any are taken as already sent to every crawler.
  it('repeats a directive the origin gives one crawler only', async () => {
    origin({ 'X-Robots-Tag': 'googlebot: nofollow, noindex' })
    expect(await fieldsOf(await get('https://site.example/search'))).toEqual(['googlebot: nofollow, noindex', 'noindex'])
  })
})

describe('Content-Usage on a production host', () => {
  it("sends the * group's preferences to people, the longest path deciding", async () => {
    origin()
    expect((await get('https://site.example/')).headers.get('content-usage')).toBe('train-ai=n, search=y')
    expect((await get('https://site.example/open/x')).headers.get('content-usage')).toBe('train-ai=y, search=y')
  })

  it("sends a crawler its own group's preferences, and none when its group states none", async () => {
    origin()
    expect((await get('https://site.example/open/x', { ua: GPTBOT })).headers.get('content-usage')).toBe('train-ai=n, search=n')
    expect((await get('https://site.example/open/x', { ua: BINGBOT })).headers.get('content-usage')).toBeNull()
  })

  it("combines with the origin's Content-Usage, the most restrictive winning, its extensions kept", async () => {
    origin({ 'Content-Usage': 'search=n, future-use=y' })
    const res = await get('https://site.example/open/x')
    expect(res.headers.get('content-usage')).toBe('train-ai=y, search=n, future-use=y')
  })

  it('adds nothing to a refusal', async () => {
    origin()
    const res = await get('https://site.example/blocked/x', { ua: GPTBOT })
    expect(res.status).toBe(403)
    expect(res.headers.get('content-usage')).toBeNull()
    expect(tagOf(res)).toBeNull()
  })
})

describe('noindexMeta: <meta name="robots"> in HTML', () => {
  const HTML = '<!doctype html><html><head><title>t</title></head><body>x</body></html>'

  it('puts the meta tags first in <head> of an HTML page the rules match', async () => {
    origin({ 'Content-Type': 'text/html; charset=utf-8' }, HTML)
    const res = await get('https://site.example/search', { through: metaWorker })
    expect(tagOf(res)).toBe('noindex')
    expect(await res.text()).toBe('<!doctype html><html><head><meta name="robots" content="noindex"><title>t</title></head><body>x</body></html>')
    const drafts = await get('https://site.example/drafts/a', { through: metaWorker })
    expect(await drafts.text()).toContain('<head><meta name="googlebot" content="noindex"><meta name="googlebot" content="nofollow"><title>')
  })

  it('leaves other pages and other types untouched', async () => {
    origin({ 'Content-Type': 'text/html' }, HTML)
    expect(await (await get('https://site.example/shoes', { through: metaWorker })).text()).toBe(HTML)
    vi.restoreAllMocks()
    origin({ 'Content-Type': 'application/json' }, '{"head":1}')
    expect(await (await get('https://site.example/search', { through: metaWorker })).text()).toBe('{"head":1}')
  })

  // The headers never depend on the body: HTMLRewriter refuses these labels ("Unknown character encoding").
  it.each(['utf-16', 'UTF-16LE', 'utf-32', 'iso-2022-jp', 'utf8mb4', 'binary', 'none'])('sends the headers and the page as it came for charset=%s', async (charset) => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    origin({ 'Content-Type': `text/html; charset=${charset}` }, HTML)
    const res = await get('https://site.example/search', { through: metaWorker })
    expect(tagOf(res)).toBe('noindex')
    expect(res.headers.get('content-usage')).toBe('train-ai=n, search=y')
    expect(await res.text()).toBe(HTML)
    expect(errors).not.toHaveBeenCalled()
  })

  it('is off by default', async () => {
    origin({ 'Content-Type': 'text/html' }, HTML)
    expect(await (await get('https://site.example/search')).text()).toBe(HTML)
  })
})

describe('staging and preview hosts: noindex on every response', () => {
  const STAGING = { bindings: { ROBOTS_ENV: 'staging' } }

  it('on staging, marks every page, robots.txt and refusals, and sends no Content-Usage', async () => {
    origin()
    for (const path of ['/', '/shoes', '/robots.txt']) {
      const res = await get(`https://site.example${path}`, STAGING)
      expect(tagOf(res), path).toBe('noindex')
      expect(res.headers.get('content-usage'), path).toBeNull()
    }
    const refused = await get('https://site.example/x', { ...STAGING, ua: GPTBOT })
    expect(refused.status).toBe(403)
    expect(tagOf(refused)).toBe('noindex')
  })

  it("on a preview host, marks every response, merging the origin's", async () => {
    origin({ 'X-Robots-Tag': 'noarchive' })
    for (const path of ['/', '/shoes', '/robots.txt']) expect(tagOf(await get(`https://feature-x.site.pages.dev${path}`)), path).toMatch(/^(noarchive, )?noindex$/)
    expect(tagOf(await get('https://feature-x.site.pages.dev/shoes'))).toBe('noarchive, noindex')
  })

  it('sends the production headers on staging that declares itself indexable', async () => {
    origin()
    const indexable = createWorker({ ...CONFIG, indexable: true }, { record: () => {} })
    expect(tagOf(await get('https://site.example/shoes', { ...STAGING, through: indexable }))).toBeNull()
    expect(tagOf(await get('https://site.example/search', { ...STAGING, through: indexable }))).toBe('noindex')
  })
})

describe('the deployed Worker (SELF, robots.config.ts)', () => {
  it('sends noindex on a preview host and not on the production one', async () => {
    const preview = await SELF.fetch('https://robots-edge.example.workers.dev/robots.txt')
    expect(preview.headers.get('x-robots-tag')).toBe('noindex')
    const production = await SELF.fetch('https://example.com/robots.txt')
    expect(production.headers.get('x-robots-tag')).toBeNull()
  })
})
