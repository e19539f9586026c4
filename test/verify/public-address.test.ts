import { describe, expect, it } from 'vitest'
import { isPublicAddress } from '../../src/verify/public-address.ts'
import { guardedLookup, isNodeRuntime, PRIVATE_ADDRESS, type ResolvedAddress } from '../../src/verify/store/node-directory-fetch.ts'

// What a key directory's host may resolve to before this process connects
// (draft-ietf-webbotauth-httpsig-protocol §"Server-Side Request Forgery").

describe('isPublicAddress', () => {
  it.each([
    '0.0.0.0',
    '0.1.2.3',
    '10.0.0.5',
    '100.64.0.1',
    '100.127.255.254',
    '127.0.0.1',
    '127.255.255.254',
    '169.254.169.254',
    '172.16.0.1',
    '172.31.255.255',
    '192.0.0.8',
    '192.0.2.1',
    '192.168.1.1',
    '198.18.0.1',
    '198.51.100.7',
    '203.0.113.9',
    '224.0.0.251',
    '239.255.255.250',
    '240.0.0.1',
    '255.255.255.255',
  ])('refuses IPv4 %s', (address) => expect(isPublicAddress(address)).toBe(false))

  it.each([
    '::',
    '::1',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    'febf::1',
    'ff02::1',
    'ff05::2',
    '2001:db8::1',
    '2001::1',
    '100::1',
    // IPv4 in IPv6: mapped, compatible, NAT64 and 6to4 forms of private addresses.
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '::127.0.0.1',
    '64:ff9b::a9fe:a9fe',
    '64:ff9b::10.1.1.1',
    '2002:7f00:1::1',
    '2002:c0a8:101::1',
  ])('refuses IPv6 %s', (address) => expect(isPublicAddress(address)).toBe(false))

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.215.14',
    '100.63.255.255',
    '100.128.0.1',
    '172.15.255.255',
    '172.32.0.1',
    '192.169.0.1',
    '2606:4700::6810:84e5',
    '2a00:1450:4001:82b::200e',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
  ])('accepts %s', (address) => expect(isPublicAddress(address)).toBe(true))

  it('refuses what is no address', () => {
    for (const value of ['', 'localhost', '127.1', '0x7f000001', '2130706433', '010.0.0.1', 'fe80::1%eth0', '1.2.3.4.5', ':::1', 'x'.repeat(100)]) expect(isPublicAddress(value), value).toBe(false)
  })
})

describe('guardedLookup: the check and the connection use one answer', () => {
  const lookupWith = (addresses: ResolvedAddress[]) => {
    const lookup = guardedLookup(async () => addresses)
    return (all: boolean) =>
      new Promise<{ error: Error | null; address: unknown; family?: number }>((resolve) => lookup('signer.example', { all }, (error, address, family) => resolve({ error, address, family })))
  }

  it('hands node:https the public addresses it checked, in either form', async () => {
    const addresses = [
      { address: '93.184.215.14', family: 4 },
      { address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 },
    ]
    expect(await lookupWith(addresses)(true)).toEqual({ error: null, address: addresses, family: undefined })
    expect(await lookupWith(addresses)(false)).toEqual({ error: null, address: '93.184.215.14', family: 4 })
  })

  it('refuses an answer with any private address, and an empty one', async () => {
    for (const addresses of [
      [{ address: '127.0.0.1', family: 4 }],
      [
        { address: '93.184.215.14', family: 4 },
        { address: '::ffff:10.0.0.1', family: 6 },
      ],
      [],
    ]) {
      const { error } = await lookupWith(addresses)(true)
      expect(error?.name, JSON.stringify(addresses)).toBe(PRIVATE_ADDRESS)
    }
  })

  it('a resolver that fails, at once or later, is a failed lookup, never an exception', async () => {
    for (const resolve of [
      () => {
        throw new Error('boom')
      },
      () => Promise.reject(new Error('boom')),
    ]) {
      const error = await new Promise<Error | null>((settle) => guardedLookup(resolve)('signer.example', { all: true }, (e) => settle(e)))
      expect(error?.message).toBe('boom')
    }
  })

  it('knows it runs in Node here (the Workers runtime says Cloudflare-Workers)', () => {
    expect(isNodeRuntime()).toBe(true)
  })
})
