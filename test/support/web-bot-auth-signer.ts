import { createSignature, webcrypto, type SignatureComponent } from 'http-message-sig'

/**
 * A Web Bot Auth signer for tests: a fresh Ed25519 key, its directory, and
 * requests signed by Cloudflare's http-message-sig, so the verifier is
 * checked against another implementation of RFC 9421, not against itself.
 */

export interface TestSigner {
  readonly keyId: string
  readonly publicJwk: { kty: 'OKP'; crv: 'Ed25519'; x: string; kid: string }
  readonly privateKey: CryptoKey
  /** The directory body listing this key (and `extra` keys). */
  directory(extra?: readonly object[]): string
}

/** RFC 7638 thumbprint of an Ed25519 JWK, computed here independently of src/. */
async function thumbprint(x: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(JSON.stringify({ crv: 'Ed25519', kty: 'OKP', x }))))
  return btoa(String.fromCharCode(...digest))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '')
}

export async function createSigner(): Promise<TestSigner> {
  const pair = (await crypto.subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify'])) as CryptoKeyPair
  const jwk = (await crypto.subtle.exportKey('jwk', pair.publicKey)) as JsonWebKey
  const x = jwk.x!
  const keyId = await thumbprint(x)
  const publicJwk = { kty: 'OKP' as const, crv: 'Ed25519' as const, x, kid: keyId }
  return {
    keyId,
    publicJwk,
    privateKey: pair.privateKey,
    directory: (extra = []) => JSON.stringify({ keys: [{ ...publicJwk, use: 'sig' }, ...extra] }),
  }
}

export interface SignOptions {
  /** The `Signature-Agent` header as sent. Default: `sig1="https://signer.example"`; null sends none. */
  readonly agent?: string | null
  readonly label?: string
  /** Default: `@authority`, `@method`, `@path` and the `signature-agent` member of the label. */
  readonly components?: readonly SignatureComponent[]
  /** Seconds since the epoch. Default: now. */
  readonly created?: number
  /** Seconds after `created`. Default: 300. */
  readonly lifetime?: number
  readonly tag?: string | null
  readonly keyId?: string
  readonly headers?: Record<string, string>
  /** Extra signature parameters (nonce, alg). */
  readonly parameters?: Record<string, string | number>
}

/** A request to `url` signed by `signer`, as a Web Bot Auth agent sends it. */
export async function signedRequest(signer: TestSigner, url: string, options: SignOptions = {}): Promise<Request> {
  const label = options.label ?? 'sig1'
  const agent = options.agent === undefined ? `${label}="https://signer.example"` : options.agent
  const headers = new Headers(options.headers)
  if (agent !== null) headers.set('signature-agent', agent)
  const unsigned = new Request(url, { headers })
  const components = options.components ?? [
    '@authority',
    '@method',
    '@path',
    ...(agent === null ? [] : [agent.startsWith('"') ? 'signature-agent' : { name: 'signature-agent', parameters: { key: label } }]),
  ]
  const created = options.created ?? Math.floor(Date.now() / 1000)
  const fields = await createSignature(unsigned, {
    label,
    components,
    signer: webcrypto.signer(signer.privateKey),
    parameters: {
      created,
      expires: created + (options.lifetime ?? 300),
      keyid: options.keyId ?? signer.keyId,
      ...(options.tag !== null && { tag: options.tag ?? 'web-bot-auth' }),
      ...options.parameters,
    },
  })
  headers.set('signature', fields.signature)
  headers.set('signature-input', fields.signatureInput)
  return new Request(url, { headers })
}

/** The same headers on a request to another URL: a signature replayed elsewhere. */
export function replay(request: Request, url: string): Request {
  return new Request(url, { headers: request.headers })
}

/** A `fetch` serving `routes` (URL → response factory), recording each call. */
export function fakeFetch(routes: Record<string, () => Response | Promise<Response>>) {
  const calls: { url: string; init: RequestInit }[] = []
  const fetch = async (url: string, init: RequestInit): Promise<Response> => {
    calls.push({ url, init })
    const route = routes[url]
    return route === undefined ? new Response('not found', { status: 404 }) : route()
  }
  return { fetch, calls }
}

export const DIRECTORY = 'https://signer.example/.well-known/http-message-signatures-directory'
