import type { AgentEntry } from '../types.ts'
import { agent } from './define.ts'

const bing = {
  ipRanges: [{ url: 'https://www.bing.com/toolbox/bingbot.json', format: 'google-json' }],
  reverseDns: ['.search.msn.com'],
} as const
const baidu = { reverseDns: ['.crawl.baidu.com', '.crawl.baidu.jp'] } as const

/** Web search engines other than Google and Yandex. */
export const searchEngines = [
  agent('bingbot', 'Microsoft', 'Search Engine Crawler', 'search', { verification: bing }),
  agent('adidxbot', 'Microsoft', 'Advertising & Marketing', 'analysis', { verification: bing }),
  agent('MicrosoftPreview', 'Microsoft', 'Page Preview', 'user-fetch', { verification: bing }),
  agent('BingPreview', 'Microsoft', 'Page Preview', 'user-fetch', { verification: bing }),
  // Bing's predecessor crawler; still spoofed and still named in old robots.txt files.
  agent(['msnbot', 'msnbot-media'], 'Microsoft', 'Search Engine Crawler', 'search', { verification: bing }),

  agent('Baiduspider', 'Baidu', 'Search Engine Crawler', 'search', { verification: baidu }),
  agent('Baiduspider-image', 'Baidu', 'Search Engine Crawler', 'search', { verification: baidu }),
  agent('Baiduspider-video', 'Baidu', 'Search Engine Crawler', 'search', { verification: baidu }),
  agent('Baiduspider-news', 'Baidu', 'Search Engine Crawler', 'search', { verification: baidu }),
  agent('Baiduspider-render', 'Baidu', 'Search Engine Crawler', 'search', { verification: baidu }),

  agent(['DuckDuckBot', 'DuckDuckBot-Https'], 'DuckDuckGo', 'Search Engine Crawler', 'search'),
  agent('DuckAssistBot', 'DuckDuckGo', 'AI Assistant', 'user-fetch'),

  // Apple: "If robots instructions don't mention Applebot but do mention Googlebot, the Apple robot will follow Googlebot instructions."
  agent('Applebot', 'Apple', 'Search Engine Crawler', 'search', {
    tokens: ['applebot', 'googlebot'],
    verification: { ipRanges: [{ url: 'https://search.developer.apple.com/applebot.json', format: 'google-json' }], reverseDns: ['.applebot.apple.com'] },
  }),
  // Control-only: decides whether what Applebot fetched may train Apple's models.
  agent('applebot-extended', 'Apple', 'AI Crawler', 'training', { hasOwnUserAgent: false }),

  agent('Yeti', 'Naver', 'Search Engine Crawler', 'search'),
  agent(['Daum', 'Daumoa'], 'Kakao (Daum)', 'Search Engine Crawler', 'search'),
  agent('SeznamBot', 'Seznam.cz', 'Search Engine Crawler', 'search', { verification: { reverseDns: ['.seznam.cz'] } }),
  agent('PetalBot', 'Huawei (Petal Search)', 'Search Engine Crawler', 'search', { verification: { reverseDns: ['.petalsearch.com'] } }),
  // A multi-word name's token is its first word: an RFC 9309 parser reads a
  // `User-agent:` value only up to the first character outside [A-Za-z_-].
  agent(['Sogou web spider', 'Sogou inst spider', 'Sogou News Spider', 'Sogou Pic Spider', 'Sogou spider2'], 'Sogou (Tencent)', 'Search Engine Crawler', 'search', { id: 'sogou', tokens: ['sogou'] }),
  agent(['Qwantbot', 'Qwantify'], 'Qwant', 'Search Engine Crawler', 'search'),
  agent('MojeekBot', 'Mojeek', 'Search Engine Crawler', 'search'),
  agent('Kagibot', 'Kagi', 'Search Engine Crawler', 'search'),
  agent('YepBot', 'Yep (Ahrefs)', 'Search Engine Crawler', 'search'),
  agent(['Yahoo! Slurp', 'Slurp'], 'Yahoo', 'Search Engine Crawler', 'search', { id: 'slurp', tokens: ['slurp'], verification: { reverseDns: ['.crawl.yahoo.net'] } }),
  agent('coccocbot-web', 'Cốc Cốc', 'Search Engine Crawler', 'search', { tokens: ['coccocbot-web', 'coccocbot'] }),
  agent('coccocbot-image', 'Cốc Cốc', 'Search Engine Crawler', 'search', { tokens: ['coccocbot-image', 'coccocbot'] }),
  agent('360Spider', 'Qihoo 360', 'Search Engine Crawler', 'search'),
  agent('YisouSpider', 'Alibaba (Shenma)', 'Search Engine Crawler', 'search'),
  agent(['SeekportBot', 'Seekport Crawler'], 'Seekport', 'Search Engine Crawler', 'search'),
] as const satisfies readonly AgentEntry[]
