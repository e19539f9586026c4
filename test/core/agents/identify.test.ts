import { describe, expect, it } from 'vitest'
import { identifyAgent } from '../../../src/core/agents/index.ts'
import { botHeaders, browserHeaders, toolHeaders } from '../../../dev/user-agents.ts'

describe('people', () => {
  it('has a large table of real browser headers', () => {
    expect(browserHeaders.length).toBeGreaterThanOrEqual(40)
  })

  // Browsers, in-app browsers and headers with bot-like words in device names are people.
  it.each(browserHeaders.map((ua) => [ua]))('%s is a person', (ua) => {
    expect(identifyAgent(ua)).toBeNull()
  })

  // A missing or empty header says nothing: no token.
  it.each([[null], [undefined], ['']])('%j is no one', (ua) => {
    expect(identifyAgent(ua)).toBeNull()
  })

  // A client that names no known agent and gives no bot signal is not taken for one.
  it.each([['Dalvik/2.1.0 (Linux; U; Android 11; SM-A515F Build/RP1A.200720.012)'], ['Spotify/8.9.96.476 iOS/17.5.1 (iPhone15,2)'], ['SomeApp/1.0'], ['-']])('%s is not an agent', (ua) => {
    expect(identifyAgent(ua)).toBeNull()
  })
})

describe('crawlers and fetchers as their operators document them', () => {
  it('has a large table of real bot headers', () => {
    expect(botHeaders.length).toBeGreaterThanOrEqual(60)
  })

  it.each(botHeaders.map((c) => [c.ua, c]))('%s', (_ua, c) => {
    const identity = identifyAgent(c.ua)
    expect(identity?.kind).toBe('bot')
    expect(identity?.tokens).toEqual(c.tokens)
    if (c.id !== undefined) expect(identity?.id).toBe(c.id)
  })

  // A fetcher whose operator says it ignores robots.txt obeys no token at all.
  it.each([
    ['Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot', 'chatgpt-user'],
    ['FeedFetcher-Google; (+http://www.google.com/feedfetcher.html)', 'feedfetcher-google'],
    ['Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)', 'slackbot-linkexpanding'],
  ])('%s ignores robots.txt', (ua, id) => {
    const identity = identifyAgent(ua)
    expect(identity).toMatchObject({ id, kind: 'bot', obeysRobotsTxt: false, tokens: [] })
  })

  it('reports the operator and the category of a known agent', () => {
    expect(identifyAgent('Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)')).toEqual({
      tokens: ['yandexbot', 'yandex'],
      kind: 'bot',
      operator: 'Yandex',
      category: 'Search Engine Crawler',
      purpose: 'search',
      obeysRobotsTxt: true,
      id: 'yandexbot',
      names: ['mozilla', 'compatible', 'yandexbot'],
    })
  })
})

describe('generic clients', () => {
  it.each(toolHeaders.map((c) => [c.ua, c]))('%s is a tool', (_ua, c) => {
    const identity = identifyAgent(c.ua)
    expect(identity?.kind).toBe('tool')
    expect(identity?.tokens).toEqual(c.tokens)
    expect(identity?.obeysRobotsTxt).toBe(false)
  })
})

describe('several names in one header', () => {
  // Between two crawlers, the one whose fallbacks include the other's token is more specific.
  it.each([
    ['Mozilla/5.0 (compatible; Googlebot/2.1; Google-InspectionTool/1.0; +http://www.google.com/bot.html)'],
    ['Mozilla/5.0 (compatible; Google-InspectionTool/1.0; Googlebot/2.1; +http://www.google.com/bot.html)'],
  ])('Google-InspectionTool wins over Googlebot in %s', (ua) => {
    expect(identifyAgent(ua)?.id).toBe('google-inspectiontool')
  })

  // A crawler's name wins over a proxy or library it is sent through.
  it('a crawler wins over a generic client', () => {
    const ua = 'Mozilla/5.0 (compatible; AhrefsBot/5.0; +http://ahrefs.com/robot/) AppEngine-Google; (+http://code.google.com/appengine; appid: s~proxyfile1-hrd)'
    expect(identifyAgent(ua)).toMatchObject({ id: 'ahrefsbot', tokens: ['ahrefsbot'] })
  })

  // A client library wins over the language runtime it reports.
  it.each([
    ['Python/3.12 aiohttp/3.10.10', 'aiohttp'],
    ['Apache-HttpClient/4.5.14 (Java/17.0.12)', 'apache-httpclient'],
  ])('%s is %s', (ua, token) => {
    expect(identifyAgent(ua)?.tokens).toEqual([token])
  })

  // Otherwise the first crawler named wins; a name after `like` is a comparison, not a claim.
  it.each([
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 10_11_1) AppleWebKit/601.2.4 (KHTML, like Gecko) Version/9.0.1 Safari/601.2.4 facebookexternalhit/1.1 Facebot Twitterbot/1.0', 'facebookexternalhit'],
    ['TelegramBot (like TwitterBot)', 'telegrambot'],
    ['Feedly/1.0 (+http://www.feedly.com/fetcher.html; 16 subscribers; like FeedFetcher-Google)', 'feedly'],
  ])('%s is %s', (ua, id) => {
    expect(identifyAgent(ua)?.id).toBe(id)
  })

  // A crawler's `+http` link ends its own description, not the header: a crawler named after it is still read.
  it.each([
    ['Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html) GPTBot/1.1', 'googlebot', 'gptbot'],
    ['Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm) GPTBot/1.1', 'bingbot', 'gptbot'],
    ['Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.1; +https://openai.com/gptbot) Googlebot/2.1', 'gptbot', 'googlebot'],
  ])('%s names %s and, in others, %s', (ua, id, other) => {
    const identity = identifyAgent(ua)
    expect(identity?.id).toBe(id)
    expect(identity?.others?.map((o) => o.id)).toEqual([other])
  })

  // A self-declared crawler wins over the library it runs on.
  it('an unknown bot name wins over a generic client', () => {
    expect(identifyAgent('python-requests/2.31.0 AcmeBot/1.0')).toMatchObject({ kind: 'bot', tokens: ['acmebot'] })
  })
})

describe('whole names, never substrings', () => {
  it.each([
    ['BytedanceWebview is not Bytespider', 'Mozilla/5.0 (Linux; Android 13) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/129.0 Mobile Safari/537.36 BytedanceWebview/d8a21c6'],
    ['Instagram is not facebookexternalhit', 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 352.1.0.31.93'],
    [
      'DuckDuckGo the browser is not DuckDuckBot',
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 DuckDuckGo/7 Safari/605.1.15',
    ],
    ['a Pinterest app is not Pinterestbot without a bot URL', 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [Pinterest/iOS]'],
    ['Cubot is a phone', 'Mozilla/5.0 (Linux; Android 9; CUBOT X19 Build/PPR1.180610.011) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36'],
  ])('%s', (_what, ua) => {
    expect(identifyAgent(ua)).toBeNull()
  })

  it('matches names case-insensitively', () => {
    expect(identifyAgent('mozilla/5.0 (compatible; GOOGLEBOT/2.1; +http://www.google.com/bot.html)')?.id).toBe('googlebot')
  })

  it('matches a multi-word name only when its words follow one another', () => {
    expect(identifyAgent('Mozilla/5.0 (compatible; Yahoo! Slurp China; http://misc.yahoo.com.cn/help.html)')?.id).toBe('slurp')
    expect(identifyAgent('Screaming Frog SEO Spider/21.4')?.id).toBe('screaming-frog-seo-spider')
    expect(identifyAgent('Screaming Toad/1.0')).toBeNull()
  })
})

describe('unknown automated clients', () => {
  // A product name ending in bot, crawler or spider is a crawler, known or not.
  it.each([
    ['ExampleCrawler/2.0', 'examplecrawler'],
    ['Mozilla/5.0 (compatible; MyCustomBot/1.0; +https://example.com/bot)', 'mycustombot'],
    ['Mozilla/5.0 (compatible; FooBot)', 'foobot'],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36 ExampleSpider/1.1', 'examplespider'],
  ])('%s is a bot named %s', (ua, token) => {
    expect(identifyAgent(ua)).toEqual({ tokens: [token], kind: 'bot', obeysRobotsTxt: true, names: expect.arrayContaining([token]) as unknown })
  })

  // A `+http…` URL or a contact address marks a robot; its token is its own name.
  it.each([
    ['Mozilla/5.0 (compatible; AcmeFetcher/3.1; +https://acme.example/fetcher)', 'acmefetcher'],
    ['AcmeFetcher/3.1 (+https://acme.example/fetcher)', 'acmefetcher'],
    ['Acme-Preview/2 (ops@acme.example)', 'acme-preview'],
    ['http.rb/5.1.1 (Mastodon/4.2.0; +https://mastodon.social/)', 'mastodon'],
  ])('%s is a bot named %s', (ua, token) => {
    expect(identifyAgent(ua)).toMatchObject({ tokens: [token], kind: 'bot', obeysRobotsTxt: true })
  })

  it('a bot signal without a name still marks a bot, with no token of its own', () => {
    expect(identifyAgent('Mozilla/5.0 (compatible; +http://foo.example/bot)')).toMatchObject({ kind: 'bot', tokens: [] })
  })
})

describe('names', () => {
  // The guard looks custom groups up by these names.
  it('lists every product name, lower case, once', () => {
    const identity = identifyAgent('Mozilla/5.0 (compatible; AcmeBot/1.0; +https://acme.example/bot) AcmeBot/1.0 Extra/2')
    expect(identity?.names).toEqual(['mozilla', 'compatible', 'acmebot', 'extra'])
  })

  it('leaves out versions, URLs and e-mail addresses', () => {
    const identity = identifyAgent('Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)')
    expect(identity?.names).toEqual(['mozilla', 'applewebkit', 'khtml', 'like', 'compatible', 'claudebot'])
  })
})

describe('hostile input', () => {
  // Bad request input is never an exception: it is just "no token".
  it.each([
    ['SQL', "' OR 1=1; DROP TABLE users; --"],
    ['HTML', '<script>alert("Googlebot")</script>'],
    ['control characters', '\u0000\u0001\u0007\u001b[31m\u007f'],
    ['lone surrogates', '\ud800\udc00\udfff\ud83d'],
    ['only brackets', '(((((((((([[[[[[]]]]]]))))))'],
    ['only separators', ';;;,,,///:::@@@+++'],
  ])('%s', (_what, ua) => {
    expect(() => identifyAgent(ua)).not.toThrow()
  })

  it('finds a name between control characters', () => {
    expect(identifyAgent('\u0000Googlebot/2.1\u0000')?.id).toBe('googlebot')
  })

  // Only the first 2 KiB are read: a name padded past them is not seen.
  it('reads only the start of a 64 KiB header', () => {
    expect(identifyAgent(`${'x'.repeat(64 * 1024)} Googlebot/2.1`)).toBeNull()
    expect(identifyAgent(`Googlebot/2.1 ${'x'.repeat(64 * 1024)}`)?.id).toBe('googlebot')
  })

  // A name cut by the limit is not taken for the shorter name it begins with.
  it('does not match half a name at the limit', () => {
    const ua = `${'x'.repeat(2038)} Googlebot-Image/1.0`
    expect(identifyAgent(ua)?.id).not.toBe('googlebot')
  })
})
