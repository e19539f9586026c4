import type { Verification } from '../core/events.ts'
import { SignatureBaseError, signatureBase, verifyEd25519 } from './http-signature.ts'
import type { KeyLookup } from './key-directory.ts'
import { getAgent } from '../core/agents/registry.ts'
import { signatureAgentOrigin } from './signature-agent.ts'
import { isInnerList, parseDictionary, type Dictionary, type InnerList } from '../core/http/structured-fields.ts'

/**
 * Web Bot Auth (draft-ietf-webbotauth-httpsig-protocol-01, cited below by
 * section title as §"..."): checks the HTTP
 * Message Signature (RFC 9421) a bot attached to a request against the keys
 * its `Signature-Agent` directory publishes: the profile (tag, lifetime,
 * covered components, where the key comes from) here, the signature base in
 * http-signature.ts, the keys in key-directory.ts.
 */

/** Why a signature is not valid. */
export type SignatureFailure =
  | 'malformed' // unparsable Signature, Signature-Input or Signature-Agent, or labels that do not pair
  | 'tag' // no signature tagged `web-bot-auth` (§"Generating HTTP Message Signature": tag "MUST be `web-bot-auth`")
  | 'missing-parameter' // no `created`, `expires` or `keyid` (§"Generating HTTP Message Signature": MUST)
  | 'expired'
  | 'not-yet-valid' // `created` in the future, past the clock-skew allowance
  | 'too-long-lived' // `expires` further from `created` than allowed
  | 'authority-not-covered' // neither `@authority` nor `@target-uri` signed (§"Generating HTTP Message Signature")
  | 'no-signature-agent' // §"Signature-Agent": "A signed request MUST carry the `Signature-Agent` header"
  | 'signature-agent-not-covered' // §"Signature-Agent": its member "MUST be signed as a component"
  | 'bad-signature-agent' // names no https origin this Worker may fetch
  | 'unknown-key' // the directory resolved and does not hold `keyid`
  | 'key-expired' // the directory's `nbf`/`exp` for the key exclude now
  | 'bad-signature' // the bytes do not verify: tampered, replayed to another host, wrong key

/** Why a signature could not be checked: nothing is learnt about the signer (§"Discovery Failure", §"Verifier Outcomes" "unverified"). */
export type SignatureUncheckable = 'timeout' | 'redirect' | 'http-status' | 'too-large' | 'not-a-directory' | 'network' | 'busy' | 'unsupported'

export type SignedRequest =
  | { readonly status: 'unsigned' }
  | { readonly status: 'valid'; readonly directory: string; readonly keyId: string; readonly label: string }
  | { readonly status: 'invalid'; readonly reason: SignatureFailure; readonly directory?: string }
  | { readonly status: 'unverifiable'; readonly reason: SignatureUncheckable; readonly directory?: string }

export interface SignedRequestOptions {
  /** Finds a key in a directory (src/verify/store/key-directories.ts). */
  readonly resolveKey: (origin: string, keyId: string) => Promise<KeyLookup>
  /** Milliseconds since the epoch. Default: `Date.now()`. */
  readonly now?: number
  /** Allowance for the signer's clock, in seconds. Default: 60. */
  readonly clockSkew?: number
  /** Longest `expires - created` accepted, in seconds. Default: 86 400 (§"Generating HTTP Message Signature": "RECOMMENDED that expiry be no more than 24 hours"). */
  readonly maxLifetime?: number
}

const UNSIGNED: SignedRequest = Object.freeze({ status: 'unsigned' })
/** Web Bot Auth signatures tried per request; each may cost a directory fetch. */
const MAX_SIGNATURES = 3
const MAX_FIELD = 8192

/**
 * Verifies the Web Bot Auth signature of a request. A request without a
 * `Signature` header is `unsigned` after one header lookup, and nothing else
 * is done. Bad headers and bad signatures are results, never exceptions.
 * Nonces are not tracked: the draft adds no nonce requirement (§"Replay Protection",
 * deferring to RFC 9421 §7.2.2), and the lifetime bound limits replay.
 *
 * @example
 * const result = await verifySignedRequest(request, { resolveKey: directories.resolver(env.ROBOTS_KV) })
 * if (result.status === 'valid') console.log(`signed by ${result.directory}`)
 */
export async function verifySignedRequest(request: Request, options: SignedRequestOptions): Promise<SignedRequest> {
  const signature = request.headers.get('signature')
  if (signature === null) return UNSIGNED
  const input = request.headers.get('signature-input')
  if (input === null || input.length > MAX_FIELD || signature.length > MAX_FIELD) return { status: 'invalid', reason: 'malformed' }
  let inputs: Dictionary
  let signatures: Dictionary
  let url: URL
  try {
    // Duplicates refused: see ParseOptions.refuseDuplicates.
    inputs = parseDictionary(input, { refuseDuplicates: true })
    signatures = parseDictionary(signature, { refuseDuplicates: true })
    url = new URL(request.url)
  } catch {
    return { status: 'invalid', reason: 'malformed' }
  }
  // §"Multiple Signatures" allows several signatures; each is checked on its own, the first valid one counts.
  const labels = [...inputs].filter(([, member]) => isInnerList(member) && member[1].get('tag') === 'web-bot-auth').slice(0, MAX_SIGNATURES)
  if (labels.length === 0) return { status: 'invalid', reason: 'tag' }
  let first: SignedRequest | undefined
  for (const [label, member] of labels) {
    const result = await verifyLabel(request, url, label, member as InnerList, signatures, options)
    if (result.status === 'valid') return result
    first ??= result
  }
  return first!
}

type Rejection = Exclude<SignedRequest, { status: 'unsigned' | 'valid' }>

async function verifyLabel(request: Request, url: URL, label: string, input: InnerList, signatures: Dictionary, options: SignedRequestOptions): Promise<SignedRequest> {
  const now = Math.floor((options.now ?? Date.now()) / 1000)
  const skew = options.clockSkew ?? 60
  const checked = checkProfile(request, label, input, now, skew, options.maxLifetime ?? 86_400)
  if ('status' in checked) return checked
  const directory = checked.origin
  // RFC 9421 §3.2 step 1: a Signature member of the same label, a Byte Sequence.
  const bytes = signatures.get(label)
  if (bytes === undefined || isInnerList(bytes) || !(bytes[0] instanceof Uint8Array)) return { status: 'invalid', reason: 'malformed', directory }
  let base: string
  try {
    base = signatureBase(request, url, input)
  } catch (error) {
    // A feature left out here is no proof of forgery.
    if (error instanceof SignatureBaseError && error.unsupported) return { status: 'unverifiable', reason: 'unsupported', directory }
    return { status: 'invalid', reason: 'malformed', directory }
  }
  const found = await options.resolveKey(directory, checked.keyId)
  if (found.status === 'absent') return { status: 'invalid', reason: 'unknown-key', directory }
  if (found.status === 'unsupported') return { status: 'unverifiable', reason: 'unsupported', directory }
  // A name that resolves to a private address is refused as an IP literal is (signature-agent.ts).
  if (found.status === 'failed')
    return found.reason === 'private-address' ? { status: 'invalid', reason: 'bad-signature-agent', directory } : { status: 'unverifiable', reason: found.reason, directory }
  if ((found.nbf !== undefined && found.nbf > now + skew) || (found.exp !== undefined && found.exp < now - skew)) return { status: 'invalid', reason: 'key-expired', directory }
  if (!(await verifyEd25519(found.key, bytes[0], base))) return { status: 'invalid', reason: 'bad-signature', directory }
  return { status: 'valid', directory, keyId: checked.keyId, label }
}

/**
 * The checks that need no key, done before any fetch, so an expired or
 * mislabelled signature never makes this Worker fetch anything.
 */
function checkProfile(request: Request, label: string, member: InnerList, now: number, skew: number, maxLifetime: number): Rejection | { origin: string; keyId: string } {
  const params = member[1]
  const created = params.get('created')
  const expires = params.get('expires')
  const keyId = params.get('keyid')
  const alg = params.get('alg')
  if (!Number.isInteger(created) || !Number.isInteger(expires) || typeof keyId !== 'string') return { status: 'invalid', reason: 'missing-parameter' }
  if ((created as number) > now + skew) return { status: 'invalid', reason: 'not-yet-valid' }
  if ((expires as number) < now - skew) return { status: 'invalid', reason: 'expired' }
  if ((expires as number) - (created as number) > maxLifetime || (expires as number) < (created as number)) return { status: 'invalid', reason: 'too-long-lived' }
  if (alg !== undefined && alg !== 'ed25519') return { status: 'unverifiable', reason: 'unsupported' }
  const components = member[0].map(([name, componentParams]) => ({ name, key: componentParams.get('key') }))
  // §"Generating HTTP Message Signature": at least one of them, so a signature cannot be replayed to another host.
  if (!components.some((c) => c.name === '@authority' || c.name === '@target-uri')) return { status: 'invalid', reason: 'authority-not-covered' }
  const header = request.headers.get('signature-agent')
  if (header === null) return { status: 'invalid', reason: 'no-signature-agent' }
  // §"Multiple Signatures": a signature is attributed only to a member it covers; its own (keyed by its label) first.
  const agents = components.filter((c) => c.name === 'signature-agent')
  const covered = agents.find((c) => c.key === label) ?? agents[0]
  if (covered === undefined) return { status: 'invalid', reason: 'signature-agent-not-covered' }
  const value = signatureAgentOrigin(header, typeof covered.key === 'string' ? covered.key : undefined)
  if (!value.ok) return value.problem === 'unsupported-discovery' ? { status: 'unverifiable', reason: 'unsupported' } : { status: 'invalid', reason: 'bad-signature-agent' }
  return { origin: value.origin, keyId }
}

/**
 * What a checked signature says about a claimed identity, ahead of IP ranges:
 * - `verified`: valid, from the directory the claimed agent's operator signs with;
 * - `spoofed`: invalid, on a claim of an agent whose operator signs;
 * - `undefined`: it decides nothing (unsigned, unverifiable, an agent that
 *   does not sign, or a valid signature from another directory, which vouches
 *   for that directory and not for the claim), so the claim is checked as
 *   before.
 *
 * @example
 * claimBySignature('google-agent', { status: 'valid', directory: 'https://agent.bot.goog', keyId, label: 'g' }) // → 'verified'
 */
export function claimBySignature(agentId: string | undefined, result: SignedRequest): Extract<Verification, 'verified' | 'spoofed'> | undefined {
  const directory = agentId === undefined ? undefined : signatureAgentOf(agentId)
  if (directory === undefined) return undefined
  if (result.status === 'valid') return result.directory === directory ? 'verified' : undefined
  return result.status === 'invalid' ? 'spoofed' : undefined
}

/** The directory origin a registry agent's operator signs with, if it signs. */
export function signatureAgentOf(agentId: string): string | undefined {
  return getAgent(agentId)?.signatureAgent
}
