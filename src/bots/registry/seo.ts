import type { AgentEntry } from '../types.ts'

const SEMRUSH = 'https://www.semrush.com/bot/'
const MOZ_DOTBOT = 'https://moz.com/help/moz-procedures/crawlers/dotbot'
const MOZ_ROGERBOT = 'https://moz.com/help/moz-procedures/crawlers/rogerbot'
const ahrefs = { reverseDns: ['.ahrefs.com', '.ahrefs.net'] } as const

/** SEO and link-index crawlers. */
export const seoAgents = [
  { id: 'ahrefsbot', tokens: ['ahrefsbot'], uaNames: ['AhrefsBot'], operator: 'Ahrefs', category: 'Search Engine Optimization', purpose: 'analysis', obeysRobotsTxt: true, verification: ahrefs, docs: 'https://ahrefs.com/robot' },
  { id: 'ahrefssiteaudit', tokens: ['ahrefssiteaudit'], uaNames: ['AhrefsSiteAudit'], operator: 'Ahrefs', category: 'Search Engine Optimization', purpose: 'analysis', obeysRobotsTxt: true, verification: ahrefs, docs: 'https://ahrefs.com/robot/site-audit' },
  { id: 'semrushbot', tokens: ['semrushbot'], uaNames: ['SemrushBot'], operator: 'Semrush', category: 'Search Engine Optimization', purpose: 'analysis', obeysRobotsTxt: true, docs: SEMRUSH },
  { id: 'siteauditbot', tokens: ['siteauditbot'], uaNames: ['SiteAuditBot'], operator: 'Semrush', category: 'Search Engine Optimization', purpose: 'analysis', obeysRobotsTxt: true, docs: SEMRUSH },
  { id: 'semrushbot-ba', tokens: ['semrushbot-ba'], uaNames: ['SemrushBot-BA'], operator: 'Semrush', category: 'Search Engine Optimization', purpose: 'analysis', obeysRobotsTxt: true, docs: SEMRUSH },
  { id: 'semrushbot-si', tokens: ['semrushbot-si'], uaNames: ['SemrushBot-SI'], operator: 'Semrush', category: 'Search Engine Optimization', purpose: 'analysis', obeysRobotsTxt: true, docs: SEMRUSH },
  { id: 'semrushbot-swa', tokens: ['semrushbot-swa'], uaNames: ['SemrushBot-SWA'], operator: 'Semrush', category: 'Search Engine Optimization', purpose: 'analysis', obeysRobotsTxt: true, docs: SEMRUSH },
  { id: 'semrushbot-ct', tokens: ['semrushbot-ct'], uaNames: ['SemrushBot-CT'], operator: 'Semrush', category: 'Search Engine Optimization', purpose: 'analysis', obeysRobotsTxt: true, docs: SEMRUSH },
  { id: 'semrushbot-ocob', tokens: ['semrushbot-ocob'], uaNames: ['SemrushBot-OCOB'], operator: 'Semrush', category: 'Search Engine Optimization', purpose: 'analysis', obeysRobotsTxt: true, docs: SEMRUSH },
  { id: 'splitsignalbot', tokens: ['splitsignalbot'], uaNames: ['SplitSignalBot'], operator: 'Semrush', category: 'Search Engine Optimization', purpose: 'analysis', obeysRobotsTxt: true, docs: SEMRUSH },
  { id: 'mj12bot', tokens: ['mj12bot'], uaNames: ['MJ12bot'], operator: 'Majestic', category: 'Search Engine Optimization', purpose: 'analysis', obeysRobotsTxt: true, docs: 'https://mj12bot.com/' },
  { id: 'dotbot', tokens: ['dotbot'], uaNames: ['DotBot'], operator: 'Moz', category: 'Search Engine Optimization', purpose: 'analysis', obeysRobotsTxt: true, docs: MOZ_DOTBOT },
  { id: 'rogerbot', tokens: ['rogerbot'], uaNames: ['rogerbot'], operator: 'Moz', category: 'Search Engine Optimization', purpose: 'analysis', obeysRobotsTxt: true, docs: MOZ_ROGERBOT },
  // Token is the first word of the multi-word name; see the note on Sogou in search.ts.
  { id: 'screaming-frog-seo-spider', tokens: ['screaming'], uaNames: ['Screaming Frog SEO Spider'], operator: 'Screaming Frog', category: 'Search Engine Optimization', purpose: 'analysis', obeysRobotsTxt: true, docs: 'https://www.screamingfrog.co.uk/seo-spider/user-guide/configuration/#robots-txt' },
  { id: 'serpstatbot', tokens: ['serpstatbot'], uaNames: ['serpstatbot'], operator: 'Serpstat', category: 'Search Engine Optimization', purpose: 'analysis', obeysRobotsTxt: true, docs: 'https://serpstatbot.com/' },
  { id: 'blexbot', tokens: ['blexbot'], uaNames: ['BLEXBot'], operator: 'WebMeUp (SE Ranking)', category: 'Search Engine Optimization', purpose: 'analysis', obeysRobotsTxt: true, docs: 'https://help.seranking.com/en/blex-crawler' },
  { id: 'dataforseobot', tokens: ['dataforseobot'], uaNames: ['DataForSeoBot'], operator: 'DataForSEO', category: 'Search Engine Optimization', purpose: 'analysis', obeysRobotsTxt: true, docs: 'https://dataforseo.com/dataforseo-bot' },
  { id: 'barkrowler', tokens: ['barkrowler'], uaNames: ['Barkrowler'], operator: 'Babbar', category: 'Search Engine Optimization', purpose: 'analysis', obeysRobotsTxt: true, docs: 'https://babbar.tech/crawler' },
  { id: 'seokicks', tokens: ['seokicks'], uaNames: ['SEOkicks', 'SEOkicks-Robot'], operator: 'SEOkicks', category: 'Search Engine Optimization', purpose: 'analysis', obeysRobotsTxt: true, docs: 'https://www.seokicks.de/robot.html' },
  { id: 'sistrix', tokens: ['sistrix'], uaNames: ['SISTRIX Crawler'], operator: 'SISTRIX', category: 'Search Engine Optimization', purpose: 'analysis', obeysRobotsTxt: true, docs: 'https://crawler.sistrix.net/' },
  { id: 'seobilitybot', tokens: ['seobilitybot'], uaNames: ['SeobilityBot'], operator: 'Seobility', category: 'Search Engine Optimization', purpose: 'analysis', obeysRobotsTxt: true, docs: 'https://www.seobility.net/en/seobilitybot/' },
  { id: 'oncrawl', tokens: ['oncrawl'], uaNames: ['OnCrawl'], operator: 'OnCrawl', category: 'Search Engine Optimization', purpose: 'analysis', obeysRobotsTxt: true, docs: 'https://www.oncrawl.com/' },
  { id: 'rytebot', tokens: ['rytebot'], uaNames: ['RyteBot'], operator: 'Ryte', category: 'Search Engine Optimization', purpose: 'analysis', obeysRobotsTxt: true, docs: 'https://bot.ryte.com/' },
] as const satisfies readonly AgentEntry[]
