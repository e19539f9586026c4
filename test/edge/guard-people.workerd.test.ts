import { createExecutionContext, env, SELF, waitOnExecutionContext } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { createWorker } from '../../src/package/app.ts'
import type { ConfigInput } from '../../src/core/config/index.ts'
import type { JudgedRequest } from '../../src/core/events.ts'

// Through the Worker entry: in block mode, only a client that names itself
// automated is refused by the `*` group. People whose device, console or
// player happens to carry a bot-like word, and apps that name only
// themselves, pass; and a crawler named after another's `+http` link is
// still judged, by the stricter verdict.

const BLOCK_STAR: ConfigInput = { rules: [{ userAgent: '*', allow: '/', disallow: ['/private/'] }], guard: { mode: 'block' } }

/** createWorker (the template's entry, src/workers) with `config` and a recorder. */
function worker(config: ConfigInput) {
  const events: JudgedRequest[] = []
  const entry = createWorker(config, { record: (event) => void events.push(event), verify: () => 'unverified' })
  const fetch = async (path: string, ua: string) => {
    const ctx = createExecutionContext()
    const request = new Request(`http://localhost${path}`, { headers: { 'User-Agent': ua } })
    const res = await entry.fetch!(request as Request<unknown, IncomingRequestCfProperties>, env, ctx)
    await waitOnExecutionContext(ctx)
    return res
  }
  return { events, fetch }
}

// People's browsers from public corpora that an identifier once took for bots.
const PEOPLE = [
  // Android phones whose model name holds "bot".
  'Mozilla/5.0 (Linux; Android 7.0; M bot 54) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/78.0.3904.96 Mobile Safari/537.36',
  'Mozilla/5.0 (Linux; Android 6.0; POWER BOT Build/MRA58K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/54.0.2840.85 Mobile Safari/537.36',
  'Mozilla/5.0 (Linux; Android 6.0; IDbot553 Build/MRA58K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/59.0.3071.125 Mobile Safari/537.36',
  'Mozilla/5.0 (Linux; Android 7.1.1; M_bot_tab_1150 Build/N9F27F) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/67.0.3396.87 Safari/537.36',
  // A games console.
  'Mozilla/5.0 (PlayStation 4 Pro 5.0)',
  // Media players and store apps.
  'iTunes/10.2.1 (Windows; Microsoft Windows 7 Enterprise Edition Service Pack 1 (Build 7601)) AppleWebKit/533.20.25',
  'XBMC/9.04-beta1 r19639 (Windows; Windows XP Professional Service Pack 2 build 2600; http://www.xbmc.org)',
  // Feature phones naming a WAP browser or a Java runtime.
  'FLY_E141TV_PLUS/ WAP Browser/MAUI(HTTP PGDL;HTTPS)Profile/Q03C1-2.40 ru-RU',
  'Mozilla/5.0 (Linux; U; Android 1.6; fr-fr; LG-GT540 ; Build/Donut) AppleWebKit/528.5+ (KHTML, like Gecko) Version/3.1.2 Mobile Safari/525.20.1 Java/Jbed/7.0 Profile/MIDP-2.1 Configuration/CLDC-1.1',
  // Firefox with its portal's version in a comment.
  'Mozilla/5.0 (Windows; U; Windows NT 6.0; de; rv:1.9.1.6) Gecko/20091201 (WEB.DE/1.5) Firefox/3.5.6 (.NET CLR 3.5.30729)',
]

describe('block mode refuses no person', () => {
  it.each(PEOPLE.map((ua) => [ua]))('%s passes a path * disallows, unrecorded', { timeout: 20_000 }, async (ua) => {
    const w = worker(BLOCK_STAR)
    const res = await w.fetch('/private/x', ua)
    expect(res.status).toBe(200)
    expect(w.events).toEqual([])
  })

  // A lone app name says nothing about being a crawler.
  it.each([['Magician'], ['PodTrapper'], ['Music Player Daemon 0.19.21']])('the app %s passes, unrecorded', { timeout: 20_000 }, async (ua) => {
    const w = worker(BLOCK_STAR)
    expect((await w.fetch('/private/x', ua)).status).toBe(200)
    expect(w.events).toEqual([])
  })

  it('a group naming such an app still judges it', { timeout: 20_000 }, async () => {
    const w = worker({
      rules: [
        { userAgent: '*', allow: '/' },
        { userAgent: 'Magician', disallow: '/private/' },
      ],
      guard: { mode: 'block' },
    })
    expect((await w.fetch('/private/x', 'Magician')).status).toBe(403)
    expect(w.events.map((e) => [e.group, e.allowed])).toEqual([['magician', false]])
  })

  // The other side: a client that names itself automated is refused by `*`.
  it.each([
    ['AcmeBot/1.0', 'acmebot'],
    ['Mozilla/5.0 (compatible; AcmeFetcher/3.1; +https://acme.example/fetcher)', 'acmefetcher'],
    ['curl/8.5.0', 'curl'],
    ['Java/17.0.2', 'java'],
  ])('%s is refused on that path', { timeout: 20_000 }, async (ua, token) => {
    const w = worker(BLOCK_STAR)
    expect((await w.fetch('/private/x', ua)).status).toBe(403)
    expect(w.events.map((e) => [e.group, e.allowed, e.agent.tokens[0]])).toEqual([['*', false, token]])
  })
})

describe("a crawler named after another crawler's +http link", () => {
  // robots.config.ts refuses GPTBot everywhere and only logs Googlebot and bingbot.
  it.each([
    ['Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html) GPTBot/1.1'],
    ['Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm) GPTBot/1.1'],
    ['Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.1; +https://openai.com/gptbot) Googlebot/2.1'],
    ['Googlebot/2.1 GPTBot/1.1'],
  ])("%s is refused /blog/1 by GPTBot's group", { timeout: 20_000 }, async (ua) => {
    const res = await SELF.fetch('http://localhost/blog/1', { headers: { 'User-Agent': ua } })
    expect(res.status).toBe(403)
  })
})
