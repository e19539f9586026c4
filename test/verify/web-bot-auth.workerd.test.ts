import { createExecutionContext, env, SELF, waitOnExecutionContext } from 'cloudflare:test'
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import config from '../../robots.config.ts'
import { createApp } from '../../src/package/app.ts'
import type { JudgedRequest } from '../../src/core/events.ts'
import { createWiring } from '../../src/edge/wiring.ts'
import { createSigner, replay, signedRequest, type TestSigner } from '../support/web-bot-auth-signer.ts'

// Integration: Web Bot Auth through the real Worker entry (SELF.fetch). The
// Google-Agent directory (https://agent.bot.goog, as the registry names it)
// is served by a stub of the global fetch, with a key made here: a signed
// request is verified, a tampered one spoofed, an unsigned one unchanged.

const GOOGLE_AGENT =
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Google-Agent; +https://developers.google.com/crawling/docs/crawlers-fetchers/google-agent) Chrome/138.0.0.0 Safari/537.36'
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'
const GOOGLE_DIRECTORY = 'https://agent.bot.goog/.well-known/http-message-signatures-directory'

let google: TestSigner
let impostor: TestSigner
const directoryFetches: string[] = []
// The guard's JSON log lines, kept out of the test output (and asserted on once).
const logLines: string[] = []

beforeAll(async () => {
  google = await createSigner()
  impostor = await createSigner()
})

beforeEach(() => {
  directoryFetches.length = 0
  logLines.length = 0
  vi.spyOn(console, 'log').mockImplementation((line: unknown) => void logLines.push(String(line)))
  const real = globalThis.fetch
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = input instanceof Request ? input.url : String(input)
    if (url.includes('/.well-known/http-message-signatures-directory')) {
      directoryFetches.push(url)
      if (url === GOOGLE_DIRECTORY) return new Response(google.directory(), { headers: { 'cache-control': 'max-age=3600' } })
      return new Response('not found', { status: 404 })
    }
    return real(input, init)
  })
})
afterEach(() => vi.restoreAllMocks())

type Row = { path: string; agent_key: string; verification: string; action: string }
async function rowFor(path: string): Promise<Row | undefined> {
  // Recording runs in waitUntil: wait for it, bounded.
  for (let i = 0; i < 100; i++) {
    const row = await env.DB.prepare('SELECT path, agent_key, verification, action FROM events WHERE path = ?').bind(path).first<Row>()
    if (row !== null) return row
    await new Promise((r) => setTimeout(r, 20))
  }
  return undefined
}

const signedByGoogle = (path: string, signer = google) => signedRequest(signer, `http://localhost${path}`, { label: 'g', agent: 'g="https://agent.bot.goog"', headers: { 'user-agent': GOOGLE_AGENT } })

describe('signed agents through the real Worker entry', () => {
  it('verifies a Google-Agent request signed with a key from its directory', async () => {
    const res = await SELF.fetch(await signedByGoogle('/wba/signed'))
    expect(res.status).toBe(200)
    expect(await rowFor('/wba/signed')).toEqual({ path: '/wba/signed', agent_key: 'google-agent', verification: 'verified', action: 'pass' })
    expect(directoryFetches).toEqual([GOOGLE_DIRECTORY])
    expect(logLines.map((l) => JSON.parse(l))).toContainEqual(expect.objectContaining({ path: '/wba/signed', verification: 'verified' }))
  })

  it('records a tampered signature as spoofed: replayed to another path, or signed by a key Google does not publish', async () => {
    const replayed = replay(await signedByGoogle('/wba/original'), 'http://localhost/wba/tampered')
    expect((await SELF.fetch(replayed)).status).toBe(200)
    expect(await rowFor('/wba/tampered')).toMatchObject({ agent_key: 'google-agent', verification: 'spoofed' })

    expect((await SELF.fetch(await signedByGoogle('/wba/impostor', impostor))).status).toBe(200)
    expect(await rowFor('/wba/impostor')).toMatchObject({ verification: 'spoofed' })
  })

  it('leaves an unsigned request exactly as before: no directory fetched, the usual verification', async () => {
    const res = await SELF.fetch('http://localhost/wba/unsigned', { headers: { 'user-agent': GOOGLE_AGENT } })
    expect(res.status).toBe(200)
    // Google publishes Google-Agent's ranges, but none are loaded in this test's KV and
    // there is no request.cf: the claim cannot be checked, as without Web Bot Auth.
    expect(await rowFor('/wba/unsigned')).toMatchObject({ agent_key: 'google-agent', verification: 'unknown' })
    expect(directoryFetches).toEqual([])
  })

  it('never answers 5xx to malformed signature headers', async () => {
    const garbage = [
      { signature: 'g=:!!:', 'signature-input': 'g=(', 'signature-agent': 'g=' },
      { signature: 'x'.repeat(20_000), 'signature-input': 'g=("@authority");tag="web-bot-auth"', 'signature-agent': '"https://127.0.0.1"' },
      { signature: 'g=:AAAA:', 'signature-input': 'g=("@authority" "signature-agent";key="g");created=1;expires=2;keyid="k";tag="web-bot-auth"', 'signature-agent': 'g="https://agent.bot.goog"' },
    ]
    // Counted, not sampled: earlier tests spent this hour's raw-row budget for spoofed claims (SAMPLE_BUDGET).
    const spoofed = async () =>
      (await env.DB.prepare("SELECT coalesce(sum(requests), 0) AS n FROM counts_hourly WHERE agent_key = 'google-agent' AND verification = 'spoofed'").first<{ n: number }>())?.n ?? 0
    for (const [i, headers] of garbage.entries()) {
      const before = await spoofed()
      const res = await SELF.fetch(`http://localhost/wba/garbage-${i}`, { headers: { 'user-agent': GOOGLE_AGENT, ...headers } })
      expect(res.status).toBe(200)
      // Recording runs in waitUntil: wait for it, bounded.
      for (let k = 0; k < 100 && (await spoofed()) === before; k++) await new Promise((r) => setTimeout(r, 20))
      expect(await spoofed()).toBe(before + 1)
    }
  })
})

describe('the signature evidence on the event', () => {
  function harness() {
    const wiring = createWiring()
    const events: JudgedRequest[] = []
    const app = createApp(config, {
      verify: wiring.verify,
      record: (event, c) => {
        const signature = wiring.signatureOf(c.req.raw)
        events.push(signature === undefined ? event : { ...event, signature })
      },
    })
    const send = async (request: Request) => {
      const ctx = createExecutionContext()
      const res = await app.fetch(request, env, ctx)
      await waitOnExecutionContext(ctx)
      return res
    }
    return { events, send }
  }

  it('names the directory that vouched, and says the signature decided', async () => {
    const { events, send } = harness()
    await send(await signedByGoogle('/evidence/valid'))
    expect(events[0]).toMatchObject({ verification: 'verified', signature: { status: 'valid', directory: 'https://agent.bot.goog', decided: true } })
  })

  it('records an invalid signature from an agent that does not sign as such, and checks the claim as before', async () => {
    const { events, send } = harness()
    const request = await signedRequest(impostor, 'http://localhost/evidence/googlebot', { headers: { 'user-agent': GOOGLEBOT }, agent: 'sig1="https://unknown-signer.example"' })
    expect((await send(request)).status).toBe(200)
    // Googlebot's ranges are published but not loaded here: the claim is checked as before, and cannot be.
    expect(events[0]).toMatchObject({ verification: 'unknown', signature: { status: 'unverifiable', reason: 'http-status', directory: 'https://unknown-signer.example', decided: false } })
    const expired = await signedRequest(impostor, 'http://localhost/evidence/expired', { headers: { 'user-agent': GOOGLEBOT }, created: Math.floor(Date.now() / 1000) - 7200 })
    await send(expired)
    expect(events[1]).toMatchObject({ verification: 'unknown', signature: { status: 'invalid', reason: 'expired', decided: false } })
  })

  it('adds nothing to the event of an unsigned request', async () => {
    const { events, send } = harness()
    await send(new Request('http://localhost/evidence/unsigned', { headers: { 'user-agent': GOOGLE_AGENT } }))
    expect(events).toHaveLength(1)
    expect(events[0]).not.toHaveProperty('signature')
  })
})
