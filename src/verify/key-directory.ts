/**
 * HTTP Message Signatures directories (draft-ietf-webbotauth-httpsig-protocol
 * §"Key Distribution and Discovery"): where a signing agent publishes its public keys, and how a JWK Set
 * served there is read. Only Ed25519 keys are kept (RFC 8037); each key is
 * known by its JWK thumbprint (RFC 7638), the `keyid` signatures name.
 */

/** §"Well-Known URI": the well-known path of a directory, at the origin `Signature-Agent` names. */
export const DIRECTORY_PATH = '/.well-known/http-message-signatures-directory'

/** The URL fetched for a directory origin (`https://agent.bot.goog`). */
export function directoryUrl(origin: string): string {
  return `${origin}${DIRECTORY_PATH}`
}

/** One Ed25519 public key of a directory. */
export interface DirectoryKey {
  /** RFC 7638 thumbprint (base64url SHA-256), the `keyid` a signature names. */
  readonly kid: string
  /** The public key, base64url (RFC 8037 §2). */
  readonly x: string
  /** `nbf` and `exp` (seconds since the epoch), when the directory states them. */
  readonly nbf?: number
  readonly exp?: number
}

export interface ParsedDirectory {
  readonly keys: readonly DirectoryKey[]
  /** The `kid`s of well-formed keys of other types (RSA, EC): a signature naming one is not verifiable here. */
  readonly unsupported: readonly string[]
  /** Entries left out: other key types, malformed keys, a `kid` that is not the thumbprint, known test keys. */
  readonly skipped: number
}

/**
 * Most keys read from one directory. §"Server-Side Request Forgery" asks for a bound ("a JWKS with many
 * keys forces O(n) key search"); rotation needs two or three.
 */
export const MAX_DIRECTORY_KEYS = 32

/**
 * Keys published as examples, refused wherever they appear (§"Test and Demonstration Keys": "Verifiers
 * SHOULD reject known test keys"): RFC 9421 Appendix B.1.4's Ed25519 key.
 */
const TEST_KEYS = new Set(['poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U'])

/** An Ed25519 public key: 32 bytes, base64url without padding (43 characters, the last one carrying 4 bits). */
const ED25519_X = /^[A-Za-z0-9_-]{42}[AEIMQUYcgkosw048]$/

/**
 * The RFC 7638 thumbprint of an Ed25519 JWK: SHA-256 over its required
 * members in lexicographic order (`crv`, `kty`, `x`; RFC 8037 Appendix A.3),
 * base64url. `x` must already be checked, so the JSON is exactly this text.
 */
export async function ed25519Thumbprint(x: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`{"crv":"Ed25519","kty":"OKP","x":"${x}"}`))
  return base64url(new Uint8Array(digest))
}

function base64url(bytes: Uint8Array): string {
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

/**
 * Reads a directory body: a JWK Set (RFC 7517 §5). Keys that are not
 * Ed25519, malformed, marked for encryption (`use` other than `sig`),
 * published with their private part, or
 * whose `kid` differs from their thumbprint (§"Key Distribution and Discovery": "it MUST be set to the
 * thumbprint") are skipped, never trusted. Returns null when the body is no
 * JWK Set at all. Never throws.
 *
 * @example
 * await parseKeyDirectory('{"keys":[{"kty":"OKP","crv":"Ed25519","x":"JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs"}]}')
 */
export async function parseKeyDirectory(text: string): Promise<ParsedDirectory | null> {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    return null
  }
  const list = typeof json === 'object' && json !== null ? (json as { keys?: unknown }).keys : undefined
  if (!Array.isArray(list)) return null
  const keys: DirectoryKey[] = []
  const unsupported: string[] = []
  let skipped = 0
  for (const jwk of list.slice(0, MAX_DIRECTORY_KEYS)) {
    const key = await readKey(jwk)
    if (key !== null && !keys.some((k) => k.kid === key.kid)) keys.push(key)
    else {
      skipped++
      const other = otherKeyId(jwk)
      if (other !== null) unsupported.push(other)
    }
  }
  return { keys, unsupported, skipped: skipped + Math.max(0, list.length - MAX_DIRECTORY_KEYS) }
}

/** The `kid` of a signing key of another type (RSA-PSS is also registered for HTTP signatures). */
function otherKeyId(value: unknown): string | null {
  if (typeof value !== 'object' || value === null) return null
  const { kty, kid } = value as Record<string, unknown>
  return (kty === 'RSA' || kty === 'EC') && typeof kid === 'string' && /^[A-Za-z0-9_-]{1,128}$/.test(kid) ? kid : null
}

async function readKey(value: unknown): Promise<DirectoryKey | null> {
  if (typeof value !== 'object' || value === null) return null
  const jwk = value as Record<string, unknown>
  if (jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519' || typeof jwk.x !== 'string' || !ED25519_X.test(jwk.x)) return null
  // A key whose private part (`d`) is published can be used by anyone: it vouches for no one.
  if ((jwk.use !== undefined && jwk.use !== 'sig') || jwk.d !== undefined) return null
  const kid = await ed25519Thumbprint(jwk.x)
  if ((jwk.kid !== undefined && jwk.kid !== kid) || TEST_KEYS.has(kid)) return null
  const key: { -readonly [K in keyof DirectoryKey]: DirectoryKey[K] } = { kid, x: jwk.x }
  if (Number.isFinite(jwk.nbf)) key.nbf = jwk.nbf as number
  if (Number.isFinite(jwk.exp)) key.exp = jwk.exp as number
  return key
}

/** The verification key for a directory key; null when WebCrypto refuses it (not a point on the curve). */
export async function importDirectoryKey(key: DirectoryKey): Promise<CryptoKey | null> {
  try {
    return await crypto.subtle.importKey('jwk', { kty: 'OKP', crv: 'Ed25519', x: key.x }, { name: 'Ed25519' }, false, ['verify'])
  } catch {
    return null
  }
}

/**
 * Why no key could be had from a directory: discovery failed (§"Discovery
 * Failure"), which says nothing about the signer; except `private-address`,
 * a host that resolved to an address this process must not fetch from
 * (§"Server-Side Request Forgery"), which the verifier reads as a bad `Signature-Agent`.
 */
export type DirectoryFailure = 'timeout' | 'redirect' | 'http-status' | 'too-large' | 'not-a-directory' | 'network' | 'busy' | 'private-address'

export type KeyLookup =
  | { readonly status: 'found'; readonly key: CryptoKey; readonly nbf?: number; readonly exp?: number }
  /** The directory resolved, and has no such key: evidence (§"Discovery Failure"), not a failure. */
  | { readonly status: 'absent' }
  /** The key exists but is not Ed25519. */
  | { readonly status: 'unsupported' }
  | { readonly status: 'failed'; readonly reason: DirectoryFailure }

/** Bounds on how long a fetched directory is trusted, in seconds. */
export interface CacheBounds {
  /** Shortest (a `max-age=0` directory would be fetched on every request). */
  readonly floor: number
  /** Longest (§"Key Rotation": a removed key keeps verifying until caches expire). */
  readonly ceiling: number
  /** When the response states no lifetime. */
  readonly fallback: number
}

/**
 * How long a directory response may be reused (RFC 9111 §4.2.1): `max-age`,
 * else `Expires` minus `Date`, else the fallback, within the bounds.
 * `no-store` and `no-cache` get the floor: refetching a directory on every
 * signed request would let any client make this Worker fetch at will.
 */
export function directoryLifetime(headers: Headers, bounds: CacheBounds): number {
  const clamp = (seconds: number) => Math.min(bounds.ceiling, Math.max(bounds.floor, Math.floor(seconds)))
  const control = (headers.get('cache-control') ?? '').toLowerCase()
  if (/(?:^|,)\s*(?:no-store|no-cache)\b/.test(control)) return bounds.floor
  const maxAge = /(?:^|,)\s*max-age\s*=\s*"?(\d{1,10})"?/.exec(control)
  if (maxAge) return clamp(Number(maxAge[1]))
  const expires = Date.parse(headers.get('expires') ?? '')
  const date = Date.parse(headers.get('date') ?? '')
  if (Number.isFinite(expires) && Number.isFinite(date)) return clamp((expires - date) / 1000)
  return clamp(bounds.fallback)
}
