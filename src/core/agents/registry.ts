import type { AgentCategory, AgentEntry, AgentPurpose } from './types.ts'
import { aiAgents } from './registry/ai.ts'
import { aiAssistantAgents } from './registry/ai-agents.ts'
import { aiDataAgents } from './registry/ai-data.ts'
import { aiSearchAgents } from './registry/ai-search.ts'
import { google } from './registry/google.ts'
import { googleFetchers } from './registry/google-fetchers.ts'
import { feedFetchers, monitors } from './registry/monitoring.ts'
import { otherAgents } from './registry/other.ts'
import { archivers, previewAgents } from './registry/previews.ts'
import { searchEngines } from './registry/search.ts'
import { seoAgents } from './registry/seo.ts'
import { serviceAgents } from './registry/services.ts'
import { tools } from './registry/tools.ts'
import { yandexRobots } from './registry/yandex.ts'

/** Every known automated agent, as data. Order matters only for readability. */
export const registry = [
  ...google,
  ...googleFetchers,
  ...searchEngines,
  ...yandexRobots,
  ...aiAgents,
  ...aiDataAgents,
  ...aiSearchAgents,
  ...aiAssistantAgents,
  ...seoAgents,
  ...previewAgents,
  ...archivers,
  ...monitors,
  ...feedFetchers,
  ...otherAgents,
  ...serviceAgents,
] as const satisfies readonly AgentEntry[]

export { tools }

export type KnownAgent = (typeof registry)[number]
export type AgentId = KnownAgent['id']
/** Tokens of the registry's agents, for autocompletion of `userAgent` in a config. */
export type KnownAgentToken = KnownAgent['tokens'][number]
/** Agents' tokens and generic clients' tokens (`curl`, `python-requests`...). */
export type KnownToken = KnownAgentToken | (typeof tools)[number]['token']

const byId = new Map<string, AgentEntry>(registry.map((entry) => [entry.id, entry]))

/**
 * Look up a registry entry by id, e.g. to read `ignoresWildcardGroup` or
 * `verification` for an agent that `identifyAgent` returned.
 */
export function getAgent(id: string): AgentEntry | undefined {
  return byId.get(id)
}

/**
 * RFC 9309 §2.2.1 product tokens: letters, `-` and `_`. A few operators
 * document names outside it (`MJ12bot`, `AI2Bot`, `360Spider`); parsers that
 * follow the RFC, Google's among them, read `User-agent: MJ12bot` as `MJ`, so
 * a group naming them applies to nobody they expect. Presets leave them out,
 * and the config validator explains why when one is written by hand.
 */
const PRODUCT_TOKEN = /^[a-z_-]+$/

// Presets name each agent by its own (first) token only: a fallback such as
// Applebot's `googlebot` belongs to another agent and must not widen the preset.
function primaryTokens(test: (entry: AgentEntry) => boolean): readonly KnownAgentToken[] {
  const seen = new Set<KnownAgentToken>()
  for (const entry of registry) {
    if (test(entry) && PRODUCT_TOKEN.test(entry.tokens[0])) seen.add(entry.tokens[0])
  }
  return Object.freeze([...seen])
}

const AI_CATEGORIES: readonly AgentCategory[] = ['AI Crawler', 'AI Search', 'AI Assistant']
const isAi = (entry: AgentEntry): boolean => AI_CATEGORIES.includes(entry.category)
const inCategory =
  (...categories: AgentCategory[]) =>
  (entry: AgentEntry): boolean =>
    categories.includes(entry.category)
const withPurpose =
  (purpose: AgentPurpose, aiOnly = false) =>
  (entry: AgentEntry): boolean =>
    entry.purpose === purpose && (!aiOnly || isAi(entry))

/**
 * Token lists derived from the registry, to use in a config:
 * `{ userAgent: agents.aiTraining, disallow: ['/'] }`. The AI presets follow
 * each agent's `purpose`, so a site can treat training, search and
 * retrieval, user-triggered fetches and autonomous agents differently; the
 * others follow Cloudflare's `category`.
 */
export const agents = Object.freeze({
  /** Crawlers that collect AI training data, control-only tokens (google-extended, applebot-extended) included. */
  aiTraining: primaryTokens(withPurpose('training')),
  /** Crawlers that build the index an AI answer engine or retrieval product cites from. */
  aiSearch: primaryTokens(withPurpose('search', true)),
  /** Fetchers that get one page for one person's prompt (ChatGPT-User, Claude-User, Perplexity-User). */
  aiUserFetchers: primaryTokens(withPurpose('user-fetch', true)),
  /** Agents that browse and act for a person over several steps: browser agents, coding agents and CLIs. */
  aiAgents: primaryTokens(withPurpose('agent')),
  /** Everything that acts for one person: `aiUserFetchers` and `aiAgents`. */
  aiAssistants: primaryTokens((e) => withPurpose('user-fetch', true)(e) || withPurpose('agent')(e)),
  /** Every AI agent: training, search, user fetchers and agents. */
  ai: primaryTokens((e) => isAi(e) || e.purpose === 'training' || e.purpose === 'agent'),
  searchEngines: primaryTokens(inCategory('Search Engine Crawler')),
  seo: primaryTokens(inCategory('Search Engine Optimization')),
  previews: primaryTokens(inCategory('Page Preview')),
  archivers: primaryTokens(inCategory('Archiver')),
  monitors: primaryTokens(inCategory('Monitoring & Analytics')),
  feeds: primaryTokens(inCategory('Feed Fetcher')),
  advertising: primaryTokens(inCategory('Advertising & Marketing')),
  academic: primaryTokens(inCategory('Academic Research')),
  security: primaryTokens(inCategory('Security')),
  accessibility: primaryTokens(inCategory('Accessibility')),
  webhooks: primaryTokens(inCategory('Webhooks')),
  aggregators: primaryTokens(inCategory('Aggregator')),
  other: primaryTokens(inCategory('Other')),
  /** Generic HTTP clients and automation tools (`curl`, `python-requests`, `headlesschrome`...). */
  tools: Object.freeze([...new Set(tools.map((tool) => tool.token).filter((t) => PRODUCT_TOKEN.test(t)))]) as readonly KnownToken[],
  all: Object.freeze([...new Set(registry.map((entry) => entry.tokens[0]).filter((t) => PRODUCT_TOKEN.test(t)))]) as readonly KnownAgentToken[],
})
