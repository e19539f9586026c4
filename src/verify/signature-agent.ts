import { isInnerList, parseDictionary, parseItem, Token } from '../core/http/structured-fields.ts'

/**
 * Reading `Signature-Agent` (draft-ietf-webbotauth-httpsig-protocol §"Signature-Agent"):
 * which key directory a Web Bot Auth signature says its key comes from.
 * The value is client-controlled and names a host this Worker then fetches,
 * so it is validated as strictly as an outbound URL must be (§"Server-Side Request Forgery").
 */

/** Why a `Signature-Agent` value names no directory this Worker will fetch. */
export type SignatureAgentProblem =
  /** Missing member, not a string, not an https origin, or a host that must not be fetched. */
  | 'bad-signature-agent'
  /** A `type` other than `directory` (`jwks_uri`, `cimd`): valid, but not supported here. */
  | 'unsupported-discovery'

export type SignatureAgentValue = { readonly ok: true; readonly origin: string } | { readonly ok: false; readonly problem: SignatureAgentProblem }

/** A signed header is read one way only: duplicate keys refused (see ParseOptions.refuseDuplicates). */
const STRICT = { refuseDuplicates: true }

/** Longest header value read; a directory origin is far shorter. */
const MAX_HEADER = 4096

/**
 * The directory origin a signature's covered `signature-agent` component
 * names. `key` is the component's `key` parameter: the dictionary member
 * (§"Signature-Agent"); without it, the legacy form, a bare String (§"Signature-Agent": "A verifier
 * MAY accept that form"). Never throws.
 *
 * @example
 * signatureAgentOrigin('g="https://agent.bot.goog"', 'g') // → { ok: true, origin: 'https://agent.bot.goog' }
 * signatureAgentOrigin('"https://chatgpt.com"', undefined) // → { ok: true, origin: 'https://chatgpt.com' }
 */
export function signatureAgentOrigin(header: string, key: string | undefined): SignatureAgentValue {
  if (header.length > MAX_HEADER) return BAD
  try {
    const item = key === undefined ? parseItem(header, STRICT) : parseDictionary(header, STRICT).get(key)
    if (item === undefined || isInnerList(item) || typeof item[0] !== 'string') return BAD
    // §"Key Distribution and Discovery": "When `type` is absent, its value is `directory`"; a verifier ignores types it does not support.
    const type = item[1].get('type')
    if (type !== undefined && !(type instanceof Token && type.value === 'directory')) return { ok: false, problem: 'unsupported-discovery' }
    const origin = directoryOrigin(item[0])
    return origin === null ? BAD : { ok: true, origin }
  } catch {
    return BAD
  }
}

const BAD: SignatureAgentValue = Object.freeze({ ok: false, problem: 'bad-signature-agent' })

/**
 * The ASCII origin (`https://host`) a `directory` member names, or null
 * when it is not one this Worker may fetch. §"Key Distribution and Discovery": the value "MUST be the ASCII
 * serialization of an origin" (an empty path `/` may be accepted) and https;
 * §"Server-Side Request Forgery": no fetch to loopback, private or link-local
 * addresses, and none to a port but 443. Host names are not resolved here
 * (in Node, the fetch checks each address it connects to:
 * storage/node-directory-fetch.ts), so every IP literal is refused (an
 * operator publishes its directory under a name) along with names that only
 * resolve inside a network (`localhost`, `.local`, `.internal`, single labels).
 */
export function directoryOrigin(value: string): string | null {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return null
  }
  if (url.protocol !== 'https:' || url.username !== '' || url.password !== '') return null
  if ((url.pathname !== '/' && url.pathname !== '') || url.search !== '' || url.hash !== '' || value.includes('?') || value.includes('#')) return null
  // https's default port only (the URL parser drops an explicit `:443`): an
  // operator publishes its directory on the web's port, and any other port
  // would let a client aim this Worker at whatever listens there.
  if (url.port !== '') return null
  return isPublicHostName(url.hostname) ? url.origin : null
}

// Names that resolve only inside a network. The reserved `.test` and
// `.example` (RFC 6761) resolve nowhere, so they are harmless, and tests use them.
const INTERNAL_SUFFIXES = ['.localhost', '.local', '.internal', '.intranet', '.lan', '.home', '.corp', '.arpa', '.onion']

/** A DNS name with a public-looking suffix; IP literals (the URL parser writes every IPv4 form as dotted quads) never are. */
function isPublicHostName(host: string): boolean {
  if (host.startsWith('[') || /^[\d.]+$/.test(host) || /^0x/i.test(host)) return false
  const name = host.endsWith('.') ? host.slice(0, -1) : host
  if (!name.includes('.') || name === 'localhost') return false
  if (!/^[a-z0-9.-]+$/.test(name) || name.split('.').some((label) => label === '' || label.length > 63)) return false
  return !INTERNAL_SUFFIXES.some((suffix) => name.endsWith(suffix))
}
