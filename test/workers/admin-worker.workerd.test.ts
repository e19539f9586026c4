import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test'
import { describe, expect, it, vi } from 'vitest'
import { createAdminWorker } from 'robots-edge'

// createAdminWorker, the template's admin Worker (src/workers/admin-worker.js): the
// report routes behind the token, over the same D1 and KV as the edge.
// test/e2e serves it built, behind the edge's service binding.

const TOKEN = 'test-admin-token'
const admin = createAdminWorker()

async function call(path: string, init: RequestInit = {}, bindings: object = env): Promise<Response> {
  const ctx = createExecutionContext()
  const request = new Request(`https://example.com${path}`, init)
  const res = await admin.fetch!(request as Parameters<NonNullable<typeof admin.fetch>>[0], bindings as never, ctx)
  await waitOnExecutionContext(ctx)
  return res
}

const auth = { headers: { Authorization: `Bearer ${TOKEN}` } }

describe('createAdminWorker()', () => {
  it('refuses the report without the token and serves it with', async () => {
    const refused = await call('/_robots/api/report')
    expect(refused.status).toBe(401)
    expect(refused.headers.get('cache-control')).toBe('no-store')
    const res = await call('/_robots/api/report', auth)
    expect(res.status).toBe(200)
    expect(await res.json()).toHaveProperty('agents')
  })

  it('serves the dashboard page at /_robots/', async () => {
    const res = await call('/_robots/', auth)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^text\/html/)
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'")
  })

  it('reads verification coverage from ROBOTS_KV: no list loaded yet, each operator said so', async () => {
    const res = await call('/_robots/api/verification', auth)
    expect(res.status).toBe(200)
    const coverage = (await res.json()) as { operators: unknown[]; refreshedAt: number | null }
    expect(coverage.operators.length).toBeGreaterThan(0)
    expect(coverage.refreshedAt).toBeNull()
  })

  it('answers 404 outside /_robots/: it serves nothing else', async () => {
    expect((await call('/robots.txt', auth)).status).toBe(404)
    expect((await call('/', auth)).status).toBe(404)
  })

  // The edge Worker's cron asks for the upkeep with a POST at its path; the admin Worker runs it and answers with the run's log line.
  it('runs the upkeep its edge asks for, at most once a minute, and on its own cron', async () => {
    const worker = createAdminWorker()
    const fetch = vi.spyOn(globalThis, 'fetch').mockImplementation(async () => new Response('offline', { status: 503 }))
    const log = vi.spyOn(console, 'log').mockImplementation(() => {})
    try {
      const ask = async () => {
        const ctx = createExecutionContext()
        const res = await worker.fetch!(new Request('https://robots-edge-admin.internal/__robots-edge/upkeep', { method: 'POST' }) as never, env as never, ctx)
        await waitOnExecutionContext(ctx)
        return res
      }
      const first = await ask()
      expect(first.status).toBe(200)
      const line = (await first.json()) as { robotsEdge: string; prune: { complete: boolean }; ipRanges: { failed: unknown[] }; retry?: string }
      expect(line).toMatchObject({ robotsEdge: 'cron', prune: { complete: true }, retry: 'next run' })
      expect(line.ipRanges.failed.length).toBeGreaterThan(0)
      // Asked again at once: refused, not run twice.
      const again = await ask()
      expect(again.status).toBe(429)
      expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(0)
      // A GET at that path is not the edge's request: 404 like any path outside /_robots/.
      expect((await call('/__robots-edge/upkeep')).status).toBe(404)
      // A cron trigger on the admin Worker itself runs the same upkeep.
      const before = log.mock.calls.length
      const ctx = createExecutionContext()
      worker.scheduled!({ cron: '17 * * * *', scheduledTime: Date.now(), noRetry() {} } as ScheduledController, env as never, ctx)
      await waitOnExecutionContext(ctx)
      expect(
        log.mock.calls
          .slice(before)
          .map((c) => String(c[0]))
          .filter((l) => l.includes('"robotsEdge":"cron"')),
      ).toHaveLength(1)
    } finally {
      fetch.mockRestore()
      log.mockRestore()
    }
  })
})
