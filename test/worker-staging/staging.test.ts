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
})
