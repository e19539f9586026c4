import { BROWSER_WORDS, DEVICE_WORDS, FILLER_WORDS, PLATFORM_WORDS, VOCAB_BROWSER, VOCAB_DEVICE, VOCAB_FILLER, VOCAB_PLATFORM, BOT_FILLER, BOT_NAME, hasPlatformPart } from './lexicon.ts'
import { NameIndex, sameWord, type Target } from './name-index.ts'
import { registry, tools } from './registry.ts'
import { selfNamedBots } from './registry/names.ts'

/**
 * What a scan of a User-Agent header (scanner.ts) leaves for identify.ts:
 * the words it recorded, with flags saying where each stood, and what the
 * header said about itself (`found`). Module-level buffers, reused by every
 * call: identifyAgent is synchronous and not re-entrant.
 */

// Only the start of the header is read. Every crawler names itself within its
// first few hundred characters; a client that pads its name past this point
// gains nothing it could not get by leaving the name out, since the header is
// a claim either way. The cap keeps the cost of a 64 KiB header that of a 2 KiB one.
export const SCAN_LIMIT = 2048
export const MAX_WORDS = 64
export const MAX_DEPTH = 30

export const index = new NameIndex(registry, tools, selfNamedBots, [
  [VOCAB_BROWSER, BROWSER_WORDS],
  [VOCAB_PLATFORM, PLATFORM_WORDS],
  [VOCAB_FILLER, FILLER_WORDS],
  [VOCAB_DEVICE, DEVICE_WORDS],
])

// Scratch state of one scan. identifyAgent is synchronous and not re-entrant,
// so one set of module-level buffers serves every call without allocating.
export const wordStart = new Int32Array(MAX_WORDS)
/** End of the word, or of the whole name when a known name spans several words ("Yahoo! Slurp"). */
export const wordEnd = new Int32Array(MAX_WORDS)
export const wordFlags = new Uint16Array(MAX_WORDS)
/** Index of the first word of the run (words joined by spaces only) the word belongs to. */
export const wordRun = new Int16Array(MAX_WORDS)
/** The comment the word is in: 0 at top level, else a number per opening bracket. */
export const wordGroup = new Int16Array(MAX_WORDS)
/** The lower-case text of each known name, so reporting it costs no slicing. */
export const knownNames: Array<string | undefined> = new Array<string | undefined>(MAX_WORDS).fill(undefined)
/** For each comment, the last top-level word before it opened (the product it describes), or -1. */
export const groupOwner = new Int16Array(MAX_WORDS + 1)

/** A product-name position: top level, or the first word of a comment element. */
export const F_NAME = 1
export const F_COMMENT = 2
/** In a comment that describes the platform (`(Linux; Android 14; Pixel 8)`). */
export const F_PLATFORM = 4
export const F_KNOWN = 8
export const F_VOCAB = 16
export const F_VERSIONED = 32
/** In the first element of its comment (`(web crawler; ...)`). */
export const F_FIRST_ELEMENT = 64
export const F_BOT_WORD = 128
export const F_FILLER = 256

/** What the bot word, Google name or `compatible` rule found (see `found.candidate`). */
export const CANDIDATE_BOT = BOT_NAME
export const CANDIDATE_FILLER = BOT_FILLER
export const CANDIDATE_NAMED = 4

/** What one scan found; every field is reset by `scan`. */
export const found = {
  count: 0,
  best: undefined as Target | undefined,
  weak: undefined as Target | undefined,
  /** Every distinct registry crawler the header names, for `others`: the first `botCount` of `bots`. */
  bots: [] as Target[],
  botCount: 0,
  /** First word naming an unknown crawler (a bot word, a Google name, the name after `compatible`). */
  candidate: -1,
  candidateKind: 0,
  /** First word naming an unknown generic client (`HTTP-Tiny`). */
  tool: -1,
  signal: false,
  /** Words recorded when the first bot signal appeared, and the comment it appeared in. */
  signalAt: 0,
  signalGroup: 0,
}

export function confirmHeld(k: number): void {
  if (found.candidate >= 0 && found.candidate < k) return
  found.candidate = k
  found.candidateKind = CANDIDATE_NAMED
}

/**
 * A header that is one bare word (`NodePing`, `Zabbix`), or `Mozilla/5.0`
 * and one product (`Mozilla/5.0 Keydrop`), is no browser: browsers describe
 * their platform. A word that names a device or platform (`iPhone11Pro`,
 * `Gaana-iOS`) is an app's, not a client's own name.
 */
export function bareName(s: string, count: number, plain: boolean): void {
  let k = -1
  if (count === 1 && plain) k = 0
  else if (count === 2 && wordGroup[1] === 0 && isMozilla(s, 0)) k = 1
  else if (count <= 4 && isMozilla(s, 0) && isOneElementComment(s, wordEnd[0] ?? 0)) {
    // `Mozilla/5.0 (Morningscore/1.0)`, `Mozilla/4.0 (Hydra)`, `Mozilla/5.0 (compatible)`: no browser says only that.
    k = count > 1 ? 1 : -1
    // A device alone (`Mozilla/5.0 (PlayStation 4 Pro 5.0)`) is a console's browser.
    if (k > 0 && (wordFlags[1] ?? 0) & F_PLATFORM) return
    if (k < 0 || (wordFlags[1] ?? 0) & F_VOCAB || isBrowserWord(s, 1)) {
      found.candidate = count > 1 ? 1 : 0
      found.candidateKind = CANDIDATE_FILLER
      return
    }
  }
  if (k < 0) return
  const flags = wordFlags[k] ?? 0
  const start = wordStart[k] ?? 0
  const end = wordEnd[k] ?? 0
  if (flags & F_VOCAB || isBrowserWord(s, k) || !isLetter(s.charCodeAt(start)) || hasPlatformPart(s, start, end)) return
  found.candidate = k
  found.candidateKind = CANDIDATE_NAMED
}

/** After `Mozilla/x.y` at `from`: one comment with a single element, and nothing after it. */
function isOneElementComment(s: string, from: number): boolean {
  let end = s.length
  while (end > 0 && s.charCodeAt(end - 1) === 32) end--
  if (end > 300 || s.charCodeAt(end - 1) !== 41) return false
  let i = from
  while (i < end && s.charCodeAt(i) !== 40) {
    if (s.charCodeAt(i) === 32 && i + 1 < end && s.charCodeAt(i + 1) !== 40 && s.charCodeAt(i + 1) !== 32) return false
    i++
  }
  for (let j = i + 1; j < end - 1; j++) {
    const c = s.charCodeAt(j)
    if (c === 59 || c === 44 || c === 40 || c === 41) return false
  }
  return i < end
}

export function isLetter(code: number): boolean {
  return (code | 32) >= 97 && (code | 32) <= 122
}

function isMozilla(s: string, k: number): boolean {
  const start = wordStart[k] ?? 0
  return (wordEnd[k] ?? 0) - start === 7 && ((wordFlags[k] ?? 0) & F_VERSIONED) !== 0 && sameWord(s, start, 'mozilla')
}

export const BROWSER_SET: ReadonlySet<string> = new Set(BROWSER_WORDS)

/** Whether recorded word `k` is browser vocabulary (`Mozilla`, `Safari`): never a client's own name. */
export function isBrowserWord(s: string, k: number): boolean {
  return BROWSER_SET.has(s.slice(wordStart[k], wordEnd[k]).toLowerCase())
}

export function noteBot(target: Target): void {
  const bots = found.bots
  for (let k = 0; k < found.botCount; k++) if (bots[k] === target) return
  if (found.botCount < 8) bots[found.botCount++] = target
}

export function noteSignal(count: number, group: number): void {
  if (found.signal) return
  found.signal = true
  found.signalAt = count
  found.signalGroup = group
}

/** The last top-level word before a comment opened at `depth`, if the comment follows it directly. */
export function ownerBefore(count: number, depth: number): number {
  if (depth !== 1 || count === 0) return -1
  return (wordFlags[count - 1] ?? 0) & F_COMMENT ? -1 : count - 1
}

/** Whether `candidate` should replace `current` as the header's identity. */
export function outranks(candidate: Target, current: Target): boolean {
  if (candidate.rank !== current.rank) return candidate.rank > current.rank
  return candidate !== current && candidate.allTokens.has(current.primary)
}
