import type { AgentEntry } from '../types.ts'

// The community list these entries were first found in; an entry cites it
// when its operator publishes no crawler page of its own.
export const AI_ROBOTS = 'https://github.com/ai-robots-txt/ai.robots.txt'
const APIFY = 'https://apify.com'
const ECHOBOX = 'https://echobox.com'
const PANSCIENT = 'https://panscient.com/faq.htm'
const CERAMIC = 'https://github.com/CeramicTeam/CeramicTerracotta'
const LAION = 'https://laion.ai/faq/'

/**
 * Crawlers that collect content for AI training data sets, and the data
 * providers that sell crawled content to AI products.
 */
export const aiDataAgents = [
  { id: 'deepseekbot', tokens: ['deepseekbot'], uaNames: ['DeepSeekBot'], operator: 'DeepSeek', category: 'AI Crawler', purpose: 'training', obeysRobotsTxt: true, docs: 'https://www.deepseek.com/' },
  { id: 'tiktokspider', tokens: ['tiktokspider'], uaNames: ['TikTokSpider'], operator: 'ByteDance', category: 'AI Crawler', purpose: 'training', obeysRobotsTxt: true, docs: AI_ROBOTS },
  { id: 'chatglm-spider', tokens: ['chatglm-spider'], uaNames: ['ChatGLM-Spider'], operator: 'Zhipu AI', category: 'AI Crawler', purpose: 'training', obeysRobotsTxt: true, docs: AI_ROBOTS },
  { id: 'aihitbot', tokens: ['aihitbot'], uaNames: ['aiHitBot'], operator: 'aiHit', category: 'AI Crawler', purpose: 'training', obeysRobotsTxt: true, docs: 'https://www.aihitdata.com/about' },
  { id: 'apifybot', tokens: ['apifybot'], uaNames: ['ApifyBot'], operator: 'Apify', category: 'AI Crawler', purpose: 'training', obeysRobotsTxt: true, docs: APIFY },
  { id: 'apifywebsitecontentcrawler', tokens: ['apifywebsitecontentcrawler'], uaNames: ['ApifyWebsiteContentCrawler'], operator: 'Apify', category: 'AI Crawler', purpose: 'training', obeysRobotsTxt: true, docs: APIFY },
  { id: 'cragcrawler', tokens: ['cragcrawler'], uaNames: ['CragCrawler'], operator: 'CragSoftware', category: 'AI Crawler', purpose: 'training', obeysRobotsTxt: true, docs: AI_ROBOTS },
  // An open-source crawler anyone runs; the name says which software fetched, not who ran it.
  { id: 'crawl4ai', tokens: ['crawl4ai'], uaNames: ['Crawl4AI'], uaNamePrefixes: ['crawl4ai-adapter'], operator: 'Crawl4AI (open source)', category: 'AI Crawler', purpose: 'training', obeysRobotsTxt: true, docs: 'https://github.com/unclecode/crawl4ai' },
  { id: 'crawlspace', tokens: ['crawlspace'], uaNames: ['Crawlspace'], operator: 'Crawlspace', category: 'AI Crawler', purpose: 'training', obeysRobotsTxt: true, docs: 'https://crawlspace.dev' },
  // The registry token is the first word of a multi-word name; see the note on Sogou in search.ts.
  { id: 'datenbank-crawler', tokens: ['datenbank'], uaNames: ['Datenbank Crawler'], operator: 'Datenbank', category: 'AI Crawler', purpose: 'training', obeysRobotsTxt: true, docs: AI_ROBOTS },
  { id: 'kangaroo-bot', tokens: ['kangaroo'], uaNames: ['Kangaroo Bot'], operator: 'Kangaroo LLM', category: 'AI Crawler', purpose: 'training', obeysRobotsTxt: true, docs: AI_ROBOTS },
  { id: 'echoboxbot', tokens: ['echoboxbot'], uaNames: ['EchoboxBot'], operator: 'Echobox', category: 'AI Crawler', purpose: 'training', obeysRobotsTxt: true, docs: ECHOBOX },
  { id: 'echobot-bot', tokens: ['echobot'], uaNames: ['Echobot Bot', 'Echobot'], operator: 'Echobox', category: 'AI Crawler', purpose: 'training', obeysRobotsTxt: true, docs: ECHOBOX },
  { id: 'factset_spyderbot', tokens: ['factset_spyderbot'], uaNames: ['Factset_spyderbot'], operator: 'FactSet', category: 'AI Crawler', purpose: 'training', obeysRobotsTxt: true, docs: 'https://www.factset.com/ai' },
  { id: 'friendlycrawler', tokens: ['friendlycrawler'], uaNames: ['FriendlyCrawler'], operator: 'Unknown (FriendlyCrawler)', category: 'AI Crawler', purpose: 'training', obeysRobotsTxt: true, docs: 'https://imho.alex-kunz.com/2024/01/25/an-update-on-friendly-crawler' },
  { id: 'imagespider', tokens: ['imagespider'], uaNames: ['imageSpider'], operator: 'Unknown (imageSpider)', category: 'AI Crawler', purpose: 'training', obeysRobotsTxt: true, docs: AI_ROBOTS },
  // An open-source downloader anyone runs to build image data sets.
  { id: 'img2dataset', tokens: ['img2dataset'], uaNames: ['img2dataset'], operator: 'img2dataset (open source)', category: 'AI Crawler', purpose: 'training', obeysRobotsTxt: true, docs: 'https://github.com/rom1504/img2dataset' },
  { id: 'isscyberriskcrawler', tokens: ['isscyberriskcrawler'], uaNames: ['ISSCyberRiskCrawler'], operator: 'ISS Corporate', category: 'AI Crawler', purpose: 'training', obeysRobotsTxt: true, docs: 'https://iss-cyber.com' },
  { id: 'kunatocrawler', tokens: ['kunatocrawler'], uaNames: ['KunatoCrawler'], operator: 'Kunato', category: 'AI Crawler', purpose: 'training', obeysRobotsTxt: true, docs: AI_ROBOTS },
  { id: 'laiondownloader', tokens: ['laiondownloader'], uaNames: ['LAIONDownloader'], operator: 'LAION', category: 'AI Crawler', purpose: 'training', obeysRobotsTxt: true, docs: LAION },
  { id: 'laion-huggingface-processor', tokens: ['laion-huggingface-processor'], uaNames: ['laion-huggingface-processor'], operator: 'LAION', category: 'AI Crawler', purpose: 'training', obeysRobotsTxt: true, docs: LAION },
  // Leipzig Corpora Collection: text corpora for language research and models.
  { id: 'lcc', tokens: ['lcc'], uaNames: ['LCC'], operator: 'Leipzig University (Leipzig Corpora Collection)', category: 'Academic Research', purpose: 'training', obeysRobotsTxt: true, docs: 'https://corpora.informatik.uni-leipzig.de/crawler_faq.html' },
  { id: 'linguee-bot', tokens: ['linguee'], uaNames: ['Linguee Bot'], operator: 'Linguee (DeepL)', category: 'AI Crawler', purpose: 'training', obeysRobotsTxt: true, docs: 'https://www.linguee.com' },
  { id: 'mycentralaiscraperbot', tokens: ['mycentralaiscraperbot'], uaNames: ['MyCentralAIScraperBot'], operator: 'Unknown (MyCentralAIScraperBot)', category: 'AI Crawler', purpose: 'training', obeysRobotsTxt: true, docs: AI_ROBOTS },
  { id: 'nagetbot', tokens: ['nagetbot'], uaNames: ['NagetBot'], operator: 'Naget', category: 'AI Crawler', purpose: 'training', obeysRobotsTxt: true, docs: 'https://naget.com/' },
  { id: 'netestate-imprint-crawler', tokens: ['netestate'], uaNames: ['netEstate Imprint Crawler', 'netEstate NE Crawler'], operator: 'netEstate', category: 'AI Crawler', purpose: 'training', obeysRobotsTxt: true, docs: 'https://www.netestate.de/' },
  { id: 'newsai', tokens: ['newsai'], uaNames: ['newsai'], operator: 'Unknown (newsai)', category: 'AI Crawler', purpose: 'training', obeysRobotsTxt: true, docs: AI_ROBOTS },
  { id: 'panscient', tokens: ['panscient'], uaNames: ['Panscient', 'panscient.com'], operator: 'Panscient', category: 'AI Crawler', purpose: 'training', obeysRobotsTxt: true, docs: PANSCIENT },
  { id: 'poseidon-research-crawler', tokens: ['poseidon'], uaNames: ['Poseidon Research Crawler'], operator: 'Poseidon Research', category: 'AI Crawler', purpose: 'training', obeysRobotsTxt: true, docs: 'https://www.poseidonresearch.com' },
  { id: 'reflectionbot', tokens: ['reflectionbot'], uaNames: ['Reflectionbot'], operator: 'Reflection AI', category: 'AI Crawler', purpose: 'training', obeysRobotsTxt: true, docs: 'https://reflection.ai/' },
  { id: 'sidetrade-indexer-bot', tokens: ['sidetrade'], uaNames: ['Sidetrade indexer bot'], operator: 'Sidetrade', category: 'AI Crawler', purpose: 'training', obeysRobotsTxt: true, docs: 'https://www.sidetrade.com' },
  { id: 'thinkbot', tokens: ['thinkbot'], uaNames: ['Thinkbot'], operator: 'Thinkbot', category: 'AI Crawler', purpose: 'training', obeysRobotsTxt: true, docs: 'https://www.thinkbot.agency' },
  { id: 'wardbot', tokens: ['wardbot'], uaNames: ['WARDBot'], operator: 'WEBSPARK', category: 'AI Crawler', purpose: 'training', obeysRobotsTxt: true, docs: AI_ROBOTS },
  { id: 'agenttimes', tokens: ['agenttimes'], uaNames: ['AgentTimes'], operator: 'The Agent Times', category: 'AI Crawler', purpose: 'training', obeysRobotsTxt: true, docs: 'https://theagenttimes.com/about' },
  { id: 'terracotta', tokens: ['terracotta'], uaNames: ['TerraCotta', 'Terra Cotta'], operator: 'Ceramic AI', category: 'AI Search', purpose: 'search', obeysRobotsTxt: true, docs: CERAMIC },
  // Meltwater's media-monitoring crawler.
  { id: 'yak', tokens: ['yak'], uaNames: ['YaK'], operator: 'Meltwater', category: 'Advertising & Marketing', purpose: 'analysis', obeysRobotsTxt: true, docs: 'https://www.meltwater.com/en/suite/consumer-intelligence' },
  { id: 'awario', tokens: ['awario'], uaNames: ['Awario', 'AwarioSmartBot', 'AwarioRssBot'], operator: 'Awario', category: 'Advertising & Marketing', purpose: 'analysis', obeysRobotsTxt: true, docs: 'https://awario.com/bots.html' },
] as const satisfies readonly AgentEntry[]
