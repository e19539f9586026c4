import { describe, expect, it } from 'vitest'
import { signatureBase, verifyEd25519 } from '../../src/verify/http-signature.ts'
import { directoryLifetime, ed25519Thumbprint, importDirectoryKey, MAX_DIRECTORY_KEYS, parseKeyDirectory } from '../../src/verify/key-directory.ts'
import { directoryOrigin, signatureAgentOrigin } from '../../src/verify/signature-agent.ts'
import { Decimal, parseDictionary, parseItem, serializeInnerList, serializeItem, Token, type InnerList } from '../../src/core/http/structured-fields.ts'
import { verifySignedRequest } from '../../src/verify/web-bot-auth.ts'
import { createKeyDirectories } from '../../src/verify/store/key-directories.ts'
import { createSigner } from '../support/web-bot-auth-signer.ts'

// The pieces under the verifier: structured fields (RFC 8941), the
// signature base (RFC 9421) against the draft's published test vectors,
// JWK thumbprints (RFC 7638), directory parsing and cache lifetimes.

// RFC 9421 Appendix B.1.4's Ed25519 test key, used by the draft's vectors.
const RFC_KEY_X = 'JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs'
const RFC_KEY_ID = 'poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U'

// draft-ietf-webbotauth-httpsig-protocol, Appendix "EdDSA Using Curve edwards25519".
const VECTORS = {
  dictionary: {
    agent: 'agent2="https://signature-agent.test"',
    input: `sig2=("@authority" "signature-agent";key="agent2");created=1735689600;keyid="${RFC_KEY_ID}";alg="ed25519";expires=4889289600;nonce="n9p433xm+NJ3ph3upfBIGmsuwHw387YV7Q/F+6BSpGCVjYCqQw6rznNA8PVVLySrAWsv0hQtFioQb6E1YsauiA==";tag="web-bot-auth"`,
    signature: 'sig2=:RdNFx5Bj6au3YgAMQL/RzmUlZE8QZLIaXGRpw985hWnwPfMxT228NMk6ehRS1PSl4e8PhbNZACSanGdhEwYCCg==:',
    base: ['"@authority": example.com', '"signature-agent";key="agent2": "https://signature-agent.test"'],
  },
  legacy: {
    agent: '"https://signature-agent.test"',
    input: `sig2=("@authority" "signature-agent");created=1735689600;keyid="${RFC_KEY_ID}";alg="ed25519";expires=1735693200;nonce="e8N7S2MFd/qrd6T2R3tdfAuuANngKI7LFtKYI/vowzk4lAZYadIX6wW25MwG7DCT9RUKAJ0qVkU0mEeLElW1qg==";tag="web-bot-auth"`,
    signature: 'sig2=:jdq0SqOwHdyHr9+r5jw3iYZH6aNGKijYp/EstF4RQTQdi5N5YYKrD+mCT1HA1nZDsi6nJKuHxUi/5Syp3rLWBA==:',
    base: ['"@authority": example.com', '"signature-agent": "https://signature-agent.test"'],
  },
}

const vectorRequest = (v: (typeof VECTORS)['legacy']) => new Request('https://example.com/', { headers: { 'signature-agent': v.agent, 'signature-input': v.input, signature: v.signature } })

describe('RFC 9421 signature base: the draft test vectors', () => {
  it.each(Object.entries(VECTORS))('%s Signature-Agent: the base matches and the signature verifies', async (_name, v) => {
    const request = vectorRequest(v)
    const input = parseDictionary(v.input).get('sig2') as InnerList
    const base = signatureBase(request, new URL(request.url), input)
    expect(base).toBe([...v.base, `"@signature-params": ${v.input.slice('sig2='.length)}`].join('\n'))
    const key = await importDirectoryKey({ kid: RFC_KEY_ID, x: RFC_KEY_X })
    const bytes = parseDictionary(v.signature).get('sig2')![0] as Uint8Array<ArrayBuffer>
    expect(await verifyEd25519(key!, bytes, base)).toBe(true)
    expect(await verifyEd25519(key!, bytes, base.replace('example.com', 'example.org'))).toBe(false)
  })

  it('refuses the RFC test key even when a directory publishes it (draft §6: reject known test keys)', async () => {
    const body = JSON.stringify({ keys: [{ kty: 'OKP', crv: 'Ed25519', x: RFC_KEY_X, kid: RFC_KEY_ID }] })
    const directories = createKeyDirectories({ fetch: async () => new Response(body) })
    const now = 1735689700 * 1000
    const result = await verifySignedRequest(vectorRequest(VECTORS.legacy), { resolveKey: directories.resolver(undefined, now), now })
    expect(result).toEqual({ status: 'invalid', reason: 'unknown-key', directory: 'https://signature-agent.test' })
    // The dictionary vector lives 100 years: refused before any key is looked up.
    expect(await verifySignedRequest(vectorRequest(VECTORS.dictionary), { resolveKey: directories.resolver(undefined, now), now })).toEqual({ status: 'invalid', reason: 'too-long-lived' })
  })
})

describe('RFC 7638 thumbprints and directories', () => {
  it("computes the draft's keyid for the RFC 9421 key", async () => {
    expect(await ed25519Thumbprint(RFC_KEY_X)).toBe(RFC_KEY_ID)
  })

  it('keeps Ed25519 signing keys whose kid is their thumbprint, and skips the rest', async () => {
    const a = await createSigner()
    const b = await createSigner()
    const parsed = await parseKeyDirectory(
      JSON.stringify({
        keys: [
          { ...a.publicJwk, nbf: 1, exp: 2_000_000_000 },
          { ...b.publicJwk, kid: a.keyId }, // kid is not its thumbprint
          { kty: 'RSA', kid: 'rsa-1', n: 'x', e: 'AQAB' }, // another type, remembered as such
          { kty: 'OKP', crv: 'X25519', x: a.publicJwk.x }, // not a signing curve
          { ...b.publicJwk, use: 'enc' },
          { ...b.publicJwk, d: 'secret' }, // private part published
          { kty: 'OKP', crv: 'Ed25519', x: 'short' },
          { kty: 'OKP', crv: 'Ed25519', x: RFC_KEY_X }, // the RFC test key
          'garbage',
          null,
          { ...a.publicJwk }, // a duplicate
        ],
      }),
    )
    expect(parsed).toEqual({ keys: [{ kid: a.keyId, x: a.publicJwk.x, nbf: 1, exp: 2_000_000_000 }], unsupported: ['rsa-1'], skipped: 10 })
    // Without kid a key is still known by its thumbprint.
    expect((await parseKeyDirectory(JSON.stringify({ keys: [{ kty: 'OKP', crv: 'Ed25519', x: b.publicJwk.x }] })))?.keys[0]?.kid).toBe(b.keyId)
  })

  it('reads no more than the key bound, and nothing from a body that is no JWK Set', async () => {
    const signer = await createSigner()
    const many = JSON.stringify({ keys: Array.from({ length: 1000 }, () => ({ kty: 'OKP', crv: 'Ed25519', x: 'bad' })).concat([signer.publicJwk]) })
    const parsed = await parseKeyDirectory(many)
    expect(parsed?.keys).toEqual([])
    expect(parsed?.skipped).toBe(1001)
    expect(MAX_DIRECTORY_KEYS).toBe(32)
    for (const body of ['', 'null', '[]', '{"keys":{}}', '<html>', '{"keys":"x"}']) expect(await parseKeyDirectory(body), body).toBeNull()
  })

  it('reuses a directory as its Cache-Control says, within a floor and a ceiling', () => {
    const bounds = { floor: 300, ceiling: 86_400, fallback: 3600 }
    const life = (headers: Record<string, string>) => directoryLifetime(new Headers(headers), bounds)
    expect(life({ 'cache-control': 'public, max-age=7200' })).toBe(7200)
    expect(life({ 'cache-control': 'max-age=10' })).toBe(300)
    expect(life({ 'cache-control': 'max-age=99999999' })).toBe(86_400)
    expect(life({ 'cache-control': 'no-store' })).toBe(300)
    expect(life({ 'cache-control': 'private, no-cache' })).toBe(300)
    expect(life({ date: 'Thu, 01 Oct 2026 00:00:00 GMT', expires: 'Thu, 01 Oct 2026 02:00:00 GMT' })).toBe(7200)
    expect(life({ expires: 'garbage', date: 'also' })).toBe(3600)
    expect(life({})).toBe(3600)
  })
})

describe('Signature-Agent values: https origins that may be fetched', () => {
  it.each([
    ['https://agent.bot.goog', 'https://agent.bot.goog'],
    ['https://ChatGPT.com/', 'https://chatgpt.com'],
    ['https://signer.example:443', 'https://signer.example'],
  ])('accepts %s', (value, origin) => expect(directoryOrigin(value)).toBe(origin))

  // §"Server-Side Request Forgery": a directory is an https origin on the default port; any other port lets a client aim the fetch at another service.
  it.each(['https://signer.example:8443', 'https://adv-dir.test:41443', 'https://signer.example:80', 'https://signer.example:1'])('refuses %s: a port other than 443', (value) => {
    expect(directoryOrigin(value)).toBeNull()
    expect(signatureAgentOrigin(`g="${value}"`, 'g')).toEqual({ ok: false, problem: 'bad-signature-agent' })
  })

  it.each([
    'http://chatgpt.com',
    'https://u@chatgpt.com',
    'https://chatgpt.com/path',
    'https://chatgpt.com/?q',
    'https://chatgpt.com#x',
    'https://10.0.0.1',
    'https://0x7f000001',
    'https://[fe80::1]',
    'https://localhost',
    'https://a.localhost',
    'https://nas.local',
    'https://db.internal',
    'https://router',
    'ftp://chatgpt.com',
    'javascript:alert(1)',
    '',
  ])('refuses %j', (value) => {
    expect(directoryOrigin(value)).toBeNull()
  })

  it('reads the member a signature covers, the legacy string form, and the type parameter', () => {
    expect(signatureAgentOrigin('g="https://agent.bot.goog"', 'g')).toEqual({ ok: true, origin: 'https://agent.bot.goog' })
    expect(signatureAgentOrigin('a="https://a.example", b="https://b.example";type=directory', 'b')).toEqual({ ok: true, origin: 'https://b.example' })
    expect(signatureAgentOrigin('"https://chatgpt.com"', undefined)).toEqual({ ok: true, origin: 'https://chatgpt.com' })
    expect(signatureAgentOrigin('g="https://agent.bot.goog"', 'h')).toEqual({ ok: false, problem: 'bad-signature-agent' })
    expect(signatureAgentOrigin('"https://chatgpt.com"', 'sig1')).toEqual({ ok: false, problem: 'bad-signature-agent' })
    expect(signatureAgentOrigin('g=https', 'g')).toEqual({ ok: false, problem: 'bad-signature-agent' })
    expect(signatureAgentOrigin('g="https://x.example/card";type=cimd', 'g')).toEqual({ ok: false, problem: 'unsupported-discovery' })
    expect(signatureAgentOrigin('g="https://x.example"'.padEnd(5000, ' '), 'g')).toEqual({ ok: false, problem: 'bad-signature-agent' })
  })
})

describe('RFC 8941 structured fields', () => {
  it('parses and re-serializes every bare item type', () => {
    const dict = parseDictionary('a=1, b="x\\"y", c=tok/en:1, d=?0, e=:AQID:, f=-1.5, g=(1 "two" three);p=?1, h;q=2.0')
    expect(serializeItem(dict.get('a') as never)).toBe('1')
    expect(dict.get('b')?.[0]).toBe('x"y')
    expect(serializeItem(dict.get('b') as never)).toBe('"x\\"y"')
    expect(dict.get('c')?.[0]).toEqual(new Token('tok/en:1'))
    expect(dict.get('d')?.[0]).toBe(false)
    expect(dict.get('e')?.[0]).toEqual(new Uint8Array([1, 2, 3]))
    expect(serializeItem(dict.get('e') as never)).toBe(':AQID:')
    expect(dict.get('f')?.[0]).toEqual(new Decimal(-1.5))
    expect(serializeInnerList(dict.get('g') as InnerList)).toBe('(1 "two" three);p')
    expect(serializeItem(dict.get('h') as never)).toBe('?1;q=2.0')
    expect(parseItem('  "https://chatgpt.com"  ')[0]).toBe('https://chatgpt.com')
  })

  it.each(['a=1,', 'a=1,,b=2', 'A=1', 'a="unterminated', 'a="\u00e9"', 'a=(1 2', 'a=(1;)', 'a=1234567890123456', 'a=1.2345', 'a=:abc:', 'a=?2', 'a=@1', 'a=%"x"'])('refuses %j', (input) => {
    expect(() => parseDictionary(input)).toThrow(SyntaxError)
  })

  // RFC 8941 §4.2.2 and §4.2.3.2 overwrite a repeated key; the signature headers refuse it (robots-edge deviation).
  it.each(['a=1, a=2', 'a=1;p;p'])('refuses %j in a signature header, reads it otherwise', (input) => {
    expect(() => parseDictionary(input, { refuseDuplicates: true })).toThrow(SyntaxError)
    expect(parseDictionary(input).get('a')).toBeDefined()
  })
})
