import { describe, expect, it } from 'vitest'
import { validateConfig, type ConfigIssue } from '../../../src/core/config/index.ts'

// Unit tests of the character checks of validateConfig: no value may hold a
// character that any common reader takes for a line break, a control
// character, a bidi control or an invisible format character. Each error
// names the field path, the character (never shown raw) and the fix.

const errorsOf = (config: unknown): ConfigIssue[] => validateConfig(config).errors

const BREAKS_ALL = 'which ends a line in robots.txt: every crawler would read what follows as a line of its own.'
const BREAKS_PYTHON =
  "which Python's urllib.robotparser (and every reader that splits lines as it does) takes for a line break: it would read what follows as a line of its own, where Google and robots-edge read one line."
const CONTROL = 'a control character, which robots.txt readers handle inconsistently (some keep it, some end the line there, terminals run it as an escape).'
const BIDI = 'a bidirectional control: the line would display in a different order from the one crawlers read.'
const INVISIBLE = 'an invisible character: the value would look like one thing on screen and match another for crawlers.'

/** Each character, how a message names it, how it is escaped in the quoted value, its octets, and what it would do. */
const CHARACTERS: readonly [string, string, string, string, string][] = [
  ['\n', 'U+000A (LINE FEED)', '\\n', '%0A', BREAKS_ALL],
  ['\r', 'U+000D (CARRIAGE RETURN)', '\\r', '%0D', BREAKS_ALL],
  ['\u2028', 'U+2028 (LINE SEPARATOR)', '\\u2028', '%E2%80%A8', BREAKS_PYTHON],
  ['\u2029', 'U+2029 (PARAGRAPH SEPARATOR)', '\\u2029', '%E2%80%A9', BREAKS_PYTHON],
  ['\u0085', 'U+0085 (NEXT LINE)', '\\u0085', '%C2%85', BREAKS_PYTHON],
  ['\u000b', 'U+000B (LINE TABULATION)', '\\u000b', '%0B', BREAKS_PYTHON],
  ['\u000c', 'U+000C (FORM FEED)', '\\f', '%0C', BREAKS_PYTHON],
  ['\u001c', 'U+001C (FILE SEPARATOR)', '\\u001c', '%1C', BREAKS_PYTHON],
  ['\u001d', 'U+001D (GROUP SEPARATOR)', '\\u001d', '%1D', BREAKS_PYTHON],
  ['\u001e', 'U+001E (RECORD SEPARATOR)', '\\u001e', '%1E', BREAKS_PYTHON],
  ['\u0001', 'U+0001', '\\u0001', '%01', CONTROL],
  ['\u007f', 'U+007F (DELETE)', '\\u007F', '%7F', CONTROL],
  ['\u0080', 'U+0080', '\\u0080', '%C2%80', CONTROL],
  ['\u009b', 'U+009B (CONTROL SEQUENCE INTRODUCER)', '\\u009B', '%C2%9B', CONTROL],
  ['\u061c', 'U+061C (ARABIC LETTER MARK)', '\\u061C', '%D8%9C', BIDI],
  ['\u200e', 'U+200E (LEFT-TO-RIGHT MARK)', '\\u200E', '%E2%80%8E', BIDI],
  ['\u200f', 'U+200F (RIGHT-TO-LEFT MARK)', '\\u200F', '%E2%80%8F', BIDI],
  ['\u202a', 'U+202A (LEFT-TO-RIGHT EMBEDDING)', '\\u202A', '%E2%80%AA', BIDI],
  ['\u202e', 'U+202E (RIGHT-TO-LEFT OVERRIDE)', '\\u202E', '%E2%80%AE', BIDI],
  ['\u2066', 'U+2066 (LEFT-TO-RIGHT ISOLATE)', '\\u2066', '%E2%81%A6', BIDI],
  ['\u2069', 'U+2069 (POP DIRECTIONAL ISOLATE)', '\\u2069', '%E2%81%A9', BIDI],
  ['\u200b', 'U+200B (ZERO WIDTH SPACE)', '\\u200B', '%E2%80%8B', INVISIBLE],
  ['\u200c', 'U+200C (ZERO WIDTH NON-JOINER)', '\\u200C', '%E2%80%8C', INVISIBLE],
  ['\u200d', 'U+200D (ZERO WIDTH JOINER)', '\\u200D', '%E2%80%8D', INVISIBLE],
  ['\u2060', 'U+2060 (WORD JOINER)', '\\u2060', '%E2%81%A0', INVISIBLE],
  ['\ufeff', 'U+FEFF (ZERO WIDTH NO-BREAK SPACE)', '\\uFEFF', '%EF%BB%BF', INVISIBLE],
  ['\u180e', 'U+180E (MONGOLIAN VOWEL SEPARATOR)', '\\u180E', '%E1%A0%8E', INVISIBLE],
  ['\u00ad', 'U+00AD (SOFT HYPHEN)', '\\u00AD', '%C2%AD', INVISIBLE],
  ['\u{e0041}', 'U+E0041', '\\u{E0041}', '%F3%A0%81%81', INVISIBLE],
]

/** Where a value goes, built with the character `c` in it: [field path, config, the value as written, its position, percent-encodable]. */
const FIELDS: readonly [string, (c: string) => unknown, (c: string) => string, number, boolean][] = [
  ['rules[0].allow', (c) => ({ rules: [{ userAgent: '*', allow: `/a${c}b` }] }), (e) => `/a${e}b`, 3, true],
  ['rules[0].disallow[1]', (c) => ({ rules: [{ userAgent: '*', disallow: ['/', `/x${c}`] }] }), (e) => `/x${e}`, 3, true],
  ['rules[0].userAgent', (c) => ({ rules: [{ userAgent: `Good${c}bot`, disallow: '/' }] }), (e) => `Good${e}bot`, 5, false],
  ['rules[0].other.Clean-param', (c) => ({ rules: [{ userAgent: '*', other: { 'Clean-param': `ref${c} /a/` } }] }), (e) => `ref${e} /a/`, 4, false],
  ['sitemap', (c) => ({ rules: { userAgent: '*' }, sitemap: `https://example.com/s${c}.xml` }), (e) => `https://example.com/s${e}.xml`, 22, true],
]

describe('characters no reader may see (every field)', () => {
  for (const [c, name, escaped, octets, effect] of CHARACTERS) {
    for (const [path, build, shown, at, encodable] of FIELDS) {
      const fix = encodable ? `Remove it, or write it percent-encoded ("${octets}") if the URL really holds it.` : 'Remove it.'
      it(`refuses ${name} in ${path}`, () => {
        expect(errorsOf(build(c))).toEqual([{ path, message: `"${shown(escaped)}" holds ${name} at character ${at}, ${effect}`, fix }])
      })
    }
  }
})

describe('comments and the header', () => {
  // Line feeds and CRs become separate `#` lines and tabs stay; every other unsafe character is refused.
  it.each(CHARACTERS.filter(([c]) => c !== '\n' && c !== '\r'))('refuses %j in header and comment', (c, name, escaped, _octets, effect) => {
    expect(errorsOf({ header: `Hello${c}`, rules: [{ userAgent: '*', comment: `a${c}b`, disallow: '/' }] })).toEqual([
      { path: 'rules[0].comment', message: `"a${escaped}b" holds ${name} at character 2, ${effect}`, fix: 'Remove it.' },
      { path: 'header', message: `"Hello${escaped}" holds ${name} at character 6, ${effect}`, fix: 'Remove it.' },
    ])
  })

  it('accepts line feeds, CRLF, CR and tabs in comments', () => {
    expect(errorsOf({ header: 'one\ntwo\r\nthree\rfour', rules: [{ userAgent: '*', comment: 'a\tb\nc', disallow: '/' }] })).toEqual([])
  })
})

describe('host', () => {
  // A host name holds no white space; JavaScript's white space includes
  // U+2028, U+2029 and U+FEFF, which are reported as such. Other characters
  // get the message every field gets.
  it('refuses U+2028 as white space and U+202E by name', () => {
    expect(errorsOf({ rules: { userAgent: '*' }, host: 'example.com\u2028Disallow: /' })).toEqual([
      { path: 'host', message: '"example.com\\u2028Disallow: /" is not a host name.', fix: 'Write e.g. "example.com".' },
    ])
    expect(errorsOf({ rules: { userAgent: '*' }, host: 'moc.elpmaxe\u202e' })).toEqual([
      { path: 'host', message: `"moc.elpmaxe\\u202E" holds U+202E (RIGHT-TO-LEFT OVERRIDE) at character 12, ${BIDI}`, fix: 'Remove it.' },
    ])
  })
})

describe('the cases found by the reader comparison', () => {
  // `allow: '/a\u2029Disallow: /'` made Python read GPTBot as disallowed everywhere.
  it('refuses a paragraph separator in allow', () => {
    expect(errorsOf({ rules: [{ userAgent: 'GPTBot', allow: '/a\u2029Disallow: /' }] })).toEqual([
      {
        path: 'rules[0].allow',
        message: `"/a\\u2029Disallow: /" holds U+2029 (PARAGRAPH SEPARATOR) at character 3, ${BREAKS_PYTHON}`,
        fix: 'Remove it, or write it percent-encoded ("%E2%80%A9") if the URL really holds it.',
      },
    ])
  })

  // A header with U+2028 injected a `User-agent: *` / `Disallow: /` group for Python.
  it('refuses a line separator in the header', () => {
    expect(errorsOf({ header: 'Hi\u2028User-agent: *\u2028Disallow: /', rules: { userAgent: '*' } })).toEqual([
      { path: 'header', message: `"Hi\\u2028User-agent: *\\u2028Disallow: /" holds U+2028 (LINE SEPARATOR) at character 3, ${BREAKS_PYTHON}`, fix: 'Remove it.' },
    ])
  })

  // The C1 control U+009B and the bidi override U+202E passed.
  it('refuses U+009B and U+202E', () => {
    expect(errorsOf({ rules: [{ userAgent: '*', disallow: ['/\u009b[2J', '/\u202egpj.exe'] }] }).map((e) => [e.path, e.message.split(' holds ')[1]?.split(' at ')[0]])).toEqual([
      ['rules[0].disallow[0]', 'U+009B (CONTROL SEQUENCE INTRODUCER)'],
      ['rules[0].disallow[1]', 'U+202E (RIGHT-TO-LEFT OVERRIDE)'],
    ])
  })

  // An unpaired surrogate has no UTF-8 form.
  it('refuses an unpaired surrogate', () => {
    expect(errorsOf({ rules: [{ userAgent: '*', disallow: '/a\ud800' }] })).toEqual([
      {
        path: 'rules[0].disallow',
        message: '"/a\\ud800" holds U+D800 at character 3, an unpaired surrogate, which has no UTF-8 form: the served file would hold U+FFFD in its place.',
        fix: 'Remove it, or write it percent-encoded ("%EF%BF%BD") if the URL really holds it.',
      },
    ])
  })

  // Ordinary non-ASCII text is not refused.
  it('accepts accented letters, CJK and emoji', () => {
    expect(errorsOf({ header: 'Café ツ 😀', rules: [{ userAgent: '*', disallow: ['/café/', '/ツ', '/😀'], comment: 'naïve' }] })).toEqual([])
  })
})
