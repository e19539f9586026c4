// Alerts end to end, through the admin Worker's scheduled entry: generated
// ledger traffic with a known answer (one crawler that ignores robots.txt,
// a new self-named client over the threshold, lost events, a spoofed claim),
// a local webhook receiver that checks each message's signature, and a
// second cron run that posts nothing again.
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createAdminWorker, defineConfig, verifyWebhookSignature } from 'robots-edge'
import { runAlerts } from '../../src/admin/alerts.ts'
import { ALERT_DEFAULTS } from '../../src/core/config/alerts.ts'
import type { EventAgent, JudgedRequest } from '../../src/core/events.ts'
import { recordRobotsVersion, writeEvents } from '../../src/ledger/ledger.ts'
import { recordLoss } from '../../src/ledger/losses.ts'
import { fetched, googlebot, gptbot, HOUR, judged, MINUTE } from '../support/report-fixtures.ts'
import { clearLedger } from '../support/workerd/ledger-tables.ts'

const db = env.DB
const HOOK = 'http://127.0.0.1:8788/hooks/robots-edge'
const KEY = 'test-alert-signing-key'
const SECRETS = { ROBOTS_ALERT_WEBHOOK: HOOK, ROBOTS_ALERT_SECRET: KEY }
const config = defineConfig({ rules: [{ userAgent: '*', disallow: '/admin/' }], alerts: { newClientRequests: 100, spoofedRequests: 100 } })
const weirdbot: EventAgent = { tokens: ['weirdbot'], kind: 'bot', obeysRobotsTxt: true }

interface Received {
  readonly body: string
  /** Whether the post could be cut short: the Worker gives each a timeout. */
  readonly abortable: boolean
  readonly signature: string | null
  readonly contentType: string | null
}

/**
 * The webhook receiver: what the Worker posts to HOOK, kept as received;
 * `answer` decides the status. Every other fetch (the operators' IP lists
 * the upkeep refreshes) is offline.
 */
function receiver(answer: () => number = () => 200) {
  const received: Received[] = []
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const request = new Request(input as RequestInfo, init as RequestInit)
    if (request.url !== HOOK) return new Response('offline', { status: 503 })
    const status = answer()
    if (status === 200)
      received.push({
        body: await request.text(),
        abortable: (init as RequestInit | undefined)?.signal instanceof AbortSignal,
        signature: request.headers.get('x-robots-edge-signature'),
        contentType: request.headers.get('content-type'),
      })
    return new Response(status === 200 ? 'ok' : 'busy', { status })
  })
  return received
}

/** One cron run of the admin Worker, as Cloudflare starts it; returns the run's log line. */
async function cron(bindings: object = { ...env, ...SECRETS }): Promise<Record<string, unknown>> {
  const log = vi.spyOn(console, 'log').mockImplementation(() => {})
  const worker = createAdminWorker(config)
  const ctx = createExecutionContext()
  worker.scheduled!({ cron: '17 * * * *', scheduledTime: Date.now(), noRetry() {} } as ScheduledController, bindings as never, ctx)
  await waitOnExecutionContext(ctx)
  const line = log.mock.calls.map((c) => String(c[0])).find((l) => l.startsWith('{"robotsEdge":"cron"'))
  log.mockRestore()
  if (line === undefined) throw new Error('the cron wrote no log line')
  return JSON.parse(line) as Record<string, unknown>
}

/** `n` requests `step` apart (default a minute) from `start`, every `every`-th one disallowed. */
function traffic(agent: EventAgent, n: number, start: number, every = 0, o: Partial<JudgedRequest> = {}, step = MINUTE): JudgedRequest[] {
  return Array.from({ length: n }, (_, i) => {
    const bad = every > 0 && i % every === every - 1
    return judged({ agent, time: start + i * step, path: bad ? `/admin/${i}` : `/page/${i}`, allowed: !bad, ...o })
  })
}

/** HMAC-SHA256 of "t.body", computed here apart from the package's helper. */
async function expectedMac(t: string, body: string): Promise<string> {
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(KEY), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(`${t}.${body}`)))
  return [...mac].map((b) => b.toString(16).padStart(2, '0')).join('')
}

let start: number

beforeEach(async () => {
  await clearLedger(db)
  await db.batch([db.prepare('DELETE FROM alert_state'), db.prepare('DELETE FROM alert_outbox')])
  start = Math.floor((Date.now() - 2 * 86_400_000) / HOUR) * HOUR
  await recordRobotsVersion(db, { host: 'example.com', hash: 'v1', text: 'User-agent: *\nDisallow: /admin/\n', time: start - 30 * 86_400_000 })
  await writeEvents(db, [
    // GPTBot reads robots.txt, then asks for /admin/ 10 times in 40: it ignores robots.txt.
    fetched({ agent: gptbot, time: start }),
    ...traffic(gptbot, 40, start + MINUTE, 4),
    // Googlebot keeps to it.
    fetched({ agent: googlebot, time: start }),
    ...traffic(googlebot, 30, start + MINUTE),
    // A client the registry does not know, by its own name: 150 requests, over the threshold of 100.
    ...traffic(weirdbot, 150, start + HOUR, 0, { userAgent: 'weirdbot/1.0 (+https://weird.example/bot)' }),
    // 120 requests claiming to be Googlebot from outside Google's ranges.
    ...traffic(googlebot, 120, start + 2 * HOUR, 0, { verification: 'spoofed', ipHash: 'ffeeddccbbaa0099' }),
  ])
  await recordLoss(db, { id: 'isolate-1', from: start + 3 * HOUR, to: start + 3 * HOUR + 10_000, events: 42 }, Date.now())
})

afterEach(() => {
  vi.restoreAllMocks()
})

describe("alerts through the admin Worker's cron", { timeout: 60_000 }, () => {
  it('posts one signed message per event, and nothing again on the next run', async () => {
    const received = receiver()
    const line = await cron()
    expect(line.alerts).toMatchObject({ queued: 4, sent: 4, failed: 0, pending: 0, dropped: 0 })
    expect(received).toHaveLength(4)

    const messages = received.map((r) => JSON.parse(r.body) as Record<string, unknown> & { kind: string; text: string; content: string })
    expect(messages.map((m) => [m.kind, m.agent]).sort()).toEqual([
      ['events-lost', null],
      ['ignores-robots-txt', 'gptbot'],
      ['new-client', 'weirdbot'],
      ['spoof-grows', 'googlebot'],
    ])
    const byKind = new Map(messages.map((m) => [m.kind, m]))
    expect(byKind.get('ignores-robots-txt')).toMatchObject({
      operator: 'OpenAI',
      counts: { requests: 40, violations: 10, robotsFetches: 1 },
      report: '/_robots/?agent=gptbot&since=7d',
    })
    expect(byKind.get('ignores-robots-txt')!.text).toBe(
      'robots-edge: gptbot (OpenAI) now ignores robots.txt: 10 disallowed requests after fetching robots.txt, in the last 7 days (/_robots/?agent=gptbot&since=7d)',
    )
    expect(byKind.get('new-client')).toMatchObject({ counts: { requests: 150, threshold: 100 } })
    expect(byKind.get('events-lost')).toMatchObject({ counts: { events: 42 } })
    expect(byKind.get('spoof-grows')).toMatchObject({ operator: 'Google', counts: { requests: 120, threshold: 100 } })
    for (const m of messages) {
      // Slack reads `text`, Discord `content`; Discord mentions nobody.
      expect(m.content).toBe(m.text)
      expect(m.allowed_mentions).toEqual({ parse: [] })
    }

    for (const r of received) {
      expect(r.contentType).toBe('application/json')
      expect(r.abortable).toBe(true)
      const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(r.signature ?? '') ?? []
      expect(v1).toBe(await expectedMac(t!, r.body))
      expect(Math.abs(Number(t) - Date.now() / 1000)).toBeLessThan(300)
      expect(await verifyWebhookSignature(KEY, r.signature, r.body)).toBe(true)
      // Any change to the body, or another key, fails the check.
      expect(await verifyWebhookSignature(KEY, r.signature, r.body.replace('robots-edge', 'robots-edgE'))).toBe(false)
      expect(await verifyWebhookSignature('another-key', r.signature, r.body)).toBe(false)
    }

    // The same conditions on the next run: nothing new is posted.
    const again = await cron()
    expect(again.alerts).toMatchObject({ queued: 0, sent: 0, pending: 0 })
    expect(received).toHaveLength(4)
  })

  it('posts a spoofed claim again once it has grown past the threshold since the last message', async () => {
    const received = receiver()
    await cron()
    expect(received).toHaveLength(4)
    // 60 more, after the message: under the threshold of 100 since it, so nothing.
    await writeEvents(db, traffic(googlebot, 60, Date.now(), 0, { verification: 'spoofed' }, 1_000))
    expect((await cron()).alerts).toMatchObject({ queued: 0 })
    // 50 more: 110 since the message.
    await writeEvents(db, traffic(googlebot, 50, Date.now(), 0, { verification: 'spoofed' }, 1_000))
    expect((await cron()).alerts).toMatchObject({ queued: 1, sent: 1 })
    expect(received).toHaveLength(5)
    expect(JSON.parse(received[4]!.body)).toMatchObject({ kind: 'spoof-grows', agent: 'googlebot', counts: { requests: 110 } })
  })

  it('posts lost events again only for what was added since', async () => {
    const received = receiver()
    await cron()
    await recordLoss(db, { id: 'isolate-1', from: start + 3 * HOUR, to: start + 3 * HOUR + 20_000, events: 50 }, Date.now())
    await recordLoss(db, { id: 'isolate-2', from: start + 4 * HOUR, to: start + 4 * HOUR + 1_000, events: 7 }, Date.now())
    expect((await cron()).alerts).toMatchObject({ queued: 1, sent: 1 })
    expect(JSON.parse(received.at(-1)!.body)).toMatchObject({ kind: 'events-lost', counts: { events: 15 } })
  })

  it('keeps a message whose post failed, and delivers it once on the next run', async () => {
    let status = 500
    const received = receiver(() => status)
    const failed = await cron()
    // The first post failed: the rest wait rather than each failing in turn.
    expect(failed.alerts).toMatchObject({ queued: 4, sent: 0, failed: 1, pending: 4, error: 'the webhook answered 500; retried on the next run' })
    expect(failed.retry).toBe('next run')
    const attempts = await db.prepare('SELECT attempts, last_error AS error FROM alert_outbox ORDER BY id LIMIT 1').first()
    expect(attempts).toEqual({ attempts: 1, error: 'the webhook answered 500' })
    status = 200
    expect((await cron()).alerts).toMatchObject({ queued: 0, sent: 4, failed: 0, pending: 0 })
    expect(received).toHaveLength(4)
    expect((await cron()).alerts).toMatchObject({ queued: 0, sent: 0, pending: 0 })
    expect(received).toHaveLength(4)
  })

  it('cuts a post that hangs off after its timeout, counts it, and tries it again on the next run', async () => {
    let hang = true
    const posted: string[] = []
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      const request = new Request(input as RequestInfo, init as RequestInit)
      if (!hang) {
        posted.push(await request.text())
        return new Response('ok')
      }
      // A receiver that never answers: only the Worker's timeout ends the wait.
      return new Promise<Response>((_, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal!.reason)))
    })
    const hung = await runAlerts({ ...SECRETS }, db, ALERT_DEFAULTS, Date.now(), { timeoutMs: 200 })
    expect(hung).toMatchObject({ queued: 4, sent: 0, failed: 1, pending: 4 })
    expect(hung.error).toMatch(/^the post failed: TimeoutError: .*; retried on the next run$/)
    hang = false
    expect(await runAlerts({ ...SECRETS }, db, ALERT_DEFAULTS, Date.now(), { timeoutMs: 200 })).toMatchObject({ queued: 0, sent: 4, failed: 0, pending: 0 })
    expect(posted).toHaveLength(4)
  })

  it('without the secrets, posts nothing, says so in the line and keeps the messages for when they are set', async () => {
    const received = receiver()
    const line = await cron({ ...env })
    expect(line.alerts).toMatchObject({ queued: 4, sent: 0, pending: 4 })
    expect(String((line.alerts as { error: string }).error)).toContain('no secret ROBOTS_ALERT_WEBHOOK')
    const unsigned = await cron({ ...env, ROBOTS_ALERT_WEBHOOK: HOOK })
    expect(String((unsigned.alerts as { error: string }).error)).toContain('no secret ROBOTS_ALERT_SECRET')
    const insecure = await cron({ ...env, ...SECRETS, ROBOTS_ALERT_WEBHOOK: 'http://hooks.example.com/x' })
    expect(String((insecure.alerts as { error: string }).error)).toContain('over https only')
    expect(JSON.stringify(insecure)).not.toContain('hooks.example.com/x')
    expect(received).toHaveLength(0)
    expect((await cron()).alerts).toMatchObject({ queued: 0, sent: 4, pending: 0 })
    expect(received).toHaveLength(4)
  })

  it("runs when the edge Worker's cron asks through the service binding, as the template does", async () => {
    const received = receiver()
    vi.spyOn(console, 'log').mockImplementation(() => {})
    const worker = createAdminWorker(config)
    const ctx = createExecutionContext()
    const res = await worker.fetch!(new Request('https://robots-edge-admin.internal/__robots-edge/upkeep', { method: 'POST' }) as never, { ...env, ...SECRETS } as never, ctx)
    await waitOnExecutionContext(ctx)
    expect(((await res.json()) as { alerts: unknown }).alerts).toMatchObject({ queued: 4, sent: 4, pending: 0 })
    expect(received).toHaveLength(4)
  })

  it('refuses an invalid `alerts` when the admin Worker starts, so the deploy fails', () => {
    const bad = defineConfig({ rules: [{ userAgent: '*', disallow: '/admin/' }], alerts: { webhook: 'https://hooks.slack.com/services/T0/B0/XYZ' } })
    expect(() => createAdminWorker(bad)).toThrow(/alerts\.webhook: is a URL/)
  })

  it('is off without `alerts` in the config: the line has no alerts field and nothing is posted', async () => {
    const received = receiver()
    const log = vi.spyOn(console, 'log').mockImplementation(() => {})
    const worker = createAdminWorker()
    const ctx = createExecutionContext()
    worker.scheduled!({ cron: '17 * * * *', scheduledTime: Date.now(), noRetry() {} } as ScheduledController, { ...env, ...SECRETS } as never, ctx)
    await waitOnExecutionContext(ctx)
    const line = JSON.parse(String(log.mock.calls.find((c) => String(c[0]).startsWith('{"robotsEdge":"cron"'))?.[0]))
    expect(line).not.toHaveProperty('alerts')
    expect(received).toHaveLength(0)
  })
})
