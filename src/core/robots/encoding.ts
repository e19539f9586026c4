const HEX = '0123456789ABCDEF'

function isHex(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102)
}

function isLowerHex(c: number): boolean {
  return c >= 97 && c <= 102
}

function escapeByte(byte: number): string {
  return '%' + HEX[byte >> 4]! + HEX[byte & 15]!
}

const NON_ASCII = /[^\x00-\x7f]/

/** Is there a `%xx` escape with lower-case hex? Visits only the `%` octets. */
function hasLowerEscape(s: string): boolean {
  for (let i = s.indexOf('%'); i >= 0 && i + 2 < s.length; i = s.indexOf('%', i + 1)) {
    const a = s.charCodeAt(i + 1)
    const b = s.charCodeAt(i + 2)
    if (isHex(a) && isHex(b) && (isLowerHex(a) || isLowerHex(b))) return true
  }
  return false
}

/**
 * Percent-encoding normalisation of a pattern or a path (RFC 9309 §2.2.2:
 * octets outside US-ASCII are percent-encoded, and `%xx` compares with `%XX`).
 * Non-ASCII characters become their UTF-8 octets as `%XX`; existing escapes get
 * upper-case hex; everything else is kept. A lone surrogate, which has no
 * UTF-8 form, is encoded as U+FFFD, as `TextEncoder` does.
 *
 * The result is pure ASCII, so its `.length` is its length in octets, which
 * is what rule priority is measured in.
 */
export function normalizeEncoding(s: string): string {
  // Fast path, on native string search: most patterns and paths are already
  // canonical, and per-character loops in JS cost more than the rest of a check.
  if (!hasLowerEscape(s) && !NON_ASCII.test(s)) return s
  let i = 0
  const n = s.length
  let out = ''
  for (; i < n; i++) {
    const c = s.charCodeAt(i)
    if (c === 37 && i + 2 < n && isHex(s.charCodeAt(i + 1)) && isHex(s.charCodeAt(i + 2))) {
      out += '%' + s[i + 1]!.toUpperCase() + s[i + 2]!.toUpperCase()
      i += 2
    } else if (c < 0x80) {
      out += s[i]!
    } else if (c < 0x800) {
      out += escapeByte(0xc0 | (c >> 6))
      out += escapeByte(0x80 | (c & 63))
    } else if (c >= 0xd800 && c <= 0xdbff && i + 1 < n && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      const cp = 0x10000 + ((c - 0xd800) << 10) + (s.charCodeAt(i + 1) - 0xdc00)
      i++
      out += escapeByte(0xf0 | (cp >> 18))
      out += escapeByte(0x80 | ((cp >> 12) & 63))
      out += escapeByte(0x80 | ((cp >> 6) & 63))
      out += escapeByte(0x80 | (cp & 63))
    } else {
      const cp = c >= 0xd800 && c <= 0xdfff ? 0xfffd : c
      out += escapeByte(0xe0 | (cp >> 12))
      out += escapeByte(0x80 | ((cp >> 6) & 63))
      out += escapeByte(0x80 | (cp & 63))
    }
  }
  return out
}

/** Length of `s` in UTF-8 octets (lone surrogates count as U+FFFD, 3 octets). */
export function utf8Length(s: string, from = 0, to = s.length): number {
  let bytes = 0
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i)
    if (c < 0x80) bytes += 1
    else if (c < 0x800) bytes += 2
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < to && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4
      i++
    } else bytes += 3
  }
  return bytes
}

let scratch: Uint8Array | undefined
const encoder = new TextEncoder()

/**
 * Is `s` longer than `limit` UTF-8 octets? The platform's encoder counts in
 * native code, into a buffer kept for the next call (lone surrogates count
 * as U+FFFD, 3 octets, as in utf8Length).
 */
export function utf8Exceeds(s: string, limit: number): boolean {
  if (s.length > limit) return true
  if (s.length * 3 <= limit) return false
  if (scratch === undefined || scratch.length !== limit) scratch = new Uint8Array(limit)
  return encoder.encodeInto(s, scratch).read < s.length
}

/** Index in `s` (from `from`) at which `maxBytes` UTF-8 octets are used up, never splitting a character. */
export function utf8Cut(s: string, from: number, maxBytes: number): number {
  let bytes = 0
  let i = from
  while (i < s.length) {
    const c = s.charCodeAt(i)
    const pair = c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00
    const size = c < 0x80 ? 1 : c < 0x800 ? 2 : pair ? 4 : 3
    if (bytes + size > maxBytes) break
    bytes += size
    i += pair ? 2 : 1
  }
  return i
}
