import { beforeAll, describe, expect, it } from 'vitest'
import { claimBySignature, signatureAgentOf, verifySignedRequest, type SignedRequest } from '../../src/verify/web-bot-auth.ts'
import { createKeyDirectories, type KeyDirectoryOptions } from '../../src/verify/store/key-directories.ts'
import { createSigner, DIRECTORY, fakeFetch, replay, signedRequest, type TestSigner } from '../support/web-bot-auth-signer.ts'

// Unit tests of verifySignedRequest: requests signed by http-message-sig with
// a key made here, the directory served by an injected fetch (no network).
// Grouped by the section of draft-ietf-webbotauth-httpsig-protocol they check.

const URL_ = 'https://www.example.com/articles/1?page=2'
const json =
  (body: string, headers: Record<string, string> = {}) =>
  () =>
    new Response(body, { headers: { 'content-type': 'application/http-message-signatures-directory+json', ...headers } })

let signer: TestSigner
let other: TestSigner
beforeAll(async () => {
  signer = await createSigner()
  other = await createSigner()
})

function verifier(routes: Parameters<typeof fakeFetch>[0] = { [DIRECTORY]: json(signer.directory()) }, options: KeyDirectoryOptions = {}, now?: number) {
  const { fetch, calls } = fakeFetch(routes)
  const directories = createKeyDirectories({ fetch, ...options })
  const verify = (request: Request, at = now) => verifySignedRequest(request, { resolveKey: directories.resolver(undefined, at), ...(at !== undefined && { now: at }) })
  return { verify, calls }
}

describe('§4 unsigned requests', () => {
  it('a request without a Signature header is unsigned, and nothing is fetched', async () => {
    const { verify, calls } = verifier()
    const request = new Request(URL_, { headers: { 'signature-agent': 'sig1="https://signer.example"', 'signature-input': 'sig1=("@authority")' } })
    expect(await verify(request)).toEqual({ status: 'unsigned' })
    expect(calls).toHaveLength(0)
  })
})

describe('§4.1 a valid signature', () => {
  it('verifies the dictionary form of Signature-Agent, naming the directory and key', async () => {
    const { verify, calls } = verifier()
    const result = await verify(await signedRequest(signer, URL_))
    expect(result).toEqual({ status: 'valid', directory: 'https://signer.example', keyId: signer.keyId, label: 'sig1' })
    expect(calls.map((c) => c.url)).toEqual([DIRECTORY])
  })

  it("verifies Google-Agent's shape: label and member `g`", async () => {
    const { verify } = verifier()
    const request = await signedRequest(signer, URL_, { label: 'g', agent: 'g="https://signer.example"' })
    expect(await verify(request)).toMatchObject({ status: 'valid', label: 'g' })
  })

  it("verifies the legacy bare-string form (ChatGPT agent's), covering the whole field", async () => {
    const { verify } = verifier()
    const request = await signedRequest(signer, URL_, { agent: '"https://signer.example"', parameters: { nonce: 'bm9uY2U=', alg: 'ed25519' } })
    expect(await verify(request)).toMatchObject({ status: 'valid', directory: 'https://signer.example' })
  })

  it('verifies a signature covering @target-uri instead of @authority (either is allowed)', async () => {
    const { verify } = verifier()
    const request = await signedRequest(signer, URL_, { components: ['@target-uri', { name: 'signature-agent', parameters: { key: 'sig1' } }] })
    expect(await verify(request)).toMatchObject({ status: 'valid' })
  })

  it('checks only web-bot-auth signatures, and the first valid one counts', async () => {
    const { verify } = verifier()
    const good = await signedRequest(signer, URL_, { label: 'b', agent: 'b="https://signer.example"' })
    const headers = new Headers(good.headers)
    headers.set(
      'signature-input',
      `a=("@authority");created=1;keyid="x", bad=("@authority" "signature-agent";key="b");created=${Math.floor(Date.now() / 1000)};expires=${Math.floor(Date.now() / 1000) + 60};keyid="${signer.keyId}";tag="web-bot-auth", ${good.headers.get('signature-input')}`,
    )
    headers.set('signature', `a=:AAAA:, bad=:${btoa('x'.repeat(64))}:, ${good.headers.get('signature')}`)
    expect(await verify(new Request(URL_, { headers }))).toMatchObject({ status: 'valid', label: 'b' })
  })
})

describe('§4.1 created, expires and tag', () => {
  const now = Date.UTC(2026, 9, 1) // fixed clock
  const at = Math.floor(now / 1000)

  it('refuses an expired signature without fetching the directory', async () => {
    const { verify, calls } = verifier(undefined, {}, now)
    const request = await signedRequest(signer, URL_, { created: at - 600, lifetime: 300 })
    expect(await verify(request)).toEqual({ status: 'invalid', reason: 'expired' })
    expect(calls).toHaveLength(0)
  })

  it('allows a minute of clock skew, no more', async () => {
    const { verify } = verifier(undefined, {}, now)
    expect(await verify(await signedRequest(signer, URL_, { created: at + 50 }))).toMatchObject({ status: 'valid' })
    expect(await verify(await signedRequest(signer, URL_, { created: at + 120 }))).toEqual({ status: 'invalid', reason: 'not-yet-valid' })
    expect(await verify(await signedRequest(signer, URL_, { created: at - 350, lifetime: 300 }))).toMatchObject({ status: 'valid' })
  })

  it('refuses a signature that lives longer than 24 hours, or expires before it is created', async () => {
    const { verify } = verifier(undefined, {}, now)
    expect(await verify(await signedRequest(signer, URL_, { created: at, lifetime: 86_401 }))).toEqual({ status: 'invalid', reason: 'too-long-lived' })
    expect(await verify(await signedRequest(signer, URL_, { created: at, lifetime: -1 }))).toEqual({ status: 'invalid', reason: 'too-long-lived' })
  })

  it('refuses a signature with no web-bot-auth tag', async () => {
    const { verify } = verifier()
    expect(await verify(await signedRequest(signer, URL_, { tag: null }))).toEqual({ status: 'invalid', reason: 'tag' })
    expect(await verify(await signedRequest(signer, URL_, { tag: 'other' }))).toEqual({ status: 'invalid', reason: 'tag' })
  })

  it('refuses a signature with no keyid', async () => {
    const { verify } = verifier()
    const request = await signedRequest(signer, URL_)
    const headers = new Headers(request.headers)
    headers.set('signature-input', request.headers.get('signature-input')!.replace(/;keyid="[^"]*"/, ''))
    expect(await verify(new Request(URL_, { headers }))).toEqual({ status: 'invalid', reason: 'missing-parameter' })
  })

  it('leaves an algorithm other than ed25519 unverifiable, not invalid', async () => {
    const { verify, calls } = verifier()
    const request = await signedRequest(signer, URL_)
    const headers = new Headers(request.headers)
    headers.set('signature-input', `${request.headers.get('signature-input')};alg="rsa-pss-sha512"`)
    expect(await verify(new Request(URL_, { headers }))).toEqual({ status: 'unverifiable', reason: 'unsupported' })
    expect(calls).toHaveLength(0)
  })
})

describe('§4.1 covered components: the signature is bound to this host', () => {
  it('refuses a signature replayed to another host', async () => {
    const { verify } = verifier()
    const request = await signedRequest(signer, 'https://a.example.com/x')
    expect(await verify(request)).toMatchObject({ status: 'valid' })
    expect(await verify(replay(request, 'https://b.example.com/x'))).toEqual({ status: 'invalid', reason: 'bad-signature', directory: 'https://signer.example' })
    expect(await verify(replay(request, 'https://a.example.com:8443/x'))).toMatchObject({ status: 'invalid', reason: 'bad-signature' })
  })

  it('refuses a tampered path or method when they are covered', async () => {
    const { verify } = verifier()
    const request = await signedRequest(signer, 'https://www.example.com/public')
    expect(await verify(replay(request, 'https://www.example.com/private'))).toMatchObject({ status: 'invalid', reason: 'bad-signature' })
    expect(await verify(new Request('https://www.example.com/public', { method: 'POST', headers: request.headers, body: 'x' }))).toMatchObject({ reason: 'bad-signature' })
  })

  it('refuses a signature covering neither @authority nor @target-uri', async () => {
    const { verify } = verifier()
    const request = await signedRequest(signer, URL_, { components: ['@path', { name: 'signature-agent', parameters: { key: 'sig1' } }] })
    expect(await verify(request)).toEqual({ status: 'invalid', reason: 'authority-not-covered' })
  })

  it('refuses a Signature-Agent the signature does not cover, and a signed request without one', async () => {
    const { verify, calls } = verifier()
    expect(await verify(await signedRequest(signer, URL_, { components: ['@authority'] }))).toEqual({ status: 'invalid', reason: 'signature-agent-not-covered' })
    expect(await verify(await signedRequest(signer, URL_, { agent: null }))).toEqual({ status: 'invalid', reason: 'no-signature-agent' })
    expect(calls).toHaveLength(0)
  })

  it('refuses a Signature-Agent swapped after signing', async () => {
    const routes = { [DIRECTORY]: json(signer.directory()), 'https://evil.example/.well-known/http-message-signatures-directory': json(signer.directory()) }
    const { verify } = verifier(routes)
    const request = await signedRequest(signer, URL_)
    const headers = new Headers(request.headers)
    headers.set('signature-agent', 'sig1="https://evil.example"')
    expect(await verify(new Request(URL_, { headers }))).toEqual({ status: 'invalid', reason: 'bad-signature', directory: 'https://evil.example' })
  })
})

describe('§4.3 keyid and the key', () => {
  it('refuses a key the directory does not publish', async () => {
    const { verify } = verifier()
    expect(await verify(await signedRequest(other, URL_))).toEqual({ status: 'invalid', reason: 'unknown-key', directory: 'https://signer.example' })
  })

  it("refuses bytes signed by another key under the directory key's keyid", async () => {
    const { verify } = verifier()
    expect(await verify(await signedRequest(other, URL_, { keyId: signer.keyId }))).toEqual({ status: 'invalid', reason: 'bad-signature', directory: 'https://signer.example' })
  })

  it("refuses a key outside the directory's nbf/exp", async () => {
    const expired = JSON.stringify({ keys: [{ ...signer.publicJwk, exp: Math.floor(Date.now() / 1000) - 3600 }] })
    const { verify } = verifier({ [DIRECTORY]: json(expired) })
    expect(await verify(await signedRequest(signer, URL_))).toMatchObject({ status: 'invalid', reason: 'key-expired' })
  })

  it('leaves a keyid of a key of another type unverifiable', async () => {
    const directory = JSON.stringify({ keys: [signer.publicJwk, { kty: 'RSA', kid: 'rsa-key-1', n: 'AQAB', e: 'AQAB' }] })
    const { verify } = verifier({ [DIRECTORY]: json(directory) })
    expect(await verify(await signedRequest(signer, URL_, { keyId: 'rsa-key-1' }))).toMatchObject({ status: 'unverifiable', reason: 'unsupported' })
  })
})

describe('§5 discovery failures leave the signature unverifiable', () => {
  it.each([
    ['redirect', () => new Response(null, { status: 302, headers: { location: 'https://elsewhere.example/keys' } })],
    ['http-status', () => new Response('gone', { status: 410 })],
    ['not-a-directory', () => new Response('<html>hello</html>')],
  ] as const)('%s', async (reason, route) => {
    const { verify, calls } = verifier({ [DIRECTORY]: route })
    expect(await verify(await signedRequest(signer, URL_))).toEqual({ status: 'unverifiable', reason, directory: 'https://signer.example' })
    // Redirects are never followed (§5): one fetch, made with redirect: 'manual'.
    expect(calls).toHaveLength(1)
    expect(calls[0]!.init.redirect).toBe('manual')
  })

  it('a directory that never answers times out within the limit', async () => {
    const { verify } = verifier({ [DIRECTORY]: () => new Promise<Response>(() => {}) }, { timeoutMs: 100 })
    const started = Date.now()
    expect(await verify(await signedRequest(signer, URL_))).toMatchObject({ status: 'unverifiable', reason: 'timeout' })
    // The 100 ms limit fired, not the test's timeout: a loaded CI core may delay a timer, never by seconds.
    expect(Date.now() - started).toBeLessThan(5000)
  }, 15_000)

  it('a directory that stalls mid-body times out too', async () => {
    const stalled = () => new Response(new ReadableStream({ start: (c) => c.enqueue(new TextEncoder().encode('{"keys":[')) }))
    const { verify } = verifier({ [DIRECTORY]: stalled }, { timeoutMs: 100 })
    expect(await verify(await signedRequest(signer, URL_))).toMatchObject({ status: 'unverifiable', reason: 'timeout' })
  })

  it('a huge directory is refused, whether or not it says so', async () => {
    const big = signer.directory([{ filler: 'x'.repeat(70 * 1024) }])
    for (const route of [json(big), () => new Response(new Blob([big]).stream())]) {
      const { verify } = verifier({ [DIRECTORY]: route })
      expect(await verify(await signedRequest(signer, URL_))).toMatchObject({ status: 'unverifiable', reason: 'too-large' })
    }
  })

  it('never fetches a Signature-Agent that is not a public https origin', async () => {
    const { verify, calls } = verifier()
    for (const agent of [
      'http://signer.example',
      'https://user:pw@signer.example',
      'https://127.0.0.1',
      'https://[::1]',
      'https://localhost',
      'https://2130706433',
      'https://printer.local',
      'https://intranet',
      'https://signer.example/keys',
      'not a url',
    ]) {
      const result = await verify(await signedRequest(signer, URL_, { agent: `sig1="${agent}"` }))
      expect(result, agent).toEqual({ status: 'invalid', reason: 'bad-signature-agent' })
    }
    expect(calls).toHaveLength(0)
  })

  // In Node nothing stands between this process and its own network: a public-looking name that resolves to loopback is refused before any connection.
  it.each([
    ['127.0.0.1', 4],
    ['::1', 6],
    ['::ffff:127.0.0.1', 6],
    ['169.254.169.254', 4],
    ['10.0.0.5', 4],
  ])(
    'in Node, refuses a Signature-Agent whose name resolves to %s, with no connection made',
    async (address, family) => {
      const asked: string[] = []
      const directories = createKeyDirectories({ lookup: async (hostname) => (asked.push(hostname), [{ address, family }]), timeoutMs: 1000 })
      const request = await signedRequest(signer, URL_, { agent: 'sig1="https://adv-dir.test"' })
      expect(await verifySignedRequest(request, { resolveKey: directories.resolver(undefined) })).toEqual({ status: 'invalid', reason: 'bad-signature-agent', directory: 'https://adv-dir.test' })
      expect(asked).toEqual(['adv-dir.test'])
      // Remembered as a failure for a while: the next request asks nothing.
      expect(await verifySignedRequest(request, { resolveKey: directories.resolver(undefined) })).toMatchObject({ status: 'invalid', reason: 'bad-signature-agent' })
      expect(asked).toHaveLength(1)
    },
    10_000,
  )

  it('leaves discovery types other than directory unverifiable', async () => {
    const { verify, calls } = verifier()
    const request = await signedRequest(signer, URL_, { agent: 'sig1="https://signer.example/jwks.json";type=jwks_uri' })
    expect(await verify(request)).toEqual({ status: 'unverifiable', reason: 'unsupported' })
    expect(calls).toHaveLength(0)
  })
})

describe('bad input is a result, never an exception', () => {
  const garbage = [
    '',
    ' ',
    'sig1',
    'sig1=',
    'sig1=:not base64!:',
    'sig1=("@authority"',
    '=(',
    'sig1=(),sig1=()',
    '\u0000\uffff',
    'sig1=("@authority");created=99999999999999999999',
    'x'.repeat(10_000),
    'sig1=("@authority" "@authority");tag="web-bot-auth"',
  ]
  it.each(garbage)('Signature-Input %j', async (input) => {
    const { verify } = verifier()
    const request = await signedRequest(signer, URL_)
    const headers = new Headers(request.headers)
    try {
      headers.set('signature-input', input)
    } catch {
      return // not even a header value
    }
    const result = await verify(new Request(URL_, { headers }))
    expect(result.status).toBe('invalid')
  })

  it.each(['', 'sig1=:AAAA:', 'sig1=("x")', 'other=:' + btoa('y'.repeat(64)) + ':', 'sig1=:' + btoa('y'.repeat(64)) + ':;x=1, sig1=:AA==:'])('Signature %j', async (signature) => {
    const { verify } = verifier()
    const request = await signedRequest(signer, URL_)
    const headers = new Headers(request.headers)
    headers.set('signature', signature)
    expect((await verify(new Request(URL_, { headers }))).status).toBe('invalid')
  })

  it.each(['', 'sig1=', 'sig1=("https://signer.example")', 'sig1=https', 'sig1="https://signer.example", sig1="https://evil.example"'])('Signature-Agent %j', async (agent) => {
    const { verify } = verifier()
    const request = await signedRequest(signer, URL_)
    const headers = new Headers(request.headers)
    headers.set('signature-agent', agent)
    expect((await verify(new Request(URL_, { headers }))).status).toBe('invalid')
  })
})

describe('claimBySignature: what the result says about a claimed agent', () => {
  const valid = (directory: string): SignedRequest => ({ status: 'valid', directory, keyId: 'k', label: 'sig1' })
  it('registry entries name the directories their operators sign with', () => {
    expect(signatureAgentOf('google-agent')).toBe('https://agent.bot.goog')
    expect(signatureAgentOf('chatgpt-user')).toBe('https://chatgpt.com')
    expect(signatureAgentOf('googlebot')).toBeUndefined()
  })

  it('verified only by the claimed agent’s own directory; spoofed on an invalid signature; else undecided', () => {
    expect(claimBySignature('google-agent', valid('https://agent.bot.goog'))).toBe('verified')
    expect(claimBySignature('google-agent', valid('https://signer.example'))).toBeUndefined()
    expect(claimBySignature('google-agent', { status: 'invalid', reason: 'bad-signature', directory: 'https://agent.bot.goog' })).toBe('spoofed')
    expect(claimBySignature('google-agent', { status: 'invalid', reason: 'expired' })).toBe('spoofed')
    expect(claimBySignature('google-agent', { status: 'unverifiable', reason: 'timeout' })).toBeUndefined()
    expect(claimBySignature('google-agent', { status: 'unsigned' })).toBeUndefined()
    // An agent whose operator does not sign, or no registry agent: the signature decides nothing.
    expect(claimBySignature('googlebot', { status: 'invalid', reason: 'bad-signature' })).toBeUndefined()
    expect(claimBySignature(undefined, valid('https://agent.bot.goog'))).toBeUndefined()
  })
})
