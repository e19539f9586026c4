/**
 * Agent-controlled text (agent names, User-Agent headers, paths, hosts,
 * rules read from a file) made safe to show: characters that cannot be seen,
 * or that reorder what is around them, are shown as escapes. `g\u200bptbot`
 * then reads `g\u{200B}ptbot`, never as `gptbot`, and `evil\u202etobgpt`
 * reads `evil\u{202E}tobgpt`, never as `eviltpgbot`.
 *
 * The dashboard (public/_robots/static/dom.js) carries its own copy of this
 * function, since it is a static asset and cannot import TypeScript; a test
 * holds the two to the same output for every code point.
 */

/**
 * What is escaped: control characters (Cc), format characters (Cf: zero-width
 * spaces and joiners, bidi embeddings, overrides and isolates, the soft
 * hyphen, tags), default-ignorable code points (variation selectors, Hangul
 * fillers, the combining grapheme joiner), line and paragraph separators,
 * lone surrogates, and the blank Braille pattern often used as an invisible
 * name. Visible spaces (U+00A0 and the other Zs) are left alone.
 */
export const HIDDEN_CHARACTERS = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\p{Bidi_Control}\u2800]/gu

/** What CSV keeps as it is: its quoting carries tabs and line breaks, and a spreadsheet shows them. */
const CSV_WHITESPACE = /^[\t\n\r]$/

/**
 * `text` with every hidden character as `\u{HEX}` (upper-case hex, the
 * code point's own digits). With `keepWhitespace`, tabs and line breaks
 * stay (for CSV, whose quoting carries them).
 *
 * @example
 * visible('g\u200bptbot')  // 'g\\u{200B}ptbot'
 */
export function visible(text: string, keepWhitespace = false): string {
  return text.replace(HIDDEN_CHARACTERS, (ch) => (keepWhitespace && CSV_WHITESPACE.test(ch) ? ch : `\\u{${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase()}}`))
}
