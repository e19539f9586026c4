import type { AgentEntry } from '../types.ts'

const BING = 'https://www.bing.com/webmasters/help/which-crawlers-does-bing-use-8c184ec0'
const bing = {
  ipRanges: [{ url: 'https://www.bing.com/toolbox/bingbot.json', format: 'google-json' }],
  reverseDns: ['.search.msn.com'],
} as const
const BAIDU = 'https://www.baidu.com/search/robots_english.html'
const baidu = { reverseDns: ['.crawl.baidu.com', '.crawl.baidu.jp'] } as const
const APPLE = 'https://support.apple.com/en-us/119829'

/** Web search engines other than Google and Yandex. */
export const searchEngines = [
  { id: 'bingbot', tokens: ['bingbot'], uaNames: ['bingbot'], operator: 'Microsoft', category: 'Search Engine Crawler', purpose: 'search', obeysRobotsTxt: true, verification: bing, docs: BING },
  { id: 'adidxbot', tokens: ['adidxbot'], uaNames: ['adidxbot'], operator: 'Microsoft', category: 'Advertising & Marketing', purpose: 'analysis', obeysRobotsTxt: true, verification: bing, docs: BING },
  { id: 'microsoftpreview', tokens: ['microsoftpreview'], uaNames: ['MicrosoftPreview'], operator: 'Microsoft', category: 'Page Preview', purpose: 'user-fetch', obeysRobotsTxt: true, verification: bing, docs: BING },
  { id: 'bingpreview', tokens: ['bingpreview'], uaNames: ['BingPreview'], operator: 'Microsoft', category: 'Page Preview', purpose: 'user-fetch', obeysRobotsTxt: true, verification: bing, docs: BING },
  // Bing's predecessor crawler; still spoofed and still named in old robots.txt files.
  { id: 'msnbot', tokens: ['msnbot'], uaNames: ['msnbot', 'msnbot-media'], operator: 'Microsoft', category: 'Search Engine Crawler', purpose: 'search', obeysRobotsTxt: true, verification: bing, docs: BING },

  { id: 'baiduspider', tokens: ['baiduspider'], uaNames: ['Baiduspider'], operator: 'Baidu', category: 'Search Engine Crawler', purpose: 'search', obeysRobotsTxt: true, verification: baidu, docs: BAIDU },
  { id: 'baiduspider-image', tokens: ['baiduspider-image'], uaNames: ['Baiduspider-image'], operator: 'Baidu', category: 'Search Engine Crawler', purpose: 'search', obeysRobotsTxt: true, verification: baidu, docs: BAIDU },
  { id: 'baiduspider-video', tokens: ['baiduspider-video'], uaNames: ['Baiduspider-video'], operator: 'Baidu', category: 'Search Engine Crawler', purpose: 'search', obeysRobotsTxt: true, verification: baidu, docs: BAIDU },
  { id: 'baiduspider-news', tokens: ['baiduspider-news'], uaNames: ['Baiduspider-news'], operator: 'Baidu', category: 'Search Engine Crawler', purpose: 'search', obeysRobotsTxt: true, verification: baidu, docs: BAIDU },
  { id: 'baiduspider-render', tokens: ['baiduspider-render'], uaNames: ['Baiduspider-render'], operator: 'Baidu', category: 'Search Engine Crawler', purpose: 'search', obeysRobotsTxt: true, verification: baidu, docs: BAIDU },

  { id: 'duckduckbot', tokens: ['duckduckbot'], uaNames: ['DuckDuckBot', 'DuckDuckBot-Https'], operator: 'DuckDuckGo', category: 'Search Engine Crawler', purpose: 'search', obeysRobotsTxt: true, docs: 'https://duckduckgo.com/duckduckgo-help-pages/results/duckduckbot' },
  { id: 'duckassistbot', tokens: ['duckassistbot'], uaNames: ['DuckAssistBot'], operator: 'DuckDuckGo', category: 'AI Assistant', purpose: 'user-fetch', obeysRobotsTxt: true, docs: 'https://duckduckgo.com/duckduckgo-help-pages/results/duckassistbot' },

  // Apple: "If robots instructions don't mention Applebot but do mention Googlebot, the Apple robot will follow Googlebot instructions."
  { id: 'applebot', tokens: ['applebot', 'googlebot'], uaNames: ['Applebot'], operator: 'Apple', category: 'Search Engine Crawler', purpose: 'search', obeysRobotsTxt: true, verification: { ipRanges: [{ url: 'https://search.developer.apple.com/applebot.json', format: 'google-json' }], reverseDns: ['.applebot.apple.com'] }, docs: APPLE },
  // Control-only: decides whether what Applebot fetched may train Apple's models.
  { id: 'applebot-extended', tokens: ['applebot-extended'], uaNames: [], operator: 'Apple', category: 'AI Crawler', purpose: 'training', hasOwnUserAgent: false, obeysRobotsTxt: true, docs: APPLE },

  { id: 'yeti', tokens: ['yeti'], uaNames: ['Yeti'], operator: 'Naver', category: 'Search Engine Crawler', purpose: 'search', obeysRobotsTxt: true, docs: 'https://naver.me/spd' },
  { id: 'daum', tokens: ['daum'], uaNames: ['Daum', 'Daumoa'], operator: 'Kakao (Daum)', category: 'Search Engine Crawler', purpose: 'search', obeysRobotsTxt: true, docs: 'https://cs.daum.net/faq/15/4118.html' },
  { id: 'seznambot', tokens: ['seznambot'], uaNames: ['SeznamBot'], operator: 'Seznam.cz', category: 'Search Engine Crawler', purpose: 'search', obeysRobotsTxt: true, verification: { reverseDns: ['.seznam.cz'] }, docs: 'https://o-seznam.cz/napoveda/vyhledavani/en/seznambot-crawler/' },
  { id: 'petalbot', tokens: ['petalbot'], uaNames: ['PetalBot'], operator: 'Huawei (Petal Search)', category: 'Search Engine Crawler', purpose: 'search', obeysRobotsTxt: true, verification: { reverseDns: ['.petalsearch.com'] }, docs: 'https://webmaster.petalsearch.com/site/petalbot' },
  // A multi-word name's token is its first word: an RFC 9309 parser reads a
  // `User-agent:` value only up to the first character outside [A-Za-z_-].
  { id: 'sogou', tokens: ['sogou'], uaNames: ['Sogou web spider', 'Sogou inst spider', 'Sogou News Spider', 'Sogou Pic Spider', 'Sogou spider2'], operator: 'Sogou (Tencent)', category: 'Search Engine Crawler', purpose: 'search', obeysRobotsTxt: true, docs: 'https://www.sogou.com/docs/help/webmasters.htm' },
  { id: 'qwantbot', tokens: ['qwantbot'], uaNames: ['Qwantbot', 'Qwantify'], operator: 'Qwant', category: 'Search Engine Crawler', purpose: 'search', obeysRobotsTxt: true, docs: 'https://help.qwant.com/bot/' },
  { id: 'mojeekbot', tokens: ['mojeekbot'], uaNames: ['MojeekBot'], operator: 'Mojeek', category: 'Search Engine Crawler', purpose: 'search', obeysRobotsTxt: true, docs: 'https://www.mojeek.com/bot.html' },
  { id: 'kagibot', tokens: ['kagibot'], uaNames: ['Kagibot'], operator: 'Kagi', category: 'Search Engine Crawler', purpose: 'search', obeysRobotsTxt: true, docs: 'https://kagi.com/bot' },
  { id: 'yepbot', tokens: ['yepbot'], uaNames: ['YepBot'], operator: 'Yep (Ahrefs)', category: 'Search Engine Crawler', purpose: 'search', obeysRobotsTxt: true, docs: 'https://yep.com/yepbot/' },
  { id: 'slurp', tokens: ['slurp'], uaNames: ['Yahoo! Slurp', 'Slurp'], operator: 'Yahoo', category: 'Search Engine Crawler', purpose: 'search', obeysRobotsTxt: true, verification: { reverseDns: ['.crawl.yahoo.net'] }, docs: 'http://help.yahoo.com/help/us/ysearch/slurp' },
  { id: 'coccocbot-web', tokens: ['coccocbot-web', 'coccocbot'], uaNames: ['coccocbot-web'], operator: 'Cốc Cốc', category: 'Search Engine Crawler', purpose: 'search', obeysRobotsTxt: true, docs: 'https://help.coccoc.com/searchengine' },
  { id: 'coccocbot-image', tokens: ['coccocbot-image', 'coccocbot'], uaNames: ['coccocbot-image'], operator: 'Cốc Cốc', category: 'Search Engine Crawler', purpose: 'search', obeysRobotsTxt: true, docs: 'https://help.coccoc.com/searchengine' },
  { id: '360spider', tokens: ['360spider'], uaNames: ['360Spider'], operator: 'Qihoo 360', category: 'Search Engine Crawler', purpose: 'search', obeysRobotsTxt: true, docs: 'https://www.so.com/help/help_3_2.html' },
  { id: 'yisouspider', tokens: ['yisouspider'], uaNames: ['YisouSpider'], operator: 'Alibaba (Shenma)', category: 'Search Engine Crawler', purpose: 'search', obeysRobotsTxt: true, docs: 'https://zhanzhang.sm.cn/' },
  { id: 'seekportbot', tokens: ['seekportbot'], uaNames: ['SeekportBot', 'Seekport Crawler'], operator: 'Seekport', category: 'Search Engine Crawler', purpose: 'search', obeysRobotsTxt: true, docs: 'https://bot.seekport.com/' },
] as const satisfies readonly AgentEntry[]
