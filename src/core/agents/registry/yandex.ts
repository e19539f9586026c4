import type { AgentEntry } from '../types.ts'
import { agent } from './define.ts'

const yandex = { reverseDns: ['.yandex.ru', '.yandex.net', '.yandex.com'] } as const

// Yandex: "User-agent: Yandex will be used by all Yandex bots" unless a group
// names the specific robot, hence the `yandex` fallback on each crawler.
// Robots that fetch "for purposes other than indexing" (YandexCalendar,
// YandexMetrika...) do not take the general rules into account: they read only
// a group naming them exactly, neither `*` nor `Yandex`.
/** Yandex's robots. */
export const yandexRobots = [
  agent('YandexBot', 'Yandex', 'Search Engine Crawler', 'search', { tokens: ['yandexbot', 'yandex'], verification: yandex }),
  agent('YandexMobileBot', 'Yandex', 'Search Engine Crawler', 'search', { tokens: ['yandexmobilebot', 'yandex'], verification: yandex }),
  agent('YandexImages', 'Yandex', 'Search Engine Crawler', 'search', { tokens: ['yandeximages', 'yandex'], verification: yandex }),
  agent('YandexVideo', 'Yandex', 'Search Engine Crawler', 'search', { tokens: ['yandexvideo', 'yandex'], verification: yandex }),
  agent('YandexVideoParser', 'Yandex', 'Search Engine Crawler', 'search', { tokens: ['yandexvideoparser', 'yandex'], verification: yandex }),
  agent('YandexMedia', 'Yandex', 'Search Engine Crawler', 'search', { tokens: ['yandexmedia', 'yandex'], verification: yandex }),
  agent('YandexNews', 'Yandex', 'Aggregator', 'search', { tokens: ['yandexnews', 'yandex'], verification: yandex }),
  agent('YandexMarket', 'Yandex', 'Search Engine Crawler', 'search', { tokens: ['yandexmarket', 'yandex'], verification: yandex }),
  agent('YandexFavicons', 'Yandex', 'Search Engine Crawler', 'search', { tokens: ['yandexfavicons', 'yandex'], verification: yandex }),
  agent('YandexRenderResourcesBot', 'Yandex', 'Search Engine Crawler', 'search', { tokens: ['yandexrenderresourcesbot', 'yandex'], verification: yandex }),
  agent('YandexTurbo', 'Yandex', 'Search Engine Crawler', 'search', { tokens: ['yandexturbo', 'yandex'], verification: yandex }),
  agent('YandexWebmaster', 'Yandex', 'Search Engine Optimization', 'analysis', { tokens: ['yandexwebmaster', 'yandex'], verification: yandex }),
  agent('YandexPagechecker', 'Yandex', 'Search Engine Optimization', 'analysis', { ignoresWildcardGroup: true, verification: yandex }),
  agent('YandexDirect', 'Yandex', 'Advertising & Marketing', 'analysis', { tokens: ['yandexdirect', 'yandex'], verification: yandex }),
  agent('YandexDirectDyn', 'Yandex', 'Advertising & Marketing', 'analysis', { tokens: ['yandexdirectdyn', 'yandex'], verification: yandex }),
  agent('YaDirectFetcher', 'Yandex', 'Advertising & Marketing', 'analysis', { ignoresWildcardGroup: true, verification: yandex }),
  // YandexAdditional is the robots.txt token; the requests say YandexAdditionalBot.
  agent(['YandexAdditional', 'YandexAdditionalBot'], 'Yandex', 'AI Search', 'search', { tokens: ['yandexadditional', 'yandex'], verification: yandex }),
  agent('YandexAccessibilityBot', 'Yandex', 'Accessibility', 'user-fetch', { ignoresWildcardGroup: true, verification: yandex }),
  agent('YandexMetrika', 'Yandex', 'Monitoring & Analytics', 'service', { ignoresWildcardGroup: true, verification: yandex }),
  agent('YandexCalendar', 'Yandex', 'Other', 'service', { ignoresWildcardGroup: true, verification: yandex }),
  agent('YandexUserproxy', 'Yandex', 'Other', 'user-fetch', { ignoresWildcardGroup: true, verification: yandex }),
] as const satisfies readonly AgentEntry[]
