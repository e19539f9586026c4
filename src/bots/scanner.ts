import { AT, CLOSE, IS_WORD, OPEN, PLUS, SEPARATOR, classOf, followedBy, isDigit, isScheme, skipToken } from './char-classes.ts'
import {
  BOT_ACTIVITY, BOT_FILLER, BOT_NAME, BROWSER_WORDS, DEVICE_WORDS, FILLER_WORDS, PLATFORM_WORDS, TOOL_NAME, classifyPart, mayEndBotWord,
  VOCAB_DEVICE, VOCAB_FILLER, VOCAB_PLATFORM, classifyWord, hasPlatformPart, isBrowserName, isDomain, isGoogleName,
} from './lexicon.ts'
import { NameIndex, RANK_BOT, hashStep, sameWord, type Target } from './name-index.ts'
import { registry, tools } from './registry.ts'
import { selfNamedBots } from './registry/names.ts'

/**
 * One pass over a User-Agent header that records its words and what they
 * say: known names, bot words, bot signals (a `+http` URL, a contact
 * address). identify.ts turns what it found into an identity. Character
 * classes and names are table lookups; no regular expression runs here.
 */

// Only the start of the header is read. Every crawler names itself within its
// first few hundred characters; a client that pads its name past this point
// gains nothing it could not get by leaving the name out, since the header is
// a claim either way. The cap keeps the cost of a 64 KiB header that of a 2 KiB one.
const SCAN_LIMIT = 2048
export const MAX_WORDS = 64
const MAX_DEPTH = 30

// Browser words are not in the table: they decide nothing while the header is
// read, only which word is an unknown client's own name (`isBrowserWord`).
export const index = new NameIndex(registry, tools, selfNamedBots, [
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

/** Scans `s`; the result is left in `found` and the word buffers. */
export function scan(s: string): void {
  const length = s.length < SCAN_LIMIT ? s.length : SCAN_LIMIT
  const truncated = s.length > SCAN_LIMIT
  found.count = 0
  found.best = undefined
  found.weak = undefined
  found.botCount = 0
  found.candidate = -1
  found.candidateKind = 0
  found.tool = -1
  found.signal = false

  let depth = 0
  let group = 0
  let groups = 0
  let platformMask = 0 // bit d: the comment open at depth d describes the platform
  let compatibleMask = 0 // bit d: the element before, at depth d, was `compatible`
  let describedMask = 0 // bit d: the comment at depth d is `(KHTML, like Gecko; …)`, whose extra elements name a client
  let element = 0 // index of the current element in the innermost comment
  // A name after `compatible` (or in a KHTML comment) is held until its comment closes: it is
  // the client's own only if the comment names no platform (`(compatible; IBrowse 3.0; AmigaOS)`)
  // and it is versioned or the comment's last element (`(compatible; ms-office; MSOffice 16)`).
  let held = -1
  let heldGroup = -1
  let heldVersioned = false
  let heldLast = false
  let plain = true // no bracket, separator or version: the header is bare words
  let words = 0 // every word, numbers included
  const parents = groupStack
  let leading = true // the next word starts a comment element (or a `;` element at top level)
  let firstElement = true
  let afterPlus = false
  let afterLike = false
  let runOpen = false
  let runStart = 0
  let pendingSignal = false
  let count = 0
  let lastWord = -1 // index of the word recorded last, and what it named
  let lastTarget: Target | undefined

  let i = 0
  while (i < length) {
    let code = s.charCodeAt(i)
    if (code === 32) {
      i++
      continue
    }
    if (IS_WORD[code] !== 1) {
      const kind = classOf(code)
      i++
      runOpen = false
      plain = false
      if (kind === OPEN) {
        if (depth < MAX_DEPTH) parents[depth] = group
        depth++
        group = ++groups
        if (group <= MAX_WORDS) groupOwner[group] = ownerBefore(count, depth)
        platformMask &= ~(1 << depth)
        compatibleMask &= ~(1 << depth)
        describedMask &= ~(1 << depth)
        element = 0
        leading = true
        firstElement = true
      } else if (kind === CLOSE) {
        if (held >= 0 && heldGroup === group) {
          const signalled = found.signal && found.signalGroup === group
          if ((platformMask & (1 << depth)) === 0 && (heldVersioned || heldLast || signalled)) confirmHeld(held)
          held = -1
        }
        if (depth > 0) {
          depth--
          group = depth === 0 ? 0 : (parents[depth] ?? 0)
        }
        leading = depth === 0
        firstElement = false
      } else if (kind === SEPARATOR) {
        leading = true
        firstElement = false
        element++
        if (held >= 0 && heldGroup === group) heldLast = false
      } else if (kind === PLUS) {
        // `+http://…`, `+www.…` or `+name@host`: the robots convention for "more about this bot".
        // Any other `+` is a capability flag or part of a model (`+DRM`, `4+64`, `Wi-Fi+4G`).
        if (i < length && IS_WORD[s.charCodeAt(i)] === 1) {
          afterPlus = true
          if (plusSignal(s, i, length)) pendingSignal = true
        }
      } else if (kind === AT) {
        if (depth === 0 || (platformMask & (1 << depth)) === 0) {
          if (isMailDomain(s, i, length)) pendingSignal = true
        }
        i = skipToken(s, i, length)
      }
      if (pendingSignal) {
        pendingSignal = false
        noteSignal(count, group)
      }
      continue
    }

    // A word. Only a word where a product name can stand is hashed while read,
    // so it can be looked up without cutting it out; the rest (`Gecko` in
    // `(KHTML, like Gecko)`, `NT 10.0`, `Mac OS X`) are read only for bot words.
    const start = i
    const namePosition = !afterPlus && (depth === 0 || leading)
    let hash = 0
    let parts = 0 // `-`, `_` and `.` seen, for names with text glued on (`Pingdom.com_bot_…`, `amazon-kendra-…`)
    if (namePosition) {
      do {
        if ((code === 45 || code === 95 || code === 46) && parts < MAX_PARTS) {
          partEnd[parts] = i
          partHash[parts] = hash
          parts++
        }
        hash = hashStep(hash, code)
        i++
        if (i >= length) break
        code = s.charCodeAt(i)
      } while (IS_WORD[code] === 1)
    } else {
      do {
        if (code === 45 || code === 95 || code === 46) parts = MAX_PARTS + 1
        i++
        if (i >= length) break
        code = s.charCodeAt(i)
      } while (IS_WORD[code] === 1)
    }
    const end = i
    if (end === length && truncated) break // cut by the scan limit: not a whole name
    const next = end < length ? code : -1
    // The common case, first: a comment's other word (`NT` in `Windows NT 10.0`, `Gecko`)
    // that is no bot word, no URL or address, no product with a version.
    if (!namePosition && next !== 47 && next !== 58 && next !== 64 && parts === 0 && !afterLike
      && !mayEndBotWord(s, start, end) && !isSubscribers(s, start, end)) {
      afterPlus = false
      continue
    }
    const platform = depth > 0 && (platformMask & (1 << depth)) !== 0

    if (next === 58 /* : */ && isScheme(s, start, end)) {
      // A URL: a bot signal, unless it sits among a device's details (XBMC's `(Mac OS X; …; http://xbmc.org)`),
      // where it counts only after the name it describes (`(X11; Linux x86_64; GTmetrix https://gtmetrix.com/)`).
      if (!platform) noteSignal(count, group)
      else if (!leading && count > 0 && wordGroup[count - 1] === group && lastWord === count - 1) {
        noteSignal(count, group)
        if (lastTarget !== undefined && !lastTarget.weak) {
          if (found.best === undefined || outranks(lastTarget, found.best)) found.best = lastTarget
        } else if (found.candidate < 0 && ((wordFlags[count - 1] ?? 0) & F_VOCAB) === 0 && !isBrowserWord(s, count - 1)) {
          found.candidate = count - 1
          found.candidateKind = CANDIDATE_NAMED
        }
      }
      i = skipToken(s, end, length)
      runOpen = false
      continue
    }
    if (next === 64 /* @ */ && isMailDomain(s, end + 1, length)) {
      // A contact address, even among a device's details (`(Windows NT 10.0; CONTACT; scan@…)`).
      noteSignal(count, group)
      i = skipToken(s, end, length)
      runOpen = false
      afterPlus = false
      continue
    }

    afterPlus = false
    const versioned = next === 47 /* / */
    const record = namePosition ? index.find(s, start, end, hash) : undefined
    const vocab = record?.vocab ?? 0
    let target: Target | undefined
    let knownName: string | undefined
    let nameEnd = end
    if (record !== undefined && namePosition) {
      const variants = record.variants
      for (let v = 0; v < variants.length; v++) {
        const variant = variants[v] as (typeof variants)[number]
        if (variant.rest === '' || followedBy(s, end, length, variant.rest)) {
          target = variant.target
          knownName = variant.name
          nameEnd = end + variant.rest.length
          break
        }
      }
    }
    for (let p = 0; target === undefined && namePosition && p < parts && p < MAX_PARTS; p++) {
      const prefix = index.find(s, start, partEnd[p] ?? start, partHash[p] ?? 0)?.variants.find(isPrefix)
      if (prefix !== undefined) target = prefix.target
    }

    let platformHere = platform
    if (depth > 0 && namePosition && vocab === VOCAB_PLATFORM) {
      platformMask |= 1 << depth
      platformHere = true
    }
    // A bare word among a device's details is a model (`Expanse`, `RUBY`, `SPIDER Build/…`);
    // with a version it is a product (`DuplexWeb-Google/1.0`). A multi-word known name always counts.
    // A name with a hyphen or underscore is no model name (`(X11; Linux i686; ips-agent)`).
    const counts = !afterLike && (!platformHere || versioned || nameEnd > end || (target !== undefined && parts > 0))
    let flags = (depth > 0 ? F_COMMENT : 0) | (platformHere ? F_PLATFORM : 0) | (versioned ? F_VERSIONED : 0)
      | (namePosition ? F_NAME : 0) | (vocab !== 0 ? F_VOCAB : 0) | (depth > 0 && firstElement ? F_FIRST_ELEMENT : 0)
    let candidateKind = 0
    let toolWord = false
    if (target !== undefined) {
      flags |= F_KNOWN
      if (counts) {
        if (target.weak) found.weak ??= target
        else {
          if (found.best === undefined || outranks(target, found.best)) found.best = target
          if (target.id !== undefined) noteBot(target)
        }
      }
    } else if (vocab === 0 && !afterLike && (counts || platformHere) && !isDigit(s.charCodeAt(start))) {
      // Most words fail on their last two letters; only the rest are read for bot words.
      const kind = parts === 0 ? (mayEndBotWord(s, start, end) ? classifyPart(s, start, end, start, end) : 0) : classifyWord(s, start, end)
      if (kind === BOT_NAME) {
        // A crawler's name counts even among a device's details (`(Macintosh; …; TSMbot)`).
        flags |= F_BOT_WORD
        if (counts || platformHere) candidateKind = CANDIDATE_BOT
      } else if (kind === BOT_FILLER || kind === BOT_ACTIVITY) {
        flags |= F_BOT_WORD | (kind === BOT_FILLER ? F_FILLER : 0)
        // Among a device's details only after another word of its element (`(iPhone; Y!J-BRY/YATSH crawler)`,
        // never `(Linux; Android 12; Robot Build/…)`).
        if (counts || (platformHere && !namePosition && kind === BOT_FILLER)) candidateKind = kind === BOT_FILLER ? CANDIDATE_FILLER : CANDIDATE_BOT
      } else if (kind === TOOL_NAME) {
        toolWord = counts
        if (end - start === 4) flags |= F_FILLER
      } else if (depth > 0 && namePosition && !platformHere && isDomain(s, start, end)
        && (held >= 0 || !sameWord(s, start, 'www.'))) {
        // `(postrank.com)`, `(compatible; Twingly Recon; twingly.com)`: where to read about the client.
        flags |= F_FILLER
        noteSignal(count, group)
      } else if (counts && isGoogleName(s, start, end)) {
        candidateKind = CANDIDATE_NAMED
      } else if (counts && namePosition && depth > 0 && held < 0
        && ((compatibleMask & (1 << depth)) !== 0 || ((describedMask & (1 << depth)) !== 0 && element >= 2))
        && !isBrowserName(s, start, end) && !hasPlatformPart(s, start, end) && !BROWSER_SET.has(s.slice(start, end).toLowerCase())) {
        // `(compatible; Name…)` and `(KHTML, like Gecko; Name)`: where a crawler names itself.
        held = count
        heldGroup = group
        heldVersioned = versioned
        heldLast = true
      }
    }
    if (namePosition) {
      if (vocab === VOCAB_FILLER && end - start === 10 && sameWord(s, start, 'compatible')) compatibleMask |= 1 << depth
      else compatibleMask &= ~(1 << depth)
      if (depth > 0 && firstElement && end - start === 5 && sameWord(s, start, 'khtml')) describedMask |= 1 << depth
    }
    if (versioned) plain = false
    leading = false
    if (depth === 0) firstElement = false

    words++
    const digit = isDigit(s.charCodeAt(start))
    if (digit && target === undefined && candidateKind === 0 && !toolWord) {
      runOpen = false // a version or a number ends a name
    } else if (depth > 0 && !namePosition && !versioned && candidateKind === 0 && (flags & F_BOT_WORD) === 0 && !toolWord) {
      // A comment's other words (`NT 10.0`, `OS X`, `Gecko`) name nothing; a run through them still goes on.
    } else if (count < MAX_WORDS) {
      if (!runOpen) {
        runStart = count
        runOpen = true
      }
      lastWord = count
      lastTarget = target
      wordStart[count] = start
      wordEnd[count] = nameEnd
      wordFlags[count] = flags
      wordRun[count] = runStart
      wordGroup[count] = group
      knownNames[count] = knownName
      if (candidateKind !== 0 && found.candidate < 0) {
        found.candidate = count
        found.candidateKind = candidateKind
      }
      if (toolWord && found.tool < 0) found.tool = count
      count++
    }
    if (held >= 0 && heldGroup === group && count > held && wordRun[count - 1] === wordRun[held] && versioned) heldVersioned = true
    afterLike = vocab === VOCAB_FILLER && end - start === 4 && sameWord(s, start, 'like')
    i = nameEnd
    if (versioned) runOpen = false
    // `Name/version`: the version is not a name, whatever it looks like.
    if (i < length && s.charCodeAt(i) === 47) {
      const version = i + 1
      i = skipToken(s, version, length)
      // `productsup.io/crawler`, `visionheight.com/scan`: the product says what it does where its version goes.
      if (found.candidate < 0 && count > 0 && i > version && !platformHere && isLetter(s.charCodeAt(version))
        && mayEndBotWord(s, version, i)) {
        const kind = classifyWord(s, version, i)
        if (kind !== 0 && kind !== TOOL_NAME) {
          found.candidate = count - 1
          found.candidateKind = CANDIDATE_BOT
        }
      }
    }
    if (!platformHere && isSubscribers(s, start, end)) noteSignal(count, group)
  }
  found.count = count
  // A comment cut off by the end of the header ends there.
  if (held >= 0 && (platformMask & (1 << depth)) === 0 && (heldVersioned || heldLast)) confirmHeld(held)
  if (found.candidate < 0 && found.best === undefined) bareName(s, count, plain && words === 1)
}

function confirmHeld(k: number): void {
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
function bareName(s: string, count: number, plain: boolean): void {
  let k = -1
  if (count === 1 && plain) k = 0
  else if (count === 2 && wordGroup[1] === 0 && isMozilla(s, 0)) k = 1
  else if (count <= 4 && isMozilla(s, 0) && isOneElementComment(s, wordEnd[0] ?? 0)) {
    // `Mozilla/5.0 (Morningscore/1.0)`, `Mozilla/4.0 (Hydra)`, `Mozilla/5.0 (compatible)`: no browser says only that.
    k = count > 1 ? 1 : -1
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

function isLetter(code: number): boolean {
  return (code | 32) >= 97 && (code | 32) <= 122
}

function isMozilla(s: string, k: number): boolean {
  const start = wordStart[k] ?? 0
  return (wordEnd[k] ?? 0) - start === 7 && ((wordFlags[k] ?? 0) & F_VERSIONED) !== 0 && sameWord(s, start, 'mozilla')
}

const groupStack = new Int16Array(MAX_DEPTH)
const MAX_PARTS = 4
const partEnd = new Int32Array(MAX_PARTS)
const partHash = new Int32Array(MAX_PARTS)

const BROWSER_SET: ReadonlySet<string> = new Set(BROWSER_WORDS)

/** Whether recorded word `k` is browser vocabulary (`Mozilla`, `Safari`): never a client's own name. */
export function isBrowserWord(s: string, k: number): boolean {
  return BROWSER_SET.has(s.slice(wordStart[k], wordEnd[k]).toLowerCase())
}

function noteBot(target: Target): void {
  const bots = found.bots
  for (let k = 0; k < found.botCount; k++) if (bots[k] === target) return
  if (found.botCount < 8) bots[found.botCount++] = target
}

function noteSignal(count: number, group: number): void {
  if (found.signal) return
  found.signal = true
  found.signalAt = count
  found.signalGroup = group
}

/** The last top-level word before a comment opened at `depth`, if the comment follows it directly. */
function ownerBefore(count: number, depth: number): number {
  if (depth !== 1 || count === 0) return -1
  return (wordFlags[count - 1] ?? 0) & F_COMMENT ? -1 : count - 1
}

/** `N subscribers`, the feed fetchers' convention. */
function isSubscribers(s: string, start: number, end: number): boolean {
  const n = end - start
  return (n === 11 || n === 10) && sameWord(s, start, n === 11 ? 'subscribers' : 'subscriber')
}

/** After a `+`: a URL, a host name or an e-mail address. */
function plusSignal(s: string, i: number, length: number): boolean {
  if (sameWord(s, i, 'http') || sameWord(s, i, 'www.')) return true
  let j = i
  while (j < length && IS_WORD[s.charCodeAt(j)] === 1) j++
  // `+name@host` or `+host.tld` (`+imagesift.com`, `+fediverse.observer`).
  if (j < length && s.charCodeAt(j) === 64) return isMailDomain(s, j + 1, length)
  return isMailDomain(s, i, j)
}

/**
 * Does an e-mail domain start at `from`: dot-separated labels ending in a
 * top-level domain of letters (`anthropic.com`)? A bare `@` is no bot signal:
 * Ecosia's browser writes `(Ecosia ios@9.0.0.2263)`, a person's browser.
 */
export function isMailDomain(s: string, from: number, length: number): boolean {
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

function isPrefix(variant: { readonly prefix: boolean }): boolean {
  return variant.prefix
}

/** Whether `candidate` should replace `current` as the header's identity. */
export function outranks(candidate: Target, current: Target): boolean {
  if (candidate.rank !== current.rank) return candidate.rank > current.rank
  return candidate !== current && candidate.allTokens.has(current.primary)
}
