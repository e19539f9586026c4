import type { AgentCategory, AgentEntry, AgentPurpose, ToolEntry } from '../types.ts'

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
export function agent<const N extends Names, const F extends AgentFacts = {}>(names: N, operator: string, category: AgentCategory, purpose: AgentPurpose, facts?: F): DefinedAgent<N, F> {
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

/**
 * One generic client (tools.ts). `names` are its User-Agent product names,
 * main one first; the main name lower-cased is its token unless `options`
 * gives `token`. `operator` defaults to the main name (`aria2` is made by aria2).
 * Two signatures so the token keeps its literal type (for `KnownToken`).
 *
 * @example
 * tool('Wget', 'GNU Wget') // { token: 'wget', uaNames: ['Wget'], operator: 'GNU Wget' }
 */
export function tool<const N extends Names>(names: N, operator?: string, options?: { readonly generic?: true }): ToolEntry & { readonly token: Key<N> }
export function tool<const T extends string>(names: Names, operator: string, options: { readonly token: T; readonly generic?: true }): ToolEntry & { readonly token: T }
export function tool(names: Names, operator?: string, options?: { readonly token?: string; readonly generic?: true }): ToolEntry {
  const uaNames: readonly string[] = typeof names === 'string' ? [names] : names
  return { token: options?.token ?? uaNames[0]!.toLowerCase(), uaNames, operator: operator ?? uaNames[0]!, ...(options?.generic ? { generic: true } : {}) }
}
