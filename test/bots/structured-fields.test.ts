import fc from 'fast-check'
import * as oracle from 'structured-headers'
import { describe, expect, it } from 'vitest'
import { Decimal, isInnerList, parseDictionary, Token, type Dictionary, type Member } from '../../src/bots/structured-fields.ts'

// The Structured Field Values parser (RFC 8941) checked against an
// independent implementation, the `structured-headers` package: the same
// generated Dictionaries, with repeated keys and parameters, odd whitespace
// and malformed text, must read the same in both, or fail in both.

type Plain = unknown

/** A parsed value in a form both parsers' results map to: Integer and Decimal are one number, as the oracle keeps them. */
function plainBare(value: unknown): Plain {
  if (value instanceof Token) return { token: value.value }
  if (value instanceof oracle.Token) return { token: value.toString() }
  if (value instanceof Decimal) return value.value
  if (value instanceof Uint8Array || value instanceof ArrayBuffer) return { bytes: [...new Uint8Array(value)] }
  if (value instanceof Date || value instanceof oracle.DisplayString) return { unsupported: String(value) }
  return value
}
const plainParams = (params: ReadonlyMap<string, unknown>) => [...params].map(([key, value]) => [key, plainBare(value)])
const plainItem = ([value, params]: readonly [unknown, ReadonlyMap<string, unknown>]) => [plainBare(value), plainParams(params)]
function plainMember(member: Member | oracle.Item | oracle.InnerList): Plain {
  if (Array.isArray(member[0])) {
    const [items, params] = member as oracle.InnerList
    return { list: items.map(plainItem), params: plainParams(params) }
  }
  return plainItem(member as oracle.Item)
}
const plain = (dictionary: Dictionary | oracle.Dictionary) => [...dictionary].map(([key, member]) => [key, plainMember(member)])

/** What each parser makes of `input`: its members in order, or `'error'`. */
function ours(input: string): Plain {
  try {
    return plain(parseDictionary(input))
  } catch {
    return 'error'
  }
}
function theirs(input: string): Plain {
  try {
    return plain(oracle.parseDictionary(input))
  } catch {
    return 'error'
  }
}

// Few keys, so that generated Dictionaries and parameters repeat them often.
const key = fc.oneof(fc.constantFrom('a', 'b', 'train-ai', 'search', '*'), fc.stringMatching(/^[a-z*][a-z0-9_.*-]{0,6}$/))
const integer = fc.integer({ min: -999_999_999_999_999, max: 999_999_999_999_999 }).map(String)
const decimal = fc.tuple(fc.stringMatching(/^-?\d{1,12}$/), fc.stringMatching(/^\d{1,3}$/)).map(([i, f]) => `${i}.${f}`)
const string = fc.stringMatching(/^([\x20\x21\x23-\x5b\x5d-\x7e]|\\["\\])*$/).map((s) => `"${s}"`)
const token = fc.stringMatching(/^[A-Za-z*][!#$%&'*+\-.^_`|~0-9A-Za-z:/]{0,8}$/)
const bytes = fc.uint8Array({ maxLength: 12 }).map((b) => `:${btoa(String.fromCharCode(...b))}:`)
const bare = fc.oneof(integer, decimal, string, token, bytes, fc.constantFrom('?0', '?1'))
const spaces = fc.constantFrom('', ' ', '  ')
const params = fc.array(fc.tuple(key, fc.option(bare), spaces), { maxLength: 3 }).map((ps) => ps.map(([k, v, sp]) => `;${sp}${k}${v === null ? '' : `=${v}`}`).join(''))
const item = fc.tuple(bare, params).map(([v, p]) => v + p)
const innerList = fc.tuple(fc.array(fc.tuple(spaces, item), { maxLength: 3 }), spaces, params).map(([items, sp, p]) => `(${items.map(([s, i]) => s + i).join(' ')}${sp})${p}`)
const member = fc.tuple(key, fc.oneof(item.map((i) => `=${i}`), innerList.map((l) => `=${l}`), params))
const ows = fc.constantFrom('', ' ', '\t', ' \t ')
const dictionary = fc.tuple(spaces, fc.array(fc.tuple(member, ows, ows), { maxLength: 6 }), spaces)
  .map(([lead, members, trail]) => lead + members.map(([[k, v], before, after], i) => `${i === 0 ? '' : `${before},${after}`}${k}${v}`).join('') + trail)

// Text near the grammar: the characters that matter to it, in any order (no `@` or `%`, RFC 9651's Date and Display String, which RFC 8941 lacks).
const nearGrammar = fc.array(fc.constantFrom(...'ab*-.09=,;:() "\\?\t1x/Y+'.split(''), 'train-ai', 'search', '=n', '=y', ', '), { maxLength: 24 }).map((parts) => parts.join(''))

const PROPERTY_TIMEOUT = 60_000

describe('RFC 8941 Dictionaries, against the structured-headers package', { timeout: PROPERTY_TIMEOUT }, () => {
  it('reads generated Dictionaries as the oracle does, repeated keys and parameters included', () => {
    fc.assert(fc.property(dictionary, (input) => {
      const expected = theirs(input)
      expect(expected, input).not.toBe('error')
      expect(ours(input), input).toEqual(expected)
    }), { numRuns: 2000 })
  })

  it('accepts and refuses the same text near the grammar', () => {
    fc.assert(fc.property(nearGrammar, (input) => {
      expect(ours(input), input).toEqual(theirs(input))
    }), { numRuns: 3000 })
  })
})

describe('RFC 8941 §4.2.2: a repeated key', () => {
  // "If dictionary already contains a key this_key ... overwrite its value": the last value, in the first one's place.
  it('keeps the last value, in the first occurrence\'s position', () => {
    const read = parseDictionary('train-ai=y, search=n, train-ai=n')
    expect([...read.keys()]).toEqual(['train-ai', 'search'])
    expect((read.get('train-ai')![0] as Token).value).toBe('n')
  })

  // §4.2.3.2: the same for parameters.
  it('keeps the last parameter value', () => {
    const [, params] = parseDictionary('a=1;p=1;q;p=2').get('a')!
    expect([...params]).toEqual([['p', 2], ['q', true]])
  })

  // robots-edge deviation for signature headers (ParseOptions.refuseDuplicates).
  it('is refused when the caller asks, as the signature headers do', () => {
    expect(() => parseDictionary('sig1=:AAAA:, sig1=:BBBB:', { refuseDuplicates: true })).toThrow(SyntaxError)
    expect(() => parseDictionary('sig1=("@path");tag="a";tag="b"', { refuseDuplicates: true })).toThrow(SyntaxError)
    const member = parseDictionary('sig1=("@path");tag="a"', { refuseDuplicates: true }).get('sig1')!
    expect(isInnerList(member)).toBe(true)
  })
})
