import type { AgentEntry } from '../types.ts'
import { agent } from './define.ts'

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
  agent('Googlebot', 'Google', 'Search Engine Crawler', 'search', { verification: commonCrawlers }),
  agent('Googlebot-Image', 'Google', 'Search Engine Crawler', 'search', { tokens: ['googlebot-image', 'googlebot'], verification: commonCrawlers }),
  // Google crawls news with the Googlebot strings today; the historic name is kept
  // so a header that still says Googlebot-News maps to the token it obeys.
  agent('Googlebot-News', 'Google', 'Search Engine Crawler', 'search', { tokens: ['googlebot-news', 'googlebot'], verification: commonCrawlers }),
  agent('Googlebot-Video', 'Google', 'Search Engine Crawler', 'search', { tokens: ['googlebot-video', 'googlebot'], verification: commonCrawlers }),
  agent('Storebot-Google', 'Google', 'Search Engine Crawler', 'search', { verification: commonCrawlers }),
  agent('Google-InspectionTool', 'Google', 'Search Engine Optimization', 'analysis', { tokens: ['google-inspectiontool', 'googlebot'], verification: commonCrawlers }),
  agent('GoogleOther', 'Google', 'Other', 'analysis', { verification: commonCrawlers }),
  agent('GoogleOther-Image', 'Google', 'Other', 'analysis', { tokens: ['googleother-image', 'googleother'], verification: commonCrawlers }),
  agent('GoogleOther-Video', 'Google', 'Other', 'analysis', { tokens: ['googleother-video', 'googleother'], verification: commonCrawlers }),
  agent(['Google-CloudVertexBot', 'CloudVertexBot'], 'Google', 'AI Search', 'search', { verification: commonCrawlers }),
  // Control-only: it governs whether content Googlebot already fetched may train Gemini.
  agent('google-extended', 'Google', 'AI Crawler', 'training', { hasOwnUserAgent: false }),

  // Special-case crawlers: each reads only the groups naming it ("the global user agent (*) is ignored").
  agent('APIs-Google', 'Google', 'Webhooks', 'service', { ignoresWildcardGroup: true, verification: specialCrawlers }),
  agent('AdsBot-Google-Mobile', 'Google', 'Advertising & Marketing', 'analysis', { ignoresWildcardGroup: true, verification: specialCrawlers }),
  agent('AdsBot-Google', 'Google', 'Advertising & Marketing', 'analysis', { ignoresWildcardGroup: true, verification: specialCrawlers }),
  agent('Mediapartners-Google', 'Google', 'Advertising & Marketing', 'analysis', { ignoresWildcardGroup: true, verification: specialCrawlers }),
  // Google says Google-Safety ignores robots.txt (it looks for abuse and malware).
  agent('Google-Safety', 'Google', 'Security', 'analysis', { obeysRobotsTxt: false, verification: specialCrawlers }),

  // User-triggered fetchers: "because the fetch was requested by a user, these fetchers generally ignore robots.txt rules".
  agent('FeedFetcher-Google', 'Google', 'Feed Fetcher', 'service', { obeysRobotsTxt: false, userTriggered: true, verification: userTriggered }),
  agent('Google-Read-Aloud', 'Google', 'Accessibility', 'user-fetch', { obeysRobotsTxt: false, userTriggered: true, verification: userTriggered }),
  agent('Google-Site-Verification', 'Google', 'Other', 'service', { obeysRobotsTxt: false, userTriggered: true, verification: userTriggered }),
  agent('GoogleProducer', 'Google', 'Aggregator', 'service', { obeysRobotsTxt: false, userTriggered: true, verification: userTriggered }),
  agent('Google-CWS', 'Google', 'Other', 'user-fetch', { obeysRobotsTxt: false, userTriggered: true, verification: userTriggered }),
  agent(['Google-NotebookLM', 'NotebookLM'], 'Google', 'AI Assistant', 'user-fetch', { obeysRobotsTxt: false, userTriggered: true, verification: userTriggered }),
  agent('Google-GeminiNotebook', 'Google', 'AI Assistant', 'user-fetch', { obeysRobotsTxt: false, userTriggered: true, verification: userTriggered }),
  // Signs with `Signature-Agent: g="https://agent.bot.goog"` (developers.google.com/crawling/docs/crawlers-fetchers/allow-google-agent).
  agent('Google-Agent', 'Google', 'AI Assistant', 'agent', { obeysRobotsTxt: false, userTriggered: true, verification: userTriggered, signatureAgent: 'https://agent.bot.goog' }),
  agent('Google-Pinpoint', 'Google', 'Other', 'user-fetch', { obeysRobotsTxt: false, userTriggered: true, verification: userTriggered }),
  // Sheets' IMPORTXML/IMPORTHTML and Docs' link fetches run on a person's request.
  agent('GoogleDocs', 'Google', 'Other', 'user-fetch', { obeysRobotsTxt: false, userTriggered: true }),
  // PageSpeed Insights runs Lighthouse against one URL when a person asks for it.
  agent('Chrome-Lighthouse', 'Google', 'Monitoring & Analytics', 'user-fetch', { obeysRobotsTxt: false }),
] as const satisfies readonly AgentEntry[]
