// A minimal Worker around the real recorder, for the concurrency test: each
// request records one event through ctx.waitUntil, as the guard does.
import { createRecorder } from '../../../src/ledger/recorder.ts'
import type { JudgedRequest } from '../../../src/core/events.ts'

let db: D1Database | undefined
const recorder = createRecorder(() => db!)
let n = 0

export default {
  async fetch(request: Request, env: { DB: D1Database }, ctx: ExecutionContext): Promise<Response> {
    db = env.DB
    if (new URL(request.url).pathname === '/stats') return Response.json({ ...recorder.stats, buffered: recorder.stats.buffered })
    const i = n++
    const event: JudgedRequest = {
      type: 'request',
      time: Date.now(),
      host: 'example.com',
      method: 'GET',
      path: `/p/${i}`,
      userAgent: 'TestBot/1.0',
      agent: { id: 'testbot', tokens: ['testbot'], kind: 'bot', obeysRobotsTxt: true },
      verification: 'unverified',
      group: '*',
      allowed: false,
      rule: null,
      mode: 'log',
      action: 'pass',
      status: 0,
      robotsVersion: 'v1',
    }
    ctx.waitUntil(
      (async () => {
        recorder.record(event)
        await recorder.flush()
      })(),
    )
    return new Response('ok')
  },
}
