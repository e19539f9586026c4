/**
 * The part of Structured Field Values (RFC 8941) that HTTP Message
 * Signatures and `Content-Usage` need: parsing Dictionaries and Items
 * (§4.2), and serializing them back (§4.1) to rebuild a signature base or a
 * merged header; on request, RFC 9651's two further types. Any departure
 * from the grammar throws a SyntaxError; callers turn it into a result.
 */

export class Token {
  constructor(readonly value: string) {}
}
/** A Decimal, kept apart from Integers so it serializes as it came (`1.0`, not `1`). */
export class Decimal {
  constructor(readonly value: number) {}
}
/** RFC 9651 §3.3.7: seconds since the epoch. */
export class SfDate {
  constructor(readonly seconds: number) {}
}
/** RFC 9651 §3.3.8: Unicode text, sent percent-encoded. */
export class DisplayString {
  constructor(readonly value: string) {}
}
export type BareItem = string | number | boolean | Token | Decimal | Uint8Array<ArrayBuffer> | SfDate | DisplayString
export type Parameters = Map<string, BareItem>
export type Item = readonly [BareItem, Parameters]
export type InnerList = readonly [readonly Item[], Parameters]
export type Member = Item | InnerList
export type Dictionary = Map<string, Member>

export function isInnerList(member: Member): member is InnerList {
  return Array.isArray(member[0])
}

export interface ParseOptions {
  /**
   * robots-edge deviation, for the signature headers only: a Dictionary or
   * parameter key that appears twice is refused rather than overwritten,
   * since two readings of one signature header are a way to smuggle a second
   * signature past a verifier that reads the other. Default: false, RFC 8941.
   */
  refuseDuplicates?: boolean
  /**
   * Reads RFC 9651's Date (`@1700000000`) and Display String (`%"caf%c3%a9"`)
   * too, for fields defined on RFC 9651 (`Content-Usage`). Default: false,
   * the RFC 8941 grammar the signature headers are defined on (RFC 9421).
   */
  rfc9651?: boolean
}

/**
 * RFC 8941 §4.2.2. A key seen again overwrites the value ("If dictionary
 * already contains a key this_key ... overwrite its value"): the last value
 * wins, in the position of the first, as an ordered map keeps it.
 */
export function parseDictionary(input: string, options: ParseOptions = {}): Dictionary {
  const p = new Parser(input, options)
  const dictionary: Dictionary = new Map()
  p.spaces()
  while (!p.done()) {
    const key = p.key()
    p.unique(dictionary, key)
    dictionary.set(key, p.eat('=') ? p.member() : [true, p.parameters()])
    p.ows()
    if (p.done()) break
    p.expect(',')
    p.ows()
    if (p.done()) throw new SyntaxError('trailing comma')
  }
  return dictionary
}

/** RFC 8941 §4.2.3. */
export function parseItem(input: string, options: ParseOptions = {}): Item {
  const p = new Parser(input, options)
  p.spaces()
  const item = p.item()
  p.spaces()
  if (!p.done()) throw new SyntaxError('text after the item')
  return item
}

class Parser {
  private at = 0
  constructor(
    private readonly s: string,
    private readonly options: ParseOptions,
  ) {}

  /** Throws on a repeated key when duplicates are refused; otherwise the caller's `set` overwrites (§4.2.2, §4.2.3.2). */
  unique(seen: Map<string, unknown>, key: string): void {
    if (this.options.refuseDuplicates === true && seen.has(key)) throw new SyntaxError(`duplicate key ${key}`)
  }

  done(): boolean {
    return this.at >= this.s.length
  }
  private peek(): string {
    return this.s[this.at] ?? ''
  }
  eat(c: string): boolean {
    if (this.peek() !== c) return false
    this.at++
    return true
  }
  expect(c: string): void {
    if (!this.eat(c)) throw new SyntaxError(`expected "${c}" at ${this.at}`)
  }
  spaces(): void {
    while (this.peek() === ' ') this.at++
  }
  ows(): void {
    while (this.peek() === ' ' || this.peek() === '\t') this.at++
  }

  /** The match of a sticky pattern at the cursor, consumed; null when it does not match there. */
  private match(pattern: RegExp): RegExpExecArray | null {
    pattern.lastIndex = this.at
    const m = pattern.exec(this.s)
    if (m !== null) this.at = pattern.lastIndex
    return m
  }

  key(): string {
    const m = this.match(KEY)
    if (m === null) throw new SyntaxError(`expected a key at ${this.at}`)
    return m[0]
  }

  member(): Member {
    if (!this.eat('(')) return this.item()
    const items: Item[] = []
    for (;;) {
      this.spaces()
      if (this.eat(')')) return [items, this.parameters()]
      items.push(this.item())
      if (this.peek() !== ' ' && this.peek() !== ')') throw new SyntaxError(`bad inner list at ${this.at}`)
    }
  }

  item(): Item {
    return [this.bare(), this.parameters()]
  }

  /** RFC 8941 §4.2.3.2: a repeated parameter overwrites the earlier value, as in a Dictionary. */
  parameters(): Parameters {
    const params: Parameters = new Map()
    while (this.eat(';')) {
      this.spaces()
      const key = this.key()
      this.unique(params, key)
      params.set(key, this.eat('=') ? this.bare() : true)
    }
    return params
  }

  bare(): BareItem {
    const start = this.at
    let m: RegExpExecArray | null
    if ((m = this.match(STRING)) !== null) return m[1]!.replace(/\\(["\\])/g, '$1')
    if ((m = this.match(BYTES)) !== null) {
      if (m[1]!.length % 4 !== 0) throw new SyntaxError(`bad byte sequence at ${start}`)
      return Uint8Array.from(atob(m[1]!), (ch) => ch.charCodeAt(0))
    }
    if ((m = this.match(BOOLEAN)) !== null) return m[1] === '1'
    if ((m = this.match(NUMBER)) !== null) {
      if (m[2] === undefined) return Number(m[0])
      if (m[1]!.length > 12) throw new SyntaxError(`decimal too long at ${start}`)
      return new Decimal(Number(m[0]))
    }
    if ((m = this.match(TOKEN)) !== null) return new Token(m[0])
    if (this.options.rfc9651 === true) {
      // RFC 9651 §4.2.9: an Integer after "@", never a Decimal.
      if (this.eat('@')) {
        if ((m = this.match(NUMBER)) === null || m[2] !== undefined) throw new SyntaxError(`bad date at ${start}`)
        return new SfDate(Number(m[0]))
      }
      if ((m = this.match(DISPLAY)) !== null) return new DisplayString(decodeDisplay(m[1]!, start))
    }
    throw new SyntaxError(`unexpected "${this.peek()}" at ${start}`)
  }
}

// RFC 8941 §4.2: sticky, so each matches only at the cursor.
const KEY = /[a-z*][a-z0-9_.*-]{0,255}/y
const STRING = /"((?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\["\\])*)"/y
const BYTES = /:([A-Za-z0-9+/]*={0,2}):/y
const BOOLEAN = /\?([01])/y
const NUMBER = /-?(\d{1,15})(\.\d{1,3})?(?![\d.])/y
const TOKEN = /[A-Za-z*][!#$%&'*+\-.^_`|~0-9A-Za-z:/]*/y
// RFC 9651 §4.2.10: printable ASCII but `"` and `%`, or `%` and two lower-case hex digits.
const DISPLAY = /%"((?:[\x20\x21\x23\x24\x26-\x7e]|%[0-9a-f]{2})*)"/y

/** The text a Display String's bytes spell in UTF-8; invalid UTF-8 fails (§4.2.10). */
function decodeDisplay(encoded: string, at: number): string {
  const bytes = Uint8Array.from(encoded.match(/%..|[^%]/g) ?? [], (ch) => (ch.length > 1 ? parseInt(ch.slice(1), 16) : ch.charCodeAt(0)))
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes)
  } catch {
    throw new SyntaxError(`bad display string at ${at}`)
  }
}

/** RFC 8941 §4.1.3, with its parameters (§4.1.1.2). */
export function serializeItem([value, params]: Item): string {
  return serializeBare(value) + serializeParameters(params)
}

/** RFC 8941 §4.1.1.1. */
export function serializeInnerList([items, params]: InnerList): string {
  return `(${items.map(serializeItem).join(' ')})${serializeParameters(params)}`
}

function serializeParameters(params: Parameters): string {
  let out = ''
  for (const [key, value] of params) out += value === true ? `;${key}` : `;${key}=${serializeBare(value)}`
  return out
}

function serializeBare(value: BareItem): string {
  if (typeof value === 'string') return `"${value.replace(/[\\"]/g, '\\$&')}"`
  if (typeof value === 'number') return String(value)
  if (typeof value === 'boolean') return value ? '?1' : '?0'
  if (value instanceof Token) return value.value
  if (value instanceof SfDate) return `@${value.seconds}`
  if (value instanceof DisplayString) {
    let out = ''
    for (const byte of new TextEncoder().encode(value.value)) out += byte < 0x20 || byte > 0x7e || byte === 0x22 || byte === 0x25 ? `%${byte.toString(16).padStart(2, '0')}` : String.fromCharCode(byte)
    return `%"${out}"`
  }
  if (value instanceof Decimal) return Number.isInteger(value.value) ? value.value.toFixed(1) : String(Math.round(value.value * 1000) / 1000)
  let binary = ''
  for (const byte of value) binary += String.fromCharCode(byte)
  return `:${btoa(binary)}:`
}
