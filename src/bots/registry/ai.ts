import type { AgentEntry } from '../types.ts'

const OPENAI = 'https://platform.openai.com/docs/bots'
const ANTHROPIC = 'https://support.anthropic.com/en/articles/8896518-does-anthropic-crawl-data-from-the-web-and-how-can-site-owners-block-the-crawler'
const PERPLEXITY = 'https://docs.perplexity.ai/guides/bots'
const META = 'https://developers.facebook.com/docs/sharing/webmasters/web-crawlers/'
const AMAZON = 'https://developer.amazon.com/amazonbot'
const AI2 = 'https://allenai.org/crawler'
const WEBZ = 'https://webz.io/blog/web-data/what-is-the-omgili-bot-and-why-is-it-crawling-your-website/'
const amazon = { reverseDns: ['.crawl.amazonbot.amazon'] } as const

const openaiList = (file: string) => ({ ipRanges: [{ url: `https://openai.com/${file}`, format: 'google-json' }] }) as const
const perplexityList = (file: string) => ({ ipRanges: [{ url: `https://www.perplexity.com/${file}`, format: 'google-json' }] }) as const

/**
 * AI crawlers (training data), AI search indexers and AI assistants' fetchers.
 * Assistants' fetchers act on one person's request; where the operator says
 * robots.txt may not apply to them, `obeysRobotsTxt` is false.
 */
export const aiAgents = [
  { id: 'gptbot', tokens: ['gptbot'], uaNames: ['GPTBot'], operator: 'OpenAI', category: 'AI Crawler', purpose: 'training', obeysRobotsTxt: true, verification: openaiList('gptbot.json'), docs: OPENAI },
  { id: 'oai-searchbot', tokens: ['oai-searchbot'], uaNames: ['OAI-SearchBot'], operator: 'OpenAI', category: 'AI Search', purpose: 'search', obeysRobotsTxt: true, verification: openaiList('searchbot.json'), docs: OPENAI },
  // OpenAI: "because these actions are initiated by a user, robots.txt rules may not apply".
  // OpenAI: "ChatGPT agent signs every outbound HTTP request", `Signature-Agent: "https://chatgpt.com"` (help.openai.com/en/articles/11845367).
  { id: 'chatgpt-user', tokens: ['chatgpt-user'], uaNames: ['ChatGPT-User'], operator: 'OpenAI', category: 'AI Assistant', purpose: 'user-fetch', obeysRobotsTxt: false, verification: openaiList('chatgpt-user.json'), signatureAgent: 'https://chatgpt.com', docs: OPENAI },

  { id: 'claudebot', tokens: ['claudebot'], uaNames: ['ClaudeBot'], operator: 'Anthropic', category: 'AI Crawler', purpose: 'training', obeysRobotsTxt: true, docs: ANTHROPIC },
  { id: 'claude-searchbot', tokens: ['claude-searchbot'], uaNames: ['Claude-SearchBot'], operator: 'Anthropic', category: 'AI Search', purpose: 'search', obeysRobotsTxt: true, docs: ANTHROPIC },
  // Anthropic says all three of its bots honour robots.txt, the user-triggered one included.
  { id: 'claude-user', tokens: ['claude-user'], uaNames: ['Claude-User'], operator: 'Anthropic', category: 'AI Assistant', purpose: 'user-fetch', obeysRobotsTxt: true, docs: ANTHROPIC },
  // Legacy name, still found in robots.txt files and old logs; Anthropic's current bots are the three above.
  { id: 'anthropic-ai', tokens: ['anthropic-ai'], uaNames: ['anthropic-ai'], operator: 'Anthropic', category: 'AI Crawler', purpose: 'training', obeysRobotsTxt: true, docs: ANTHROPIC },

  { id: 'perplexitybot', tokens: ['perplexitybot'], uaNames: ['PerplexityBot'], operator: 'Perplexity', category: 'AI Search', purpose: 'search', obeysRobotsTxt: true, verification: perplexityList('perplexitybot.json'), docs: PERPLEXITY },
  // Perplexity: Perplexity-User "generally ignores robots.txt rules" since a person asked for the page.
  { id: 'perplexity-user', tokens: ['perplexity-user'], uaNames: ['Perplexity-User'], operator: 'Perplexity', category: 'AI Assistant', purpose: 'user-fetch', obeysRobotsTxt: false, verification: perplexityList('perplexity-user.json'), docs: PERPLEXITY },

  { id: 'ccbot', tokens: ['ccbot'], uaNames: ['CCBot'], operator: 'Common Crawl Foundation', category: 'AI Crawler', purpose: 'training', obeysRobotsTxt: true, docs: 'https://commoncrawl.org/ccbot' },
  { id: 'bytespider', tokens: ['bytespider'], uaNames: ['Bytespider'], operator: 'ByteDance', category: 'AI Crawler', purpose: 'training', obeysRobotsTxt: true, docs: 'https://www.bytedance.com/' },

  { id: 'amazonbot', tokens: ['amazonbot'], uaNames: ['Amazonbot'], operator: 'Amazon', category: 'AI Crawler', purpose: 'training', obeysRobotsTxt: true, verification: amazon, docs: AMAZON },
  { id: 'amzn-searchbot', tokens: ['amzn-searchbot'], uaNames: ['Amzn-SearchBot'], operator: 'Amazon', category: 'AI Search', purpose: 'search', obeysRobotsTxt: true, verification: amazon, docs: AMAZON },
  { id: 'amzn-user', tokens: ['amzn-user'], uaNames: ['Amzn-User'], operator: 'Amazon', category: 'AI Assistant', purpose: 'user-fetch', obeysRobotsTxt: false, verification: amazon, docs: AMAZON },

  { id: 'meta-externalagent', tokens: ['meta-externalagent'], uaNames: ['meta-externalagent'], operator: 'Meta', category: 'AI Crawler', purpose: 'training', obeysRobotsTxt: true, docs: META },
  // Meta: "because the fetch was initiated by a user, this crawler may bypass robots.txt rules".
  { id: 'meta-externalfetcher', tokens: ['meta-externalfetcher'], uaNames: ['meta-externalfetcher'], operator: 'Meta', category: 'AI Assistant', purpose: 'user-fetch', obeysRobotsTxt: false, docs: META },
  { id: 'meta-webindexer', tokens: ['meta-webindexer'], uaNames: ['meta-webindexer'], operator: 'Meta', category: 'AI Search', purpose: 'search', obeysRobotsTxt: true, docs: META },
  { id: 'facebookbot', tokens: ['facebookbot'], uaNames: ['FacebookBot'], operator: 'Meta', category: 'AI Crawler', purpose: 'training', obeysRobotsTxt: true, docs: 'https://developers.facebook.com/docs/sharing/bot/' },

  { id: 'cohere-ai', tokens: ['cohere-ai'], uaNames: ['cohere-ai'], operator: 'Cohere', category: 'AI Assistant', purpose: 'user-fetch', obeysRobotsTxt: true, docs: 'https://cohere.com/' },
  { id: 'cohere-training-data-crawler', tokens: ['cohere-training-data-crawler'], uaNames: ['cohere-training-data-crawler'], operator: 'Cohere', category: 'AI Crawler', purpose: 'training', obeysRobotsTxt: true, docs: 'https://cohere.com/' },
  { id: 'diffbot', tokens: ['diffbot'], uaNames: ['Diffbot'], operator: 'Diffbot', category: 'AI Crawler', purpose: 'training', obeysRobotsTxt: true, docs: 'https://www.diffbot.com/' },
  { id: 'ai2bot', tokens: ['ai2bot'], uaNames: ['AI2Bot'], operator: 'Allen Institute for AI (Ai2)', category: 'AI Crawler', purpose: 'training', obeysRobotsTxt: true, docs: AI2 },
  { id: 'ai2bot-dolma', tokens: ['ai2bot-dolma'], uaNames: ['Ai2Bot-Dolma'], operator: 'Allen Institute for AI (Ai2)', category: 'AI Crawler', purpose: 'training', obeysRobotsTxt: true, docs: AI2 },
  { id: 'youbot', tokens: ['youbot'], uaNames: ['YouBot'], operator: 'You.com', category: 'AI Search', purpose: 'search', obeysRobotsTxt: true, docs: 'https://about.you.com/youbot/' },
  { id: 'mistralai-user', tokens: ['mistralai-user'], uaNames: ['MistralAI-User'], operator: 'Mistral AI', category: 'AI Assistant', purpose: 'user-fetch', obeysRobotsTxt: true, docs: 'https://docs.mistral.ai/robots' },
  { id: 'timpibot', tokens: ['timpibot'], uaNames: ['Timpibot'], operator: 'Timpi', category: 'AI Crawler', purpose: 'training', obeysRobotsTxt: true, docs: 'https://timpi.io/' },
  { id: 'imagesiftbot', tokens: ['imagesiftbot'], uaNames: ['ImagesiftBot'], operator: 'ImageSift (Hive)', category: 'AI Crawler', purpose: 'training', obeysRobotsTxt: true, docs: 'https://imagesift.com/about' },
  { id: 'omgili', tokens: ['omgili'], uaNames: ['omgili'], operator: 'Webz.io', category: 'AI Crawler', purpose: 'training', obeysRobotsTxt: true, docs: WEBZ },
  { id: 'omgilibot', tokens: ['omgilibot'], uaNames: ['omgilibot'], operator: 'Webz.io', category: 'AI Crawler', purpose: 'training', obeysRobotsTxt: true, docs: WEBZ },
  // Control-only: says whether what Webz.io's crawler fetched may be sold for AI training.
  { id: 'webzio-extended', tokens: ['webzio-extended'], uaNames: [], operator: 'Webz.io', category: 'AI Crawler', purpose: 'training', hasOwnUserAgent: false, obeysRobotsTxt: true, docs: WEBZ },
  { id: 'pangubot', tokens: ['pangubot'], uaNames: ['PanguBot'], operator: 'Huawei (Pangu)', category: 'AI Crawler', purpose: 'training', obeysRobotsTxt: true, docs: 'https://www.huaweicloud.com/' },
  { id: 'brightbot', tokens: ['brightbot'], uaNames: ['Brightbot'], operator: 'Bright Data', category: 'AI Crawler', purpose: 'training', obeysRobotsTxt: true, docs: 'https://brightdata.com/brightbot' },
  { id: 'firecrawlagent', tokens: ['firecrawlagent'], uaNames: ['FirecrawlAgent'], operator: 'Firecrawl', category: 'AI Crawler', purpose: 'training', obeysRobotsTxt: true, docs: 'https://docs.firecrawl.dev/' },
  { id: 'velenpublicwebcrawler', tokens: ['velenpublicwebcrawler'], uaNames: ['VelenPublicWebCrawler'], operator: 'Velen (Hunter)', category: 'AI Crawler', purpose: 'training', obeysRobotsTxt: true, docs: 'https://velen.io/' },
  { id: 'sbintuitionsbot', tokens: ['sbintuitionsbot'], uaNames: ['SBIntuitionsBot'], operator: 'SB Intuitions', category: 'AI Crawler', purpose: 'training', obeysRobotsTxt: true, docs: 'https://www.sbintuitions.co.jp/en/bot/' },
  { id: 'atlassian-bot', tokens: ['atlassian-bot'], uaNames: ['atlassian-bot'], operator: 'Atlassian', category: 'AI Search', purpose: 'search', obeysRobotsTxt: true, docs: 'https://support.atlassian.com/organization-administration/docs/connect-custom-website-to-rovo/' },
  { id: 'icc-crawler', tokens: ['icc-crawler'], uaNames: ['ICC-Crawler'], operator: 'NICT', category: 'Academic Research', purpose: 'training', obeysRobotsTxt: true, docs: 'https://ict-isp.nict.go.jp/icc/crawler.html' },
  { id: 'cotoyogi', tokens: ['cotoyogi'], uaNames: ['Cotoyogi'], operator: 'ROIS-DS (NII)', category: 'Academic Research', purpose: 'training', obeysRobotsTxt: true, docs: 'https://ds.rois.ac.jp/en_center8/en_crawler/' },
] as const satisfies readonly AgentEntry[]
