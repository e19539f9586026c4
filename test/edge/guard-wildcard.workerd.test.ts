import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { createApp } from '../../src/package/app.ts'
import type { ConfigInput } from '../../src/core/config/index.ts'
import type { JudgedRequest } from '../../src/core/events.ts'

// Every automated client answers to the `*` group when no group
// names it (RFC 9309 §2.2.1), tools included; only the user-triggered
// fetchers `guard.exempt` lists are judged by a group that names them alone.

const STAR: ConfigInput = { rules: [{ userAgent: '*', allow: '/', disallow: ['/admin/'] }], guard: { mode: 'block' } }

const CHATGPT_USER = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot'
const PERPLEXITY_USER = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Perplexity-User/1.0; +https://perplexity.ai/perplexity-user)'

function harness(config: ConfigInput) {
  const events: JudgedRequest[] = []
  const app = createApp(config, { record: (event) => void events.push(event), verify: () => 'unverified' })
  const fetch = async (path: string, ua: string) => {
    const ctx = createExecutionContext()
    const res = await app.fetch(new Request(`http://localhost${path}`, { headers: { 'User-Agent': ua } }), env, ctx)
    await waitOnExecutionContext(ctx)
    return res
  }
  return { events, fetch }
}

describe('generic tools answer to *', () => {
  it.each([
    ['Wget/1.21.3', 'wget'],
    ['curl/8.5.0', 'curl'],
    ['python-requests/2.32.3', 'python-requests'],
    ['Scrapy/2.11.2 (+https://scrapy.org)', 'scrapy'],
    ['Go-http-client/2.0', 'go-http-client'],
    ['Python/3.12 aiohttp/3.9.5', 'aiohttp'],
    ['colly/2.1.0', 'colly'],
  ])('%s is refused on a disallowed path, and recorded as a tool', async (ua, token) => {
    const h = harness(STAR)
    expect((await h.fetch('/admin/panel', ua)).status).toBe(403)
    expect((await h.fetch('/about', ua)).status).toBe(200)
    expect(h.events.map((e) => [e.path, e.allowed, e.group, e.agent.kind, e.agent.tokens[0]])).toEqual([
      ['/admin/panel', false, '*', 'tool', token],
      ['/about', true, '*', 'tool', token],
    ])
  })

  it('crawlers whose operators say they ignore robots.txt for other reasons answer to * too', async () => {
    const h = harness(STAR)
    expect((await h.fetch('/admin/x', 'ArchiveBot/20240101 (+https://wiki.archiveteam.org/index.php/ArchiveBot)')).status).toBe(403)
    expect(h.events[0]).toMatchObject({ group: '*', allowed: false, agent: { id: 'archivebot' } })
  })

  it('a group naming a tool judges it by that group', async () => {
    const h = harness({
      rules: [
        { userAgent: '*', disallow: '/' },
        { userAgent: 'curl', allow: '/' },
      ],
      guard: { mode: 'block' },
    })
    expect((await h.fetch('/x', 'curl/8.5.0')).status).toBe(200)
    expect(h.events[0]).toMatchObject({ group: 'curl', allowed: true })
  })
})

describe('guard.exempt: user-triggered fetchers', () => {
  it('by default, ChatGPT-User and Perplexity-User are not judged by *', async () => {
    const h = harness({ rules: [{ userAgent: '*', disallow: '/' }], guard: { mode: 'block' } })
    expect((await h.fetch('/article', CHATGPT_USER)).status).toBe(200)
    expect((await h.fetch('/article', PERPLEXITY_USER)).status).toBe(200)
    expect(h.events.map((e) => [e.agent.id, e.group, e.allowed])).toEqual([
      ['chatgpt-user', null, true],
      ['perplexity-user', null, true],
    ])
  })

  it('a group that names an exempt fetcher still judges it', async () => {
    const h = harness({
      rules: [
        { userAgent: '*', allow: '/' },
        { userAgent: 'ChatGPT-User', disallow: '/members/' },
      ],
      guard: { mode: 'block' },
    })
    expect((await h.fetch('/members/1', CHATGPT_USER)).status).toBe(403)
    expect(h.events[0]).toMatchObject({ group: 'chatgpt-user', allowed: false })
  })

  it('exempt: [] judges every automated client by *', async () => {
    const h = harness({ rules: [{ userAgent: '*', disallow: '/' }], guard: { mode: 'block', exempt: [] } })
    expect((await h.fetch('/article', CHATGPT_USER)).status).toBe(403)
    expect(h.events[0]).toMatchObject({ group: '*', allowed: false, agent: { id: 'chatgpt-user' } })
  })

  it('a site may exempt its own tools, by token, case-insensitively', async () => {
    const h = harness({ rules: [{ userAgent: '*', disallow: '/' }], guard: { mode: 'block', exempt: ['Curl'] } })
    expect((await h.fetch('/article', 'curl/8.5.0')).status).toBe(200)
    expect((await h.fetch('/article', 'Wget/1.21.3')).status).toBe(403)
    // The default list is replaced, not extended.
    expect((await h.fetch('/article', CHATGPT_USER)).status).toBe(403)
  })

  it('control-only tokens still never refuse', async () => {
    const h = harness({
      rules: [
        { userAgent: '*', allow: '/' },
        { userAgent: 'Google-Extended', disallow: '/' },
      ],
      guard: { mode: 'block', exempt: [] },
    })
    expect((await h.fetch('/article', 'Google-Extended/1.0')).status).toBe(200)
    expect(h.events.every((e) => e.group !== 'google-extended')).toBe(true)
  })
})
