import { AT, CLOSE, IS_WORD, OPEN, PLUS, SEPARATOR, classOf, followedBy, isDigit, isMailDomain, isScheme, isSubscribers, plusSignal, skipToken } from './char-classes.ts'
import {
  BOT_ACTIVITY,
  BOT_FILLER,
  BOT_NAME,
  TOOL_NAME,
  VOCAB_BROWSER,
  VOCAB_FILLER,
  VOCAB_PLATFORM,
  ENDINGS,
  classifyPart,
  classifyWord,
  isBrowserName,
  isDomain,
  isGoogleName,
  mayEndBotWord,
  hasPlatformPart,
  namesCrawler,
} from './lexicon.ts'
import { hashStep, sameWord, type Target } from './name-index.ts'
import { endsElement, isPrefix, isWhole, namesAlone, noteNameInVersion } from './scan-names.ts'
import {
  BROWSER_SET,
  CANDIDATE_BOT,
  CANDIDATE_FILLER,
  CANDIDATE_NAMED,
  F_BOT_WORD,
  F_COMMENT,
  F_FILLER,
  F_FIRST_ELEMENT,
  F_KNOWN,
  F_NAME,
  F_PLATFORM,
  F_VERSIONED,
  F_VOCAB,
  MAX_DEPTH,
  MAX_WORDS,
  SCAN_LIMIT,
  bareName,
  confirmHeld,
  found,
  groupOwner,
  index,
  isBrowserWord,
  isLetter,
  knownNames,
  noteBot,
  noteSignal,
  outranks,
  ownerBefore,
  wordEnd,
  wordFlags,
  wordGroup,
  wordRun,
  wordStart,
} from './scan-state.ts'

/**
 * One pass over a User-Agent header that records its words and what they
 * say: known names, bot words, bot signals (a `+http` URL, a contact
 * address), in scan-state.ts; identify.ts turns that into an identity.
 * Character classes and names are table lookups; no regular expression runs
 * here, and the pass is linear in the header's length (of which it reads 2 KiB).
 */

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
  let phoneMask = 0 // bit d: the comment at depth d describes an Android device, whose last element is its model (`Expanse`)
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
        phoneMask &= ~(1 << depth)
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
        if (PART_SEPARATOR[code] === 1 && parts < MAX_PARTS) {
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
        if (PART_SEPARATOR[code] === 1) parts = MAX_PARTS + 1
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
    // (The tests are written out here: this runs for most words of every header.)
    const first = s.charCodeAt(start)
    const firstIsDigit = first >= 48 && first <= 57
    const last = s.charCodeAt(end - 1)
    const penult = end - start > 1 ? s.charCodeAt(end - 2) : 0
    const lettersEnd = (penult | 32) >= 97 && (penult | 32) <= 122 && (last | 32) >= 97 && (last | 32) <= 122
    const botEnding = (lettersEnd && ENDINGS[((penult & 31) << 5) | (last & 31)] === 1) || (last >= 48 && last <= 57) || (first | 32) === 104
    if (!namePosition && next !== 47 && next !== 58 && next !== 64 && parts === 0 && !afterLike && !botEnding && end - start !== 11 && end - start !== 10) {
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
      // The URL was what the `+` introduced: the product after it (`… +http://…) GPTBot/1.1`) is a name again.
      afterPlus = false
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
    if (vocab === VOCAB_BROWSER && record !== undefined && record.variants.length === 0) {
      // The common case of a name position: `Mozilla`, `AppleWebKit`, `Chrome`, `Safari`. It names
      // no client; it is kept only for `names`, and `KHTML` opens a comment whose extras are names.
      if (depth > 0 && firstElement && end - start === 5 && sameWord(s, start, 'khtml')) describedMask |= 1 << depth
      compatibleMask &= ~(1 << depth)
      leading = false
      afterLike = false
      if (count < MAX_WORDS) {
        if (!runOpen) runStart = count
        runOpen = !versioned
        lastWord = count
        lastTarget = undefined
        wordStart[count] = start
        wordEnd[count] = end
        wordFlags[count] =
          F_NAME |
          F_VOCAB |
          (depth > 0 ? F_COMMENT : 0) |
          (versioned ? F_VERSIONED : 0) |
          (depth > 0 && (platformMask & (1 << depth)) !== 0 ? F_PLATFORM : 0) |
          (depth > 0 && firstElement ? F_FIRST_ELEMENT : 0)
        wordRun[count] = runStart
        wordGroup[count] = group
        knownNames[count] = undefined
        count++
      }
      words++
      if (depth === 0) firstElement = false
      if (versioned) i = skipToken(s, i + 1, length)
      continue
    }
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
    // Only an unknown word that starts with a letter can begin with a known name glued to more text.
    const gluedName = record === undefined && namePosition && parts > 0 && parts <= MAX_PARTS && !firstIsDigit
    for (let p = 0; gluedName && target === undefined && p < parts; p++) {
      const at = partEnd[p] ?? start
      const variants = index.find(s, start, at, partHash[p] ?? 0)?.variants
      // A known name with its version glued on by `-` (`Nutch-1.7`) is that name too.
      const prefix = variants?.find(isPrefix) ?? (s.charCodeAt(at) === 45 && isDigit(s.charCodeAt(at + 1)) ? variants?.find(isWhole) : undefined)
      if (prefix !== undefined) target = prefix.target
    }

    let platformHere = platform
    if (depth > 0 && namePosition && vocab === VOCAB_PLATFORM) {
      platformMask |= 1 << depth
      platformHere = true
      if (end - start === 7 && sameWord(s, start, 'android')) phoneMask |= 1 << depth
    }
    // A bare word among a device's details is a model (`Expanse`, `RUBY`, `SPIDER Build/…`);
    // with a version it is a product (`DuplexWeb-Google/1.0`). A multi-word known name always counts.
    // A name with a hyphen or underscore is no model name (`(X11; Linux i686; ips-agent)`).
    // So does a crawler or tool the registry knows standing alone as an element, where monitoring
    // services and scanners put their name (`(X11; Linux x86_64; Catchpoint)`, `(X11, U; OpenVAS)`).
    const counts =
      !afterLike &&
      (!platformHere ||
        versioned ||
        nameEnd > end ||
        (target !== undefined && parts > 0) ||
        (target !== undefined && (phoneMask & (1 << depth)) === 0 && namesAlone(target) && endsElement(s, nameEnd, length)))
    let flags =
      (depth > 0 ? F_COMMENT : 0) |
      (platformHere ? F_PLATFORM : 0) |
      (versioned ? F_VERSIONED : 0) |
      (namePosition ? F_NAME : 0) |
      (vocab !== 0 ? F_VOCAB : 0) |
      (depth > 0 && firstElement ? F_FIRST_ELEMENT : 0)
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
    } else if (vocab === 0 && !afterLike && (counts || platformHere) && (namePosition || !firstIsDigit)) {
      // Most words fail on their last two letters; only the rest are read for bot words.
      const kind = parts === 0 ? (botEnding ? classifyPart(s, start, end, start, end) : 0) : classifyWord(s, start, end)
      if (kind === BOT_NAME) {
        // A crawler's name is seen even among a device's details (`(Macintosh; …; TSMbot)`), when it
        // ends its element: a model goes on (`M_bot_tab_71 Build/…`) or carries a bare number (`IDbot553`).
        // Seen only: identify.ts never takes a word there for the client naming itself.
        flags |= F_BOT_WORD
        if (counts || (platformHere && !(parts === 0 && isDigit(last)) && endsElement(s, end, length))) candidateKind = CANDIDATE_BOT
      } else if (kind === BOT_FILLER || kind === BOT_ACTIVITY) {
        flags |= F_BOT_WORD | (kind === BOT_FILLER ? F_FILLER : 0)
        // Among a device's details only a crawler word after another word of its element, ending it
        // (`(iPhone; Y!J-BRY/YATSH crawler)`): never a model (`Robot Build/…`, `M bot 54`, `POWER BOT Build/…`)
        // nor a word of the platform's (`Service Pack 2`).
        if (counts || (platformHere && !namePosition && kind === BOT_FILLER && namesCrawler(s, start, end) && endsElement(s, end, length))) {
          candidateKind = kind === BOT_FILLER ? CANDIDATE_FILLER : CANDIDATE_BOT
        }
      } else if (kind === TOOL_NAME) {
        toolWord = counts
        if (end - start === 4) flags |= F_FILLER
      } else if (counts && parts > 0 && isGoogleName(s, start, end)) {
        candidateKind = CANDIDATE_NAMED
      } else if (
        counts &&
        namePosition &&
        depth > 0 &&
        held < 0 &&
        ((compatibleMask & (1 << depth)) !== 0 || ((describedMask & (1 << depth)) !== 0 && element >= 2)) &&
        !isBrowserName(s, start, end) &&
        !hasPlatformPart(s, start, end) &&
        !BROWSER_SET.has(s.slice(start, end).toLowerCase())
      ) {
        // `(compatible; Name…)` and `(KHTML, like Gecko; Name)`: where a crawler names itself.
        held = count
        heldGroup = group
        heldVersioned = versioned
        heldLast = true
      } else if (depth > 0 && namePosition && parts > 0 && !platformHere && !versioned && isDomain(s, start, end) && (held >= 0 || !sameWord(s, start, 'www.'))) {
        // `(postrank.com)`, `(compatible; Twingly Recon; twingly.com)`: where to read about the client
        // (with a version it is a product: Firefox's `(WEB.DE/1.5)`).
        flags |= F_FILLER
        noteSignal(count, group)
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
    const digit = firstIsDigit
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
      // A crawler framework named where a version goes (`CB/Nutch-1.7`, `MyAgent/1.0/Nutch-1.7`).
      if (!platformHere) noteNameInVersion(s, version, i)
      // `productsup.io/crawler`, `visionheight.com/scan`: the product says what it does where its version goes.
      if (found.candidate < 0 && count > 0 && i > version && !platformHere && isLetter(s.charCodeAt(version)) && mayEndBotWord(s, version, i)) {
        const kind = classifyWord(s, version, i)
        if (kind !== 0 && kind !== TOOL_NAME) {
          found.candidate = count - 1
          found.candidateKind = CANDIDATE_BOT
        }
      }
    }
    if ((end - start === 11 || end - start === 10) && !platformHere && isSubscribers(s, start, end)) noteSignal(count, group)
  }
  found.count = count
  // A comment cut off by the end of the header ends there.
  if (held >= 0 && (platformMask & (1 << depth)) === 0 && (heldVersioned || heldLast)) confirmHeld(held)
  if (found.candidate < 0 && found.best === undefined) bareName(s, count, plain && words === 1)
}

const groupStack = new Int16Array(MAX_DEPTH)
// `-`, `_` and `.` split a word into parts (`Pingdom.com_bot`, `AdsBot-IAB`).
const PART_SEPARATOR = new Uint8Array(65536)
PART_SEPARATOR[45] = 1
PART_SEPARATOR[95] = 1
PART_SEPARATOR[46] = 1

const MAX_PARTS = 4

const partEnd = new Int32Array(MAX_PARTS)

const partHash = new Int32Array(MAX_PARTS)
