// The alerts' signature: t=<unix>,v1=<hex HMAC-SHA256 of "t.body">, checked
// against a digest computed with Node's own crypto, and refused when the
// body, the key or the time is not the one signed.
import { createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { signWebhook, verifyWebhookSignature } from '../../../src/core/http/webhook-signature.ts'

const KEY = 'k3y'
const BODY = '{"text":"robots-edge: gptbot now ignores robots.txt"}'
const T = Date.UTC(2026, 0, 1)

describe('signWebhook / verifyWebhookSignature', () => {
  it('signs "t.body" with HMAC-SHA256, as any language can check it', async () => {
    const header = await signWebhook(KEY, BODY, T)
    const hex = createHmac('sha256', KEY)
      .update(`${T / 1000}.${BODY}`)
      .digest('hex')
    expect(header).toBe(`t=${T / 1000},v1=${hex}`)
    expect(await verifyWebhookSignature(KEY, header, BODY, { now: T + 60_000 })).toBe(true)
  })

  it('refuses another body, another key, an old or future time, and malformed headers', async () => {
    const header = await signWebhook(KEY, BODY, T)
    expect(await verifyWebhookSignature(KEY, header, `${BODY} `, { now: T })).toBe(false)
    expect(await verifyWebhookSignature('other', header, BODY, { now: T })).toBe(false)
    expect(await verifyWebhookSignature(KEY, header, BODY, { now: T + 301_000 })).toBe(false)
    expect(await verifyWebhookSignature(KEY, header, BODY, { now: T - 301_000 })).toBe(false)
    expect(await verifyWebhookSignature(KEY, header, BODY, { now: T + 3_600_000, toleranceSeconds: 7200 })).toBe(true)
    for (const bad of [null, undefined, '', 'v1=abc', `t=${T / 1000}`, `t=x,v1=${'0'.repeat(64)}`, `t=${T / 1000},v1=${'G'.repeat(64)}`, 'x'.repeat(5000)]) {
      expect(await verifyWebhookSignature(KEY, bad, BODY, { now: T })).toBe(false)
    }
  })
})
