import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import { createWorker } from '../../src/package/app.ts'
import { createPolicies, type ConfigInput } from '../../src/core/config/index.ts'
import type { JudgedRequest } from '../../src/core/events.ts'

// Requests that once slipped past `guard: 'block'`, each sent through
// the Worker's own fetch handler (createWorker, as src/workers/edge-worker.ts builds it),
// with the events it records.

const GPTBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)'
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'

function worker(config: ConfigInput, bindings: Partial<Env> = {}) {
  const events: JudgedRequest[] = []
  const handler = createWorker(config, { record: (event) => void events.push(event) })
  const send = async (url: string, ua: string, method = 'GET') => {
    const ctx = createExecutionContext()
    const request = new Request(url, { method, headers: { 'User-Agent': ua } })
    const res = await handler.fetch!(request as Request<unknown, IncomingRequestCfProperties>, { ...env, ...bindings }, ctx)
    await waitOnExecutionContext(ctx)
    return res
  }
  return { events, send }
}

describe('percent-encoded unreserved octets (RFC 9309 §2.2.2, RFC 3986 §2.3)', () => {
  // GPTBot's group, as in the issue. The file is served in the reader-safe
  // order (longest rule first), so the lines come from the served file.
  const config: ConfigInput = {
    rules: [
      { userAgent: '*', allow: '/' },
      { userAgent: 'GPTBot', disallow: ['/private/', '/*.pdf$', '/secret', '/*?session='], guard: 'block' },
    ],
  }
  const PATTERNS = ['/private/', '/*.pdf$', '/secret', '/*?session=']
  let served: string[] = []
  const line = (pattern: string): number => served.indexOf(`Disallow: ${pattern}`) + 1

  beforeAll(async () => {
    const { send } = worker(config)
    served = (await (await send('https://localhost/robots.txt', GPTBOT)).text()).split('\n')
  })

  it("the served file has each rule once, in GPTBot's group, where the verdicts say", () => {
    const group = served.findIndex((l) => l.toLowerCase() === 'user-agent: gptbot')
    expect(group, served.join('\n')).toBeGreaterThanOrEqual(0)
    for (const pattern of PATTERNS) {
      expect(line(pattern), pattern).toBeGreaterThan(group + 1)
      expect(served.lastIndexOf(`Disallow: ${pattern}`) + 1).toBe(line(pattern))
    }
  })

  it.each([
    ['/%70rivate/x', '/private/'],
    ['/priv%61te/x', '/private/'],
    ['/secre%74', '/secret'],
    ['/doc.p%64f', '/*.pdf$'],
    ['/doc%2Epdf', '/*.pdf$'],
    ['/doc%2epdf', '/*.pdf$'],
    ['/x?%73ession=1', '/*?session='],
    ['/x?%73%65ssion=1', '/*?session='],
    // An origin that decodes `%2F` reads `/private/x` (guard/path-readings.ts).
    ['/private%2Fx', '/private/'],
  ])('refuses GET and HEAD of %s, naming the rule %s and its line', async (path, pattern) => {
    for (const method of ['GET', 'HEAD']) {
      const { send, events } = worker(config)
      const res = await send(`https://localhost${path}`, GPTBOT, method)
      expect(res.status, `${method} ${path}`).toBe(403)
      expect(events).toHaveLength(1)
      expect(events[0]).toMatchObject({ path, allowed: false, action: 'block', group: 'gptbot', rule: { type: 'disallow', pattern, line: line(pattern) } })
    }
  })

  it('still passes what neither reading disallows, and never decodes an escape that is not unreserved', async () => {
    const { send } = worker(config)
    for (const path of ['/public', '/privatex', '/%2570rivate/x', '/doc.pdf.html', '/x?sessions']) {
      expect((await send(`https://localhost${path}`, GPTBOT)).status, path).toBe(200)
    }
  })

  it('a rule that encodes an unreserved octet also refuses the plain path, naming the rule as written', async () => {
    const { send, events } = worker({ rules: [{ userAgent: 'GPTBot', disallow: '/%7Euser/' }], guard: { mode: 'block' } })
    expect((await send('https://localhost/~user/page', GPTBOT)).status).toBe(403)
    expect((await send('https://localhost/%7euser/page', GPTBOT)).status).toBe(403)
    expect(events[0]?.rule).toEqual({ type: 'disallow', pattern: '/%7Euser/', line: 2 })
    expect((await send('https://localhost/~users', GPTBOT)).status).toBe(200)
  })

  it("leaves the served file and `check` as they are (the engine keeps Google's reading)", () => {
    const policy = createPolicies(config).get('example.com', 'production')
    expect(policy.text).toContain('Disallow: /private/\n')
    expect(policy.matcher.check('gptbot', 'https://localhost/%70rivate/x').allowed).toBe(true)
    expect(policy.matcher.check('gptbot', 'https://localhost/private/x').allowed).toBe(false)
  })
})

describe('paths a normalizing origin reads as a disallowed one (RFC 3986 §5.2.4, §6.2.2)', () => {
  // The Workers runtime parses the request URL first (a literal `\\` becomes
  // `/`, `%2e` dot segments are resolved), then the guard reads what is left
  // as a normalizing origin would (guard/path-readings.ts). The same
  // spellings against Python's http.server: test/guard/normalizing-origin.test.ts.
  const config: ConfigInput = {
    rules: [
      { userAgent: '*', allow: '/' },
      { userAgent: 'GPTBot', disallow: '/private/', guard: 'block' },
    ],
  }

  it.each(['//private/secret.txt', '/private%2Fsecret.txt', '/x/..%2Fprivate/secret.txt', '/x/%2E%2E%2fprivate/secret.txt', '/private%5Csecret.txt', '/x\\..\\private/secret.txt'])(
    'refuses %s, naming the rule as written',
    async (path) => {
      const { send, events } = worker(config)
      expect((await send(`https://localhost${path}`, GPTBOT)).status, path).toBe(403)
      expect(events.at(-1)).toMatchObject({ allowed: false, action: 'block', rule: { type: 'disallow', pattern: '/private/' } })
    },
  )

  it('passes what no reading disallows, and never touches people', async () => {
    const { send, events } = worker(config)
    for (const path of ['/public//page', '/x/..%2Fpublic/page', '/privatex%2F..']) expect((await send(`https://localhost${path}`, GPTBOT)).status, path).toBe(200)
    const chrome = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
    const before = events.length
    expect((await send('https://localhost//private/secret.txt', chrome)).status).toBe(200)
    expect(events).toHaveLength(before)
  })
})

describe('preview hosts and environments other than production', () => {
  // The served file disallows everything; the config's modes still apply.
  const config: ConfigInput = {
    rules: [
      { userAgent: '*', allow: '/' },
      { userAgent: 'GPTBot', disallow: '/', guard: 'block' },
      { userAgent: 'Bingbot', allow: '/', guard: 'off' },
      { userAgent: 'AcmeFetcher', allow: '/', guard: 'block' },
    ],
    guard: { mode: 'log' },
  }

  it.each(['robots-edge.acct.workers.dev', 'preview-123.site.pages.dev'])('%s: a group in block refuses what the served file disallows', async (host) => {
    const { send, events } = worker(config)
    const robots = await (await send(`https://${host}/robots.txt`, GPTBOT)).text()
    expect(robots).toContain('Disallow: /')
    const res = await send(`https://${host}/articles/1`, GPTBOT)
    expect(res.status).toBe(403)
    expect(events.at(-1)).toMatchObject({ host, mode: 'block', action: 'block', allowed: false, group: '*', rule: { type: 'disallow', pattern: '/' } })
  })

  it('a group in log (here the file-wide mode) is recorded, not refused; a group in off is not judged', async () => {
    const { send, events } = worker(config)
    expect((await send('https://robots-edge.acct.workers.dev/articles/1', GOOGLEBOT)).status).toBe(200)
    expect(events.at(-1)).toMatchObject({ mode: 'log', action: 'pass', allowed: false })
    const before = events.length
    expect((await send('https://robots-edge.acct.workers.dev/articles/1', 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)')).status).toBe(200)
    expect(events).toHaveLength(before)
  })

  it('a custom bot named only in the config is still recognised there', async () => {
    const { send } = worker(config)
    expect((await send('https://robots-edge.acct.workers.dev/catalog', 'AcmeFetcher/2.0')).status).toBe(403)
  })

  it('a staging environment keeps the modes too', async () => {
    const { send } = worker(config, { ROBOTS_ENV: 'staging' })
    expect((await send('https://localhost/articles/1', GPTBOT)).status).toBe(403)
    expect((await send('https://localhost/articles/1', GOOGLEBOT)).status).toBe(200)
  })

  it('a file-wide block refuses every judged crawler there, as the served file says', async () => {
    const { send } = worker({ rules: [{ userAgent: '*', allow: '/' }], guard: { mode: 'block' } })
    expect((await send('https://robots-edge.acct.workers.dev/articles/1', GOOGLEBOT)).status).toBe(403)
    expect((await send('https://localhost/articles/1', GOOGLEBOT)).status).toBe(200)
  })

  it('people are still never touched there', async () => {
    const { send, events } = worker({ rules: [{ userAgent: '*', allow: '/' }], guard: { mode: 'block' } })
    const chrome = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
    expect((await send('https://robots-edge.acct.workers.dev/articles/1', chrome)).status).toBe(200)
    expect(events).toEqual([])
  })
})
