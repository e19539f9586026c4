import { isMapped, MAX_ADDRESS_LENGTH, parseIPv4, parseIPv6, words } from './ip-address.ts'

/**
 * Whether an address a directory's host name resolved to may be fetched
 * (draft-ietf-webbotauth-httpsig-protocol §"Server-Side Request Forgery": no
 * fetch to loopback, private or link-local addresses). Anything that is not
 * a parsable address is refused.
 */

/** IPv4 blocks that are no host on the public internet (RFC 6890), as [first address, prefix length]. */
const V4_SPECIAL: ReadonlyArray<readonly [number, number]> = [
  [0x00000000, 8], // "this network", 0.0.0.0 (RFC 791)
  [0x0a000000, 8], // private (RFC 1918)
  [0x64400000, 10], // shared address space, carrier-grade NAT (RFC 6598)
  [0x7f000000, 8], // loopback (RFC 1122)
  [0xa9fe0000, 16], // link-local (RFC 3927), cloud metadata services among them
  [0xac100000, 12], // private (RFC 1918)
  [0xc0000000, 24], // IETF protocol assignments (RFC 6890)
  [0xc0000200, 24], // documentation (RFC 5737)
  [0xc0a80000, 16], // private (RFC 1918)
  [0xc6120000, 15], // benchmarking (RFC 2544)
  [0xc6336400, 24], // documentation
  [0xcb007100, 24], // documentation
  [0xe0000000, 4], // multicast (RFC 5771)
  [0xf0000000, 4], // reserved, and the limited broadcast address
]

function isPublicV4(value: number): boolean {
  return !V4_SPECIAL.some(([first, bits]) => value >>> (32 - bits) === first >>> (32 - bits))
}

/**
 * IPv6: only global unicast (2000::/3, RFC 4291 §2.4) is public, which
 * leaves out the unspecified and loopback addresses, unique-local (fc00::/7),
 * link-local (fe80::/10) and multicast (ff00::/8). Forms that carry an IPv4
 * address are judged by it: IPv4-mapped (RFC 4291 §2.5.5.2), IPv4-compatible
 * (§2.5.5.1), NAT64 (64:ff9b::/96, RFC 6052) and 6to4 (2002::/16, RFC 3056).
 * Teredo (2001::/32) and documentation (2001:db8::/32) are refused.
 */
function isPublicV6(): boolean {
  const w0 = words[0]!
  const w1 = words[1]!
  const w2 = words[2]!
  const w3 = words[3]!
  if (isMapped() || (w0 === 0 && w1 === 0 && w2 === 0 && w3 > 1) || (w0 === 0x0064ff9b && w1 === 0 && w2 === 0)) return isPublicV4(w3)
  if (w0 >>> 16 === 0x2002) return isPublicV4((((w0 & 0xffff) << 16) | (w1 >>> 16)) >>> 0)
  if (w0 >>> 29 !== 1) return false
  return w0 !== 0x20010000 && w0 !== 0x20010db8
}

/**
 * @example
 * isPublicAddress('93.184.215.14') // true
 * isPublicAddress('::ffff:127.0.0.1') // false
 */
export function isPublicAddress(address: string): boolean {
  if (address.length > MAX_ADDRESS_LENGTH) return false
  const v4 = parseIPv4(address, 0, address.length)
  if (v4 >= 0) return isPublicV4(v4)
  return parseIPv6(address) && isPublicV6()
}
