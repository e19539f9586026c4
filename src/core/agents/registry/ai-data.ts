import type { AgentEntry } from '../types.ts'
import { agent } from './define.ts'

/**
 * Crawlers that collect content for AI training data sets, and the data
 * providers that sell crawled content to AI products.
 */
export const aiDataAgents = [
  agent('DeepSeekBot', 'DeepSeek', 'AI Crawler', 'training'),
  agent('TikTokSpider', 'ByteDance', 'AI Crawler', 'training'),
  agent('ChatGLM-Spider', 'Zhipu AI', 'AI Crawler', 'training'),
  agent('aiHitBot', 'aiHit', 'AI Crawler', 'training'),
  agent('ApifyBot', 'Apify', 'AI Crawler', 'training'),
  agent('ApifyWebsiteContentCrawler', 'Apify', 'AI Crawler', 'training'),
  agent('CragCrawler', 'CragSoftware', 'AI Crawler', 'training'),
  // An open-source crawler anyone runs; the name says which software fetched, not who ran it.
  agent('Crawl4AI', 'Crawl4AI (open source)', 'AI Crawler', 'training', { uaNamePrefixes: ['crawl4ai-adapter'] }),
  agent('Crawlspace', 'Crawlspace', 'AI Crawler', 'training'),
  // The registry token is the first word of a multi-word name; see the note on Sogou in search.ts.
  agent('Datenbank Crawler', 'Datenbank', 'AI Crawler', 'training', { id: 'datenbank-crawler', tokens: ['datenbank'] }),
  agent('Kangaroo Bot', 'Kangaroo LLM', 'AI Crawler', 'training', { id: 'kangaroo-bot', tokens: ['kangaroo'] }),
  agent('EchoboxBot', 'Echobox', 'AI Crawler', 'training'),
  agent(['Echobot Bot', 'Echobot'], 'Echobox', 'AI Crawler', 'training', { id: 'echobot-bot', tokens: ['echobot'] }),
  agent('Factset_spyderbot', 'FactSet', 'AI Crawler', 'training'),
  agent('FriendlyCrawler', 'Unknown (FriendlyCrawler)', 'AI Crawler', 'training'),
  agent('imageSpider', 'Unknown (imageSpider)', 'AI Crawler', 'training'),
  // An open-source downloader anyone runs to build image data sets.
  agent('img2dataset', 'img2dataset (open source)', 'AI Crawler', 'training'),
  agent('ISSCyberRiskCrawler', 'ISS Corporate', 'AI Crawler', 'training'),
  agent('KunatoCrawler', 'Kunato', 'AI Crawler', 'training'),
  agent('LAIONDownloader', 'LAION', 'AI Crawler', 'training'),
  agent('laion-huggingface-processor', 'LAION', 'AI Crawler', 'training'),
  // Leipzig Corpora Collection: text corpora for language research and models.
  agent('LCC', 'Leipzig University (Leipzig Corpora Collection)', 'Academic Research', 'training'),
  agent('Linguee Bot', 'Linguee (DeepL)', 'AI Crawler', 'training', { id: 'linguee-bot', tokens: ['linguee'] }),
  agent('MyCentralAIScraperBot', 'Unknown (MyCentralAIScraperBot)', 'AI Crawler', 'training'),
  agent('NagetBot', 'Naget', 'AI Crawler', 'training'),
  agent(['netEstate Imprint Crawler', 'netEstate NE Crawler'], 'netEstate', 'AI Crawler', 'training', { id: 'netestate-imprint-crawler', tokens: ['netestate'] }),
  agent('newsai', 'Unknown (newsai)', 'AI Crawler', 'training'),
  agent(['Panscient', 'panscient.com'], 'Panscient', 'AI Crawler', 'training'),
  agent('Poseidon Research Crawler', 'Poseidon Research', 'AI Crawler', 'training', { id: 'poseidon-research-crawler', tokens: ['poseidon'] }),
  agent('Reflectionbot', 'Reflection AI', 'AI Crawler', 'training'),
  agent('Sidetrade indexer bot', 'Sidetrade', 'AI Crawler', 'training', { id: 'sidetrade-indexer-bot', tokens: ['sidetrade'] }),
  agent('Thinkbot', 'Thinkbot', 'AI Crawler', 'training'),
  agent('WARDBot', 'WEBSPARK', 'AI Crawler', 'training'),
  agent('AgentTimes', 'The Agent Times', 'AI Crawler', 'training'),
  agent(['TerraCotta', 'Terra Cotta'], 'Ceramic AI', 'AI Search', 'search'),
  // Meltwater's media-monitoring crawler.
  agent('YaK', 'Meltwater', 'Advertising & Marketing', 'analysis'),
  agent(['Awario', 'AwarioSmartBot', 'AwarioRssBot'], 'Awario', 'Advertising & Marketing', 'analysis'),
] as const satisfies readonly AgentEntry[]
