import { sameWord } from './name-index.ts'

/**
 * Character classes and small predicates of the User-Agent scanner
 * (identify.ts). Each is a table load or a short fixed comparison: no regular
 * expression ever runs on a header.
 */

// Character classes; everything at or above 128 is a word character, so
// non-ASCII text never splits a word and never matches an (ASCII) name.
const WORD = 0
const SPACE = 1
export const OPEN = 2
export const CLOSE = 3
export const SEPARATOR = 4
const SLASH = 5
export const PLUS = 6
export const AT = 7
const COLON = 8
const OTHER = 9
const CLASS = new Uint8Array(128)
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c)
  CLASS[c] =
    c <= 32 || c === 127
      ? SPACE
      : ch === '(' || ch === '['
        ? OPEN
        : ch === ')' || ch === ']'
          ? CLOSE
          : ch === ';' || ch === ','
            ? SEPARATOR
            : ch === '/'
              ? SLASH
              : ch === '+'
                ? PLUS
                : ch === '@'
                  ? AT
                  : ch === ':'
                    ? COLON
                    : /[A-Za-z0-9._!-]/.test(ch)
                      ? WORD
                      : OTHER
}

/** The class of one UTF-16 code unit; every non-ASCII unit is a word character. */
export function classOf(code: number): number {
  return code < 128 ? (CLASS[code] ?? OTHER) : WORD
}

// The hottest tests of the scan, as one table load for any UTF-16 code unit.
export const IS_WORD = new Uint8Array(65536).fill(1)
export const ENDS_TOKEN = new Uint8Array(65536)
for (let c = 0; c < 128; c++) {
  const kind = CLASS[c]
  IS_WORD[c] = kind === WORD ? 1 : 0
  ENDS_TOKEN[c] = kind === SPACE || kind === SEPARATOR || kind === OPEN || kind === CLOSE ? 1 : 0
}

/** Whether the lower-case `rest` (" slurp") follows at `at` and ends on a word boundary. */
export function followedBy(s: string, at: number, length: number, rest: string): boolean {
  const end = at + rest.length
  if (end > length) return false
  if (!sameWord(s, at, rest)) return false
  return end === length || IS_WORD[s.charCodeAt(end)] !== 1
}

/** `http`, `https` or `mailto` before a colon: the start of a URL, which is a bot signal. */
export function isScheme(s: string, start: number, end: number): boolean {
  const n = end - start
  if (n === 4) return sameWord(s, start, 'http')
  if (n === 5) return sameWord(s, start, 'https')
  if (n === 6) return sameWord(s, start, 'mailto')
  return false
}

/** Skips a version, a URL or an e-mail address: up to the next space, separator or bracket. */
export function skipToken(s: string, i: number, length: number): number {
  while (i < length && ENDS_TOKEN[s.charCodeAt(i)] !== 1) i++
  return i
}

/** ASCII digit: a word that starts with one is a version, not a product name. */
export function isDigit(code: number): boolean {
  return code >= 48 && code <= 57
}

/** `N subscribers`, the feed fetchers' convention. */
export function isSubscribers(s: string, start: number, end: number): boolean {
  const n = end - start
  return (n === 11 || n === 10) && sameWord(s, start, n === 11 ? 'subscribers' : 'subscriber')
}

/** After a `+`: a URL, a host name or an e-mail address. */
export function plusSignal(s: string, i: number, length: number): boolean {
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
