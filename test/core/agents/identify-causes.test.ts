import { describe, expect, it } from 'vitest'
import { identifyAgent } from '../../../src/core/agents/index.ts'

// The causes found in the misses and false positives, each as a rule.
describe('a + is a bot signal only before a URL or an address', () => {
  // Capability flags, models and versions with a `+` are people's devices.
  it.each([
    ['Mozilla/5.0 (Web0S; Linux/SmartTV) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/87.0.4280.88 Safari/537.36 HbbTV/1.6.1 (+DRM; LGE; OLED77GX6LA; WEBOS5.0 03.20.28; W50_O20; DTV_W20O;)'],
    ['Mozilla/5.0 (;;;) AppleWebKit/534.6 HbbTV/1.1.1 (+DL+PVR; inverto; IDL-6640N Volksbox Essential; 1.0; 1.0;) hdplusinteraktiv/1.0 (NETRANGEMMH;)  CE-HTML/1.0'],
    [
      'Mozilla/5.0 (Unknown; Linux armv7l) AppleWebKit/537.1+ (KHTML, like Gecko) Safari/537.1+ LG Browser/6.00.00(+mouse+SCREEN+TUNER; LGE; 32LF580U-ZA; 03.11.32; 0x00000001;); LG NetCast.TV-2013 /03.11.32 (LG 32LF580U-ZA wireless)',
    ],
    ['Mozilla/5.0 (Linux; Android 7.0; TELMA F1+4G Build/NRD90M) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/69.0.3497.100 Mobile Safari/537.36'],
    [
      'Mozilla/5.0 (Linux; arm_64; Android 13; inoiPad 128+4GB Wi-Fi+4G) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/118.0.5993.393 YaSearchBrowser/23.115 BroPP/1.0 YaSearchApp/23.115 webOmni SA/3 Mobile Safari/537.36',
    ],
  ])('%s is a person', (ua) => {
    expect(identifyAgent(ua)).toBeNull()
  })

  it.each([
    ['Mozilla/5.0 (compatible; AcmeThing/1.0; +https://acme.example/thing)', 'acmething'],
    ['AcmeThing/1.0 (+www.acme.example)', 'acmething'],
    ['AcmeThing/1.0 (+ops@acme.example)', 'acmething'],
    ['Mozilla/5.0 (compatible; Poduptime; +fediverse.observer)', 'poduptime'],
  ])('%s is a bot named %s', (ua, token) => {
    expect(identifyAgent(ua)).toMatchObject({ kind: 'bot', tokens: [token] })
  })
})

describe("a bare word among a device's details is a model, not a client", () => {
  it.each([
    ['Mozilla/5.0 (Linux; Android 8.0.0; Expanse) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/86.0.4240.99 Mobile Safari/537.36'],
    ['Mozilla/5.0 (Linux; U; Android 4.2.2; en-us; RUBY Build/JDQ39) AppleWebKit/534.30 (KHTML, like Gecko) Version/4.0 Mobile Safari/534.30'],
    ['UCWEB/2.0 (Java; U; MIDP-2.0; fr-FR; LG-X330T) U2/1.0.0 UCBrowser/9.3.0.326 U2/1.0.0 Mobile UNTRUSTED/1.0'],
    ['XBMC/9.04 r19840 (Mac OS X; Darwin 9.6.0; http://www.xbmc.org)'],
    ['Mozilla/5.0 (Linux; Android 8.1.0; CUBOT_NOVA Build/O11019) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/71.0.3578.99 Mobile Safari/537.36'],
  ])('%s is a person', (ua) => {
    expect(identifyAgent(ua)).toBeNull()
  })

  // A product with a version, a crawler's name or a name before its URL still counts there.
  it.each([
    ['Mozilla/5.0 (Linux; Android 8.0; Pixel 2 Build/OPD3.170816.012; DuplexWeb-Google/1.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/74.0.3729.131 Mobile Safari/537.36', 'duplexweb-google'],
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7; TSMbot) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/136.0.0.0 Safari/537.36', 'tsmbot'],
    ['Mozilla/5.0 (X11; Linux x86_64; GTmetrix https://gtmetrix.com/) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/75.0.3770.100 Safari/537.36', 'gtmetrix'],
    ['Mozilla/5.0 (X11; U; Linux i686; en-US; rv:1.9.2.24; ips-agent) Gecko/20111107 Ubuntu/10.04 (lucid) Firefox/3.6.24', 'ips-agent'],
  ])('%s is %s', (ua, token) => {
    expect(identifyAgent(ua)?.tokens).toEqual([token])
  })
})

describe('bot words without versions, anywhere a name stands', () => {
  it.each([
    ['AkismetBot', 'akismetbot'],
    ['Mozilla/5.0 (compatible; YoudaoBot)', 'youdaobot'],
    ['Mozilla/5.0 (IndeedBot 1.1)', 'indeedbot'],
    ['Mavifinds Bot', 'mavifinds'],
    ['Mozilla/5.0 (Windows NT 6.1) AppleWebKit/537.1 (KHTML, like Gecko) Chrome/21.0.1180.89 Safari/537.1; 360Spider-Image', '360spider-image'],
    ['Baidu-YunGuanCe-Bot(ce.baidu.com)', 'baidu-yunguance-bot'],
    ['Mozilla/5.0 (ShopAlike; LadenZeile) FeedBot', 'feedbot'],
    ['PHPCrawl', 'phpcrawl'],
    ['Sellers.Guide Crawler by Primis', 'sellers.guide'],
    ['Valimail/1.0 (domain scanner)', 'valimail'],
    ['Mozilla/5.0 (compatible; MSIE 10.0; Windows NT 6.1; Trident/6.0) Probe by Siteimprove.com', 'siteimprove'],
    ['Hatena::Russia::Crawler/0.01', 'hatena'],
    ['Mozilla/5.0 (Windows; U; Windows NT 6.0; en-GB; rv:1.0; trendictionbot0.5.0; trendiction search; http://www.trendiction.de/bot)', 'trendictionbot0.5.0'],
  ])('%s is a bot named %s', (ua, token) => {
    expect(identifyAgent(ua)).toMatchObject({ kind: 'bot', tokens: [token] })
  })
})

describe("the token is the client's own name, never a filler word", () => {
  it.each([
    ['Claude-Web/1.0 (web crawler; +https://www.anthropic.com/)', ['claude-web'], 'claude-web'],
    ['Mozilla/5.0 (compatible; Linguee Bot; +http://www.linguee.com/bot)', ['linguee'], 'linguee bot'],
    ['Mozilla/5.0 (compatible; Kangaroo Bot/1.0)', ['kangaroo'], 'kangaroo bot'],
    ['Mozilla/5.0 (compatible; Gluten Free Crawler/1.0; +http://glutenfreepleasure.com/)', ['gluten'], 'gluten free crawler'],
    ['Who.is Bot', ['who.is'], 'who.is bot'],
  ])('%s', (ua, tokens, name) => {
    const identity = identifyAgent(ua)
    expect(identity?.tokens).toEqual(tokens)
    expect(identity?.names).toContain(name)
  })
})

describe('names in odd places', () => {
  // After Safari/537.36, inside the KHTML comment, after `compatible`, or alone.
  it.each([
    ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko; Google Web Preview) Chrome/27.0.1453 Safari/537.36', 'google-web-preview'],
    ['Mozilla/5.0 (en-US) AppleWebKit/537.36 (KHTML, like Gecko; Google-Assess) Chrome/34.0.1847.116 Safari/537.36', 'google-assess'],
    ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko; compatible; pageburst) Chrome/98.0.4758.102 Safari/537.36', 'pageburst'],
    ['Mozilla/5.0 (compatible; Dataprovider.com)', 'dataprovider.com'],
    ['Mozilla/5.0 Keydrop', 'keydrop'],
    ['Mozilla/5.0 (Morningscore/1.0)', 'morningscore'],
    ['NodePing', 'nodeping'],
    ['productsup.io/crawler', 'productsup.io'],
    ['PostRank/2.0 (postrank.com)', 'postrank'],
  ])('%s is %s', (ua, token) => {
    const identity = identifyAgent(ua)
    expect(identity?.kind).toBe('bot')
    expect(identity?.tokens[0] === token || identity?.id === token).toBe(true)
  })

  // Bare words that name a device or a person's app are not taken for clients.
  it.each([
    ['iPhone11Pro'],
    ['Gaana-iOS'],
    ['Clementine 1.1'],
    ['Mozilla/3.01 (compatible;)'],
    ['MozacFetch/49.0.20200702190156'],
    ['Mozilla/4.0 (compatible; ms-office; MSOffice 16)'],
    ['Mozilla/5.0 (compatible; IBrowse 3.0; AmigaOS4.0)'],
  ])('%s is not an agent', (ua) => {
    expect(identifyAgent(ua)).toBeNull()
  })
})

describe('others: a header naming unrelated crawlers', () => {
  it('reports the other crawler beside the winner', () => {
    const identity = identifyAgent('Googlebot/2.1 GPTBot/1.1')
    expect(identity?.id).toBe('googlebot')
    expect(identity?.others?.map((o) => o.id)).toEqual(['gptbot'])
    expect(identity?.others?.[0]).toMatchObject({ kind: 'bot', tokens: ['gptbot'], operator: 'OpenAI', others: undefined })
  })

  it('whichever comes first wins; the rest are others', () => {
    const identity = identifyAgent('Mozilla/5.0 (compatible; GPTBot/1.1; ClaudeBot/1.0; Bytespider; +https://example.com)')
    expect(identity?.id).toBe('gptbot')
    expect(identity?.others?.map((o) => o.id)).toEqual(['claudebot', 'bytespider'])
  })

  // A crawler and its own fallbacks are one agent: Google-InspectionTool obeys `googlebot`, Applebot falls back to it.
  it.each([
    ['Mozilla/5.0 (compatible; Googlebot/2.1; Google-InspectionTool/1.0; +http://www.google.com/bot.html)'],
    ['Mozilla/5.0 (compatible; Applebot/0.1; Googlebot/2.1)'],
    ['Googlebot/2.1 Googlebot/2.1'],
    ['Mozilla/5.0 (compatible; Googlebot/2.1) curl/8.0'],
    ['Mozilla/5.0 (compatible; Googlebot/2.1) AcmeBot/1.0'],
  ])('%s is not ambiguous', (ua) => {
    const identity = identifyAgent(ua)
    expect(identity?.kind).toBe('bot')
    expect(identity?.others).toBeUndefined()
  })

  // Every result has the same keys, so code reading results stays monomorphic.
  it('gives every result the same keys', () => {
    const keys = (ua: string) => Object.keys(identifyAgent(ua) ?? {}).join(',')
    const expected = keys('Googlebot/2.1 GPTBot/1.1')
    for (const ua of ['Googlebot/2.1', 'curl/8.0', 'AcmeBot/1.0', 'Mozilla/5.0 (compatible; +https://example.com)']) expect(keys(ua)).toBe(expected)
  })
})
