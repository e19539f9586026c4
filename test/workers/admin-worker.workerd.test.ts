import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
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
})
