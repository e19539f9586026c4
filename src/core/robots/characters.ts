/**
 * Characters that must never reach a robots.txt value unseen. Readers
 * disagree on them, or a person reading the file cannot see them:
 *
 * - `line-break`: CR and LF end a line for every reader (RFC 9309 §2.2);
 *   Python's `urllib.robotparser` splits lines with `str.splitlines()`, which
 *   also breaks on U+000B, U+000C, U+001C–U+001E, U+0085, U+2028 and U+2029.
 *   A value holding one is read as two lines by some crawlers.
 * - `control`: every other C0 control, DEL and the C1 controls (U+0080–U+009F,
 *   U+009B among them), read as data by some parsers and as terminal escapes
 *   by others.
 * - `bidi`: bidirectional controls (U+061C, U+200E, U+200F, U+202A–U+202E,
 *   U+2066–U+2069), which make a line display in another order than crawlers
 *   read it.
 * - `invisible`: zero-width and other default-ignorable format characters
 *   (U+200B–U+200D, U+2060, U+FEFF, U+180E, U+00AD, variation selectors, tag
 *   characters, Hangul fillers, ...): a value looks like one thing and
 *   matches another.
 * - `surrogate`: an unpaired UTF-16 surrogate, which has no UTF-8 form.
 */
export type UnsafeKind = 'line-break' | 'control' | 'bidi' | 'invisible' | 'surrogate'

export interface UnsafeCharacter {
  readonly kind: UnsafeKind
  readonly codePoint: number
  /** Index in the string, in UTF-16 units. */
  readonly index: number
  /** 1-based position in code points, for messages. */
  readonly position: number
}

/** The line breaks of every common reader, as a character class body (see above). */
export const LINE_BREAK_CHARS = '\\n\\v\\f\\r\\x1c-\\x1e\\x85\\u2028\\u2029'
const LINE_BREAK = new RegExp(`[${LINE_BREAK_CHARS}]`)
const UNSAFE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\p{Default_Ignorable_Code_Point}]/u
const UNSAFE_ALL = new RegExp(UNSAFE.source, 'gu')
/**
 * The unsafe characters that may stand in a robots.txt body's text, where
 * TAB is white space, CR and LF end lines and NUL has a diagnostic of its
 * own: a global expression, to walk a whole file in one native pass.
 */
export const UNSAFE_IN_TEXT = /[\x01-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\p{Cf}\p{Zl}\p{Zp}\p{Cs}\p{Default_Ignorable_Code_Point}]/gu
const BIDI = /\p{Bidi_Control}/u

const NAMES: Readonly<Record<number, string>> = {
  0x00: 'NULL',
  0x09: 'CHARACTER TABULATION',
  0x0a: 'LINE FEED',
  0x0b: 'LINE TABULATION',
  0x0c: 'FORM FEED',
  0x0d: 'CARRIAGE RETURN',
  0x1b: 'ESCAPE',
  0x1c: 'FILE SEPARATOR',
  0x1d: 'GROUP SEPARATOR',
  0x1e: 'RECORD SEPARATOR',
  0x7f: 'DELETE',
  0x85: 'NEXT LINE',
  0x9b: 'CONTROL SEQUENCE INTRODUCER',
  0xad: 'SOFT HYPHEN',
  0x061c: 'ARABIC LETTER MARK',
  0x180e: 'MONGOLIAN VOWEL SEPARATOR',
  0x200b: 'ZERO WIDTH SPACE',
  0x200c: 'ZERO WIDTH NON-JOINER',
  0x200d: 'ZERO WIDTH JOINER',
  0x200e: 'LEFT-TO-RIGHT MARK',
  0x200f: 'RIGHT-TO-LEFT MARK',
  0x2028: 'LINE SEPARATOR',
  0x2029: 'PARAGRAPH SEPARATOR',
  0x202a: 'LEFT-TO-RIGHT EMBEDDING',
  0x202b: 'RIGHT-TO-LEFT EMBEDDING',
  0x202c: 'POP DIRECTIONAL FORMATTING',
  0x202d: 'LEFT-TO-RIGHT OVERRIDE',
  0x202e: 'RIGHT-TO-LEFT OVERRIDE',
  0x2060: 'WORD JOINER',
  0x2066: 'LEFT-TO-RIGHT ISOLATE',
  0x2067: 'RIGHT-TO-LEFT ISOLATE',
  0x2068: 'FIRST STRONG ISOLATE',
  0x2069: 'POP DIRECTIONAL ISOLATE',
  0xfeff: 'ZERO WIDTH NO-BREAK SPACE',
}

export function kindOf(c: string, cp: number): UnsafeKind {
  if (LINE_BREAK.test(c)) return 'line-break'
  if (cp >= 0xd800 && cp <= 0xdfff) return 'surrogate'
  if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) return 'control'
  return BIDI.test(c) ? 'bidi' : 'invisible'
}

/**
 * The first unsafe character of `value`, or undefined.
 * @example findUnsafeCharacter('/a\u2029b') // { kind: 'line-break', codePoint: 0x2029, index: 2, position: 3 } `allow` lists
 * characters that are fine where the value goes: a comment may hold tabs,
 * and line feeds, which the serializer turns into separate `#` lines.
 */
export function findUnsafeCharacter(value: string, allow = ''): UnsafeCharacter | undefined {
  // For values (short): the first unsafe character, with its position in code points.
  if (!UNSAFE.test(value)) return undefined
  let position = 0
  let index = 0
  for (const c of value) {
    position++
    if (!allow.includes(c) && UNSAFE.test(c)) {
      const codePoint = c.codePointAt(0)!
      return { kind: kindOf(c, codePoint), codePoint, index, position }
    }
    index += c.length
  }
  return undefined
}

/** `U+2028 (LINE SEPARATOR)`, or `U+E0001` where the name is not listed. */
export function describeCodePoint(codePoint: number): string {
  const hex = `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`
  const name = NAMES[codePoint]
  return name === undefined ? hex : `${hex} (${name})`
}

/** The UTF-8 octets of one character as `%XX` (a lone surrogate as U+FFFD's, as TextEncoder writes it). */
export function percentEncode(c: string): string {
  let out = ''
  for (const byte of new TextEncoder().encode(c)) out += '%' + byte.toString(16).toUpperCase().padStart(2, '0')
  return out
}

/**
 * A string shown to a person: JSON-quoted, with every unsafe character
 * written as an escape, so no message can carry a raw bidi override or an
 * invisible character into a terminal or a log.
 */
export function showValue(value: string): string {
  return JSON.stringify(value).replace(UNSAFE_ALL, (c) => {
    const cp = c.codePointAt(0)!
    return cp > 0xffff ? `\\u{${cp.toString(16).toUpperCase()}}` : `\\u${cp.toString(16).toUpperCase().padStart(4, '0')}`
  })
}

/** Replaces every unsafe character of `value` with `replace(c)`. */
export function replaceUnsafe(value: string, replace: (c: string) => string): string {
  return UNSAFE.test(value) ? value.replace(UNSAFE_ALL, replace) : value
}
