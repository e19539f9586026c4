import fc from 'fast-check'
import * as oracle from 'structured-headers'
import { describe, expect, it } from 'vitest'
import {
  Decimal,
  DisplayString,
  isInnerList,
  parseDictionary,
  parseItem,
  serializeItem,
  SfDate,
  Token,
  type Dictionary,
  type Member,
  type ParseOptions,
} from '../../../src/core/http/structured-fields.ts'

// The Structured Field Values parser (RFC 8941, and RFC 9651's two further
// types on request) checked against an independent implementation, the
// `structured-headers` package: the same generated Dictionaries, with
// repeated keys and parameters, odd whitespace and malformed text, must read
// the same in both, or fail in both.

type Plain = unknown

/** A parsed value in a form both parsers' results map to: Integer and Decimal are one number, as the oracle keeps them. */
function plainBare(value: unknown): Plain {
  if (value instanceof Token) return { token: value.value }
  if (value instanceof oracle.Token) return { token: value.toString() }
  if (value instanceof Decimal) return value.value
  if (value instanceof Uint8Array || value instanceof ArrayBuffer) return { bytes: [...new Uint8Array(value)] }
  if (value instanceof SfDate) return { date: value.seconds }
  if (value instanceof Date) return { date: value.getTime() / 1000 }
  if (value instanceof DisplayString) return { display: value.value }
  if (value instanceof oracle.DisplayString) return { display: value.toString() }
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
function ours(input: string, options: ParseOptions = {}): Plain {
  try {
    return plain(parseDictionary(input, options))
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
// Printable ASCII but `"` and `%`, and percent-encoded bytes (any case, some not UTF-8), as RFC 9651 §4.2.10 reads them.
// No byte order mark first: the oracle drops one, this parser keeps it (§4.2.10 says nothing of one; the text stays as sent).
const display = fc
  .array(fc.oneof(fc.stringMatching(/^[\x20\x21\x23\x24\x26-\x7e]$/), fc.constantFrom('%c3%a9', '%e2%82%ac', '%f0%9f%98%80', '%25', '%22'), fc.stringMatching(/^%[0-9a-fA-F]{2}$/)), { maxLength: 6 })
  .map((parts) => `%"${parts.join('')}"`)
const spaces = fc.constantFrom('', ' ', '  ')
function dictionaries(bareItem: fc.Arbitrary<string>) {
  const params = fc.array(fc.tuple(key, fc.option(bareItem), spaces), { maxLength: 3 }).map((ps) => ps.map(([k, v, sp]) => `;${sp}${k}${v === null ? '' : `=${v}`}`).join(''))
  const item = fc.tuple(bareItem, params).map(([v, p]) => v + p)
  const innerList = fc.tuple(fc.array(fc.tuple(spaces, item), { maxLength: 3 }), spaces, params).map(([items, sp, p]) => `(${items.map(([s, i]) => s + i).join(' ')}${sp})${p}`)
  const member = fc.tuple(
    key,
    fc.oneof(
      item.map((i) => `=${i}`),
      innerList.map((l) => `=${l}`),
      params,
    ),
  )
  const ows = fc.constantFrom('', ' ', '\t', ' \t ')
  const dictionary = fc
    .tuple(spaces, fc.array(fc.tuple(member, ows, ows), { maxLength: 6 }), spaces)
    .map(([lead, members, trail]) => lead + members.map(([[k, v], before, after], i) => `${i === 0 ? '' : `${before},${after}`}${k}${v}`).join('') + trail)
  return { item, dictionary }
}
const rfc8941 = dictionaries(bare)
// No Dates: the oracle reads one only at the very end of a field (`@1;p` fails there), so they have examples of their own below.
const rfc9651 = dictionaries(fc.oneof(bare, display))

// Text near the grammar: the characters that matter to it, in any order (no `@`: see the Dates above).
const nearGrammar = fc.array(fc.constantFrom(...'ab*-.09=,;:() "\\?\t1x/Y+%'.split(''), 'train-ai', 'search', '=n', '=y', ', ', '%c3', '=%"'), { maxLength: 24 }).map((parts) => parts.join(''))

const PROPERTY_TIMEOUT = 60_000

describe('RFC 8941 Dictionaries, against the structured-headers package', { timeout: PROPERTY_TIMEOUT }, () => {
  it('reads generated Dictionaries as the oracle does, repeated keys and parameters included', () => {
    fc.assert(
      fc.property(rfc8941.dictionary, (input) => {
        const expected = theirs(input)
        expect(expected, input).not.toBe('error')
        expect(ours(input), input).toEqual(expected)
      }),
      { numRuns: 2000 },
    )
  })

  // RFC 9651 §3.3.8: read only when asked (Content-Usage), refused in the RFC 8941 fields (the signature headers).
  it('reads Display Strings as the oracle does when asked for RFC 9651, and refuses them otherwise', () => {
    fc.assert(
      fc.property(rfc9651.dictionary, (input) => {
        expect(ours(input, { rfc9651: true }), input).toEqual(theirs(input))
      }),
      { numRuns: 2000 },
    )
    expect(ours('a=%"x"')).toBe('error')
  })

  // RFC 9651 §3.3.7 and §4.2.9: an Integer after "@", with parameters like any Item.
  it('reads Dates when asked for RFC 9651, and refuses them otherwise', () => {
    expect(ours('a=@1659578233', { rfc9651: true })).toEqual(theirs('a=@1659578233'))
    expect(ours('a=@-2;p=@1, b=(@0 1)', { rfc9651: true })).toEqual([
      ['a', [{ date: -2 }, [['p', { date: 1 }]]]],
      [
        'b',
        {
          list: [
            [{ date: 0 }, []],
            [1, []],
          ],
          params: [],
        },
      ],
    ])
    for (const bad of ['a=@1.5', 'a=@', 'a=@x', 'a=@1234567890123456', 'a=@ 1']) expect(ours(bad, { rfc9651: true }), bad).toBe('error')
    expect(ours('a=@1700000000')).toBe('error')
    const item = parseItem('@-17;p=%"caf%c3%a9"', { rfc9651: true })
    expect(parseItem(serializeItem(item), { rfc9651: true })).toEqual(item)
  })

  it('serializes an item so that the oracle reads back what was parsed', () => {
    fc.assert(
      fc.property(rfc9651.item, (input) => {
        let parsed
        try {
          parsed = parseItem(input, { rfc9651: true })
        } catch {
          return
        }
        expect(plainItem(oracle.parseItem(serializeItem(parsed))), input).toEqual(plainItem(parsed))
      }),
      { numRuns: 2000 },
    )
  })

  it('accepts and refuses the same text near the grammar', () => {
    fc.assert(
      fc.property(nearGrammar, (input) => {
        expect(ours(input, { rfc9651: true }), input).toEqual(theirs(input))
      }),
      { numRuns: 3000 },
    )
  })
})

describe('RFC 8941 §4.2.2: a repeated key', () => {
  // "If dictionary already contains a key this_key ... overwrite its value": the last value, in the first one's place.
  it("keeps the last value, in the first occurrence's position", () => {
    const read = parseDictionary('train-ai=y, search=n, train-ai=n')
    expect([...read.keys()]).toEqual(['train-ai', 'search'])
    expect((read.get('train-ai')![0] as Token).value).toBe('n')
  })

  // §4.2.3.2: the same for parameters.
  it('keeps the last parameter value', () => {
    const [, params] = parseDictionary('a=1;p=1;q;p=2').get('a')!
    expect([...params]).toEqual([
      ['p', 2],
      ['q', true],
    ])
  })

  // robots-edge deviation for signature headers (ParseOptions.refuseDuplicates).
  it('is refused when the caller asks, as the signature headers do', () => {
    expect(() => parseDictionary('sig1=:AAAA:, sig1=:BBBB:', { refuseDuplicates: true })).toThrow(SyntaxError)
    expect(() => parseDictionary('sig1=("@path");tag="a";tag="b"', { refuseDuplicates: true })).toThrow(SyntaxError)
    const member = parseDictionary('sig1=("@path");tag="a"', { refuseDuplicates: true }).get('sig1')!
    expect(isInnerList(member)).toBe(true)
  })
})
