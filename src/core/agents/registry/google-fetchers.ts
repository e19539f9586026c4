import type { AgentEntry } from '../types.ts'
import { agent } from './define.ts'

/**
 * Google's AI agents and assistants' fetchers, its other ads crawlers, and
 * retired fetcher names still found in logs and public lists. Where Google
 * documents no robots.txt token, the token is the id (no group names them in
 * practice).
 */
export const googleFetchers = [
  agent('Gemini-Deep-Research', 'Google', 'AI Assistant', 'agent'),
  agent('GoogleAgent-Mariner', 'Google', 'AI Assistant', 'agent'),
  agent('GoogleAgent-URLContext', 'Google', 'AI Assistant', 'user-fetch'),
  agent('Google-Firebase', 'Google', 'AI Assistant', 'user-fetch'),
  agent(['Google-Gemini-CLI', 'GeminiCLI'], 'Google', 'AI Assistant', 'agent'),

  // Special-case crawlers read only the groups naming them.
  agent('AdsBot-Google-Mobile-Apps', 'Google', 'Advertising & Marketing', 'analysis', { ignoresWildcardGroup: true }),
  agent('Google-Display-Ads-Bot', 'Google', 'Advertising & Marketing', 'analysis', { ignoresWildcardGroup: true }),

  // User-triggered fetchers and retired names.
  agent('Google Favicon', 'Google', 'Page Preview', 'user-fetch', { id: 'google-favicon', tokens: ['google-favicon'], obeysRobotsTxt: false, userTriggered: true }),
  agent('GoogleImageProxy', 'Google (Gmail)', 'Page Preview', 'user-fetch', { obeysRobotsTxt: false, userTriggered: true }),
  agent('Google-PageRenderer', 'Google', 'Page Preview', 'user-fetch', { obeysRobotsTxt: false, userTriggered: true }),
  agent('Google Web Preview', 'Google', 'Page Preview', 'user-fetch', { id: 'google-web-preview', tokens: ['google-web-preview'] }),
  agent('googleweblight', 'Google', 'Other', 'user-fetch', { obeysRobotsTxt: false }),
  agent('DuplexWeb-Google', 'Google', 'AI Assistant', 'agent'),
  agent('Google-Structured-Data-Testing-Tool', 'Google', 'Search Engine Optimization', 'user-fetch', { obeysRobotsTxt: false }),
] as const satisfies readonly AgentEntry[]
