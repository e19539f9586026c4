import type { AgentEntry } from '../types.ts'
import { agent } from './define.ts'

/**
 * Crawlers that build the index an AI answer engine, an AI search API or a
 * retrieval (RAG) product retrieves from and cites.
 */
export const aiSearchAgents = [
  agent('AddSearchBot', 'AddSearch', 'AI Search', 'search'),
  agent('AIWebIndex', 'Lyrenth', 'AI Search', 'search'),
  agent('amazon-kendra', 'Amazon (AWS)', 'AI Search', 'search', { uaNamePrefixes: ['amazon-kendra'] }),
  agent('amazon-QBusiness', 'Amazon (AWS)', 'AI Search', 'search'),
  // Crawls only the URLs a customer picked for their own Bedrock knowledge base.
  agent('bedrockbot', 'Amazon (AWS)', 'AI Search', 'search'),
  agent('Andibot', 'Andi', 'AI Search', 'search'),
  agent('Anomura', 'Direqt', 'AI Search', 'search'),
  agent('Aranet-SearchBot', 'Aranet', 'AI Search', 'search'),
  agent('AzureAI-SearchBot', 'Microsoft', 'AI Search', 'search'),
  agent('Bravebot', 'Brave', 'Search Engine Crawler', 'search'),
  agent('Channel3Bot', 'Channel3', 'AI Search', 'search'),
  agent('Cloudflare-AutoRAG', 'Cloudflare', 'AI Search', 'search'),
  // The name is also that of Exalead's older search crawler (`Exabot/3.0; +http://www.exabot.com`).
  agent(['ExaBot', 'Exabot-Thumbnails'], 'Exa', 'AI Search', 'search'),
  agent('ExaSearchBot', 'Exa', 'AI Search', 'search'),
  agent('HenkBot', 'Valyu', 'AI Search', 'search'),
  agent('iAskBot', 'iAsk', 'AI Search', 'search'),
  agent('iaskspider', 'iAsk', 'AI Search', 'search'),
  agent('KlaviyoAIBot', 'Klaviyo', 'AI Search', 'search'),
  agent('LinerBot', 'Liner', 'AI Search', 'search'),
  agent('LinkupBot', 'Linkup', 'AI Search', 'search'),
  agent('PhindBot', 'Phind', 'AI Search', 'search'),
  agent('QualifiedBot', 'Qualified', 'AI Search', 'search'),
  agent('QueritBot', 'Querit', 'AI Search', 'search'),
  agent('Querit-SearchBot', 'Querit', 'AI Search', 'search'),
  agent('ShapBot', 'Parallel Web Systems', 'AI Search', 'search'),
  agent('TavilyBot', 'Tavily', 'AI Search', 'search'),
  agent('ZanistaBot', 'Zanista', 'AI Search', 'search'),
  agent('bigsur.ai', 'Big Sur AI', 'AI Search', 'search'),
  // The WordPress chatbot plugin's crawler, which indexes a site for its own chatbot.
  agent('wpbot', 'QuantumCloud', 'AI Search', 'search'),
] as const satisfies readonly AgentEntry[]
