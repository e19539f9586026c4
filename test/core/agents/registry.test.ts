import { describe, expect, it } from 'vitest'
import { agents, getAgent, identifyAgent, registry, tools, type AgentEntry, type AgentPurpose, type KnownToken } from '../../../src/core/agents/index.ts'
import { botHeaders, browserHeaders, toolHeaders } from '../../../dev/user-agents.ts'

const entries: readonly AgentEntry[] = registry

// Tokens outside RFC 9309's identifier alphabet ([A-Za-z_-]) that operators
// really use; a new one must be added here on purpose.
const TOKENS_BEYOND_RFC = new Set([
  'ai2bot',
  'ai2bot-dolma',
  'mj12bot',
  '360spider',
  'site24x7',
  'archive.org_bot',
  'pingdom.com_bot',
  'theoldreader.com',
  'ai2bot-deepresearcheval',
  'crawl4ai',
  'img2dataset',
  'channel3bot',
  'bigsur.ai',
  'amazon-route53-health-check-service',
  'updown.io',
  'acme.sectigo.com',
  'l9explore',
])
// Family tokens that several of one operator's agents fall back to, without being an agent of their own.
const FAMILY_TOKENS = new Set(['yandex', 'coccocbot'])

// Presets hold RFC 9309 product tokens only (letters, "-" and "_"): a group
// naming `MJ12bot` is read as `MJ` by RFC parsers, so it cannot be enforced.
const RFC_TOKEN = /^[a-z_-]+$/
const primaryTokens = new Set(entries.map((e) => e.tokens[0]).filter((t): t is string => t !== undefined && RFC_TOKEN.test(t)))

describe('registry integrity', () => {
  it('holds at least 330 agents from at least 200 operators', () => {
    expect(entries.length).toBeGreaterThanOrEqual(330)
    expect(new Set(entries.map((e) => e.operator)).size).toBeGreaterThanOrEqual(200)
  })

  // Every entry says what it does with what it fetches, so presets can follow it.
  it('gives every entry a purpose', () => {
    const purposes: readonly AgentPurpose[] = ['training', 'search', 'user-fetch', 'agent', 'archive', 'analysis', 'service']
    for (const entry of entries) expect(purposes, entry.id).toContain(entry.purpose)
  })

  // Cloudflare's AI categories and the purposes agree where both speak of AI.
  it('keeps AI categories and purposes consistent', () => {
    for (const entry of entries) {
      if (entry.category === 'AI Crawler') expect(entry.purpose, entry.id).toBe('training')
      if (entry.category === 'AI Search') expect(entry.purpose, entry.id).toBe('search')
      if (entry.category === 'AI Assistant') expect(['user-fetch', 'agent'], entry.id).toContain(entry.purpose)
    }
  })

  it('has unique ids', () => {
    expect(new Set(entries.map((e) => e.id)).size).toBe(entries.length)
  })

  // RFC 9309 2.2.1: a product token is matched case-insensitively, so it is stored in lower case.
  it.each(entries.map((e) => [e.id, e]))('%s has lower-case product tokens', (_id, entry) => {
    expect(entry.tokens.length).toBeGreaterThan(0)
    for (const token of entry.tokens) {
      expect(token).toBe(token.toLowerCase())
      if (TOKENS_BEYOND_RFC.has(token)) expect(token).toMatch(/^[a-z0-9][a-z0-9._-]*$/)
      else expect(token).toMatch(/^[a-z_-]+$/)
    }
    expect(new Set(entry.tokens).size).toBe(entry.tokens.length)
  })

  it('gives every entry a distinct primary token', () => {
    expect(new Set(entries.map((e) => e.tokens[0])).size).toBe(entries.length)
  })

  // A fallback is another agent's token or a documented family token.
  it.each(entries.filter((e) => e.tokens.length > 1).map((e) => [e.id, e]))('%s falls back to real tokens', (_id, entry) => {
    for (const fallback of entry.tokens.slice(1)) {
      expect(primaryTokens.has(fallback) || FAMILY_TOKENS.has(fallback)).toBe(true)
    }
  })

  it('never gives a header name to two entries', () => {
    const seen = new Map<string, string>()
    const claim = (name: string, owner: string): void => {
      const key = name.toLowerCase()
      expect(seen.get(key), `${name} is claimed by ${seen.get(key)} and ${owner}`).toBeUndefined()
      seen.set(key, owner)
    }
    for (const entry of entries) {
      // One entry may list a name both whole and as a prefix (StatusCake, StatusCake_Pagespeed_Indev).
      const own = new Set([...entry.uaNames, ...(entry.weakUaNames ?? []), ...(entry.uaNamePrefixes ?? [])].map((n) => n.toLowerCase()))
      for (const name of own) claim(name, entry.id)
    }
    for (const tool of tools) for (const name of tool.uaNames) claim(name, `tool ${tool.token}`)
  })

  it('describes verification data well', () => {
    for (const entry of entries) {
      for (const suffix of entry.verification?.reverseDns ?? []) expect(suffix).toMatch(/^\.[a-z0-9.-]+[a-z]$/)
      for (const list of entry.verification?.ipRanges ?? []) {
        expect(list.url).toMatch(/^https:\/\//)
        expect(['google-json', 'cidr-lines', 'ip-lines']).toContain(list.format)
      }
    }
  })

  // AdsBot reads only groups naming it: a crawler that ignores robots.txt entirely has no such nuance.
  it('marks wildcard-ignoring agents only among those that obey robots.txt', () => {
    const ignoring = entries.filter((e) => e.ignoresWildcardGroup === true)
    expect(ignoring.map((e) => e.id)).toEqual(expect.arrayContaining(['adsbot-google', 'adsbot-google-mobile']))
    for (const entry of ignoring) expect(entry.obeysRobotsTxt).toBe(true)
    expect(getAgent('googlebot')?.ignoresWildcardGroup).toBeUndefined()
  })

  it('records the fallbacks operators document', () => {
    expect(getAgent('googlebot-image')?.tokens).toEqual(['googlebot-image', 'googlebot'])
    expect(getAgent('googlebot-news')?.tokens).toEqual(['googlebot-news', 'googlebot'])
    expect(getAgent('applebot')?.tokens).toEqual(['applebot', 'googlebot'])
    expect(getAgent('yandeximages')?.tokens).toEqual(['yandeximages', 'yandex'])
    expect(getAgent('adsbot-google')?.tokens).toEqual(['adsbot-google'])
  })
})

describe('control-only tokens', () => {
  const controlOnly = entries.filter((e) => e.hasOwnUserAgent === false)
  const controlIds = new Set(controlOnly.map((e) => e.id))

  it('include Google-Extended and Applebot-Extended, with no header names', () => {
    expect([...controlIds]).toEqual(expect.arrayContaining(['google-extended', 'applebot-extended']))
    for (const entry of controlOnly) expect(entry.uaNames).toEqual([])
  })

  // Their fetches arrive as another agent, so no header is ever identified as them.
  it('are never the identity of a header, even one that names them', () => {
    const headers = [
      ...browserHeaders,
      ...botHeaders.map((c) => c.ua),
      ...toolHeaders.map((c) => c.ua),
      ...controlOnly.flatMap((e) => e.tokens.map((t) => [`Mozilla/5.0 (compatible; ${t}/1.0; +https://example.com/bot)`, t, `${t}/1.0`])).flat(),
    ]
    for (const ua of headers) expect(controlIds.has(identifyAgent(ua)?.id ?? '')).toBe(false)
  })
})

describe('every header name identifies its entry', () => {
  const named = entries.filter((e) => e.hasOwnUserAgent !== false)

  it.each(named.map((e) => [e.id, e]))('%s', (_id, entry) => {
    const names = [...entry.uaNames, ...(entry.weakUaNames ?? [])]
    for (const name of names) {
      const identity = identifyAgent(`Mozilla/5.0 (compatible; ${name}/1.0; +https://example.com/bot)`)
      expect(identity?.id, name).toBe(entry.id)
      expect(identity?.tokens).toEqual(entry.obeysRobotsTxt ? entry.tokens : [])
    }
    for (const prefix of entry.uaNamePrefixes ?? []) {
      expect(identifyAgent(`${prefix}_v_1.0_(https://example.com/)`)?.id, prefix).toBe(entry.id)
    }
  })

  it.each(tools.map((t) => [t.token, t]))('tool %s', (_token, tool) => {
    for (const name of tool.uaNames) {
      expect(identifyAgent(`${name}/1.0`)).toMatchObject({ kind: 'tool', tokens: [tool.token], obeysRobotsTxt: false })
    }
  })
})

describe('presets', () => {
  const AI = new Set(['AI Crawler', 'AI Search', 'AI Assistant'])
  const where = (test: (e: AgentEntry) => boolean): string[] => [...new Set(entries.filter(test).map((e) => e.tokens[0] ?? ''))].filter((t) => RFC_TOKEN.test(t))
  const byCategory = (category: string) => where((e) => e.category === category)

  // Presets are derived from the data, never listed by hand.
  it.each([
    ['aiTraining', agents.aiTraining, where((e) => e.purpose === 'training')],
    ['aiSearch', agents.aiSearch, where((e) => e.purpose === 'search' && AI.has(e.category))],
    ['aiUserFetchers', agents.aiUserFetchers, where((e) => e.purpose === 'user-fetch' && AI.has(e.category))],
    ['aiAgents', agents.aiAgents, where((e) => e.purpose === 'agent')],
    ['aiAssistants', agents.aiAssistants, where((e) => (e.purpose === 'user-fetch' && AI.has(e.category)) || e.purpose === 'agent')],
    ['ai', agents.ai, where((e) => AI.has(e.category) || e.purpose === 'training' || e.purpose === 'agent')],
    ['searchEngines', agents.searchEngines, byCategory('Search Engine Crawler')],
    ['seo', agents.seo, byCategory('Search Engine Optimization')],
    ['previews', agents.previews, byCategory('Page Preview')],
    ['archivers', agents.archivers, byCategory('Archiver')],
    ['monitors', agents.monitors, byCategory('Monitoring & Analytics')],
    ['feeds', agents.feeds, byCategory('Feed Fetcher')],
  ])('%s is derived from the data and not empty', (_name, preset, expected) => {
    expect(preset.length).toBeGreaterThan(0)
    expect([...preset].sort()).toEqual(expected.sort())
    expect(new Set(preset).size).toBe(preset.length)
  })

  // A site can treat training, search and retrieval, user-triggered fetches and autonomous agents differently.
  it('keeps the four AI purposes apart', () => {
    const sets = [agents.aiTraining, agents.aiSearch, agents.aiUserFetchers, agents.aiAgents]
    for (let a = 0; a < sets.length; a++) {
      for (let b = a + 1; b < sets.length; b++) for (const token of sets[a] ?? []) expect(sets[b]).not.toContain(token)
    }
    expect(agents.aiUserFetchers).toEqual(expect.arrayContaining(['chatgpt-user', 'claude-user', 'perplexity-user', 'kagi-fetcher', 'kimi-user']))
    expect(agents.aiAgents).toEqual(
      expect.arrayContaining(['claude-code', 'cursor', 'githubcopilotchat', 'google-gemini-cli', 'opencode', 'manus-user', 'novaact', 'googleagent-mariner', 'devin', 'operator']),
    )
    expect(agents.aiSearch).toEqual(expect.arrayContaining(['oai-searchbot', 'perplexitybot', 'claude-searchbot', 'tavilybot', 'linkupbot']))
    expect(agents.aiSearch).not.toContain('googlebot')
    expect([...agents.aiAssistants].sort()).toEqual([...agents.aiUserFetchers, ...agents.aiAgents].sort())
  })

  it('aiTraining holds the training crawlers and control tokens, not the assistants', () => {
    expect(agents.aiTraining).toEqual(expect.arrayContaining(['gptbot', 'claudebot', 'ccbot', 'google-extended', 'applebot-extended', 'bytespider', 'meta-externalagent', 'amazonbot']))
    expect(agents.aiTraining).not.toContain('chatgpt-user')
    expect(agents.aiTraining).not.toContain('googlebot')
  })

  it('leaves out agents whose documented token is not an RFC 9309 product token', () => {
    for (const token of ['mj12bot', 'ai2bot', '360spider', 'archive.org_bot']) {
      expect(entries.some((e) => e.tokens[0] === token)).toBe(true)
      expect(agents.all).not.toContain(token)
    }
    for (const preset of Object.values(agents)) for (const token of preset) expect(token).toMatch(RFC_TOKEN)
  })

  it('all holds every agent once, tools apart', () => {
    expect([...agents.all].sort()).toEqual([...primaryTokens].sort())
    expect(agents.tools).toEqual(expect.arrayContaining(['curl', 'python-requests', 'headlesschrome']))
  })

  it('types tokens for config autocompletion', () => {
    const tokens: KnownToken[] = ['gptbot', 'googlebot-image', 'curl']
    // @ts-expect-error a token the registry does not know is not a KnownToken
    const unknown: KnownToken = 'not-a-known-bot'
    expect(tokens.length + unknown.length).toBeGreaterThan(0)
  })
})
