/**
 * Host names as robots-edge keys them: the policy cache, the served file,
 * and every row the ledger stores. The Host header is client-controlled, so
 * it is reduced to one canonical spelling before anything is cached or
 * stored, and whatever is not a host name at all shares one key.
 */

/**
 * The one key for requests whose Host is not a valid host name. The
 * `.invalid` top-level domain is reserved never to resolve (RFC 2606 §2),
 * so no real site can collide with it.
 */
export const INVALID_HOST = 'invalid-host.invalid'

/**
 * The one key for hosts outside the config's `hosts` list, and, when no
 * list is set, for hosts beyond the ledger's cap on distinct hosts.
 */
export const OTHER_HOSTS = 'other-hosts.invalid'

/** RFC 1035 §2.3.4: a name is at most 255 octets on the wire, 253 characters as text. */
export const MAX_HOST_LENGTH = 253

/** Whether `host` is one of the shared keys rather than a host someone asked for. */
export function isBucketHost(host: string): boolean {
  return host === INVALID_HOST || host === OTHER_HOSTS
}

/** Characters of an already-canonical ASCII name: the fast path skips the URL parser. */
const PLAIN = /^[a-z0-9._-]+$/
/**
 * A label (RFC 1123 §2.1: letters, digits and `-`, not at either end, at
 * most 63 characters). robots-edge deviation: `_` is accepted as well, since
 * real names such as `_dmarc.example.com` carry it and it breaks nothing here.
 */
const LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/
/** The WHATWG URL parser reads a name whose last label is a number as an IPv4 address. */
const NUMERIC_LABEL = /^(?:0x[0-9a-f]*|\d+)$/
const IPV6_LITERAL = /^\[[0-9a-f:.]+\]$/
/** What may never appear in a Host value: it would be read as a path, query, fragment or credentials. */
const NOT_IN_HOST = /[/?#@\\\s]/
/** Longer input is refused before any parsing: canonical names are far shorter. */
const MAX_INPUT = 1024

/**
 * The canonical form of a host: lower case, without port or trailing dots
 * (`Example.COM.:8080` and `example.com..` are `example.com`), IDNs in the
 * ASCII form the URL parser gives (`bücher.de` is `xn--bcher-kva.de`), IPv4
 * addresses normalised by the URL parser, IPv6 literals in brackets. A
 * value that is no valid host name (empty labels, a label over 63
 * characters, over 253 characters in all, forbidden characters) is
 * INVALID_HOST. Never throws.
 *
 * @example
 * canonicalHost('WWW.Example.com.')  // 'www.example.com'
 * canonicalHost('x'.repeat(300))     // 'invalid-host.invalid'
 */
export function canonicalHost(raw: string | null | undefined): string {
  if (typeof raw !== 'string' || raw === '' || raw.length > MAX_INPUT) return INVALID_HOST
  let host = raw.toLowerCase()
  if (!PLAIN.test(host)) {
    if (NOT_IN_HOST.test(host)) return INVALID_HOST
    // A Host header as sent (with a port, a Unicode name, an IPv6 literal):
    // read it exactly as the runtime reads a request URL.
    host = parsedHost(host)
    if (IPV6_LITERAL.test(host)) return host
    if (!PLAIN.test(host)) return INVALID_HOST
  }
  host = host.replace(/\.+$/, '')
  if (host === '' || host.length > MAX_HOST_LENGTH) return INVALID_HOST
  const labels = host.split('.')
  if (NUMERIC_LABEL.test(labels[labels.length - 1]!)) {
    // `0x7f.1` is 127.0.0.1 to the URL parser; `256.1.1.1` is no address.
    const address = parsedHost(host)
    return /^\d+\.\d+\.\d+\.\d+$/.test(address) ? address : INVALID_HOST
  }
  return labels.every((label) => LABEL.test(label)) ? host : INVALID_HOST
}

function parsedHost(host: string): string {
  try {
    return new URL(`http://${host}/`).hostname
  } catch {
    return INVALID_HOST
  }
}
