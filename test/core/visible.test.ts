// Unit tests of the escaper for agent-controlled text (src/core/visible.ts)
// and of the dashboard's own copy of it (public/_robots/static/dom.js).
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { visible } from '../../src/core/visible.ts'

/** The dashboard's module, loaded by path: it is plain JavaScript with no type declarations. */
const dom = (await import(pathToFileURL(resolve('public/_robots/static/dom.js')).href)) as { visible(text: string): string }

describe('visible', () => {
  it.each([
    ['a zero-width space in a name', 'g\u200bptbot', 'g\\u{200B}ptbot'],
    ['a right-to-left override', 'evil\u202etobgpt', 'evil\\u{202E}tobgpt'],
    ['bidi isolates and marks', '\u2066a\u2069\u200f\u061c', '\\u{2066}a\\u{2069}\\u{200F}\\u{61C}'],
    ['joiners, the word joiner and the byte-order mark', '\u200c\u200d\u2060\ufeff', '\\u{200C}\\u{200D}\\u{2060}\\u{FEFF}'],
    ['a soft hyphen', 'gpt\u00adbot', 'gpt\\u{AD}bot'],
    ['a tag character (outside the BMP)', 'a\u{E0041}', 'a\\u{E0041}'],
    ['a variation selector and a Hangul filler', 'a\ufe0f\u3164', 'a\\u{FE0F}\\u{3164}'],
    ['the blank Braille pattern', '\u2800', '\\u{2800}'],
    ['control characters', 'a\u0000b\u001b[31m\u007f\u0085', 'a\\u{0}b\\u{1B}[31m\\u{7F}\\u{85}'],
    ['line and paragraph separators', 'a\u2028b\u2029', 'a\\u{2028}b\\u{2029}'],
    ['a lone surrogate', 'x\ud800y', 'x\\u{D800}y'],
  ])('escapes %s', (_label, input, shown) => {
    expect(visible(input)).toBe(shown)
  })

  it('leaves what can be seen as it is: text, accents, CJK, emoji, visible spaces, markup', () => {
    for (const text of ['Googlebot/2.1', 'bücher café', '百度蜘蛛', 'bot 🤖', 'a\u00a0b\u3000c', '<script>alert(1)</script>', '\\u{200B} typed out']) {
      expect(visible(text)).toBe(text)
    }
  })

  it('keeps tabs and line breaks when asked (for CSV, whose quoting carries them)', () => {
    expect(visible('a\tb\r\nc\u200b', true)).toBe('a\tb\r\nc\\u{200B}')
  })

  it("the dashboard's copy gives the same output for every code point", () => {
    // Chunks of code points, each between two letters so no two surrogates pair up.
    for (let start = 0; start <= 0x10ffff; start += 0x4000) {
      const chars: string[] = []
      for (let cp = start; cp < Math.min(start + 0x4000, 0x110000); cp++)
        chars.push(String.fromCharCode(...(cp <= 0xffff ? [cp] : [0xd800 + ((cp - 0x10000) >> 10), 0xdc00 + ((cp - 0x10000) & 0x3ff)])))
      const text = `a${chars.join('a')}a`
      expect(dom.visible(text), `code points from ${start.toString(16)}`).toBe(visible(text))
    }
  })
})
