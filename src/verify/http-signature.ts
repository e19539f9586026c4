import { isInnerList, parseDictionary, serializeInnerList, serializeItem, type InnerList } from '../core/http/structured-fields.ts'

/**
 * The signature base of HTTP Message Signatures (RFC 9421 §2.5) for a
 * request, and Ed25519 verification over it (§3.3.6). Only what Web Bot
 * Auth signers cover is built: the derived components of a request (§2.2)
 * and header fields, whole or one Dictionary member (`key`, §2.1.2).
 */

/** A covered component that cannot be built. `unsupported`: valid RFC 9421 that this module leaves out (`sf`, `bs`, `req`, `tr`, `@query-param`). */
export class SignatureBaseError extends Error {
  constructor(
    message: string,
    readonly unsupported = false,
  ) {
    super(message)
    this.name = 'SignatureBaseError'
  }
}

/**
 * RFC 9421 §2.5: one line per covered component, in the order covered, then
 * `@signature-params` (§2.3), the covered list re-serialized. Throws a
 * SignatureBaseError when a component is missing, duplicated or unsupported.
 *
 * @example
 * signatureBase(request, new URL(request.url), inputs.get('sig1'))
 * // '"@authority": example.com\n"@signature-params": ("@authority");created=1735689600;keyid="..."'
 */
export function signatureBase(request: Request, url: URL, input: InnerList): string {
  const lines: string[] = []
  const seen = new Set<string>()
  for (const component of input[0]) {
    const [name, params] = component
    if (typeof name !== 'string' || name !== name.toLowerCase()) throw new SignatureBaseError('component identifiers are lower-case strings (§2)')
    const id = serializeItem(component)
    // §2.5: "If the covered components list contains any duplicated component identifier, fail."
    if (seen.has(id)) throw new SignatureBaseError(`${id} is covered twice`)
    seen.add(id)
    lines.push(`${id}: ${componentValue(request, url, name, params)}`)
  }
  lines.push(`"@signature-params": ${serializeInnerList(input)}`)
  return lines.join('\n')
}

function componentValue(request: Request, url: URL, name: string, params: ReadonlyMap<string, unknown>): string {
  for (const parameter of params.keys()) if (parameter !== 'key') throw new SignatureBaseError(`component parameter ${parameter}`, true)
  if (name.startsWith('@')) {
    if (params.size > 0) throw new SignatureBaseError(`${name} takes no key (§2.2)`)
    switch (name) {
      case '@method':
        return request.method
      case '@target-uri':
        return url.href
      // §2.2.3: lower-case host, the port only when not the scheme's default, as URL#host writes it.
      case '@authority':
        return url.host
      case '@scheme':
        return url.protocol.slice(0, -1)
      case '@path':
        return url.pathname || '/'
      case '@query':
        return url.search || '?'
      default:
        throw new SignatureBaseError(`derived component ${name}`, name === '@query-param' || name === '@request-target')
    }
  }
  // §2.1: the field's values, combined with ", " (as Headers#get does), trimmed.
  const value = request.headers.get(name)
  if (value === null) throw new SignatureBaseError(`covered field ${name} is absent`)
  const key = params.get('key')
  if (key === undefined) return value.trim()
  if (typeof key !== 'string') throw new SignatureBaseError('key is a string (§2.1.2)')
  let member
  try {
    member = parseDictionary(value, { refuseDuplicates: true }).get(key)
  } catch {
    throw new SignatureBaseError(`${name} is not a Dictionary`)
  }
  if (member === undefined) throw new SignatureBaseError(`${name} has no member ${key}`)
  return isInnerList(member) ? serializeInnerList(member) : serializeItem(member)
}

/** Ed25519 over the signature base (RFC 9421 §3.3.6). False for a signature of the wrong length. */
export async function verifyEd25519(key: CryptoKey, signature: Uint8Array<ArrayBuffer>, base: string): Promise<boolean> {
  if (signature.length !== 64) return false
  try {
    return await crypto.subtle.verify('Ed25519', key, signature, new TextEncoder().encode(base))
  } catch {
    return false
  }
}
