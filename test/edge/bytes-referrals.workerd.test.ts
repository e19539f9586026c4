// What each crawler takes and gives back, through the Worker entry
// (createWorker with the D1 ledger): generated traffic whose answer is known
// in advance, then the report's JSON, read through the same Worker.
//   - bytes per agent: Content-Length when the response has one, the streamed
//     body counted when it has none, the refusal's own size when blocked;
//   - pages (HTML responses) per agent, and per operator `crawled`;
//   - referrals per operator from people's Referer hosts, on HTML pages only,
//     and the crawl-to-refer ratio.
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import type { ConfigInput } from '../../src/core/config/index.ts'
import { createWorker } from '../../src/package/app.ts'
import type { OperatorReport, Report } from '../../src/admin/types.ts'
import { clearLedger } from '../support/workerd/ledger-tables.ts'

const UA = {
  gptbot: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)',
  claudebot: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)',
  person: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
}

const CONFIG: ConfigInput = {
  rules: [
    { userAgent: '*', allow: '/' },
    { userAgent: 'ClaudeBot', disallow: '/private/', guard: 'block' },
  ],
  guard: { mode: 'log', body: 'Refused by robots.txt\n' },
}

/** A body of `n` bytes sent in chunks of at most 1000, with no Content-Length. */
function streamed(n: number): ReadableStream<Uint8Array> {
  let left = n
  return new ReadableStream({
    pull(controller) {
      if (left === 0) return controller.close()
      const size = Math.min(1000, left)
      left -= size
      controller.enqueue(new Uint8Array(size).fill(97))
    },
  })
}

const worker = createWorker(CONFIG, {
  verify: () => 'verified',
  routes: (app) => {
    // Content-Length given: counted from the header.
    app.get('/sized/:n', (c) => {
      const n = Number(c.req.param('n'))
      return new Response(new Uint8Array(n).fill(98), { headers: { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': String(n) } })
    })
    // No Content-Length: the body is counted as it streams.
    app.get('/stream/:n', (c) => new Response(streamed(Number(c.req.param('n'))), { headers: { 'Content-Type': 'text/html' } }))
    app.get('/data/:n', (c) => new Response(streamed(Number(c.req.param('n'))), { headers: { 'Content-Type': 'application/json' } }))
  },
})

/** One request through the Worker entry; the body is read, as a client does, before the context is waited on. */
async function send(path: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  const ctx = createExecutionContext()
  const res = await worker.fetch!(new Request(`https://example.com${path}`, { headers }) as Request<unknown, IncomingRequestCfProperties>, env, ctx)
  const body = await res.text()
  await waitOnExecutionContext(ctx)
  return { status: res.status, body }
}

async function report(): Promise<Report> {
  const ctx = createExecutionContext()
  const res = await worker.fetch!(
    new Request('https://example.com/_robots/api/report', { headers: { Authorization: 'Bearer test-admin-token' } }) as Request<unknown, IncomingRequestCfProperties>,
    env,
    ctx,
  )
  await waitOnExecutionContext(ctx)
  expect(res.status).toBe(200)
  return res.json()
}

const operator = (r: Report, name: string): OperatorReport | undefined => r.operators.find((o) => o.operator === name)

beforeEach(async () => {
  await clearLedger(env.DB)
})

describe('bytes per crawler', () => {
  it('adds up Content-Length, streamed bodies and refusals per agent, and counts HTML pages', { timeout: 90_000 }, async () => {
    // GPTBot: 3 × 1,200 (Content-Length) + 2 × 2,500 (streamed, HTML) + 1 × 4,321 (streamed JSON) = 12,921 bytes, 5 pages.
    for (let i = 0; i < 3; i++) expect((await send('/sized/1200', { 'User-Agent': UA.gptbot })).body.length).toBe(1200)
    for (let i = 0; i < 2; i++) expect((await send('/stream/2500', { 'User-Agent': UA.gptbot })).body.length).toBe(2500)
    expect((await send('/data/4321', { 'User-Agent': UA.gptbot })).body.length).toBe(4321)
    // ClaudeBot: 4 × 700 streamed pages, and 2 refusals of the configured body (22 bytes each): 2,844 bytes, 4 pages.
    for (let i = 0; i < 4; i++) await send('/stream/700', { 'User-Agent': UA.claudebot })
    for (let i = 0; i < 2; i++) expect((await send('/private/x', { 'User-Agent': UA.claudebot })).status).toBe(403)
    // People are never judged: their bytes count nowhere.
    await send('/stream/9999', { 'User-Agent': UA.person })

    const r = await report()
    const gptbot = r.agents.find((a) => a.agentKey === 'gptbot')
    const claudebot = r.agents.find((a) => a.agentKey === 'claudebot')
    expect(gptbot?.evidence).toMatchObject({ requests: 6, bytes: 3 * 1200 + 2 * 2500 + 4321, pages: 5 })
    expect(claudebot?.evidence).toMatchObject({ requests: 6, blocked: 2, bytes: 4 * 700 + 2 * 22, pages: 4 })
    expect(r.agents.reduce((n, a) => n + a.evidence.bytes, 0)).toBe(12_921 + 2844)
    expect(operator(r, 'OpenAI')).toMatchObject({ crawled: 5, requests: 6, bytes: 12_921 })
    expect(operator(r, 'Anthropic')).toMatchObject({ crawled: 4, requests: 6, bytes: 2844 })
  })
})

describe('referrals and the crawl-to-refer ratio', () => {
  it('counts people sent from an operator product to HTML pages, per operator, with the ratio', { timeout: 90_000 }, async () => {
    // Crawled: OpenAI 6 pages, Anthropic 9 pages, Perplexity none.
    for (let i = 0; i < 6; i++) await send(`/sized/${100 + i}`, { 'User-Agent': UA.gptbot })
    for (let i = 0; i < 9; i++) await send('/stream/50', { 'User-Agent': UA.claudebot })
    const visit = (path: string, referer?: string) => send(path, { 'User-Agent': UA.person, Accept: 'text/html', ...(referer ? { Referer: referer } : {}) })
    // Referred: OpenAI 3 (chatgpt.com), Anthropic 2 (claude.ai), Perplexity 1, Google 2 (two country hosts).
    await visit('/sized/10', 'https://chatgpt.com/')
    await visit('/stream/10', 'https://chatgpt.com/c/abc?x=1')
    await visit('/sized/20', 'https://CHATGPT.COM')
    await visit('/sized/10', 'https://claude.ai/chat/1')
    await visit('/stream/10', 'https://claude.ai/')
    await visit('/sized/10', 'https://www.perplexity.ai/search?q=x')
    await visit('/sized/10', 'https://www.google.com/')
    await visit('/sized/10', 'https://www.google.co.uk/')
    // Not referrals: no Referer, a non-HTML response, a look-alike host, a userinfo trick, the site itself.
    await visit('/sized/10')
    await visit('/data/10', 'https://chatgpt.com/')
    await visit('/sized/10', 'https://chatgpt.com.evil.example/')
    await visit('/sized/10', 'https://chatgpt.com@evil.example/')
    await visit('/sized/10', 'https://example.com/')
    // A crawler carrying a Referer is judged, never a referral.
    await send('/sized/10', { 'User-Agent': UA.gptbot, Referer: 'https://chatgpt.com/' })

    const r = await report()
    expect(operator(r, 'OpenAI')).toMatchObject({ crawled: 7, referred: 3, crawlToRefer: 7 / 3, referrers: [{ referrer: 'chatgpt.com', visits: 3 }] })
    expect(operator(r, 'Anthropic')).toMatchObject({ crawled: 9, referred: 2, crawlToRefer: 4.5, referrers: [{ referrer: 'claude.ai', visits: 2 }] })
    expect(operator(r, 'Perplexity')).toMatchObject({ crawled: 0, referred: 1, crawlToRefer: 0 })
    expect(operator(r, 'Google')).toMatchObject({ crawled: 0, referred: 2 })
    expect(
      operator(r, 'Google')
        ?.referrers.map((h) => h.referrer)
        .sort(),
    ).toEqual(['www.google.co.uk', 'www.google.com'])
    // Nothing of the person is stored but the counter.
    const rows = await env.DB.prepare('SELECT * FROM referrals_daily ORDER BY referrer').all()
    expect(rows.results.map((row) => Object.keys(row).sort())).toEqual(Array(5).fill(['day', 'host', 'referrer', 'visits']))
    expect(rows.results.reduce((n, row) => n + (row.visits as number), 0)).toBe(8)
    // No raw row for a referral, and no agent named after a person.
    expect(await env.DB.prepare("SELECT count(*) AS n FROM events WHERE type = 'referral'").first('n')).toBe(0)
  })

  it('an operator with crawls and no referral has crawlToRefer null', { timeout: 60_000 }, async () => {
    await send('/sized/10', { 'User-Agent': UA.gptbot })
    expect(operator(await report(), 'OpenAI')).toMatchObject({ crawled: 1, referred: 0, crawlToRefer: null })
  })
})
