import type { AgentCategory, AgentEntry } from './types.ts'
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
function primaryTokens(categories: readonly AgentCategory[]): readonly KnownAgentToken[] {
  const seen = new Set<KnownAgentToken>()
  for (const entry of registry) {
    if (categories.includes(entry.category) && PRODUCT_TOKEN.test(entry.tokens[0])) seen.add(entry.tokens[0])
  }
  return Object.freeze([...seen])
}

/**
 * Token lists by category, derived from the registry, to use in a config:
 * `{ userAgent: agents.aiTraining, disallow: ['/'] }`.
 */
export const agents = Object.freeze({
  /** Crawlers that collect AI training data, control-only tokens (google-extended, applebot-extended) included. */
  aiTraining: primaryTokens(['AI Crawler']),
  /** Crawlers that build the index an AI search product cites from. */
  aiSearch: primaryTokens(['AI Search']),
  /** Fetchers that act for one person's prompt. */
  aiAssistants: primaryTokens(['AI Assistant']),
  ai: primaryTokens(['AI Crawler', 'AI Search', 'AI Assistant']),
  searchEngines: primaryTokens(['Search Engine Crawler']),
  seo: primaryTokens(['Search Engine Optimization']),
  previews: primaryTokens(['Page Preview']),
  archivers: primaryTokens(['Archiver']),
  monitors: primaryTokens(['Monitoring & Analytics']),
  feeds: primaryTokens(['Feed Fetcher']),
  advertising: primaryTokens(['Advertising & Marketing']),
  academic: primaryTokens(['Academic Research']),
  security: primaryTokens(['Security']),
  accessibility: primaryTokens(['Accessibility']),
  webhooks: primaryTokens(['Webhooks']),
  aggregators: primaryTokens(['Aggregator']),
  other: primaryTokens(['Other']),
  /** Generic HTTP clients and automation tools (`curl`, `python-requests`, `headlesschrome`...). */
  tools: Object.freeze([...new Set(tools.map((tool) => tool.token).filter((t) => PRODUCT_TOKEN.test(t)))]) as readonly KnownToken[],
  all: Object.freeze([...new Set(registry.map((entry) => entry.tokens[0]).filter((t) => PRODUCT_TOKEN.test(t)))]) as readonly KnownAgentToken[],
})
