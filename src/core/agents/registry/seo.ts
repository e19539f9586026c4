import type { AgentEntry } from '../types.ts'
import { agent } from './define.ts'

const ahrefs = { reverseDns: ['.ahrefs.com', '.ahrefs.net'] } as const

/** SEO and link-index crawlers. */
export const seoAgents = [
  agent('AhrefsBot', 'Ahrefs', 'Search Engine Optimization', 'analysis', { verification: ahrefs }),
  agent('AhrefsSiteAudit', 'Ahrefs', 'Search Engine Optimization', 'analysis', { verification: ahrefs }),
  agent('SemrushBot', 'Semrush', 'Search Engine Optimization', 'analysis'),
  agent('SiteAuditBot', 'Semrush', 'Search Engine Optimization', 'analysis'),
  agent('SemrushBot-BA', 'Semrush', 'Search Engine Optimization', 'analysis'),
  agent('SemrushBot-SI', 'Semrush', 'Search Engine Optimization', 'analysis'),
  agent('SemrushBot-SWA', 'Semrush', 'Search Engine Optimization', 'analysis'),
  agent('SemrushBot-CT', 'Semrush', 'Search Engine Optimization', 'analysis'),
  agent('SemrushBot-OCOB', 'Semrush', 'Search Engine Optimization', 'analysis'),
  agent('SplitSignalBot', 'Semrush', 'Search Engine Optimization', 'analysis'),
  agent('MJ12bot', 'Majestic', 'Search Engine Optimization', 'analysis'),
  agent('DotBot', 'Moz', 'Search Engine Optimization', 'analysis'),
  agent('rogerbot', 'Moz', 'Search Engine Optimization', 'analysis'),
  // Token is the first word of the multi-word name; see the note on Sogou in search.ts.
  agent('Screaming Frog SEO Spider', 'Screaming Frog', 'Search Engine Optimization', 'analysis', { id: 'screaming-frog-seo-spider', tokens: ['screaming'] }),
  agent('serpstatbot', 'Serpstat', 'Search Engine Optimization', 'analysis'),
  agent('BLEXBot', 'WebMeUp (SE Ranking)', 'Search Engine Optimization', 'analysis'),
  agent('DataForSeoBot', 'DataForSEO', 'Search Engine Optimization', 'analysis'),
  agent('Barkrowler', 'Babbar', 'Search Engine Optimization', 'analysis'),
  agent(['SEOkicks', 'SEOkicks-Robot'], 'SEOkicks', 'Search Engine Optimization', 'analysis'),
  agent('SISTRIX Crawler', 'SISTRIX', 'Search Engine Optimization', 'analysis', { id: 'sistrix', tokens: ['sistrix'] }),
  agent('SeobilityBot', 'Seobility', 'Search Engine Optimization', 'analysis'),
  agent('OnCrawl', 'OnCrawl', 'Search Engine Optimization', 'analysis'),
  agent('RyteBot', 'Ryte', 'Search Engine Optimization', 'analysis'),
] as const satisfies readonly AgentEntry[]
