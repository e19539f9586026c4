import type { AgentCategory } from './types.ts'
import { AT, BROWSER_WORDS, CLOSE, IS_WORD, OPEN, PLUS, SEPARATOR, classOf, followedBy, hasBotSuffix, isDigit, isScheme, skipToken } from './char-classes.ts'
import { NameIndex, RANK_BOT, hashStep, sameWord, type Target } from './name-index.ts'
import { registry, tools } from './registry.ts'

/** Who sent a request, as far as its User-Agent header tells. */
export interface AgentIdentity {
  /** robots.txt product tokens it obeys, lower case, most specific first; `[]` if its operator says it ignores robots.txt. */
  readonly tokens: readonly string[]
  /** `bot` for a crawler or fetcher, `tool` for a generic client such as curl or python-requests. */
  readonly kind: 'bot' | 'tool'
  readonly operator?: string
  readonly category?: AgentCategory
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
}

// Only the start of the header is read. Every crawler names itself within its
// first few hundred characters; a client that pads its name past this point
// gains nothing it could not get by leaving the name out, since the header is
// a claim either way. The cap keeps the cost of a 64 KiB header that of a 2 KiB one.
const SCAN_LIMIT = 2048
const MAX_NAMES = 32

const index = new NameIndex(registry, tools)

// Scratch state of one scan. identifyAgent is synchronous and not re-entrant,
// so one set of module-level buffers serves every call without allocating.
const nameSpans = new Int32Array(MAX_NAMES * 2)
const nameFlags = new Uint8Array(MAX_NAMES)
// The lower-case text of each known name, so reporting it costs no slicing.
const knownNames: Array<string | undefined> = new Array<string | undefined>(MAX_NAMES).fill(undefined)
const IN_COMMENT = 1
const KNOWN = 2

/**
 * Identify the client behind a User-Agent header.
 *
 * Returns `null` for a person's browser, including in-app browsers, and for a
 * missing or empty header; otherwise the tokens it obeys and what it is.
 * Names are matched whole and case-insensitively, never as substrings, so
 * `BytedanceWebview` is not Bytespider and `CUBOT X19` is not a bot. When a
 * header names several known clients, a crawler beats a generic tool, a tool
 * beats a language runtime, and between two crawlers the more specific one
 * (whose fallback tokens include the other's token, as Google-InspectionTool's
 * include `googlebot`) wins; otherwise the first one named wins. Never throws.
 *
 * @example
 * identifyAgent('Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)')
 * // → { tokens: ['googlebot'], kind: 'bot', operator: 'Google', id: 'googlebot', ... }
 */
export function identifyAgent(userAgent: string | null | undefined): AgentIdentity | null {
  if (typeof userAgent !== 'string' || userAgent.length === 0) return null
  return scan(userAgent)
}

function scan(s: string): AgentIdentity | null {
  const length = s.length < SCAN_LIMIT ? s.length : SCAN_LIMIT
  const truncated = s.length > SCAN_LIMIT

  let depth = 0
  let leading = true // the next word starts a comment element (or is at top level)
  let compatible = false // the current comment opened with `compatible`
  let afterPlus = false
  let signal = false // `+http…`, a URL or an e-mail: the client says it is a robot
  let pendingSignal = false
  let commentNames = 0 // index in nameSpans of the current comment's first name

  let best: Target | undefined
  let weak: Target | undefined
  let heuristic = -1 // name index of the first unknown name that calls itself a bot
  let self = -1 // name index of an unknown client's own name, chosen where its bot signal appears
  let nameCount = 0

  let i = 0
  while (i < length || pendingSignal) {
    if (pendingSignal) {
      // Resolved here, before the next word changes the state, so the name
      // chosen is the one in force where the signal appeared.
      pendingSignal = false
      if (!signal) {
        signal = true
        self = ownName(s, depth > 0, commentNames, nameCount)
      }
      if (i >= length) break
    }
    let code = s.charCodeAt(i)
    if (code === 32) {
      i++
      continue
    }
    if (IS_WORD[code] !== 1) {
      const kind = classOf(code)
      i++
      if (kind === OPEN) {
        depth++
        leading = true
        compatible = false
        commentNames = nameCount
      } else if (kind === CLOSE) {
        if (depth > 0) depth--
        leading = depth === 0
      } else if (kind === SEPARATOR) {
        if (depth > 0) leading = true
      } else if (kind === PLUS) {
        // `+http://…` or `+name@host`: the robots convention for "more about this bot".
        if (i < length && IS_WORD[s.charCodeAt(i)] === 1) { pendingSignal = true; afterPlus = true }
      } else if (kind === AT) {
        if (isMailDomain(s, i, length)) pendingSignal = true
        i = skipToken(s, i, length)
      }
      continue
    }

    // A word. Only a word where a product name can stand is hashed while read;
    // the rest (`NT 10.0`, `Mac OS X`, `Build/…`) are stepped over.
    const start = i
    const namePosition = (depth === 0 || leading) && !afterPlus
    afterPlus = false
    if (depth > 0) leading = false
    let hash = 0
    let underscore = -1
    let underscoreHash = 0
    if (namePosition) {
      do {
        if (code === 95 && underscore < 0) { underscore = i; underscoreHash = hash }
        hash = hashStep(hash, code)
        i++
        if (i >= length) break
        code = s.charCodeAt(i)
      } while (IS_WORD[code] === 1)
    } else {
      do {
        i++
        if (i >= length) break
        code = s.charCodeAt(i)
      } while (IS_WORD[code] === 1)
    }
    const end = i
    if (end === length && truncated) break // cut by the scan limit: not a whole name
    const next = end < length ? code : -1

    if ((next === 58 /* : */ && isScheme(s, start, end)) || (next === 64 /* @ */ && isMailDomain(s, end + 1, length))) {
      // A URL or the local part of an e-mail address: a bot signal, not a name.
      pendingSignal = true
      i = skipToken(s, end, length)
      continue
    }

    if (namePosition) {
      let target: Target | undefined
      let knownName: string | undefined
      let nameEnd = end
      const record = index.find(s, start, end, hash)
      if (record !== undefined) {
        for (const variant of record.variants) {
          if (variant.rest === '' || followedBy(s, end, length, variant.rest)) {
            target = variant.target
            knownName = variant.name
            nameEnd = end + variant.rest.length
            break
          }
        }
      }
      if (target === undefined && underscore > start) {
        const variant = index.find(s, start, underscore, underscoreHash)?.variants.find(isPrefix)
        if (variant !== undefined) target = variant.target
      }

      if (target !== undefined) {
        if (target.weak) weak ??= target
        else if (best === undefined || outranks(target, best)) best = target
      } else if (depth > 0 && end - start === 10 && sameWord(s, start, 'compatible')) {
        compatible = true
      }
      if (nameCount < MAX_NAMES && (target !== undefined || !isDigit(s.charCodeAt(start)))) {
        if (target === undefined && heuristic < 0 && (next === 47 /* / */ || (depth > 0 && compatible)) && hasBotSuffix(s, start, end)) {
          heuristic = nameCount
        }
        nameSpans[nameCount * 2] = start
        nameSpans[nameCount * 2 + 1] = nameEnd
        nameFlags[nameCount] = (depth > 0 ? IN_COMMENT : 0) | (target !== undefined ? KNOWN : 0)
        knownNames[nameCount] = knownName
        nameCount++
      }
      i = nameEnd
    }

    // `Name/version`: the version is not a name, whatever it looks like.
    if (i < length && s.charCodeAt(i) === 47) i = skipToken(s, i + 1, length)
  }

  let winner: Target | undefined
  if (best !== undefined && best.rank >= RANK_BOT) winner = best
  else if (weak !== undefined && signal) winner = weak
  if (winner !== undefined) return identityOf(winner, s, nameCount)

  if (heuristic >= 0) return unknownBot(s, heuristic, nameCount)
  if (self >= 0) return unknownBot(s, self, nameCount)
  if (best !== undefined) return identityOf(best, s, nameCount)
  if (signal) return { tokens: [], kind: 'bot', obeysRobotsTxt: true, names: collectNames(s, nameCount) }
  return null
}

/**
 * Does an e-mail domain start at `from`: dot-separated labels ending in a
 * top-level domain of letters (`anthropic.com`)? A bare `@` is no bot signal:
 * Ecosia's browser writes `(Ecosia ios@9.0.0.2263)`, a person's browser.
 */
function isMailDomain(s: string, from: number, length: number): boolean {
  let i = from
  let dots = 0
  let tldLetters = 0
  for (; i < length && i - from < 253; i++) {
    const c = s.charCodeAt(i)
    const letter = (c | 32) >= 97 && (c | 32) <= 122
    if (c === 46) {
      if (i === from || s.charCodeAt(i - 1) === 46) return false
      dots++
      tldLetters = 0
    } else if (letter) {
      tldLetters++
    } else if ((c >= 48 && c <= 57) || c === 45) {
      tldLetters = -1_000 // a digit or hyphen in the last label: not a top-level domain
    } else {
      break
    }
  }
  return dots > 0 && tldLetters >= 2
}

/**
 * An unknown client's own name, looked for where its bot signal appears: the
 * first name of the comment holding the signal, else the last product before
 * it. Browser vocabulary is passed over; a known name means the client is
 * already identified, so the result is -1.
 */
function ownName(s: string, inComment: boolean, commentNames: number, nameCount: number): number {
  if (inComment) {
    for (let k = commentNames; k < nameCount; k++) {
      if (isBrowserWord(s, k)) continue
      return (nameFlags[k] ?? 0) & KNOWN ? -1 : k
    }
  }
  for (let k = nameCount - 1; k >= 0; k--) {
    const flags = nameFlags[k] ?? 0
    if (flags & IN_COMMENT || isBrowserWord(s, k)) continue
    return flags & KNOWN ? -1 : k
  }
  return -1
}

function isBrowserWord(s: string, k: number): boolean {
  return BROWSER_WORDS.has(s.slice(nameSpans[k * 2], nameSpans[k * 2 + 1]).toLowerCase())
}

function isPrefix(variant: { readonly prefix: boolean }): boolean {
  return variant.prefix
}

/** Whether `candidate` should replace `current` as the header's identity. */
function outranks(candidate: Target, current: Target): boolean {
  if (candidate.rank !== current.rank) return candidate.rank > current.rank
  return candidate !== current && candidate.allTokens.has(current.primary)
}

// One object literal per kind of result, so every result of a kind has the same shape.
function identityOf(target: Target, s: string, nameCount: number): AgentIdentity {
  const names = collectNames(s, nameCount)
  if (target.id !== undefined && target.category !== undefined) {
    return {
      tokens: target.tokens,
      kind: 'bot',
      operator: target.operator,
      category: target.category,
      obeysRobotsTxt: target.obeysRobotsTxt,
      id: target.id,
      names,
    }
  }
  return { tokens: target.tokens, kind: 'tool', operator: target.operator, obeysRobotsTxt: false, names }
}

function unknownBot(s: string, name: number, nameCount: number): AgentIdentity {
  const token = s.slice(nameSpans[name * 2], nameSpans[name * 2 + 1]).toLowerCase()
  return { tokens: [token], kind: 'bot', obeysRobotsTxt: true, names: collectNames(s, nameCount) }
}

function collectNames(s: string, count: number): readonly string[] {
  const names: string[] = []
  for (let k = 0; k < count; k++) {
    const name = knownNames[k] ?? s.slice(nameSpans[k * 2], nameSpans[k * 2 + 1]).toLowerCase()
    if (!names.includes(name)) names.push(name)
  }
  return names
}
