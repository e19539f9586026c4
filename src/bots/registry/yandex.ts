import type { AgentEntry } from '../types.ts'

const ROBOTS = 'https://yandex.com/support/webmaster/en/robot-workings/check-yandex-robots.html'
const yandex = { reverseDns: ['.yandex.ru', '.yandex.net', '.yandex.com'] } as const

// Yandex: "User-agent: Yandex will be used by all Yandex bots" unless a group
// names the specific robot, hence the `yandex` fallback on each crawler.
// Robots that fetch "for purposes other than indexing" (YandexCalendar,
// YandexMetrika...) do not take the general rules into account: they read only
// a group naming them exactly, neither `*` nor `Yandex`.
/** Yandex's robots. */
export const yandexRobots = [
  { id: 'yandexbot', tokens: ['yandexbot', 'yandex'], uaNames: ['YandexBot'], operator: 'Yandex', category: 'Search Engine Crawler', purpose: 'search', obeysRobotsTxt: true, verification: yandex, docs: ROBOTS },
  { id: 'yandexmobilebot', tokens: ['yandexmobilebot', 'yandex'], uaNames: ['YandexMobileBot'], operator: 'Yandex', category: 'Search Engine Crawler', purpose: 'search', obeysRobotsTxt: true, verification: yandex, docs: ROBOTS },
  { id: 'yandeximages', tokens: ['yandeximages', 'yandex'], uaNames: ['YandexImages'], operator: 'Yandex', category: 'Search Engine Crawler', purpose: 'search', obeysRobotsTxt: true, verification: yandex, docs: ROBOTS },
  { id: 'yandexvideo', tokens: ['yandexvideo', 'yandex'], uaNames: ['YandexVideo'], operator: 'Yandex', category: 'Search Engine Crawler', purpose: 'search', obeysRobotsTxt: true, verification: yandex, docs: ROBOTS },
  { id: 'yandexvideoparser', tokens: ['yandexvideoparser', 'yandex'], uaNames: ['YandexVideoParser'], operator: 'Yandex', category: 'Search Engine Crawler', purpose: 'search', obeysRobotsTxt: true, verification: yandex, docs: ROBOTS },
  { id: 'yandexmedia', tokens: ['yandexmedia', 'yandex'], uaNames: ['YandexMedia'], operator: 'Yandex', category: 'Search Engine Crawler', purpose: 'search', obeysRobotsTxt: true, verification: yandex, docs: ROBOTS },
  { id: 'yandexnews', tokens: ['yandexnews', 'yandex'], uaNames: ['YandexNews'], operator: 'Yandex', category: 'Aggregator', purpose: 'search', obeysRobotsTxt: true, verification: yandex, docs: ROBOTS },
  { id: 'yandexmarket', tokens: ['yandexmarket', 'yandex'], uaNames: ['YandexMarket'], operator: 'Yandex', category: 'Search Engine Crawler', purpose: 'search', obeysRobotsTxt: true, verification: yandex, docs: ROBOTS },
  { id: 'yandexfavicons', tokens: ['yandexfavicons', 'yandex'], uaNames: ['YandexFavicons'], operator: 'Yandex', category: 'Search Engine Crawler', purpose: 'search', obeysRobotsTxt: true, verification: yandex, docs: ROBOTS },
  { id: 'yandexrenderresourcesbot', tokens: ['yandexrenderresourcesbot', 'yandex'], uaNames: ['YandexRenderResourcesBot'], operator: 'Yandex', category: 'Search Engine Crawler', purpose: 'search', obeysRobotsTxt: true, verification: yandex, docs: ROBOTS },
  { id: 'yandexturbo', tokens: ['yandexturbo', 'yandex'], uaNames: ['YandexTurbo'], operator: 'Yandex', category: 'Search Engine Crawler', purpose: 'search', obeysRobotsTxt: true, verification: yandex, docs: ROBOTS },
  { id: 'yandexwebmaster', tokens: ['yandexwebmaster', 'yandex'], uaNames: ['YandexWebmaster'], operator: 'Yandex', category: 'Search Engine Optimization', purpose: 'analysis', obeysRobotsTxt: true, verification: yandex, docs: ROBOTS },
  { id: 'yandexpagechecker', tokens: ['yandexpagechecker'], uaNames: ['YandexPagechecker'], operator: 'Yandex', category: 'Search Engine Optimization', purpose: 'analysis', obeysRobotsTxt: true, ignoresWildcardGroup: true, verification: yandex, docs: ROBOTS },
  { id: 'yandexdirect', tokens: ['yandexdirect', 'yandex'], uaNames: ['YandexDirect'], operator: 'Yandex', category: 'Advertising & Marketing', purpose: 'analysis', obeysRobotsTxt: true, verification: yandex, docs: 'https://yandex.com/support/partner2/technologies/robot.html' },
  { id: 'yandexdirectdyn', tokens: ['yandexdirectdyn', 'yandex'], uaNames: ['YandexDirectDyn'], operator: 'Yandex', category: 'Advertising & Marketing', purpose: 'analysis', obeysRobotsTxt: true, verification: yandex, docs: ROBOTS },
  { id: 'yadirectfetcher', tokens: ['yadirectfetcher'], uaNames: ['YaDirectFetcher'], operator: 'Yandex', category: 'Advertising & Marketing', purpose: 'analysis', obeysRobotsTxt: true, ignoresWildcardGroup: true, verification: yandex, docs: ROBOTS },
  // YandexAdditional is the robots.txt token; the requests say YandexAdditionalBot.
  { id: 'yandexadditional', tokens: ['yandexadditional', 'yandex'], uaNames: ['YandexAdditional', 'YandexAdditionalBot'], operator: 'Yandex', category: 'AI Search', purpose: 'search', obeysRobotsTxt: true, verification: yandex, docs: 'https://yandex.ru/support/webmaster/en/search-appearance/fast.html' },
  { id: 'yandexaccessibilitybot', tokens: ['yandexaccessibilitybot'], uaNames: ['YandexAccessibilityBot'], operator: 'Yandex', category: 'Accessibility', purpose: 'user-fetch', obeysRobotsTxt: true, ignoresWildcardGroup: true, verification: yandex, docs: ROBOTS },
  { id: 'yandexmetrika', tokens: ['yandexmetrika'], uaNames: ['YandexMetrika'], operator: 'Yandex', category: 'Monitoring & Analytics', purpose: 'service', obeysRobotsTxt: true, ignoresWildcardGroup: true, verification: yandex, docs: ROBOTS },
  { id: 'yandexcalendar', tokens: ['yandexcalendar'], uaNames: ['YandexCalendar'], operator: 'Yandex', category: 'Other', purpose: 'service', obeysRobotsTxt: true, ignoresWildcardGroup: true, verification: yandex, docs: ROBOTS },
  { id: 'yandexuserproxy', tokens: ['yandexuserproxy'], uaNames: ['YandexUserproxy'], operator: 'Yandex', category: 'Other', purpose: 'user-fetch', obeysRobotsTxt: true, ignoresWildcardGroup: true, verification: yandex, docs: ROBOTS },
] as const satisfies readonly AgentEntry[]
