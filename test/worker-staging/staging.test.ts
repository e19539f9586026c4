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

  // Issue 14 §3: a disallow-all robots.txt keeps crawlers out, not linked URLs out of the index.
  it('sends X-Robots-Tag: noindex on every response, robots.txt and pages alike', async () => {
    for (const path of ['/robots.txt', '/', '/admin/x']) {
      const res = await SELF.fetch(`https://example.com${path}`)
      expect(res.headers.get('x-robots-tag'), path).toBe('noindex')
    }
  })
})
