import { SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'

// The same Worker with ROBOTS_ENV=staging, as `wrangler deploy --env staging` runs it.
describe('a staging deployment', () => {
  it('disallows everything for every crawler, even on the production host name', async () => {
    const res = await SELF.fetch('https://example.com/robots.txt')
    expect(res.status).toBe(200)
    const body = await res.text()
    expect(body).toContain('# Not production (environment staging)')
    expect(body.split('\n').filter((l) => l !== '' && !l.startsWith('#'))).toEqual(['User-agent: *', 'Disallow: /'])
    expect(body).not.toContain('Sitemap:')
  })

  // A disallow-all robots.txt keeps crawlers out, not linked URLs out of the index.
  it('sends X-Robots-Tag: noindex on every response, robots.txt and pages alike', async () => {
    for (const path of ['/robots.txt', '/', '/admin/x']) {
      const res = await SELF.fetch(`https://example.com${path}`)
      expect(res.headers.get('x-robots-tag'), path).toBe('noindex')
    }
  })

  // The template's edge entry (src/workers/edge-worker.ts) hands /_robots/ to the admin
  // Worker; here wrangler.toml's ROBOTS_ADMIN binding reaches a stand-in
  // that answers with what it received (vitest.config.ts, adminEcho).
  it('forwards /_robots/ through the ROBOTS_ADMIN service binding, as it came', async () => {
    const res = await SELF.fetch('https://example.com/_robots/api/report?since=-1d', { headers: { Authorization: 'Bearer staging-token' } })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({
      admin: 'echo',
      method: 'GET',
      url: 'https://example.com/_robots/api/report?since=-1d',
      authorization: 'Bearer staging-token',
      body: '',
    })
  })
})
