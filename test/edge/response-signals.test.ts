import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { createPolicies, type RobotsConfig } from '../../src/core/config/index.ts'
import { responseSignals } from '../../src/edge/middleware/response-signals.ts'

// Unit tests of responseSignals() in a plain Hono app in Node (robots-edge/hono
// outside Workers): no HTMLRewriter here, so `noindexMeta` falls back to the
// header alone. The Worker's own behaviour is in test/edge/response-signals.workerd.test.ts.

const CONFIG: RobotsConfig = { rules: [{ userAgent: '*', contentUsage: { trainAi: false } }], noindex: { path: '/search' }, noindexMeta: true }

function app(config: RobotsConfig = CONFIG) {
  const a = new Hono()
  a.use(responseSignals({ policies: createPolicies(config) }))
  a.get('*', (c) => c.html('<html><head></head><body>x</body></html>', 200, { 'X-Robots-Tag': 'noarchive' }))
  return a
}

describe('responseSignals() in a Hono app', () => {
  it("sets the headers on the app's own responses, merging what the route set", async () => {
    const res = await app().request('https://example.com/search?q=x')
    expect(res.headers.get('x-robots-tag')).toBe('noarchive, noindex')
    expect(res.headers.get('content-usage')).toBe('train-ai=n')
  })

  it('sends the header alone where the runtime has no HTMLRewriter', async () => {
    expect(typeof (globalThis as { HTMLRewriter?: unknown }).HTMLRewriter).toBe('undefined')
    const res = await app().request('https://example.com/search')
    expect(await res.text()).toBe('<html><head></head><body>x</body></html>')
    expect(res.headers.get('x-robots-tag')).toBe('noarchive, noindex')
  })

  it('leaves responses alone when the config states nothing', async () => {
    const res = await app({ rules: [{ userAgent: '*', disallow: '/x' }] }).request('https://example.com/search')
    expect(res.headers.get('x-robots-tag')).toBe('noarchive')
    expect(res.headers.get('content-usage')).toBeNull()
  })
})
