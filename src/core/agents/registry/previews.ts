import type { AgentEntry } from '../types.ts'
import { agent } from './define.ts'

/** Link-preview (unfurl) fetchers of social networks and chat apps. */
export const previewAgents = [
  // Meta: it "might bypass robots.txt when performing security or integrity checks", otherwise it honours it.
  agent('facebookexternalhit', 'Meta', 'Page Preview', 'user-fetch'),
  agent('facebookcatalog', 'Meta', 'Advertising & Marketing', 'analysis'),
  agent('Twitterbot', 'X Corp', 'Page Preview', 'user-fetch'),
  agent('LinkedInBot', 'LinkedIn', 'Page Preview', 'user-fetch'),
  // Slack: "We do not currently honor robots.txt files" for any of its robots.
  agent('Slackbot-LinkExpanding', 'Slack', 'Page Preview', 'user-fetch', { obeysRobotsTxt: false }),
  agent('Slack-ImgProxy', 'Slack', 'Page Preview', 'user-fetch', { obeysRobotsTxt: false }),
  agent('Slackbot', 'Slack', 'Webhooks', 'user-fetch', { obeysRobotsTxt: false }),
  agent('Discordbot', 'Discord', 'Page Preview', 'user-fetch'),
  agent('TelegramBot', 'Telegram', 'Page Preview', 'user-fetch'),
  agent('WhatsApp', 'Meta (WhatsApp)', 'Page Preview', 'user-fetch'),
  // The Pinterest app's in-app browser sends `[Pinterest/iOS]`: only the crawler adds a `+http` URL.
  agent('Pinterestbot', 'Pinterest', 'Page Preview', 'user-fetch', { weakUaNames: ['Pinterest'] }),
  agent('redditbot', 'Reddit', 'Page Preview', 'user-fetch'),
  agent('Embedly', 'Embedly (Medium)', 'Page Preview', 'user-fetch'),
  agent('Iframely', 'Iframely', 'Page Preview', 'user-fetch'),
  agent('SkypeUriPreview', 'Microsoft', 'Page Preview', 'user-fetch'),
  agent('vkShare', 'VK', 'Page Preview', 'user-fetch'),
  agent('FlipboardProxy', 'Flipboard', 'Aggregator', 'search'),
] as const satisfies readonly AgentEntry[]

/** Web archivers. */
export const archivers = [
  // Alexa's crawler; the Wayback Machine historically honoured exclusions addressed to it.
  agent('ia_archiver', 'Alexa Internet (Amazon)', 'Archiver', 'archive'),
  agent(['archive.org_bot', 'special_archiver', 'ia_archiver-web.archive.org'], 'Internet Archive', 'Archiver', 'archive'),
  agent('heritrix', 'Internet Archive (Heritrix)', 'Archiver', 'archive'),
  // ArchiveTeam's stated policy is to ignore robots.txt.
  agent('ArchiveBot', 'ArchiveTeam', 'Archiver', 'archive', { obeysRobotsTxt: false }),
  agent('Arquivo-web-crawler', 'Arquivo.pt', 'Archiver', 'archive'),
  agent('CloudFlare-AlwaysOnline', 'Cloudflare', 'Archiver', 'archive'),
] as const satisfies readonly AgentEntry[]
