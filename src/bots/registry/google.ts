import type { AgentEntry } from '../types.ts'

const COMMON = 'https://developers.google.com/crawling/docs/crawlers-fetchers/google-common-crawlers'
const SPECIAL = 'https://developers.google.com/crawling/docs/crawlers-fetchers/google-special-case-crawlers'
const FETCHERS = 'https://developers.google.com/crawling/docs/crawlers-fetchers/google-user-triggered-fetchers'

// Google's IP lists, per class of client, as "Verify requests from Google
// crawlers and fetchers" (https://developers.google.com/crawling/docs/crawlers-fetchers/verifying-googlebot)
// documents them: common crawlers in common-crawlers.json, special-case
// crawlers in special-crawlers.json, user-triggered fetchers in
// user-triggered-fetchers-google.json (Google's own fetchers),
// user-triggered-fetchers.json (fetches made from Google Cloud on a site
// user's request) and user-triggered-agents.json. The lists moved from
// /static/search/apis/ipranges/ to /static/crawling/ipranges/ in March 2026
// (Search Central blog, "New location for Google crawler IP range files",
// 2026-03-31), googlebot.json becoming common-crawlers.json; the old URLs
// now answer 200 with no ranges. A request verifies only against the lists
// of its own class.
const IP_RANGES = 'https://developers.google.com/static/crawling/ipranges'
const list = (file: string) => ({ url: `${IP_RANGES}/${file}`, format: 'google-json' }) as const
const commonCrawlers = {
  ipRanges: [list('common-crawlers.json')],
  reverseDns: ['.googlebot.com', '.google.com', '.googleusercontent.com'],
} as const
const specialCrawlers = {
  ipRanges: [list('special-crawlers.json')],
  reverseDns: ['.google.com'],
} as const
const userTriggered = {
  ipRanges: [list('user-triggered-fetchers-google.json'), list('user-triggered-fetchers.json'), list('user-triggered-agents.json')],
  reverseDns: ['.googleusercontent.com', '.google.com'],
} as const

/** Google's common crawlers, special-case crawlers and user-triggered fetchers. */
export const google = [
  // Common crawlers: "always obey robots.txt rules when crawling automatically".
  { id: 'googlebot', tokens: ['googlebot'], uaNames: ['Googlebot'], operator: 'Google', category: 'Search Engine Crawler', purpose: 'search', obeysRobotsTxt: true, verification: commonCrawlers, docs: COMMON },
  { id: 'googlebot-image', tokens: ['googlebot-image', 'googlebot'], uaNames: ['Googlebot-Image'], operator: 'Google', category: 'Search Engine Crawler', purpose: 'search', obeysRobotsTxt: true, verification: commonCrawlers, docs: COMMON },
  // Google crawls news with the Googlebot strings today; the historic name is kept
  // so a header that still says Googlebot-News maps to the token it obeys.
  { id: 'googlebot-news', tokens: ['googlebot-news', 'googlebot'], uaNames: ['Googlebot-News'], operator: 'Google', category: 'Search Engine Crawler', purpose: 'search', obeysRobotsTxt: true, verification: commonCrawlers, docs: COMMON },
  { id: 'googlebot-video', tokens: ['googlebot-video', 'googlebot'], uaNames: ['Googlebot-Video'], operator: 'Google', category: 'Search Engine Crawler', purpose: 'search', obeysRobotsTxt: true, verification: commonCrawlers, docs: COMMON },
  { id: 'storebot-google', tokens: ['storebot-google'], uaNames: ['Storebot-Google'], operator: 'Google', category: 'Search Engine Crawler', purpose: 'search', obeysRobotsTxt: true, verification: commonCrawlers, docs: COMMON },
  { id: 'google-inspectiontool', tokens: ['google-inspectiontool', 'googlebot'], uaNames: ['Google-InspectionTool'], operator: 'Google', category: 'Search Engine Optimization', purpose: 'analysis', obeysRobotsTxt: true, verification: commonCrawlers, docs: COMMON },
  { id: 'googleother', tokens: ['googleother'], uaNames: ['GoogleOther'], operator: 'Google', category: 'Other', purpose: 'analysis', obeysRobotsTxt: true, verification: commonCrawlers, docs: COMMON },
  { id: 'googleother-image', tokens: ['googleother-image', 'googleother'], uaNames: ['GoogleOther-Image'], operator: 'Google', category: 'Other', purpose: 'analysis', obeysRobotsTxt: true, verification: commonCrawlers, docs: COMMON },
  { id: 'googleother-video', tokens: ['googleother-video', 'googleother'], uaNames: ['GoogleOther-Video'], operator: 'Google', category: 'Other', purpose: 'analysis', obeysRobotsTxt: true, verification: commonCrawlers, docs: COMMON },
  { id: 'google-cloudvertexbot', tokens: ['google-cloudvertexbot'], uaNames: ['Google-CloudVertexBot', 'CloudVertexBot'], operator: 'Google', category: 'AI Search', purpose: 'search', obeysRobotsTxt: true, verification: commonCrawlers, docs: COMMON },
  // Control-only: it governs whether content Googlebot already fetched may train Gemini.
  { id: 'google-extended', tokens: ['google-extended'], uaNames: [], operator: 'Google', category: 'AI Crawler', purpose: 'training', hasOwnUserAgent: false, obeysRobotsTxt: true, docs: COMMON },

  // Special-case crawlers: each reads only the groups naming it ("the global user agent (*) is ignored").
  { id: 'apis-google', tokens: ['apis-google'], uaNames: ['APIs-Google'], operator: 'Google', category: 'Webhooks', purpose: 'service', obeysRobotsTxt: true, ignoresWildcardGroup: true, verification: specialCrawlers, docs: SPECIAL },
  { id: 'adsbot-google-mobile', tokens: ['adsbot-google-mobile'], uaNames: ['AdsBot-Google-Mobile'], operator: 'Google', category: 'Advertising & Marketing', purpose: 'analysis', obeysRobotsTxt: true, ignoresWildcardGroup: true, verification: specialCrawlers, docs: SPECIAL },
  { id: 'adsbot-google', tokens: ['adsbot-google'], uaNames: ['AdsBot-Google'], operator: 'Google', category: 'Advertising & Marketing', purpose: 'analysis', obeysRobotsTxt: true, ignoresWildcardGroup: true, verification: specialCrawlers, docs: SPECIAL },
  { id: 'mediapartners-google', tokens: ['mediapartners-google'], uaNames: ['Mediapartners-Google'], operator: 'Google', category: 'Advertising & Marketing', purpose: 'analysis', obeysRobotsTxt: true, ignoresWildcardGroup: true, verification: specialCrawlers, docs: SPECIAL },
  // Google says Google-Safety ignores robots.txt (it looks for abuse and malware).
  { id: 'google-safety', tokens: ['google-safety'], uaNames: ['Google-Safety'], operator: 'Google', category: 'Security', purpose: 'analysis', obeysRobotsTxt: false, verification: specialCrawlers, docs: SPECIAL },

  // User-triggered fetchers: "because the fetch was requested by a user, these fetchers generally ignore robots.txt rules".
  { id: 'feedfetcher-google', tokens: ['feedfetcher-google'], uaNames: ['FeedFetcher-Google'], operator: 'Google', category: 'Feed Fetcher', purpose: 'service', obeysRobotsTxt: false, verification: userTriggered, docs: FETCHERS },
  { id: 'google-read-aloud', tokens: ['google-read-aloud'], uaNames: ['Google-Read-Aloud'], operator: 'Google', category: 'Accessibility', purpose: 'user-fetch', obeysRobotsTxt: false, verification: userTriggered, docs: FETCHERS },
  { id: 'google-site-verification', tokens: ['google-site-verification'], uaNames: ['Google-Site-Verification'], operator: 'Google', category: 'Other', purpose: 'service', obeysRobotsTxt: false, verification: userTriggered, docs: FETCHERS },
  { id: 'googleproducer', tokens: ['googleproducer'], uaNames: ['GoogleProducer'], operator: 'Google', category: 'Aggregator', purpose: 'service', obeysRobotsTxt: false, verification: userTriggered, docs: FETCHERS },
  { id: 'google-cws', tokens: ['google-cws'], uaNames: ['Google-CWS'], operator: 'Google', category: 'Other', purpose: 'user-fetch', obeysRobotsTxt: false, verification: userTriggered, docs: FETCHERS },
  { id: 'google-notebooklm', tokens: ['google-notebooklm'], uaNames: ['Google-NotebookLM', 'NotebookLM'], operator: 'Google', category: 'AI Assistant', purpose: 'user-fetch', obeysRobotsTxt: false, verification: userTriggered, docs: FETCHERS },
  { id: 'google-gemininotebook', tokens: ['google-gemininotebook'], uaNames: ['Google-GeminiNotebook'], operator: 'Google', category: 'AI Assistant', purpose: 'user-fetch', obeysRobotsTxt: false, verification: userTriggered, docs: FETCHERS },
  // Signs with `Signature-Agent: g="https://agent.bot.goog"` (developers.google.com/crawling/docs/crawlers-fetchers/allow-google-agent).
  { id: 'google-agent', tokens: ['google-agent'], uaNames: ['Google-Agent'], operator: 'Google', category: 'AI Assistant', purpose: 'agent', obeysRobotsTxt: false, verification: userTriggered, signatureAgent: 'https://agent.bot.goog', docs: FETCHERS },
  { id: 'google-pinpoint', tokens: ['google-pinpoint'], uaNames: ['Google-Pinpoint'], operator: 'Google', category: 'Other', purpose: 'user-fetch', obeysRobotsTxt: false, verification: userTriggered, docs: FETCHERS },
  // Sheets' IMPORTXML/IMPORTHTML and Docs' link fetches run on a person's request.
  { id: 'googledocs', tokens: ['googledocs'], uaNames: ['GoogleDocs'], operator: 'Google', category: 'Other', purpose: 'user-fetch', obeysRobotsTxt: false, docs: FETCHERS },
  // PageSpeed Insights runs Lighthouse against one URL when a person asks for it.
  { id: 'chrome-lighthouse', tokens: ['chrome-lighthouse'], uaNames: ['Chrome-Lighthouse'], operator: 'Google', category: 'Monitoring & Analytics', purpose: 'user-fetch', obeysRobotsTxt: false, docs: 'https://developers.google.com/speed/docs/insights/v5/about' },
] as const satisfies readonly AgentEntry[]
