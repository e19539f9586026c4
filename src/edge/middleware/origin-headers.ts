import type { ForwardedHeaders } from '../../core/config/index.ts'
import { sameSecret } from '../../core/http/same-secret.ts'

/**
 * What the Worker forwards to the origin, and what it never does: no client
 * header can steer the Worker or the origin behind it.
 */

/** Marks the Worker's own subrequests, so a misrouted one never loops back into it. */
export const HOP_HEADER = 'x-robots-edge-hop'

/**
 * RFC 9110 §7.6.1: hop-by-hop fields describe one connection, so an
 * intermediary removes them (and every field `Connection` names) before
 * forwarding. `Proxy-Authorization` carries a credential for a proxy, not the
 * origin. `Expect: 100-continue` makes the runtime wait for an interim
 * response the origin may never send (a 503 on Cloudflare, a hang locally):
 * the Worker sends the body at once instead.
 */
const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'proxy-authenticate', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'expect']

/**
 * Fields that tell an origin who the client is and which URL it asked for.
 * A client that sets them could pose as another address, or (with
 * `X-Original-URL` on IIS or older Symfony) make the origin serve another
 * path than the one the guard judged. The client-address ones are those
 * origins, proxies and frameworks read (request-ip and PHP's
 * `HTTP_CLIENT_IP`-style lookups, Akamai's and Cloudflare Enterprise's
 * `True-Client-IP`, Fastly's, ingress-nginx's, Envoy's, Google's): each is
 * dropped, whichever one an origin trusts.
 *
 * `CF-Connecting-IP` is not here: Cloudflare's edge sets it on every request,
 * replacing a client's copy, and it is where the Worker reads the address
 * it writes into the others; the Workers runtime does not forward one a
 * Worker's subrequest carries (Cloudflare sets its own on the way out). `CF-Connecting-IPv6` and `CF-Pseudo-IPv4` are:
 * Cloudflare sets them only with its Pseudo IPv4 setting, and nothing tells
 * its copy from a client's.
 */
export const FORWARDING_HEADERS = [
  'forwarded',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-forwarded-port',
  'x-forwarded-prefix',
  'x-forwarded-server',
  'x-forwarded-scheme',
  'x-forwarded-ssl',
  'x-real-ip',
  'x-client-ip',
  'x-original-url',
  'x-rewrite-url',
  'x-original-host',
  'x-host',
  'true-client-ip',
  'x-cluster-client-ip',
  'client-ip',
  'fastly-client-ip',
  'x-original-forwarded-for',
  'x-forwarded',
  'forwarded-for',
  'x-proxyuser-ip',
  'x-envoy-external-address',
  'x-appengine-user-ip',
  'appengine-user-ip',
  'fly-client-ip',
  'x-remote-ip',
  'x-remote-addr',
  'x-originating-ip',
  'cf-connecting-ipv6',
  'cf-pseudo-ipv4',
] as const

/** An IPv4 or IPv6 address as CF-Connecting-IP carries it; anything else is not put in a header. */
const IP_ADDRESS = /^(?:[0-9]{1,3}(?:\.[0-9]{1,3}){3}|[0-9A-Fa-f:.]{2,45})$/

/**
 * Removes the hop-by-hop fields in place. robots-edge deviation:
 * `Upgrade: websocket` stays, since the Workers runtime performs the
 * WebSocket handshake with the origin itself (RFC 6455 §4.1) rather than
 * passing the client's connection through; any other upgrade is dropped.
 */
export function stripHopByHop(headers: Headers): void {
  const named = (headers.get('connection') ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '')
  const websocket = headers.get('upgrade')?.trim().toLowerCase() === 'websocket'
  for (const name of [...HOP_BY_HOP, ...named]) {
    if (name === 'upgrade' && websocket) continue
    headers.delete(name)
  }
}

/**
 * Applies the config's `forwardedHeaders` in place: `overwrite` drops the
 * client's copies and sets what the Worker knows (`X-Forwarded-For`,
 * `X-Real-IP`, `True-Client-IP` and `Forwarded` from the platform's client
 * address, `CF-Connecting-IP`); `pass` leaves them.
 */
export function applyForwardingPolicy(headers: Headers, policy: ForwardedHeaders, url: URL, clientIp: string | null): void {
  if (policy === 'pass') return
  for (const name of FORWARDING_HEADERS) headers.delete(name)
  const proto = url.protocol.slice(0, -1)
  const ip = clientIp !== null && IP_ADDRESS.test(clientIp) ? clientIp : null
  if (ip !== null) {
    headers.set('x-forwarded-for', ip)
    headers.set('x-real-ip', ip)
    headers.set('true-client-ip', ip)
  }
  headers.set('x-forwarded-host', url.host)
  headers.set('x-forwarded-proto', proto)
  // RFC 7239 §4, §6: quoted values; an IPv6 address in brackets.
  const node = ip === null ? null : ip.includes(':') ? `"[${ip}]"` : ip
  headers.set('forwarded', `${node === null ? '' : `for=${node};`}host="${url.host}";proto=${proto}`)
}

let isolateToken: string | undefined
const derived = new Map<string, Promise<string>>()

/**
 * The loop marker's value: unguessable by a client. With `IP_HASH_SALT` set
 * (a per-deployment secret), a hash derived from it, so a request that loops
 * through any isolate of the deployment is recognised; without it, a random
 * token per isolate. Random values cannot be made at start-up in Workers,
 * hence the lazy token.
 */
export function loopMarker(secret: string | undefined): Promise<string> {
  if (!secret) return Promise.resolve((isolateToken ??= crypto.randomUUID()))
  let marker = derived.get(secret)
  if (marker === undefined) {
    marker = crypto.subtle
      .digest('SHA-256', new TextEncoder().encode(`robots-edge loop marker\n${secret}`))
      .then((digest) => [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join(''))
    derived.clear()
    derived.set(secret, marker)
  }
  return marker
}

/** Whether a request carries this deployment's loop marker (a client's copy never matches). Constant time. */
export async function isLoop(sent: string | undefined, marker: string): Promise<boolean> {
  return sent !== undefined && sent.length <= 256 && (await sameSecret(sent, marker))
}
