import { readFileSync } from 'node:fs'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { type IpRangeFormat } from '../../src/core/agents/index.ts'
import { IpRangeSet, parseIpRanges } from '../../src/verify/index.ts'

const fixture = (name: string): string => readFileSync(new URL(`../fixtures/ip-ranges/${name}`, import.meta.url), 'utf8')
const cidrs = (...lines: string[]): IpRangeSet => parseIpRanges(lines.join('\n'), 'cidr-lines').set

describe('parsing the documented list formats', () => {
  // google-json: `prefixes[]` of `{ ipv4Prefix }` or `{ ipv6Prefix }`, as Google's googlebot.json.
  it('reads a googlebot.json-style list, merging adjacent blocks', () => {
    const { set, count, skipped } = parseIpRanges(fixture('googlebot.json'), 'google-json')
    expect({ count, skipped }).toEqual({ count: 13, skipped: 0 })
    // Four adjacent /27s become one /25, two become one /26, :12:: and :13:: become one range.
    expect(set.size).toBe(8)
    expect(set.has('66.249.66.1')).toBe(true)
    expect(set.has('2001:4860:4801:2008::1')).toBe(true)
  })

  it('reads a bingbot.json-style list (IPv4 only, same shape)', () => {
    const { set, count, skipped } = parseIpRanges(fixture('bingbot.json'), 'google-json')
    expect({ count, skipped, size: set.size }).toEqual({ count: 7, skipped: 0, size: 7 })
    expect(set.has('157.55.39.1')).toBe(true)
    expect(set.has('199.30.25.255')).toBe(true)
    expect(set.has('199.30.26.0')).toBe(false)
  })

  it('skips and counts malformed google-json entries', () => {
    const text = JSON.stringify({
      creationTime: 'x',
      prefixes: [{ ipv4Prefix: '66.249.64.0/27' }, { ipv4Prefix: '66.249.64.0/40' }, { other: 'x' }, null, 'str', { ipv6Prefix: '2001:db8::/200' }, { ipv6Prefix: ' 2001:db8::/32 ' }],
    })
    const { set, count, skipped } = parseIpRanges(text, 'google-json')
    expect({ count, skipped }).toEqual({ count: 2, skipped: 5 })
    expect(set.has('2001:db8:ffff::1')).toBe(true)
  })

  it('counts a document that is not the google-json shape as one skipped entry', () => {
    for (const text of ['', '{', '[]', '{"prefixes":{}}', 'null', fixture('garbage.html')]) {
      const { set, count, skipped } = parseIpRanges(text, 'google-json')
      expect({ count, skipped, size: set.size }).toEqual({ count: 0, skipped: 1, size: 0 })
    }
  })

  // cidr-lines: one CIDR block per line; `#` comments and blank lines allowed.
  it('reads cidr-lines with comments, blank lines and a bare address', () => {
    const { set, count, skipped } = parseIpRanges(fixture('cidr-lines.txt'), 'cidr-lines')
    expect({ count, skipped }).toEqual({ count: 4, skipped: 4 })
    expect(set.has('198.51.100.127')).toBe(true)
    expect(set.has('198.51.100.128')).toBe(false)
    expect(set.has('203.0.113.7')).toBe(true)
    expect(set.has('203.0.113.8')).toBe(false)
    expect(set.has('2001:db8:1:ffff::1')).toBe(true)
  })

  // ip-lines: one bare address per line, each a /32 or /128.
  it('reads ip-lines (LF, IPv4)', () => {
    const { set, count, skipped } = parseIpRanges(fixture('stripe-webhooks.txt'), 'ip-lines')
    expect({ count, skipped }).toEqual({ count: 12, skipped: 0 })
    expect(set.has('54.187.216.72')).toBe(true)
    expect(set.has('54.187.216.73')).toBe(false)
  })

  it('reads ip-lines (CRLF, IPv4 and IPv6)', () => {
    const { set, count, skipped } = parseIpRanges(fixture('uptimerobot.txt'), 'ip-lines')
    expect({ count, skipped }).toEqual({ count: 7, skipped: 0 })
    // .16 and .17 are adjacent, and so are ::3 and ::4: one range each.
    expect(set.size).toBe(5)
    expect(set.has('2607:ff68:107::3')).toBe(true)
    expect(set.has('2607:ff68:107::5')).toBe(false)
  })

  it('parses nothing from garbage in any format, without throwing', () => {
    const formats: IpRangeFormat[] = ['google-json', 'cidr-lines', 'ip-lines']
    const junk = [fixture('garbage.html'), '\u0000\uffff\ud800'.repeat(20000), `${'1.'.repeat(40000)}1`, '/'.repeat(70000)]
    for (const format of formats) {
      for (const text of junk) expect(parseIpRanges(text, format).count).toBe(0)
    }
  })

  it('masks host bits set in a block, as most tools do', () => {
    const set = cidrs('66.249.64.5/27')
    expect(set.has('66.249.64.0')).toBe(true)
    expect(set.has('66.249.64.31')).toBe(true)
    expect(set.has('66.249.64.32')).toBe(false)
  })

  it('refuses prefix lengths out of range and non-decimal prefixes', () => {
    for (const line of ['1.2.3.4/33', '1.2.3.4/-1', '1.2.3.4/ 8', '1.2.3.4/0x8', '::/129', '1.2.3.4/1000', '1.2.3.4//8']) {
      expect(parseIpRanges(line, 'cidr-lines'), line).toMatchObject({ count: 0, skipped: 1 })
    }
  })
})

describe('membership at range edges', () => {
  const set = cidrs('66.249.64.0/27', '2001:4860:4801:10::/64', '0.0.0.0/32', '255.255.255.255/32', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff/128')

  it('IPv4: first and last are in, one before and one past are out', () => {
    expect(set.has('66.249.64.0')).toBe(true)
    expect(set.has('66.249.64.31')).toBe(true)
    expect(set.has('66.249.63.255')).toBe(false)
    expect(set.has('66.249.64.32')).toBe(false)
  })

  it('IPv6: first and last are in, one before and one past are out', () => {
    expect(set.has('2001:4860:4801:10::')).toBe(true)
    expect(set.has('2001:4860:4801:10:ffff:ffff:ffff:ffff')).toBe(true)
    expect(set.has('2001:4860:4801:f:ffff:ffff:ffff:ffff')).toBe(false)
    expect(set.has('2001:4860:4801:11::')).toBe(false)
  })

  it('the ends of the address spaces', () => {
    expect(set.has('0.0.0.0')).toBe(true)
    expect(set.has('0.0.0.1')).toBe(false)
    expect(set.has('255.255.255.255')).toBe(true)
    expect(set.has('255.255.255.254')).toBe(false)
    expect(set.has('ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff')).toBe(true)
    expect(set.has('::')).toBe(false)
    expect(cidrs('0.0.0.0/0').has('203.0.113.9')).toBe(true)
    expect(cidrs('0.0.0.0/0').has('2001:db8::1')).toBe(false)
    expect(cidrs('::/0').has('2001:db8::1')).toBe(true)
  })

  it('an empty set holds nothing', () => {
    expect(cidrs().has('1.2.3.4')).toBe(false)
    expect(cidrs().has('::1')).toBe(false)
  })
})

describe('IPv6 text forms (RFC 4291 §2.2)', () => {
  const set = cidrs('2001:db8::/32', '64:ff9b::/96')

  it('accepts compressed, full, zero-padded and upper-case forms alike', () => {
    for (const ip of ['2001:db8::1', '2001:0db8:0000:0000:0000:0000:0000:0001', '2001:DB8::1', '2001:db8:0:0:0:0:0:1', '2001:db8::', '2001:db8:1:2:3:4:5::']) {
      expect(set.has(ip), ip).toBe(true)
    }
  })

  it('reads a dotted quad as the last 32 bits', () => {
    expect(set.has('64:ff9b::192.0.2.1')).toBe(true)
    expect(set.has('64:ff9b:0:0:0:0:192.0.2.1')).toBe(true)
  })

  it('refuses malformed addresses and zone ids, without throwing', () => {
    for (const ip of [
      ':::',
      ':1::',
      '1:2:3:4:5:6:7:8:9',
      '1::2::3',
      '12345::',
      '2001:db8:1:2:3:4:5:6::',
      '2001:db8::1:',
      '2001:db8::1%eth0',
      'fe80::1%1',
      '[2001:db8::1]',
      '2001:db8::1.2.3',
      '2001:db8:1:2:3:4:5:1.2.3.4',
      '2001:db8::g',
      '2001:db8 ::1',
    ]) {
      expect(set.has(ip), ip).toBe(false)
    }
  })
})

describe('IPv4-mapped IPv6 (RFC 4291 §2.5.5.2) is its IPv4 address', () => {
  it('matches an IPv4 list in dotted and hex forms', () => {
    const set = cidrs('66.249.66.0/27')
    expect(set.has('::ffff:66.249.66.1')).toBe(true)
    expect(set.has('::FFFF:42f9:4201')).toBe(true)
    expect(set.has('0:0:0:0:0:ffff:66.249.66.1')).toBe(true)
    expect(set.has('::ffff:66.249.66.32')).toBe(false)
    // IPv4-compatible (deprecated) and NAT64 forms are other addresses.
    expect(set.has('::66.249.66.1')).toBe(false)
    expect(set.has('64:ff9b::66.249.66.1')).toBe(false)
  })

  it('stores a mapped block in a list as its IPv4 block', () => {
    const set = cidrs('::ffff:192.0.2.0/120')
    expect(set.has('192.0.2.255')).toBe(true)
    expect(set.has('192.0.3.0')).toBe(false)
    expect(set.toJSON().v6).toEqual([])
  })
})

describe('invalid addresses are false, never an exception', () => {
  const set = cidrs('0.0.0.0/0', '::/0')

  it.each(['', '1.2.3', '999.1.1.1', '::gggg', '1.2.3.4.5', '1.2.3.', '.1.2.3', '01.2.3.4', '1.2.3.04', ' 1.2.3.4', '1.2.3.4 ', '1.2.3.4/32', '1..2.3', '１.2.3.4', '-1.2.3.4'])('%j', (ip) => {
    expect(set.has(ip)).toBe(false)
  })

  it('64 KiB of garbage', () => {
    expect(set.has('1'.repeat(65536))).toBe(false)
    expect(set.has(`${'::'.repeat(32768)}`)).toBe(false)
    expect(set.has('\ud800'.repeat(65536))).toBe(false)
  })

  it('values that are not strings', () => {
    for (const value of [null, undefined, 42, {}, ['1.2.3.4']]) expect(set.has(value as unknown as string)).toBe(false)
  })
})

describe('merging and the stored form', () => {
  it('merges overlapping, nested, duplicate and adjacent ranges', () => {
    const set = cidrs('10.0.0.0/8', '10.1.0.0/16', '10.0.0.0/8', '11.0.0.0/8', '12.0.0.1', '2001:db8::/33', '2001:db8:8000::/33', '2001:db8:1::/48')
    expect(set.size).toBe(3)
    expect(set.toJSON()).toEqual({
      v: 1,
      v4: [0x0a000000, 0x0bffffff, 0x0c000001, 0x0c000001],
      v6: ['20010db8000000000000000000000000', '20010db8ffffffffffffffffffffffff'],
    })
  })

  it('round-trips through JSON', () => {
    const { set } = parseIpRanges(fixture('googlebot.json'), 'google-json')
    const back = IpRangeSet.fromJSON(JSON.parse(JSON.stringify(set)))
    expect(back.toJSON()).toEqual(set.toJSON())
    for (const ip of ['66.249.64.127', '66.249.64.128', '2001:4860:4801:13::1', '2001:4860:4801:11::1']) expect(back.has(ip)).toBe(set.has(ip))
  })

  it('fromJSON sorts and merges a hand-edited value', () => {
    const set = IpRangeSet.fromJSON({ v: 1, v4: [20, 30, 0, 10, 11, 12], v6: ['ff', 'fff', '1', '2'] })
    expect(set.toJSON()).toEqual({ v: 1, v4: [0, 12, 20, 30], v6: ['1', '2', 'ff', 'fff'] })
  })

  it('fromJSON throws a TypeError naming the problem on anything else', () => {
    const bad: unknown[] = [
      null,
      'x',
      {},
      { v: 2, v4: [], v6: [] },
      { v: 1, v4: [1], v6: [] },
      { v: 1, v4: [5, 1], v6: [] },
      { v: 1, v4: [-1, 3], v6: [] },
      { v: 1, v4: [0, 2 ** 32], v6: [] },
      { v: 1, v4: [0, 1.5], v6: [] },
      { v: 1, v4: [], v6: ['xyz', '1'] },
      { v: 1, v4: [], v6: ['1'.repeat(33), '2'] },
      { v: 1, v4: [] },
    ]
    for (const value of bad) expect(() => IpRangeSet.fromJSON(value), JSON.stringify(value)).toThrow(TypeError)
  })
})

// Independent oracles: arithmetic on the generated numbers, and Node's URL
// parser for the compressed text of an IPv6 address.
const v4Text = (n: number): string => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.')
const v6Text = (groups: number[]): string => groups.map((g) => g.toString(16)).join(':')
const v6Compressed = (groups: number[]): string => new URL(`http://[${v6Text(groups)}]`).hostname.slice(1, -1)
const v6Value = (groups: number[]): bigint => groups.reduce((value, g) => (value << 16n) | BigInt(g), 0n)
const inV4Block = (x: number, [base, bits]: [number, number]): boolean => bits === 0 || x >>> (32 - bits) === base >>> (32 - bits)
const inV6Block = (x: bigint, [base, bits]: [bigint, number]): boolean => x >> BigInt(128 - bits) === base >> BigInt(128 - bits)

describe('has agrees with a linear scan (property)', () => {
  const uint32 = fc.integer({ min: 0, max: 0xffffffff })
  const v4Block = fc.tuple(uint32, fc.integer({ min: 0, max: 32 }))
  // Few distinct high groups, so blocks overlap and addresses land near them.
  const group = fc.oneof(fc.constantFrom(0, 1, 0x2001, 0xffff), fc.integer({ min: 0, max: 0xffff }))
  const groups = fc.array(group, { minLength: 8, maxLength: 8 })
  const v6Block = fc.tuple(groups, fc.integer({ min: 0, max: 128 }))

  it('IPv4, probing each block at its edges and at random', () => {
    fc.assert(
      fc.property(fc.array(v4Block, { maxLength: 30 }), fc.array(uint32, { maxLength: 20 }), (blocks, randoms) => {
        const set = cidrs(...blocks.map(([base, bits]) => `${v4Text(base)}/${bits}`))
        const probes = [...randoms]
        for (const [base, bits] of blocks) {
          const size = 2 ** (32 - bits)
          const start = base - (base % size)
          for (const x of [start - 1, start, start + size - 1, start + size]) if (x >= 0 && x <= 0xffffffff) probes.push(x)
        }
        return probes.every((x) => set.has(v4Text(x)) === blocks.some((block) => inV4Block(x, block)))
      }),
      { numRuns: 500 },
    )
  })

  it('IPv6, in full and compressed text', () => {
    fc.assert(
      fc.property(fc.array(v6Block, { maxLength: 20 }), fc.array(groups, { maxLength: 20 }), (blocks, probes) => {
        const set = cidrs(...blocks.map(([base, bits]) => `${v6Compressed(base)}/${bits}`))
        const parsed = blocks.map(([base, bits]): [bigint, number] => [v6Value(base), bits])
        // Addresses in the IPv4-mapped block are looked up as IPv4; keep them out of this property.
        const isMapped = (g: number[]): boolean => g.slice(0, 6).every((x, i) => x === (i === 5 ? 0xffff : 0))
        return [...probes, ...blocks.map(([base]) => base)]
          .filter((g) => !isMapped(g) && !blocks.some(([base]) => isMapped(base)))
          .every((g) => {
            const expected = parsed.some((block) => inV6Block(v6Value(g), block))
            return set.has(v6Text(g)) === expected && set.has(v6Compressed(g)) === expected
          })
      }),
      { numRuns: 300 },
    )
  })

  it('never throws on arbitrary strings', () => {
    const set = cidrs('0.0.0.0/0', '::/0')
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEF:.%/[] x'), maxLength: 50 }), (s) => typeof set.has(s) === 'boolean'),
      { numRuns: 2000 },
    )
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (s) => typeof set.has(s) === 'boolean'),
      { numRuns: 500 },
    )
  })
})
