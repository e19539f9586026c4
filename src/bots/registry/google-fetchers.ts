import type { AgentEntry } from '../types.ts'
import { AI_ROBOTS } from './ai-data.ts'

const SPECIAL = 'https://developers.google.com/crawling/docs/crawlers-fetchers/google-special-case-crawlers'
const FETCHERS = 'https://developers.google.com/crawling/docs/crawlers-fetchers/google-user-triggered-fetchers'
const RETIRED = 'https://developers.google.com/search/docs/crawling-indexing/overview-google-crawlers'

/**
 * Google's AI agents and assistants' fetchers, its other ads crawlers, and
 * retired fetcher names still found in logs and public lists. Where Google
 * documents no robots.txt token, the token is the id (no group names them in
 * practice).
 */
export const googleFetchers = [
  { id: 'gemini-deep-research', tokens: ['gemini-deep-research'], uaNames: ['Gemini-Deep-Research'], operator: 'Google', category: 'AI Assistant', purpose: 'agent', obeysRobotsTxt: true, docs: AI_ROBOTS },
  { id: 'googleagent-mariner', tokens: ['googleagent-mariner'], uaNames: ['GoogleAgent-Mariner'], operator: 'Google', category: 'AI Assistant', purpose: 'agent', obeysRobotsTxt: true, docs: AI_ROBOTS },
  { id: 'googleagent-urlcontext', tokens: ['googleagent-urlcontext'], uaNames: ['GoogleAgent-URLContext'], operator: 'Google', category: 'AI Assistant', purpose: 'user-fetch', obeysRobotsTxt: true, docs: 'https://ai.google.dev/gemini-api/docs/url-context' },
  { id: 'google-firebase', tokens: ['google-firebase'], uaNames: ['Google-Firebase'], operator: 'Google', category: 'AI Assistant', purpose: 'user-fetch', obeysRobotsTxt: true, docs: AI_ROBOTS },
  { id: 'google-gemini-cli', tokens: ['google-gemini-cli'], uaNames: ['Google-Gemini-CLI', 'GeminiCLI'], operator: 'Google', category: 'AI Assistant', purpose: 'agent', obeysRobotsTxt: true, docs: 'https://github.com/google-gemini/gemini-cli' },

  // Special-case crawlers read only the groups naming them.
  { id: 'adsbot-google-mobile-apps', tokens: ['adsbot-google-mobile-apps'], uaNames: ['AdsBot-Google-Mobile-Apps'], operator: 'Google', category: 'Advertising & Marketing', purpose: 'analysis', obeysRobotsTxt: true, ignoresWildcardGroup: true, docs: SPECIAL },
  { id: 'google-display-ads-bot', tokens: ['google-display-ads-bot'], uaNames: ['Google-Display-Ads-Bot'], operator: 'Google', category: 'Advertising & Marketing', purpose: 'analysis', obeysRobotsTxt: true, ignoresWildcardGroup: true, docs: SPECIAL },

  // User-triggered fetchers and retired names.
  { id: 'google-favicon', tokens: ['google-favicon'], uaNames: ['Google Favicon'], operator: 'Google', category: 'Page Preview', purpose: 'user-fetch', obeysRobotsTxt: false, docs: FETCHERS },
  { id: 'googleimageproxy', tokens: ['googleimageproxy'], uaNames: ['GoogleImageProxy'], operator: 'Google (Gmail)', category: 'Page Preview', purpose: 'user-fetch', obeysRobotsTxt: false, docs: FETCHERS },
  { id: 'google-pagerenderer', tokens: ['google-pagerenderer'], uaNames: ['Google-PageRenderer'], operator: 'Google', category: 'Page Preview', purpose: 'user-fetch', obeysRobotsTxt: false, docs: FETCHERS },
  { id: 'google-web-preview', tokens: ['google-web-preview'], uaNames: ['Google Web Preview'], operator: 'Google', category: 'Page Preview', purpose: 'user-fetch', obeysRobotsTxt: true, docs: RETIRED },
  { id: 'googleweblight', tokens: ['googleweblight'], uaNames: ['googleweblight'], operator: 'Google', category: 'Other', purpose: 'user-fetch', obeysRobotsTxt: false, docs: RETIRED },
  { id: 'duplexweb-google', tokens: ['duplexweb-google'], uaNames: ['DuplexWeb-Google'], operator: 'Google', category: 'AI Assistant', purpose: 'agent', obeysRobotsTxt: true, docs: RETIRED },
  { id: 'google-structured-data-testing-tool', tokens: ['google-structured-data-testing-tool'], uaNames: ['Google-Structured-Data-Testing-Tool'], operator: 'Google', category: 'Search Engine Optimization', purpose: 'user-fetch', obeysRobotsTxt: false, docs: RETIRED },
] as const satisfies readonly AgentEntry[]
