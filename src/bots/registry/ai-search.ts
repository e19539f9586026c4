import type { AgentEntry } from '../types.ts'
import { AI_ROBOTS } from './ai-data.ts'

const AMAZON_DOCS = 'https://docs.aws.amazon.com'
const EXA = 'https://exa.ai'
const QUERIT = 'https://www.querit.ai'
const IASK = 'https://iask.ai'

/**
 * Crawlers that build the index an AI answer engine, an AI search API or a
 * retrieval (RAG) product retrieves from and cites.
 */
export const aiSearchAgents = [
  { id: 'addsearchbot', tokens: ['addsearchbot'], uaNames: ['AddSearchBot'], operator: 'AddSearch', category: 'AI Search', purpose: 'search', obeysRobotsTxt: true, docs: 'https://www.addsearch.com/bot' },
  { id: 'aiwebindex', tokens: ['aiwebindex'], uaNames: ['AIWebIndex'], operator: 'Lyrenth', category: 'AI Search', purpose: 'search', obeysRobotsTxt: true, docs: 'https://lyrenth.com/crawler-policy' },
  { id: 'amazon-kendra', tokens: ['amazon-kendra'], uaNames: ['amazon-kendra'], uaNamePrefixes: ['amazon-kendra'], operator: 'Amazon (AWS)', category: 'AI Search', purpose: 'search', obeysRobotsTxt: true, docs: `${AMAZON_DOCS}/kendra/latest/dg/data-source-web-crawler.html` },
  { id: 'amazon-qbusiness', tokens: ['amazon-qbusiness'], uaNames: ['amazon-QBusiness'], operator: 'Amazon (AWS)', category: 'AI Search', purpose: 'search', obeysRobotsTxt: true, docs: `${AMAZON_DOCS}/amazonq/latest/qbusiness-ug/webcrawler-connector.html` },
  // Crawls only the URLs a customer picked for their own Bedrock knowledge base.
  { id: 'bedrockbot', tokens: ['bedrockbot'], uaNames: ['bedrockbot'], operator: 'Amazon (AWS)', category: 'AI Search', purpose: 'search', obeysRobotsTxt: true, docs: `${AMAZON_DOCS}/bedrock/latest/userguide/webcrawl-data-source-connector.html` },
  { id: 'andibot', tokens: ['andibot'], uaNames: ['Andibot'], operator: 'Andi', category: 'AI Search', purpose: 'search', obeysRobotsTxt: true, docs: 'https://andisearch.com/' },
  { id: 'anomura', tokens: ['anomura'], uaNames: ['Anomura'], operator: 'Direqt', category: 'AI Search', purpose: 'search', obeysRobotsTxt: true, docs: 'https://direqt.ai' },
  { id: 'aranet-searchbot', tokens: ['aranet-searchbot'], uaNames: ['Aranet-SearchBot'], operator: 'Aranet', category: 'AI Search', purpose: 'search', obeysRobotsTxt: true, docs: 'https://aranet.ai/bot' },
  { id: 'azureai-searchbot', tokens: ['azureai-searchbot'], uaNames: ['AzureAI-SearchBot'], operator: 'Microsoft', category: 'AI Search', purpose: 'search', obeysRobotsTxt: true, docs: AI_ROBOTS },
  { id: 'bravebot', tokens: ['bravebot'], uaNames: ['Bravebot'], operator: 'Brave', category: 'Search Engine Crawler', purpose: 'search', obeysRobotsTxt: true, docs: 'https://search.brave.com/help/brave-search-crawler' },
  { id: 'channel3bot', tokens: ['channel3bot'], uaNames: ['Channel3Bot'], operator: 'Channel3', category: 'AI Search', purpose: 'search', obeysRobotsTxt: true, docs: AI_ROBOTS },
  { id: 'cloudflare-autorag', tokens: ['cloudflare-autorag'], uaNames: ['Cloudflare-AutoRAG'], operator: 'Cloudflare', category: 'AI Search', purpose: 'search', obeysRobotsTxt: true, docs: 'https://developers.cloudflare.com/autorag/' },
  // The name is also that of Exalead's older search crawler (`Exabot/3.0; +http://www.exabot.com`).
  { id: 'exabot', tokens: ['exabot'], uaNames: ['ExaBot', 'Exabot-Thumbnails'], operator: 'Exa', category: 'AI Search', purpose: 'search', obeysRobotsTxt: true, docs: EXA },
  { id: 'exasearchbot', tokens: ['exasearchbot'], uaNames: ['ExaSearchBot'], operator: 'Exa', category: 'AI Search', purpose: 'search', obeysRobotsTxt: true, docs: EXA },
  { id: 'henkbot', tokens: ['henkbot'], uaNames: ['HenkBot'], operator: 'Valyu', category: 'AI Search', purpose: 'search', obeysRobotsTxt: true, docs: AI_ROBOTS },
  { id: 'iaskbot', tokens: ['iaskbot'], uaNames: ['iAskBot'], operator: 'iAsk', category: 'AI Search', purpose: 'search', obeysRobotsTxt: true, docs: IASK },
  { id: 'iaskspider', tokens: ['iaskspider'], uaNames: ['iaskspider'], operator: 'iAsk', category: 'AI Search', purpose: 'search', obeysRobotsTxt: true, docs: IASK },
  { id: 'klaviyoaibot', tokens: ['klaviyoaibot'], uaNames: ['KlaviyoAIBot'], operator: 'Klaviyo', category: 'AI Search', purpose: 'search', obeysRobotsTxt: true, docs: 'https://help.klaviyo.com/hc/en-us/articles/40496146232219' },
  { id: 'linerbot', tokens: ['linerbot'], uaNames: ['LinerBot'], operator: 'Liner', category: 'AI Search', purpose: 'search', obeysRobotsTxt: true, docs: 'https://getliner.com' },
  { id: 'linkupbot', tokens: ['linkupbot'], uaNames: ['LinkupBot'], operator: 'Linkup', category: 'AI Search', purpose: 'search', obeysRobotsTxt: true, docs: 'https://www.linkup.so' },
  { id: 'phindbot', tokens: ['phindbot'], uaNames: ['PhindBot'], operator: 'Phind', category: 'AI Search', purpose: 'search', obeysRobotsTxt: true, docs: 'https://www.phind.com/' },
  { id: 'qualifiedbot', tokens: ['qualifiedbot'], uaNames: ['QualifiedBot'], operator: 'Qualified', category: 'AI Search', purpose: 'search', obeysRobotsTxt: true, docs: 'https://www.qualified.com' },
  { id: 'queritbot', tokens: ['queritbot'], uaNames: ['QueritBot'], operator: 'Querit', category: 'AI Search', purpose: 'search', obeysRobotsTxt: true, docs: QUERIT },
  { id: 'querit-searchbot', tokens: ['querit-searchbot'], uaNames: ['Querit-SearchBot'], operator: 'Querit', category: 'AI Search', purpose: 'search', obeysRobotsTxt: true, docs: QUERIT },
  { id: 'shapbot', tokens: ['shapbot'], uaNames: ['ShapBot'], operator: 'Parallel Web Systems', category: 'AI Search', purpose: 'search', obeysRobotsTxt: true, docs: 'https://docs.parallel.ai/features/crawler' },
  { id: 'tavilybot', tokens: ['tavilybot'], uaNames: ['TavilyBot'], operator: 'Tavily', category: 'AI Search', purpose: 'search', obeysRobotsTxt: true, docs: 'https://tavily.com' },
  { id: 'zanistabot', tokens: ['zanistabot'], uaNames: ['ZanistaBot'], operator: 'Zanista', category: 'AI Search', purpose: 'search', obeysRobotsTxt: true, docs: AI_ROBOTS },
  { id: 'bigsur.ai', tokens: ['bigsur.ai'], uaNames: ['bigsur.ai'], operator: 'Big Sur AI', category: 'AI Search', purpose: 'search', obeysRobotsTxt: true, docs: 'https://bigsur.ai' },
  // The WordPress chatbot plugin's crawler, which indexes a site for its own chatbot.
  { id: 'wpbot', tokens: ['wpbot'], uaNames: ['wpbot'], operator: 'QuantumCloud', category: 'AI Search', purpose: 'search', obeysRobotsTxt: true, docs: 'https://www.quantumcloud.com' },
] as const satisfies readonly AgentEntry[]
