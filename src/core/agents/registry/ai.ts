import type { AgentEntry } from '../types.ts'
import { agent } from './define.ts'

const amazon = { reverseDns: ['.crawl.amazonbot.amazon'] } as const

const openaiList = (file: string) => ({ ipRanges: [{ url: `https://openai.com/${file}`, format: 'google-json' }] }) as const
const perplexityList = (file: string) => ({ ipRanges: [{ url: `https://www.perplexity.com/${file}`, format: 'google-json' }] }) as const

/**
 * AI crawlers (training data), AI search indexers and AI assistants' fetchers.
 * Assistants' fetchers act on one person's request; where the operator says
 * robots.txt may not apply to them, `obeysRobotsTxt` is false.
 */
export const aiAgents = [
  agent('GPTBot', 'OpenAI', 'AI Crawler', 'training', { verification: openaiList('gptbot.json') }),
  agent('OAI-SearchBot', 'OpenAI', 'AI Search', 'search', { verification: openaiList('searchbot.json') }),
  // OpenAI: "because these actions are initiated by a user, robots.txt rules may not apply".
  // OpenAI: "ChatGPT agent signs every outbound HTTP request", `Signature-Agent: "https://chatgpt.com"` (help.openai.com/en/articles/11845367).
  agent('ChatGPT-User', 'OpenAI', 'AI Assistant', 'user-fetch', { obeysRobotsTxt: false, verification: openaiList('chatgpt-user.json'), signatureAgent: 'https://chatgpt.com' }),

  agent('ClaudeBot', 'Anthropic', 'AI Crawler', 'training'),
  agent('Claude-SearchBot', 'Anthropic', 'AI Search', 'search'),
  // Anthropic says all three of its bots honour robots.txt, the user-triggered one included.
  agent('Claude-User', 'Anthropic', 'AI Assistant', 'user-fetch'),
  // Legacy name, still found in robots.txt files and old logs; Anthropic's current bots are the three above.
  agent('anthropic-ai', 'Anthropic', 'AI Crawler', 'training'),

  agent('PerplexityBot', 'Perplexity', 'AI Search', 'search', { verification: perplexityList('perplexitybot.json') }),
  // Perplexity: Perplexity-User "generally ignores robots.txt rules" since a person asked for the page.
  agent('Perplexity-User', 'Perplexity', 'AI Assistant', 'user-fetch', { obeysRobotsTxt: false, verification: perplexityList('perplexity-user.json') }),

  agent('CCBot', 'Common Crawl Foundation', 'AI Crawler', 'training'),
  agent('Bytespider', 'ByteDance', 'AI Crawler', 'training'),

  agent('Amazonbot', 'Amazon', 'AI Crawler', 'training', { verification: amazon }),
  agent('Amzn-SearchBot', 'Amazon', 'AI Search', 'search', { verification: amazon }),
  agent('Amzn-User', 'Amazon', 'AI Assistant', 'user-fetch', { obeysRobotsTxt: false, verification: amazon }),

  agent('meta-externalagent', 'Meta', 'AI Crawler', 'training'),
  // Meta: "because the fetch was initiated by a user, this crawler may bypass robots.txt rules".
  agent('meta-externalfetcher', 'Meta', 'AI Assistant', 'user-fetch', { obeysRobotsTxt: false }),
  agent('meta-webindexer', 'Meta', 'AI Search', 'search'),
  agent('FacebookBot', 'Meta', 'AI Crawler', 'training'),

  agent('cohere-ai', 'Cohere', 'AI Assistant', 'user-fetch'),
  agent('cohere-training-data-crawler', 'Cohere', 'AI Crawler', 'training'),
  agent('Diffbot', 'Diffbot', 'AI Crawler', 'training'),
  agent('AI2Bot', 'Allen Institute for AI (Ai2)', 'AI Crawler', 'training'),
  agent('Ai2Bot-Dolma', 'Allen Institute for AI (Ai2)', 'AI Crawler', 'training'),
  agent('YouBot', 'You.com', 'AI Search', 'search'),
  agent('MistralAI-User', 'Mistral AI', 'AI Assistant', 'user-fetch'),
  agent('Timpibot', 'Timpi', 'AI Crawler', 'training'),
  agent('ImagesiftBot', 'ImageSift (Hive)', 'AI Crawler', 'training'),
  agent('omgili', 'Webz.io', 'AI Crawler', 'training'),
  agent('omgilibot', 'Webz.io', 'AI Crawler', 'training'),
  // Control-only: says whether what Webz.io's crawler fetched may be sold for AI training.
  agent('webzio-extended', 'Webz.io', 'AI Crawler', 'training', { hasOwnUserAgent: false }),
  agent('PanguBot', 'Huawei (Pangu)', 'AI Crawler', 'training'),
  agent('Brightbot', 'Bright Data', 'AI Crawler', 'training'),
  agent('FirecrawlAgent', 'Firecrawl', 'AI Crawler', 'training'),
  agent('VelenPublicWebCrawler', 'Velen (Hunter)', 'AI Crawler', 'training'),
  agent('SBIntuitionsBot', 'SB Intuitions', 'AI Crawler', 'training'),
  agent('atlassian-bot', 'Atlassian', 'AI Search', 'search'),
  agent('ICC-Crawler', 'NICT', 'Academic Research', 'training'),
  agent('Cotoyogi', 'ROIS-DS (NII)', 'Academic Research', 'training'),
] as const satisfies readonly AgentEntry[]
