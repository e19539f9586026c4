import { isPublicAddress } from '../public-address.ts'

/**
 * Key-directory fetches outside Workers. On Cloudflare the platform's egress
 * rules keep a Worker's fetch off private networks; in Node (robots-edge/hono
 * or createWorker in a Node server) nothing does, and a `Signature-Agent`
 * whose name resolves to 127.0.0.1 or 10.0.0.5 would make this process fetch
 * from its own network (draft-ietf-webbotauth-httpsig-protocol
 * §"Server-Side Request Forgery"). So in Node the directory is fetched with
 * node:https, whose connection asks a lookup of ours for the address: it
 * resolves the name, refuses it when any address is not public, and hands
 * the connection the very addresses it checked. The check and the connection
 * use one answer, so a name that resolves once to a public address and then
 * to a private one (DNS rebinding) gains nothing.
 *
 * node:https, node:dns and node:stream come from `process.getBuiltinModule`
 * (Node 20.16 and later), not from an import: a Worker bundle then names no
 * Node module, for wrangler's esbuild to resolve or for Miniflare to refuse
 * as a dynamic specifier. Where Node is older, the fetch fails (recorded as
 * `network`, the signature unverifiable) rather than go out unchecked.
 */

/** One address a name resolved to (node:dns `LookupAddress`). */
export interface ResolvedAddress {
  readonly address: string
  readonly family: number
}

/** Resolves a host name to every address it has. Default in Node: node:dns `lookup` with `all: true`. */
export type DirectoryLookup = (hostname: string) => Promise<readonly ResolvedAddress[]>

/** The error a refused address raises; key-directories.ts records it as `private-address`. */
export const PRIVATE_ADDRESS = 'PrivateAddressError'

// The parts of node:https, node:dns and node:stream used here, typed by
// hand: the Worker's type check has no Node types, and nothing else needs them.
type Callback = (error: Error | null, address: string | readonly ResolvedAddress[], family?: number) => void
interface IncomingMessage {
  readonly statusCode?: number
  readonly headers: Record<string, string>
  destroy(): unknown
}
interface NodeHttps {
  request(url: URL, options: object, onResponse: (response: IncomingMessage) => void): { on(event: 'error', listener: (error: Error) => void): unknown; end(): unknown }
}
interface NodeDns {
  readonly promises: { lookup(hostname: string, options: { all: true }): Promise<ResolvedAddress[]> }
}
interface NodeStream {
  readonly Readable: { toWeb(readable: IncomingMessage): ReadableStream<Uint8Array> }
}

interface NodeProcess {
  readonly versions?: { readonly node?: string }
  readonly getBuiltinModule?: (id: string) => unknown
}
const scope = globalThis as { navigator?: { userAgent?: string }; process?: NodeProcess }

function load<T>(id: string): T {
  const module = scope.process?.getBuiltinModule?.(id)
  if (module === undefined) throw new Error(`${id}: Node 20.16 or later`)
  return module as T
}

/** Whether this runs in Node (or a runtime that offers its modules) rather than in a Worker. */
export function isNodeRuntime(): boolean {
  // A Worker with nodejs_compat has a `process` too.
  return scope.navigator?.userAgent !== 'Cloudflare-Workers' && typeof scope.process?.versions?.node === 'string'
}

/** node:https's `lookup` option: resolves with `resolve`, refuses any address that is not public, connects to those checked. */
export function guardedLookup(resolve: DirectoryLookup) {
  return (hostname: string, options: { all?: boolean }, callback: Callback): void => {
    // A resolver that throws at once is a failed lookup too, never an uncaught exception in node:net.
    Promise.resolve(hostname)
      .then(resolve)
      .then(
        (addresses) => {
          const refused = addresses.length === 0 ? 'no address' : addresses.find((a) => !isPublicAddress(a.address))?.address
          if (refused !== undefined) {
            callback(Object.assign(new Error(`${hostname} resolves to ${refused}, not a public address`), { name: PRIVATE_ADDRESS }), '')
          } else if (options.all === true) {
            callback(null, addresses)
          } else {
            callback(null, addresses[0]!.address, addresses[0]!.family)
          }
        },
        (error: Error) => callback(error, ''),
      )
  }
}

/**
 * A fetch for key directories in Node (see above): GET only, no redirect
 * followed (node:https follows none), `init.signal` honoured.
 *
 * @example
 * createKeyDirectories({ fetch: createNodeDirectoryFetch() }) // what isNodeRuntime() chooses by default
 */
export function createNodeDirectoryFetch(lookup?: DirectoryLookup): (url: string, init: RequestInit) => Promise<Response> {
  return async (url, init) => {
    const https = load<NodeHttps>('node:https')
    const stream = load<NodeStream>('node:stream')
    const resolve = lookup ?? ((hostname: string) => load<NodeDns>('node:dns').promises.lookup(hostname, { all: true }))
    return new Promise<Response>((settle, fail) => {
      // key-directories.ts passes its headers as a plain object, which node:https takes as is.
      const options = { headers: init.headers, lookup: guardedLookup(resolve), signal: init.signal ?? undefined }
      const request = https.request(new URL(url), options, (response) => {
        const status = response.statusCode ?? 502
        // RFC 9110 §15.3.5, §15.3.6, §15.4.5: these statuses have no content.
        const empty = status === 204 || status === 205 || status === 304
        if (empty) response.destroy()
        // Repeated header fields arrive joined, except Set-Cookie, which a directory's reader never reads.
        settle(new Response(empty ? null : stream.Readable.toWeb(response), { status, headers: response.headers }))
      })
      request.on('error', fail)
      request.end()
    })
  }
}
