/**
 * The signature on each alert the cron posts, and its check for a receiver:
 * `X-Robots-Edge-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`.
 * The time is signed with the body, so a message caught on the way cannot be
 * replayed later than the receiver's tolerance. The same scheme as Stripe's
 * webhooks, written here with WebCrypto: it runs in Workers, Node 20+ and
 * browsers alike.
 */

/** The header each alert carries. */
export const SIGNATURE_HEADER = 'X-Robots-Edge-Signature'

/** How far a signed time may lie from the receiver's clock, by default: 5 minutes. */
export const SIGNATURE_TOLERANCE_SECONDS = 300

async function hmacHex(secret: string, text: string): Promise<string> {
  const encoder = new TextEncoder()
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(text)))
  return Array.from(mac, (b) => b.toString(16).padStart(2, '0')).join('')
}

/**
 * The header value for `body`, signed at `time` (ms since the epoch).
 *
 * @example
 * await signWebhook('k3y', '{"text":"hi"}', Date.UTC(2026, 0, 1))
 * // 't=1767225600,v1=…64 hex digits…'
 */
export async function signWebhook(secret: string, body: string, time: number): Promise<string> {
  const t = Math.floor(time / 1000)
  return `t=${t},v1=${await hmacHex(secret, `${t}.${body}`)}`
}

/**
 * Whether `header` is a valid signature of `body` (the raw request body, as
 * received, before any JSON parsing) with `secret`, made within `tolerance`
 * seconds of `now`. The digests are compared in constant time: every byte
 * is visited, so the time taken says nothing about where they differ.
 * Malformed input is just "false", never an exception.
 *
 * @example
 * // A receiver (a Worker, or Node 20+)
 * const body = await request.text()
 * if (!(await verifyWebhookSignature(env.ROBOTS_ALERT_SECRET, request.headers.get('X-Robots-Edge-Signature'), body))) {
 *   return new Response('bad signature', { status: 401 })
 * }
 */
export async function verifyWebhookSignature(secret: string, header: string | null | undefined, body: string, options: { now?: number; toleranceSeconds?: number } = {}): Promise<boolean> {
  if (typeof header !== 'string' || header.length > 1024) return false
  const fields = new Map(header.split(',').map((part) => [part.slice(0, part.indexOf('=')).trim(), part.slice(part.indexOf('=') + 1).trim()]))
  const t = fields.get('t') ?? ''
  const v1 = fields.get('v1') ?? ''
  if (!/^\d{1,12}$/.test(t) || !/^[0-9a-f]{64}$/.test(v1)) return false
  const now = Math.floor((options.now ?? Date.now()) / 1000)
  if (Math.abs(now - Number(t)) > (options.toleranceSeconds ?? SIGNATURE_TOLERANCE_SECONDS)) return false
  const expected = await hmacHex(secret, `${t}.${body}`)
  let diff = 0
  for (let i = 0; i < expected.length; i++) diff |= expected.charCodeAt(i) ^ v1.charCodeAt(i)
  return diff === 0
}
