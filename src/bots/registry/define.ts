import type { AgentCategory, AgentEntry, AgentPurpose } from '../types.ts'

/**
 * The registry's entries are written with `agent()`, which derives what most
 * entries repeat: this keeps the data readable and the Worker bundle small
 * (the registry is its largest part). The operators' documentation pages are
 * not here but in ./sources.ts, which the Worker never loads.
 */

/** The facts `agent()` does not take as arguments: the optional ones, and overrides of the derived ones. */
export type AgentFacts = Partial<Omit<AgentEntry, 'operator' | 'category' | 'purpose'>>

/** One product name, or several with the main one first. */
type Names = string | readonly [string, ...string[]]
type Key<N extends Names> = Lowercase<N extends string ? N : N[0]>

/** An entry as `agent()` builds it, with its id and tokens kept as literal types (for `AgentId` and `KnownAgentToken`). */
export type DefinedAgent<N extends Names, F extends AgentFacts> = AgentEntry & {
  readonly id: F extends { readonly id: infer I extends string } ? I : Key<N>
  readonly tokens: F extends { readonly tokens: infer T extends readonly string[] } ? T : readonly [Key<N>]
}

/**
 * One registry entry. `names` are the product names its User-Agent header
 * carries (`uaNames`), main one first; the main name lower-cased is its `id`
 * and its only token, unless `facts` gives `id` or `tokens`. It obeys
 * robots.txt unless `facts` says `obeysRobotsTxt: false`. An agent with
 * `hasOwnUserAgent: false` has no `uaNames`: `names` then only gives the key.
 *
 * @example
 * agent('GPTBot', 'OpenAI', 'AI Crawler', 'training')
 * // { id: 'gptbot', tokens: ['gptbot'], uaNames: ['GPTBot'], operator: 'OpenAI',
 * //   category: 'AI Crawler', purpose: 'training', obeysRobotsTxt: true }
 */
export function agent<const N extends Names, const F extends AgentFacts = {}>(
  names: N,
  operator: string,
  category: AgentCategory,
  purpose: AgentPurpose,
  facts?: F,
): DefinedAgent<N, F> {
  const uaNames: readonly string[] = typeof names === 'string' ? [names] : names
  const key = uaNames[0]!.toLowerCase()
  const entry: AgentEntry = {
    id: key,
    tokens: [key],
    uaNames: facts?.hasOwnUserAgent === false ? [] : uaNames,
    operator,
    category,
    purpose,
    obeysRobotsTxt: true,
    ...facts,
  }
  return entry as DefinedAgent<N, F>
}
