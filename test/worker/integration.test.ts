import { SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'

describe('the Worker entry', () => {
  it('serves /robots.txt rendered from robots.config.ts', async () => {
    const res = await SELF.fetch('https://example.com/robots.txt')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8')
    expect(await res.text()).toBe(
      'User-agent: *\nAllow: /\nDisallow: /admin/\nDisallow: /*.pdf$\n\n' +
        'User-agent: GPTBot\nUser-agent: CCBot\nDisallow: /\n\n' +
        'Sitemap: https://example.com/sitemap.xml\n',
    )
  })
})
