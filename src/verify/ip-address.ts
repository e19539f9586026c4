/**
 * IPv4 and IPv6 text addresses (RFC 4291 §2.2) parsed without allocating,
 * for the per-request range check in ip-ranges.ts.
 */

// The longest textual address, `ffff:ffff:ffff:ffff:ffff:ffff:255.255.255.255`,
// has 45 characters: anything longer is refused unread, so 64 KiB of garbage
// costs what 45 characters do.
export const MAX_ADDRESS_LENGTH = 45
const COLON = 58
const DOT = 46

// Scratch for one parsed address. Parsing is synchronous and not re-entrant,
// so one pair of module-level buffers serves every call without allocating.
const groups = new Uint16Array(8)
/** The last address parseIPv6 read, as four 32-bit words, most significant first. */
export const words = new Uint32Array(4)

/** A dotted quad in s[start, end) as a uint32, or -1. */
export function parseIPv4(s: string, start: number, end: number): number {
  let value = 0
  let octet = 0
  let digits = 0
  let dots = 0
  for (let i = start; i < end; i++) {
    const c = s.charCodeAt(i)
    if (c >= 48 && c <= 57) {
      // Leading zeros are refused: inet_aton and browsers read `010` as octal.
      if (digits > 0 && octet === 0) return -1
      octet = octet * 10 + (c - 48)
      if (octet > 255) return -1
      digits++
    } else if (c === DOT && digits > 0 && dots < 3) {
      value = value * 256 + octet
      octet = 0
      digits = 0
      dots++
    } else {
      return -1
    }
  }
  return digits > 0 && dots === 3 ? value * 256 + octet : -1
}

function hexValue(c: number): number {
  if (c >= 48 && c <= 57) return c - 48
  const lower = c | 32
  return lower >= 97 && lower <= 102 ? lower - 87 : -1
}

/**
 * RFC 4291 §2.2 text forms: eight groups, one `::` standing for one or more
 * zero groups, and an optional dotted quad as the last 32 bits. The result
 * goes to `words`. Zone ids (`fe80::1%eth0`) are refused: a zone names a link
 * on the receiving host, never a crawler's address.
 */
export function parseIPv6(s: string): boolean {
  const len = s.length
  let n = 0
  let gap = -1
  let i = 0
  if (s.charCodeAt(0) === COLON) {
    if (s.charCodeAt(1) !== COLON) return false
    gap = 0
    i = 2
  }
  while (i < len) {
    if (n === 8) return false
    let j = i
    let value = 0
    for (; j < len && j - i < 4; j++) {
      const h = hexValue(s.charCodeAt(j))
      if (h < 0) break
      value = value * 16 + h
    }
    const c = s.charCodeAt(j)
    if (c === DOT) {
      if (n > 6) return false
      const v4 = parseIPv4(s, i, len)
      if (v4 < 0) return false
      groups[n++] = v4 >>> 16
      groups[n++] = v4 & 0xffff
      break
    }
    if (j === i) return false
    groups[n++] = value
    if (j === len) break
    if (c !== COLON) return false
    if (s.charCodeAt(j + 1) === COLON) {
      if (gap >= 0) return false
      gap = n
      i = j + 2
    } else {
      i = j + 1
      if (i === len) return false
    }
  }
  if (gap < 0 ? n !== 8 : n > 7) return false
  if (gap >= 0) {
    const shift = 8 - n
    groups.copyWithin(gap + shift, gap, n)
    groups.fill(0, gap, gap + shift)
  }
  for (let k = 0; k < 4; k++) words[k] = ((groups[2 * k]! << 16) | groups[2 * k + 1]!) >>> 0
  return true
}

// IPv4-mapped IPv6 (RFC 4291 §2.5.5.2): `::ffff:1.2.3.4` is the host 1.2.3.4.
export function isMapped(): boolean {
  return words[0] === 0 && words[1] === 0 && words[2] === 0xffff
}
