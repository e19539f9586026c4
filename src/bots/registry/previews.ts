import type { AgentEntry } from '../types.ts'

const META = 'https://developers.facebook.com/docs/sharing/webmasters/web-crawlers/'
const SLACK = 'https://api.slack.com/robots'

/** Link-preview (unfurl) fetchers of social networks and chat apps. */
export const previewAgents = [
  // Meta: it "might bypass robots.txt when performing security or integrity checks", otherwise it honours it.
  { id: 'facebookexternalhit', tokens: ['facebookexternalhit'], uaNames: ['facebookexternalhit'], operator: 'Meta', category: 'Page Preview', purpose: 'user-fetch', obeysRobotsTxt: true, docs: META },
  { id: 'facebookcatalog', tokens: ['facebookcatalog'], uaNames: ['facebookcatalog'], operator: 'Meta', category: 'Advertising & Marketing', purpose: 'analysis', obeysRobotsTxt: true, docs: META },
  { id: 'twitterbot', tokens: ['twitterbot'], uaNames: ['Twitterbot'], operator: 'X Corp', category: 'Page Preview', purpose: 'user-fetch', obeysRobotsTxt: true, docs: 'https://developer.x.com/en/docs/x-for-websites/cards/guides/getting-started' },
  { id: 'linkedinbot', tokens: ['linkedinbot'], uaNames: ['LinkedInBot'], operator: 'LinkedIn', category: 'Page Preview', purpose: 'user-fetch', obeysRobotsTxt: true, docs: 'http://www.linkedin.com' },
  // Slack: "We do not currently honor robots.txt files" for any of its robots.
  { id: 'slackbot-linkexpanding', tokens: ['slackbot-linkexpanding'], uaNames: ['Slackbot-LinkExpanding'], operator: 'Slack', category: 'Page Preview', purpose: 'user-fetch', obeysRobotsTxt: false, docs: SLACK },
  { id: 'slack-imgproxy', tokens: ['slack-imgproxy'], uaNames: ['Slack-ImgProxy'], operator: 'Slack', category: 'Page Preview', purpose: 'user-fetch', obeysRobotsTxt: false, docs: SLACK },
  { id: 'slackbot', tokens: ['slackbot'], uaNames: ['Slackbot'], operator: 'Slack', category: 'Webhooks', purpose: 'user-fetch', obeysRobotsTxt: false, docs: SLACK },
  { id: 'discordbot', tokens: ['discordbot'], uaNames: ['Discordbot'], operator: 'Discord', category: 'Page Preview', purpose: 'user-fetch', obeysRobotsTxt: true, docs: 'https://discord.com/developers/docs/resources/message#embed-object' },
  { id: 'telegrambot', tokens: ['telegrambot'], uaNames: ['TelegramBot'], operator: 'Telegram', category: 'Page Preview', purpose: 'user-fetch', obeysRobotsTxt: true, docs: 'https://telegram.org/' },
  { id: 'whatsapp', tokens: ['whatsapp'], uaNames: ['WhatsApp'], operator: 'Meta (WhatsApp)', category: 'Page Preview', purpose: 'user-fetch', obeysRobotsTxt: true, docs: 'https://faq.whatsapp.com/' },
  // The Pinterest app's in-app browser sends `[Pinterest/iOS]`: only the crawler adds a `+http` URL.
  { id: 'pinterestbot', tokens: ['pinterestbot'], uaNames: ['Pinterestbot'], weakUaNames: ['Pinterest'], operator: 'Pinterest', category: 'Page Preview', purpose: 'user-fetch', obeysRobotsTxt: true, docs: 'https://help.pinterest.com/en/business/article/pinterest-crawler' },
  { id: 'redditbot', tokens: ['redditbot'], uaNames: ['redditbot'], operator: 'Reddit', category: 'Page Preview', purpose: 'user-fetch', obeysRobotsTxt: true, docs: 'https://www.reddit.com/feedback' },
  { id: 'embedly', tokens: ['embedly'], uaNames: ['Embedly'], operator: 'Embedly (Medium)', category: 'Page Preview', purpose: 'user-fetch', obeysRobotsTxt: true, docs: 'https://support.embed.ly/' },
  { id: 'iframely', tokens: ['iframely'], uaNames: ['Iframely'], operator: 'Iframely', category: 'Page Preview', purpose: 'user-fetch', obeysRobotsTxt: true, docs: 'https://iframely.com/docs/about' },
  { id: 'skypeuripreview', tokens: ['skypeuripreview'], uaNames: ['SkypeUriPreview'], operator: 'Microsoft', category: 'Page Preview', purpose: 'user-fetch', obeysRobotsTxt: true, docs: 'https://www.skype.com/' },
  { id: 'vkshare', tokens: ['vkshare'], uaNames: ['vkShare'], operator: 'VK', category: 'Page Preview', purpose: 'user-fetch', obeysRobotsTxt: true, docs: 'https://vk.com/dev/Share' },
  { id: 'flipboardproxy', tokens: ['flipboardproxy'], uaNames: ['FlipboardProxy'], operator: 'Flipboard', category: 'Aggregator', purpose: 'search', obeysRobotsTxt: true, docs: 'http://flipboard.com/browserproxy' },
] as const satisfies readonly AgentEntry[]

/** Web archivers. */
export const archivers = [
  // Alexa's crawler; the Wayback Machine historically honoured exclusions addressed to it.
  { id: 'ia_archiver', tokens: ['ia_archiver'], uaNames: ['ia_archiver'], operator: 'Alexa Internet (Amazon)', category: 'Archiver', purpose: 'archive', obeysRobotsTxt: true, docs: 'http://www.alexa.com/site/help/webmasters' },
  { id: 'archive.org_bot', tokens: ['archive.org_bot'], uaNames: ['archive.org_bot', 'special_archiver', 'ia_archiver-web.archive.org'], operator: 'Internet Archive', category: 'Archiver', purpose: 'archive', obeysRobotsTxt: true, docs: 'https://archive.org/details/archive.org_bot' },
  { id: 'heritrix', tokens: ['heritrix'], uaNames: ['heritrix'], operator: 'Internet Archive (Heritrix)', category: 'Archiver', purpose: 'archive', obeysRobotsTxt: true, docs: 'https://github.com/internetarchive/heritrix3' },
  // ArchiveTeam's stated policy is to ignore robots.txt.
  { id: 'archivebot', tokens: ['archivebot'], uaNames: ['ArchiveBot'], operator: 'ArchiveTeam', category: 'Archiver', purpose: 'archive', obeysRobotsTxt: false, docs: 'https://wiki.archiveteam.org/index.php/Robots.txt' },
  { id: 'arquivo-web-crawler', tokens: ['arquivo-web-crawler'], uaNames: ['Arquivo-web-crawler'], operator: 'Arquivo.pt', category: 'Archiver', purpose: 'archive', obeysRobotsTxt: true, docs: 'https://arquivo.pt/faq-crawling' },
  { id: 'cloudflare-alwaysonline', tokens: ['cloudflare-alwaysonline'], uaNames: ['CloudFlare-AlwaysOnline'], operator: 'Cloudflare', category: 'Archiver', purpose: 'archive', obeysRobotsTxt: true, docs: 'https://developers.cloudflare.com/cache/how-to/always-online/' },
] as const satisfies readonly AgentEntry[]
