import { isMapped, MAX_ADDRESS_LENGTH, parseIPv4, parseIPv6, words } from './ip-address.ts'
import type { IpRangeFormat } from '../core/agents/types.ts'

/**
 * Operators' published crawler IP ranges: the documented list formats, parsed
 * into a compiled set that answers "is this address on the list" per request.
 * Pure: strings in, plain objects out; it runs in Workers and in plain Node.
 */

/** The 128-bit number held in four words from r[at], most significant first. */
function toBigInt(r: Uint32Array, at: number): bigint {
  let value = 0n
  for (let k = 0; k < 4; k++) value = (value << 32n) | BigInt(r[at + k]!)
  return value
}

type Range = [start: bigint, end: bigint]

/** The range a CIDR block or a bare address covers, or null; `v6` tells which family. */
function parseEntry(entry: string): { v6: boolean; range: Range } | null {
  const slash = entry.indexOf('/')
  const address = slash < 0 ? entry : entry.slice(0, slash)
  if (address.length === 0 || address.length > MAX_ADDRESS_LENGTH) return null
  let bits = -1
  if (slash >= 0) {
    const prefix = entry.slice(slash + 1)
    if (!/^\d{1,3}$/.test(prefix)) return null
    bits = Number(prefix)
  }
  let v6 = address.includes(':')
  let value: bigint
  if (!v6) {
    const v4 = parseIPv4(address, 0, address.length)
    if (v4 < 0) return null
    value = BigInt(v4)
  } else {
    if (!parseIPv6(address)) return null
    if (isMapped() && (bits < 0 || bits >= 96)) {
      // Stored as IPv4, since `has` looks mapped addresses up as IPv4.
      v6 = false
      value = BigInt(words[3]!)
      if (bits >= 0) bits -= 96
    } else {
      value = toBigInt(words, 0)
    }
  }
  const width = v6 ? 128 : 32
  if (bits < 0) bits = width
  if (bits > width) return null
  // Host bits set in a block (`66.249.64.5/27`) are masked off, as most tools do.
  const host = BigInt(width - bits)
  const start = (value >> host) << host
  return { v6, range: [start, start | ((1n << host) - 1n)] }
}

/** Sort, then merge overlapping and adjacent ranges, so the set holds the fewest ranges. */
function mergeRanges(ranges: Range[]): Range[] {
  ranges.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
  const merged: Range[] = []
  for (const [start, end] of ranges) {
    const last = merged[merged.length - 1]
    if (last !== undefined && start <= last[1] + 1n) {
      if (end > last[1]) last[1] = end
    } else {
      merged.push([start, end])
    }
  }
  return merged
}

// Packed layout shared by both families: `width` uint32 words per bound (1 for
// IPv4, 4 for IPv6, most significant first), start then end, ranges ascending.
function pack(ranges: Range[], width: number): Uint32Array {
  const merged = mergeRanges(ranges)
  const out = new Uint32Array(merged.length * width * 2)
  merged.forEach((range, i) => {
    for (let k = 0; k < width * 2; k++) {
      const shift = BigInt((width - 1 - (k % width)) * 32)
      out[i * width * 2 + k] = Number((range[k < width ? 0 : 1] >> shift) & 0xffffffffn)
    }
  })
  return out
}

// Sign of (the bound at r[at, at + width)) minus (the parsed address, the
// last `width` words of `words`). Plain subtraction: both are below 2^32.
function compare(r: Uint32Array, at: number, width: number): number {
  for (let k = 0; k < width; k++) {
    const d = r[at + k]! - words[4 - width + k]!
    if (d !== 0) return d
  }
  return 0
}

// Binary search for the last range starting at or below the address; the
// address is in the set when that range also ends at or above it, since
// merged ranges are disjoint. O(log n), no allocation.
function contains(r: Uint32Array, width: number): boolean {
  const stride = width * 2
  let lo = 0
  let hi = r.length / stride - 1
  let found = -1
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1
    if (compare(r, mid * stride, width) <= 0) {
      found = mid
      lo = mid + 1
    } else {
      hi = mid - 1
    }
  }
  return found >= 0 && compare(r, found * stride + width, width) >= 0
}

/** The compact, serialisable form of an {@link IpRangeSet}, as stored in KV. */
export interface IpRangeSetJSON {
  readonly v: 1
  /** Merged IPv4 ranges as flat pairs of uint32, `[start, end, start, end, ...]`, ascending. */
  readonly v4: readonly number[]
  /** Merged IPv6 ranges as flat pairs of 128-bit numbers in hexadecimal, ascending. */
  readonly v6: readonly string[]
}

const HEX_128 = /^[0-9a-f]{1,32}$/

function readPairs(list: unknown, family: 'v4' | 'v6'): Range[] {
  const bad = (): never => {
    throw new TypeError(`IpRangeSet.fromJSON: ${family} must hold [start, end] pairs as IpRangeSet#toJSON() writes them.`)
  }
  const bound = (x: unknown): bigint =>
    family === 'v4' ? (Number.isInteger(x) && (x as number) >= 0 && (x as number) <= 0xffffffff ? BigInt(x as number) : bad()) : typeof x === 'string' && HEX_128.test(x) ? BigInt(`0x${x}`) : bad()
  if (!Array.isArray(list) || list.length % 2 !== 0) return bad()
  const ranges: Range[] = []
  for (let i = 0; i < list.length; i += 2) {
    const range: Range = [bound(list[i]), bound(list[i + 1])]
    if (range[0] > range[1]) bad()
    ranges.push(range)
  }
  return ranges
}

// The constructor stays private so the representation can change; this
// module's parser reaches it through the class's static block.
let buildSet: (v4: Range[], v6: Range[]) => IpRangeSet

/**
 * A compiled set of IPv4 and IPv6 ranges, built once and queried per request.
 * Ranges are sorted and merged; `has` is a binary search over typed arrays
 * (IPv4 as uint32, IPv6 as four uint32 words) and allocates nothing.
 *
 * @example
 * const { set } = parseIpRanges(googlebotJson, 'google-json')
 * set.has('66.249.66.1') // → true
 * IpRangeSet.fromJSON(JSON.parse(JSON.stringify(set))).has('66.249.66.1') // → true
 */
export class IpRangeSet {
  readonly #v4: Uint32Array
  readonly #v6: Uint32Array

  private constructor(v4: Range[], v6: Range[]) {
    this.#v4 = pack(v4, 1)
    this.#v6 = pack(v6, 4)
  }

  static {
    buildSet = (v4, v6) => new IpRangeSet(v4, v6)
  }

  /**
   * Rebuild a set from {@link IpRangeSet.toJSON}'s output (e.g. read back from
   * KV). Ranges are sorted and merged again, so a hand-edited value is safe.
   * Throws a TypeError naming the problem if `json` is not that shape.
   */
  static fromJSON(json: unknown): IpRangeSet {
    const { v, v4, v6 } = (typeof json === 'object' && json !== null ? json : {}) as Record<string, unknown>
    if (v !== 1) throw new TypeError(`IpRangeSet.fromJSON: expected { v: 1, v4, v6 }, got version ${String(v)}.`)
    return new IpRangeSet(readPairs(v4, 'v4'), readPairs(v6, 'v6'))
  }

  /** Number of merged ranges, IPv4 and IPv6 together. */
  get size(): number {
    return this.#v4.length / 2 + this.#v6.length / 8
  }

  /**
   * Whether `ip` (IPv4 or IPv6 text; IPv4-mapped IPv6 counts as its IPv4
   * address) lies in one of the ranges. Invalid input is `false`, never an exception.
   */
  has(ip: string): boolean {
    if (typeof ip !== 'string' || ip.length === 0 || ip.length > MAX_ADDRESS_LENGTH) return false
    if (!ip.includes(':')) {
      const v4 = parseIPv4(ip, 0, ip.length)
      if (v4 < 0) return false
      words[3] = v4
      return contains(this.#v4, 1)
    }
    if (!parseIPv6(ip)) return false
    return isMapped() ? contains(this.#v4, 1) : contains(this.#v6, 4)
  }

  /** The compact form for storage: merged ranges only, so it stays small. */
  toJSON(): IpRangeSetJSON {
    const v6: string[] = []
    for (let at = 0; at < this.#v6.length; at += 4) v6.push(toBigInt(this.#v6, at).toString(16))
    return { v: 1, v4: [...this.#v4], v6 }
  }
}

/** A parsed list: the compiled set, how many entries went in, and how many were skipped as malformed. */
export interface ParsedIpRanges {
  readonly set: IpRangeSet
  readonly count: number
  readonly skipped: number
}

/**
 * Parse an operator's list in its documented format. Never throws: a
 * malformed entry is skipped and counted, and a document that is not the
 * expected shape at all (an HTML error page instead of JSON) counts as one
 * skipped entry with nothing parsed.
 *
 * Both line formats accept bare addresses and CIDR blocks alike, so a list
 * whose operator starts mixing the two keeps verifying its crawlers.
 */
export function parseIpRanges(text: string, format: IpRangeFormat): ParsedIpRanges {
  const v4: Range[] = []
  const v6: Range[] = []
  let count = 0
  let skipped = 0
  const add = (entry: string): void => {
    const parsed = parseEntry(entry)
    if (parsed === null) {
      skipped++
    } else {
      ;(parsed.v6 ? v6 : v4).push(parsed.range)
      count++
    }
  }
  if (format === 'google-json') {
    for (const prefix of googlePrefixes(text) ?? [undefined]) {
      // Each element holds `ipv4Prefix` or `ipv6Prefix` (Google's googlebot.json; Bing, Apple, OpenAI copy it).
      const { ipv4Prefix, ipv6Prefix } = (typeof prefix === 'object' && prefix !== null ? prefix : {}) as Record<string, unknown>
      if (typeof ipv4Prefix === 'string') add(ipv4Prefix.trim())
      if (typeof ipv6Prefix === 'string') add(ipv6Prefix.trim())
      if (typeof ipv4Prefix !== 'string' && typeof ipv6Prefix !== 'string') skipped++
    }
  } else {
    for (const line of text.split('\n')) {
      const hash = line.indexOf('#')
      const entry = (hash < 0 ? line : line.slice(0, hash)).trim()
      if (entry.length > 0) add(entry)
    }
  }
  return { set: buildSet(v4, v6), count, skipped }
}

function googlePrefixes(text: string): unknown[] | null {
  try {
    const doc: unknown = JSON.parse(text)
    const prefixes = typeof doc === 'object' && doc !== null ? (doc as Record<string, unknown>).prefixes : undefined
    return Array.isArray(prefixes) ? prefixes : null
  } catch {
    return null
  }
}
