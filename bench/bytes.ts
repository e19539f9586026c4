import { Hono } from 'hono'
import { createPolicies } from '../src/core/config/index.ts'
import { botGuard } from '../src/edge/middleware/bot-guard.ts'
import { formatNs, table } from '../dev/harness.ts'

/**
 * The guard's cost with byte counting against without it (`countBytes:
 * false`), same app, same requests, same run: a crawler's request through
 * the guard (judged, recorded into a no-op) to a 20 kB HTML page, whose
 * body the client reads to the end. With a Content-Length the guard only
 * reads the header; without one it counts the body in a TransformStream as
 * it streams. Prints numbers only, beside their baseline.
 */

const PAGE = new Uint8Array(20_000).fill(120)
const CHUNKS = 5
const GPTBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)'

function app(countBytes: boolean): Hono {
  const policies = createPolicies({ rules: [{ userAgent: '*', allow: '/', disallow: '/admin/' }], guard: { mode: 'log' } })
  const a = new Hono()
  a.use(botGuard({ policies, countBytes, record: () => {}, verify: () => 'verified', log: () => {} }))
  a.get('/sized', () => new Response(PAGE, { headers: { 'Content-Type': 'text/html', 'Content-Length': String(PAGE.length) } }))
  a.get('/streamed', () => {
    let sent = 0
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === CHUNKS) return controller.close()
        controller.enqueue(PAGE.subarray((sent * PAGE.length) / CHUNKS, (++sent * PAGE.length) / CHUNKS))
      },
    })
    return new Response(body, { headers: { 'Content-Type': 'text/html' } })
  })
  return a
}

/** Mean time of one request, body read to the end, over `n` requests. */
async function timeRequests(a: Hono, path: string, n: number): Promise<number> {
  const start = performance.now()
  for (let i = 0; i < n; i++) {
    const res = await a.request(`https://example.com${path}`, { headers: { 'User-Agent': GPTBOT } })
    await res.arrayBuffer()
  }
  return ((performance.now() - start) * 1e6) / n
}

const median = (all: number[]) => [...all].sort((x, y) => x - y)[all.length >> 1]!

/** Both apps, round by round in turn, so a slower moment of a shared machine falls on both: the medians of `rounds`. */
async function compareApps(without: Hono, counting: Hono, path: string, n = 300, rounds = 9): Promise<[number, number]> {
  await timeRequests(without, path, 100)
  await timeRequests(counting, path, 100)
  const a: number[] = []
  const b: number[] = []
  for (let r = 0; r < rounds; r++) {
    a.push(await timeRequests(without, path, n))
    b.push(await timeRequests(counting, path, n))
  }
  return [median(a), median(b)]
}

export async function runBytesBench(): Promise<boolean> {
  console.log('\n## The guard with byte counting vs without (countBytes: false), same requests, same run, median of 9 alternating rounds\n')
  const rows: string[][] = [['response (20 kB HTML, read to the end)', 'without', 'with bytes', 'ratio']]
  const without = app(false)
  const counting = app(true)
  for (const [name, path] of [
    ['Content-Length given', '/sized'],
    [`streamed, no Content-Length (${CHUNKS} chunks)`, '/streamed'],
  ] as const) {
    const [base, bytes] = await compareApps(without, counting, path)
    rows.push([name, formatNs(base), formatNs(bytes), `${(bytes / base).toFixed(2)}x`])
  }
  table(rows)
  return true
}
