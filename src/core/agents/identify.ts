import type { AgentCategory, AgentPurpose } from './types.ts'
import { scan } from './scanner.ts'
import type { Target } from './name-index.ts'
import { classifyWord, isGoogleName, namesCrawler, TOOL_NAME } from './lexicon.ts'
import { RANK_GENERIC_TOOL } from './name-index.ts'
import {
  CANDIDATE_FILLER,
  F_BOT_WORD,
  F_COMMENT,
  F_FILLER,
  F_FIRST_ELEMENT,
  F_KNOWN,
  F_NAME,
  F_PLATFORM,
  F_VERSIONED,
  F_VOCAB,
  found,
  groupOwner,
  isBrowserWord,
  knownNames,
  wordEnd,
  wordFlags,
  wordGroup,
  wordRun,
  wordStart,
} from './scan-state.ts'

/** Who sent a request, as far as its User-Agent header tells. */
export interface AgentIdentity {
  /** robots.txt product tokens it obeys, lower case, most specific first; `[]` if its operator says it ignores robots.txt. */
  readonly tokens: readonly string[]
  /** `bot` for a crawler or fetcher, `tool` for a generic client such as curl or python-requests. */
  readonly kind: 'bot' | 'tool'
  readonly operator?: string
  readonly category?: AgentCategory
  /** What the agent does with what it fetches, for registry agents (see `AgentPurpose`). */
  readonly purpose?: AgentPurpose
  readonly obeysRobotsTxt: boolean
  /** Registry id, when the agent is in the registry. */
  readonly id?: string
  /** Every product name in the header, lower case, so a config group naming a custom bot can be found. */
  readonly names: readonly string[]
  /**
   * Other registry crawlers the same header names that are unrelated to this
   * one (neither obeys the other's tokens): `Googlebot/2.1 GPTBot/1.1`. The
   * guard judges such an ambiguous header by the stricter verdict. Absent
   * when the header names one crawler (or one and its own fallbacks).
   */
  readonly others?: readonly AgentIdentity[]
  /**
   * `true` when the header looks automated but names itself as nothing: no
   * registry agent or tool, no name of its own that ends in bot, crawler or
   * spider, no contact link (`Magician`, `Music Player Daemon`, a runtime
   * such as `Java/…` behind an app's name). Seen, but never judged by the
   * `*` group: only a group naming it applies. Absent otherwise.
   */
  readonly unidentified?: true
}

/**
 * Identify the client behind a User-Agent header.
 *
 * Returns `null` for a person's browser, including in-app browsers, TVs and
 * feature phones, and for a missing or empty header; otherwise the tokens it
 * obeys and what it is. Names are matched whole and case-insensitively, never
 * as substrings, so `BytedanceWebview` is not Bytespider and `CUBOT X19` is not
 * a bot; a bare word among a device's details (`(Linux; Android 8; Expanse)`)
 * is a model, not a client. When a header names several known clients, a
 * crawler beats a generic tool, a tool beats a language runtime, and between
 * two crawlers the more specific one (whose fallback tokens include the
 * other's token, as Google-InspectionTool's include `googlebot`) wins;
 * otherwise the first one named wins and the rest are in `others`. An unknown
 * client is a bot when it names itself as one (`…Bot`, `…Crawler`, `Kangaroo
 * Bot`, `(compatible; Name)`) or links to its description (`+https://…`).
 * One that only looks automated (a lone app name, a runtime behind an app's
 * name, `(compatible; Name)` without a link) is returned `unidentified`, so
 * the guard never judges it by `*`. Words among a device's details never make
 * a person a bot. Never throws; linear in the header's length, of which it reads 2 KiB.
 *
 * @example
 * identifyAgent('Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)')
 * // → { tokens: ['googlebot'], kind: 'bot', operator: 'Google', id: 'googlebot', ... }
 */
export function identifyAgent(userAgent: string | null | undefined): AgentIdentity | null {
  if (typeof userAgent !== 'string' || userAgent.length === 0) return null
  scan(userAgent)
  return decide(userAgent)
}

function decide(s: string): AgentIdentity | null {
  const best = found.best
  if (best !== undefined && best.kind === 'bot') return identityOf(best, s, others(best, s), false)
  if (found.weak !== undefined && found.signal) return identityOf(found.weak, s, undefined, false)
  if (found.candidate >= 0) {
    const own = found.candidateKind === CANDIDATE_FILLER ? nameAround(s, found.candidate) : found.candidate
    // A name that says nothing about itself (`MyAgent/1.0/Nutch-1.7`) gives way to a tool the header names.
    const client = own >= 0 ? unknownClient(s, own, 'bot') : null
    if (client !== null && (client.unidentified !== true || best === undefined)) return client
    if (own === NO_NAME && best === undefined) return namelessBot(s)
  }
  if (found.signal) {
    const own = ownNameAtSignal(s)
    if (own >= 0) return unknownClient(s, own, 'bot')
    if (own === NO_NAME && best === undefined && found.tool < 0) return namelessBot(s)
  }
  if (best !== undefined) return identityOf(best, s, undefined, best.rank === RANK_GENERIC_TOOL && !opensHeader(s, best) && !namesItself(s))
  if (found.tool >= 0) {
    const own = (wordFlags[found.tool] ?? 0) & F_FILLER ? nameAround(s, found.tool) : found.tool
    if (own >= 0) return unknownClient(s, own, 'tool')
  }
  return null
}

/**
 * Whether the header says itself that it is automated: a contact link or
 * address, or a word outside a device's details that calls it a crawler
 * (`…Bot`, `Crawler`, `Spider`). A device model never does (`(Linux;
 * Android 7.0; M bot 54)`), nor a word of what an app does (`Daemon`).
 */
function namesItself(s: string): boolean {
  if (found.signal) return true
  for (let k = 0; k < found.count; k++) {
    const flags = wordFlags[k] ?? 0
    if ((flags & F_BOT_WORD) !== 0 && (flags & F_PLATFORM) === 0 && namesCrawler(s, wordStart[k] ?? 0, wordEnd[k] ?? 0)) return true
  }
  return false
}

/**
 * Whether a runtime the registry lists (`Java`, `libcurl`) is the header's
 * first product, so the client is the runtime itself (`Java/17.0.2`) rather
 * than an app built on it (`newsbeuter/2.4 (…) libcurl/7.22.0`, a feature
 * phone's `… Safari/525.20.1 Java/Jbed/7.0`).
 */
function opensHeader(s: string, target: Target): boolean {
  if (found.count === 0 || ((wordFlags[0] ?? 0) & F_KNOWN) === 0) return false
  return s.slice(wordStart[0], wordEnd[0]).toLowerCase() === target.primary
}

const NO_NAME = -1
const KNOWN_NAME = -2

/**
 * The name a bot word stands beside (`Kangaroo Bot`, `Rakuten Image
 * extraction bot`, `Valimail/1.0 (domain scanner)`, `Probe by Siteimprove.com`):
 * the product its comment describes when the word opens that comment, else
 * the start of its run of words, else the next word of the run.
 */
function nameAround(s: string, k: number): number {
  const run = wordRun[k] ?? k
  const flags = wordFlags[k] ?? 0
  if (flags & F_COMMENT && flags & F_FIRST_ELEMENT) {
    const owner = groupOwner[wordGroup[k] ?? 0] ?? -1
    if (owner >= 0 && isOwnName(s, owner)) return (wordFlags[owner] ?? 0) & F_KNOWN ? KNOWN_NAME : owner
  }
  for (let j = run; j < k; j++) if (isOwnName(s, j)) return j
  for (let j = k + 1; j < found.count && wordRun[j] === run; j++) if (isOwnName(s, j)) return j
  const own = ownNameAtSignal(s)
  if (own !== NO_NAME) return own
  // A bot word alone (`Hatena::Russia::Crawler`): the header's first own name, else no name at all.
  for (let j = 0; j < found.count; j++) if ((wordFlags[j] ?? 0) & F_NAME && isOwnName(s, j)) return (wordFlags[j] ?? 0) & F_KNOWN ? KNOWN_NAME : j
  return NO_NAME
}

function isOwnName(s: string, k: number): boolean {
  const flags = wordFlags[k] ?? 0
  return (flags & (F_VOCAB | F_FILLER)) === 0 && ((flags & F_PLATFORM) === 0 || (flags & F_VERSIONED) !== 0) && !isBrowserWord(s, k)
}

/**
 * An unknown client's own name, looked for where its bot signal appears: a
 * bot word in the comment holding the signal, else the comment's first name,
 * else the last top-level product before it. Browser vocabulary is passed
 * over. A known name there (`node-fetch/1.0 (+https://…)`) means the client is
 * already identified: `KNOWN_NAME`.
 */
function ownNameAtSignal(s: string): number {
  if (!found.signal) return NO_NAME
  const at = found.signalAt
  const group = found.signalGroup
  if (group > 0) {
    for (let k = 0; k < at; k++) if (wordGroup[k] === group && (wordFlags[k] ?? 0) & F_BOT_WORD && !((wordFlags[k] ?? 0) & F_FILLER)) return k
    for (let k = 0; k < at; k++) {
      const flags = wordFlags[k] ?? 0
      if (wordGroup[k] !== group || (flags & F_NAME) === 0 || !isOwnName(s, k)) continue
      return flags & F_KNOWN ? KNOWN_NAME : k
    }
  }
  for (let k = at - 1; k >= 0; k--) {
    const flags = wordFlags[k] ?? 0
    if (flags & F_COMMENT || !isOwnName(s, k)) continue
    return flags & F_KNOWN ? KNOWN_NAME : (wordRun[k] ?? k)
  }
  return NO_NAME
}

/** Registry crawlers the header also names, unrelated to the winner. */
function others(winner: Target, s: string): readonly AgentIdentity[] | undefined {
  if (found.botCount < 2) return undefined
  let result: AgentIdentity[] | undefined
  for (let k = 0; k < found.botCount; k++) {
    const other = found.bots[k] as Target
    if (other === winner || other.id === winner.id) continue
    if (winner.allTokens.has(other.primary) || other.allTokens.has(winner.primary)) continue
    result ??= []
    if (!result.some((identity) => identity.id === other.id)) result.push(identityOf(other, s, undefined, false))
  }
  return result
}

// One object literal per kind of result, every key always present, so every
// result has the same shape and the code that reads it stays monomorphic.
function identityOf(target: Target, s: string, others: readonly AgentIdentity[] | undefined, unidentified: boolean): AgentIdentity {
  const names = collectNames(s, -1)
  const bot = target.kind === 'bot'
  return {
    tokens: target.tokens,
    kind: target.kind,
    operator: target.operator,
    category: target.category,
    purpose: target.purpose,
    obeysRobotsTxt: bot ? target.obeysRobotsTxt : false,
    id: target.id,
    names,
    others,
    unidentified: unidentified ? true : undefined,
  }
}

/** A client that says it is a bot but gives no name of its own. */
function namelessBot(s: string): AgentIdentity {
  return {
    tokens: [],
    kind: 'bot',
    operator: undefined,
    category: undefined,
    purpose: undefined,
    obeysRobotsTxt: true,
    id: undefined,
    names: collectNames(s, -1),
    others: undefined,
    unidentified: namesItself(s) ? undefined : true,
  }
}

/**
 * A client the registry does not know, by its own name: the first word of its
 * run is its token. It is unidentified unless it says it is automated: by its
 * words or a contact link, by a library's name (`HTTP-Tiny`, `php-requests`),
 * or by a name in Google's fetchers' style (`PlayStore-Google`).
 */
function unknownClient(s: string, k: number, kind: 'bot' | 'tool'): AgentIdentity {
  const token = s.slice(wordStart[k], wordEnd[k]).toLowerCase()
  const start = wordStart[k] ?? 0
  const end = wordEnd[k] ?? 0
  const named = namesItself(s) || classifyWord(s, start, end) === TOOL_NAME || isGoogleName(s, start, end)
  return {
    tokens: [token],
    kind,
    operator: undefined,
    category: undefined,
    purpose: undefined,
    obeysRobotsTxt: kind === 'bot',
    id: undefined,
    names: collectNames(s, k),
    others: undefined,
    unidentified: named ? undefined : true,
  }
}

/** Every product name, lower case, once; with `own`'s whole run (`kangaroo bot`) when it spans several words. */
function collectNames(s: string, own: number): readonly string[] {
  const names: string[] = []
  for (let k = 0; k < found.count; k++) {
    if (((wordFlags[k] ?? 0) & F_NAME) === 0) continue
    const name = knownNames[k] ?? s.slice(wordStart[k], wordEnd[k]).toLowerCase()
    if (!names.includes(name)) names.push(name)
  }
  if (own >= 0) {
    let last = own
    while (last + 1 < found.count && wordRun[last + 1] === wordRun[own] && last - own < 5) last++
    if (last > own) {
      const whole = s.slice(wordStart[own], wordEnd[last]).toLowerCase()
      if (!names.includes(whole)) names.push(whole)
    } else {
      const name = s.slice(wordStart[own], wordEnd[own]).toLowerCase()
      if (!names.includes(name)) names.push(name)
    }
  }
  return names
}
