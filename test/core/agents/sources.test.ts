import { describe, expect, it } from 'vitest'
import { agentDocs, getAgent, registry, type AgentEntry } from '../../../src/package/bots.ts'
import { agentSources } from '../../../src/core/agents/registry/sources.ts'

const entries: readonly AgentEntry[] = registry
const GOOGLE_USER_TRIGGERED = 'https://developers.google.com/crawling/docs/crawlers-fetchers/google-user-triggered-fetchers'

describe("the operators' documentation (registry/sources.ts)", () => {
  it('cites exactly one page for every agent', () => {
    const cited = agentSources.flatMap(([, ids]) => ids)
    expect(new Set(cited).size, 'an agent is cited twice').toBe(cited.length)
    expect([...cited].sort()).toEqual(entries.map((e) => e.id).sort())
  })

  it('names only agents of the registry, with one line per page', () => {
    for (const [url, ids] of agentSources) {
      expect(url).toMatch(/^https?:\/\/[^\s]+$/)
      expect(ids.length, url).toBeGreaterThan(0)
      for (const id of ids) expect(getAgent(id), `${id} cited by ${url}`).toBeDefined()
    }
    const urls = agentSources.map(([url]) => url)
    expect(new Set(urls).size).toBe(urls.length)
  })

  it('answers agentDocs(id) from the package entry point', () => {
    expect(agentDocs('gptbot')).toBe('https://platform.openai.com/docs/bots')
    expect(agentDocs('googlebot-image')).toBe('https://developers.google.com/crawling/docs/crawlers-fetchers/google-common-crawlers')
    expect(agentDocs('no-such-agent')).toBeUndefined()
    for (const entry of entries) expect(agentDocs(entry.id), entry.id).toMatch(/^https?:\/\//)
  })

  // `userTriggered` stands for the page it comes from: the guard's default exemptions depend on it.
  it('marks userTriggered exactly the agents Google documents as user-triggered fetchers', () => {
    const marked = entries.filter((e) => e.userTriggered === true).map((e) => e.id)
    expect(marked.length).toBeGreaterThan(5)
    expect(marked.sort()).toEqual(
      entries
        .filter((e) => agentDocs(e.id) === GOOGLE_USER_TRIGGERED)
        .map((e) => e.id)
        .sort(),
    )
  })
})
