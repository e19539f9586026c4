import type { AgentCategory, AgentEntry, AgentPurpose, ToolEntry } from './types.ts'

/**
 * The precomputed lookup table behind `identifyAgent`: every name a header can
 * carry, hashed once at module load, so the scanner can look a word up while it
 * reads it, without cutting the word out of the header or lower-casing it.
 */

/** How much a match says about the client; a higher rank wins (see identify.ts). */
export const RANK_GENERIC_TOOL = 1
export const RANK_TOOL = 2
export const RANK_BOT = 3

export interface Target {
  readonly rank: number
  /** `bot` for registry agents and self-named bots, `tool` for generic clients. */
  readonly kind: 'bot' | 'tool'
  /** Only counts when the header also carries a bot signal (see `weakUaNames`). */
  readonly weak: boolean
  readonly id: string | undefined
  /** What `identifyAgent` returns: the entry's tokens, or `[]` where it ignores robots.txt. */
  readonly tokens: readonly string[]
  /** Every token of the entry, to tell a specific agent from its generic fallback. */
  readonly allTokens: ReadonlySet<string>
  readonly primary: string
  readonly operator: string | undefined
  readonly category: AgentCategory | undefined
  readonly purpose: AgentPurpose | undefined
  readonly obeysRobotsTxt: boolean
}

interface Variant {
  /** Lower-cased words after the first one, with their leading space; '' for a one-word name. */
  readonly rest: string
  /** The whole name, lower case, as `identifyAgent` reports it in `names`. */
  readonly name: string
  /** Also matches a word that only starts with this name followed by `_`. */
  readonly prefix: boolean
  readonly target: Target
}

export interface NameRecord {
  readonly word: string
  readonly hash: number
  /** Longest `rest` first, so "Better Stack Better Uptime Bot" is tried before "Better Uptime Bot". */
  readonly variants: Variant[]
  /** Browser or platform vocabulary class (lexicon.ts), 0 for none. */
  vocab: number
}

/** Folds ASCII upper case only: names are ASCII, and other characters must never match them. */
export function foldCase(code: number): number {
  return code >= 65 && code <= 90 ? code + 32 : code
}

/**
 * One step of the name hash. `code | 32` folds ASCII case for letters and leaves
 * digits, `-`, `.` and `!` alone; it also merges a few punctuation pairs, which
 * is harmless because a hash hit is always confirmed by `sameWord`.
 */
export function hashStep(hash: number, code: number): number {
  return (Math.imul(hash, 31) + (code | 32)) | 0
}

/**
 * Every registry and tool name, keyed by its lower-case first word in an
 * open-addressing table. Built once at module load; never written afterwards.
 */
export class NameIndex {
  private readonly table: Int32Array
  private readonly records: NameRecord[] = []
  private readonly mask: number

  constructor(agents: readonly AgentEntry[], tools: readonly ToolEntry[], selfNamed: readonly string[], vocabulary: ReadonlyArray<readonly [number, readonly string[]]>) {
    const size = 8192
    this.table = new Int32Array(size)
    this.mask = size - 1
    for (const agent of agents) {
      if (agent.hasOwnUserAgent === false) continue
      const tokens = agent.obeysRobotsTxt ? agent.tokens : []
      const strong = makeTarget(RANK_BOT, false, agent, tokens, agent.tokens[0] ?? agent.id)
      for (const name of agent.uaNames) this.add(name, false, strong)
      for (const name of agent.uaNamePrefixes ?? []) this.add(name, true, strong)
      if (agent.weakUaNames !== undefined) {
        const weak = makeTarget(RANK_BOT, true, agent, tokens, agent.tokens[0] ?? agent.id)
        for (const name of agent.weakUaNames) this.add(name, false, weak)
      }
    }
    for (const tool of tools) {
      const target = makeTarget(tool.generic === true ? RANK_GENERIC_TOOL : RANK_TOOL, false, undefined, [tool.token], tool.token, tool.operator)
      for (const name of tool.uaNames) this.add(name, false, target)
    }
    for (const name of selfNamed) {
      // Its first word, as an RFC 9309 parser reads a `User-agent:` line naming it (and never a space in a token).
      const token = (name.split(' ')[0] ?? name).toLowerCase()
      this.add(name, false, makeTarget(RANK_BOT, false, undefined, [token], token, undefined, 'bot'))
    }
    for (const [kind, words] of vocabulary) for (const word of words) this.record(word).vocab = kind
  }

  /** The record whose first word is `s[start, end)`, compared case-insensitively. */
  find(s: string, start: number, end: number, hash: number): NameRecord | undefined {
    const length = end - start
    let slot = (hash ^ (hash >>> 13)) & this.mask
    for (let index = this.table[slot] ?? 0; index !== 0; index = this.table[slot] ?? 0) {
      const record = this.records[index - 1]
      if (record !== undefined && record.hash === hash && record.word.length === length && sameWord(s, start, record.word)) {
        return record
      }
      slot = (slot + 1) & this.mask
    }
    return undefined
  }

  private add(name: string, prefix: boolean, target: Target): void {
    const lower = name.toLowerCase()
    const space = lower.indexOf(' ')
    const word = space < 0 ? lower : lower.slice(0, space)
    const rest = space < 0 ? '' : lower.slice(space)
    const record = this.record(word)
    record.variants.push({ rest, name: word + rest, prefix, target })
    record.variants.sort((a, b) => b.rest.length - a.rest.length)
  }

  private record(word: string): NameRecord {
    let hash = 0
    for (let i = 0; i < word.length; i++) hash = hashStep(hash, word.charCodeAt(i))
    let record = this.find(word, 0, word.length, hash)
    if (record === undefined) {
      record = { word, hash, variants: [], vocab: 0 }
      this.records.push(record)
      let slot = (hash ^ (hash >>> 13)) & this.mask
      while ((this.table[slot] ?? 0) !== 0) slot = (slot + 1) & this.mask
      this.table[slot] = this.records.length
    }
    return record
  }
}

function makeTarget(
  rank: number,
  weak: boolean,
  agent: AgentEntry | undefined,
  tokens: readonly string[],
  primary: string,
  operator?: string,
  kind: 'bot' | 'tool' = agent === undefined ? 'tool' : 'bot',
): Target {
  const frozenTokens = Object.freeze([...tokens])
  return {
    rank,
    kind,
    weak,
    id: agent?.id,
    tokens: frozenTokens,
    allTokens: new Set(agent?.tokens ?? tokens),
    primary,
    operator: agent?.operator ?? operator,
    category: agent?.category,
    purpose: agent?.purpose,
    obeysRobotsTxt: agent?.obeysRobotsTxt ?? kind === 'bot',
  }
}

/** Whether `s` at `start` spells the lower-case `word`, ignoring ASCII case. */
export function sameWord(s: string, start: number, word: string): boolean {
  for (let i = 0; i < word.length; i++) {
    if (foldCase(s.charCodeAt(start + i)) !== word.charCodeAt(i)) return false
  }
  return true
}
