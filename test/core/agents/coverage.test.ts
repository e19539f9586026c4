import { describe, expect, it } from 'vitest'
import { identifyAgent, registry, tools } from '../../../src/core/agents/index.ts'
import { selfNamedBots } from '../../../src/core/agents/registry/names.ts'

// Every agent ai.robots.txt lists (its robots.json keys), as a header would name it.
const AI_ROBOTS_TXT = [
  'AddSearchBot',
  'AgentTimes',
  'AI2Bot',
  'AI2Bot-DeepResearchEval',
  'Ai2Bot-Dolma',
  'aiHitBot',
  'AIWebIndex',
  'amazon-kendra',
  'amazon-QBusiness',
  'Amazonbot',
  'AmazonBuyForMe',
  'Amzn-SearchBot',
  'Amzn-User',
  'Andibot',
  'Anomura',
  'anthropic-ai',
  'ApifyBot',
  'ApifyWebsiteContentCrawler',
  'Applebot',
  'Aranet-SearchBot',
  'atlassian-bot',
  'Awario',
  'AzureAI-SearchBot',
  'bedrockbot',
  'bigsur.ai',
  'Bravebot',
  'Brightbot',
  'BuddyBot',
  'Bytespider',
  'CCBot',
  'Channel3Bot',
  'ChatGLM-Spider',
  'ChatGPT Agent',
  'ChatGPT-User',
  'Claude-Code',
  'Claude-SearchBot',
  'Claude-User',
  'Claude-Web',
  'ClaudeBot',
  'Cloudflare-AutoRAG',
  'CloudVertexBot',
  'cohere-ai',
  'cohere-training-data-crawler',
  'Cotoyogi',
  'CragCrawler',
  'Crawl4AI',
  'Crawlspace',
  'Cursor',
  'Datenbank Crawler',
  'DeepSeekBot',
  'Devin',
  'Diffbot',
  'DuckAssistBot',
  'Echobot Bot',
  'EchoboxBot',
  'ExaBot',
  'ExaSearchBot',
  'FacebookBot',
  'facebookexternalhit',
  'Factset_spyderbot',
  'FirecrawlAgent',
  'FriendlyCrawler',
  'GeistHaus-PageFetcher',
  'Gemini-Deep-Research',
  'Google-Agent',
  'Google-CloudVertexBot',
  'Google-Firebase',
  'Google-Gemini-CLI',
  'Google-NotebookLM',
  'GoogleAgent-Mariner',
  'GoogleAgent-URLContext',
  'GoogleOther',
  'GoogleOther-Image',
  'GoogleOther-Video',
  'GPTBot',
  'HenkBot',
  'iAskBot',
  'iaskspider',
  'ICC-Crawler',
  'ImagesiftBot',
  'imageSpider',
  'img2dataset',
  'ISSCyberRiskCrawler',
  'kagi-fetcher',
  'Kangaroo Bot',
  'Kimi-User',
  'KlaviyoAIBot',
  'KunatoCrawler',
  'laion-huggingface-processor',
  'LAIONDownloader',
  'LCC',
  'Lightpanda',
  'LinerBot',
  'Linguee Bot',
  'LinkupBot',
  'Manus-User',
  'meta-externalagent',
  'meta-externalfetcher',
  'meta-webindexer',
  'MistralAI-User',
  'Mozilla-Tabstack',
  'MyCentralAIScraperBot',
  'NagetBot',
  'netEstate Imprint Crawler',
  'newsai',
  'NotebookLM',
  'NovaAct',
  'OAI-SearchBot',
  'omgili',
  'omgilibot',
  'opencode',
  'PanguBot',
  'Panscient',
  'panscient.com',
  'Perplexity-User',
  'PerplexityBot',
  'PetalBot',
  'PhindBot',
  'Poggio-Citations',
  'Poseidon Research Crawler',
  'QualifiedBot',
  'Querit-SearchBot',
  'QueritBot',
  'QuillBot',
  'quillbot.com',
  'Reflectionbot',
  'SBIntuitionsBot',
  'Scrapy',
  'SemrushBot-OCOB',
  'SemrushBot-SWA',
  'Shap-User',
  'ShapBot',
  'Sidetrade indexer bot',
  'TavilyBot',
  'Terra Cotta',
  'TerraCotta',
  'Thinkbot',
  'TikTokSpider',
  'Timpibot',
  'TongyiBot',
  'Trae',
  'TwinAgent',
  'UseAI',
  'VelenPublicWebCrawler',
  'WARDBot',
  'wpbot',
  'WRTNBot',
  'YaK',
  'YandexAdditional',
  'YandexAdditionalBot',
  'YiyanBot',
  'YouBot',
  'ZanistaBot',
]
// ai.robots.txt names no header can be matched to, and why.
const NOT_IN_HEADERS: Record<string, string> = {
  'Applebot-Extended': 'control-only token',
  'Google-Extended': 'control-only token',
  'Webzio-Extended': 'control-only token',
  Operator: "sends a browser's header; signs its requests instead",
  Code: "VS Code's editor sends `Code/1.95`: a person",
  OpenAI: 'no header is documented under this name',
  Spider: 'a bare word devices use (`SPIDER Build/…`)',
}

describe('ai.robots.txt coverage', () => {
  it.each(AI_ROBOTS_TXT.map((name) => [name]))('%s is identified', (name) => {
    const identity = identifyAgent(`Mozilla/5.0 (compatible; ${name}/1.0; +https://example.com/bot)`)
    expect(identity?.id ?? (identity?.kind === 'tool' ? identity.tokens[0] : undefined), name).toBeDefined()
  })

  it('leaves out only names no header carries, each for a stated reason', () => {
    const controlOnly = registry.filter((e) => 'hasOwnUserAgent' in e && e.hasOwnUserAgent === false).map((e) => e.id)
    expect(controlOnly).toEqual(expect.arrayContaining(['applebot-extended', 'google-extended', 'webzio-extended', 'operator']))
    for (const name of Object.keys(NOT_IN_HEADERS)) expect(AI_ROBOTS_TXT).not.toContain(name)
  })
})

describe('agents and tools the public lists name', () => {
  // Coding agents and CLIs, assistants, monitors, others: registry agents with their own id.
  it.each([
    ['Cursor/3.0.16 (darwin arm64)', 'cursor'],
    ['claude-code/2.1.107 (cli)', 'claude-code'],
    ['GitHubCopilotChat/0.8.0', 'githubcopilotchat'],
    ['Google-Gemini-CLI/0.1.5 (linux; x64)', 'google-gemini-cli'],
    ['Mozilla/5.0 (compatible; opencode/1.0; +https://example.com/bot)', 'opencode'],
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/132.0.0.0 Safari/537.36; Manus-User/1.0', 'manus-user'],
    ['kagi-fetcher/1.0', 'kagi-fetcher'],
    ['Agent-NovaAct/0.9', 'novaact'],
    ['GoogleAgent-Mariner', 'googleagent-mariner'],
    ['Kimi-User/1.0', 'kimi-user'],
    ['RuxitSynthetic/1.0 v6191106029376332690 t7889551165227354132', 'ruxitsynthetic'],
    ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/100.0.4896.60 Safari/537.36 NewRelicSynthetics/1.0', 'newrelicsynthetics'],
    ['kube-probe/1.15', 'kube-probe'],
    ['ELB-HealthChecker/2.0', 'elb-healthchecker'],
    ['meta-externalads/1.1', 'meta-externalads'],
    ['bingadsbot', 'bingadsbot'],
    ['AdsBot-Google-Mobile-Apps', 'adsbot-google-mobile-apps'],
    ['Google-Display-Ads-Bot', 'google-display-ads-bot'],
    ['ia_archiver-web.archive.org', 'archive.org_bot'],
    ['Mozilla/5.0 (compatible; inoreader.com; 1 subscribers)', 'inoreader'],
    ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36 CloudflareObservatory/1.0', 'cloudflareobservatory'],
    ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/49.0.2623.75 Safari/537.36 Google Favicon', 'google-favicon'],
  ])('%s is %s', (ua, id) => {
    expect(identifyAgent(ua)).toMatchObject({ kind: 'bot', id })
  })

  // Scanners and automation tools: generic clients with their own token.
  it.each([
    ['acunetix-product', 'acunetix'],
    ['gobuster/3.1.0', 'gobuster'],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36; Selenium', 'selenium'],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Playwright/1.40.0', 'playwright'],
    ['hackney/1.20.1', 'hackney'],
    ['Lavf/60.3.100', 'lavf'],
  ])('%s is the tool %s', (ua, token) => {
    expect(identifyAgent(ua)).toMatchObject({ kind: 'tool', tokens: [token] })
  })
})

describe('self-named bots (registry/names.ts)', () => {
  const taken = new Set([...registry.flatMap((e) => [...e.uaNames, ...(e.weakUaNames ?? [])]), ...tools.flatMap((t) => t.uaNames)].map((n) => n.toLowerCase()))

  // A name is in one list only: the registry's documented agents win.
  it('holds names the registry and the tools do not', () => {
    for (const name of selfNamedBots) expect(taken.has(name.toLowerCase()), name).toBe(false)
    expect(new Set(selfNamedBots.map((n) => n.toLowerCase())).size).toBe(selfNamedBots.length)
  })

  // Each is a bot whose token is its own name (its first word when it has several), with no operator claimed.
  it.each(selfNamedBots.map((name) => [name]))('%s', (name) => {
    const identity = identifyAgent(`${name}/1.0 (+https://example.com/)`)
    expect(identity).toMatchObject({ kind: 'bot', tokens: [name.split(' ')[0]?.toLowerCase()], operator: undefined, id: undefined })
  })
})
