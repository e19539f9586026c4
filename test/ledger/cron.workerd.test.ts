import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test'
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest'
import { ipRangeLists } from '../../src/verify/index.ts'
import { IP_RANGES_INDEX_KEY, IP_RANGES_KEY_PREFIX, ipRangesKey } from '../../src/verify/store/ip-ranges.ts'
import googlebot from '../fixtures/ip-ranges/googlebot.json?raw'
import uptimerobot from '../fixtures/ip-ranges/uptimerobot.txt?raw'
import worker from '../support/workerd/entry.ts'

// The cron through the Worker's entry: whatever fails, the scheduled handler
// settles, says what failed in its one log line, and the next run retries.
// The network is a stub: tests never reach the operators' sites.

const GOOGLEBOT = 'https://developers.google.com/static/crawling/ipranges/common-crawlers.json'
const controller = (time: number): ScheduledController => ({ cron: '17 * * * *', scheduledTime: time, noRetry() {} })

interface CronLine {
  robotsEdge: string
  ipRanges: { lists: number; failed: { url: string; error: string }[] } | string
  prune: unknown
  losses: unknown
  retry?: string
}

let log: MockInstance<typeof console.log>
let error: MockInstance<typeof console.error>
let network: MockInstance<typeof fetch>
const cronLines = () =>
  log.mock.calls
    .map((c) => String(c[0]))
    .filter((l) => l.startsWith('{"robotsEdge":"cron"'))
    .map((l) => JSON.parse(l) as CronLine)

async function runCron(bindings: Record<string, unknown>, time = Date.now()): Promise<void> {
  const ctx = createExecutionContext()
  worker.scheduled!(controller(time), bindings as never, ctx)
  await waitOnExecutionContext(ctx)
}

beforeEach(async () => {
  log = vi.spyOn(console, 'log').mockImplementation(() => {})
  error = vi.spyOn(console, 'error').mockImplementation(() => {})
  network = vi.spyOn(globalThis, 'fetch').mockRejectedValue(new TypeError('Network connection lost.'))
  const { keys } = await env.ROBOTS_KV.list({ prefix: IP_RANGES_KEY_PREFIX })
  await Promise.all(keys.map((k) => env.ROBOTS_KV.delete(k.name)))
})

afterEach(() => vi.restoreAllMocks())

describe('the scheduled handler never throws', () => {
  it('KV, D1 and every list failing: the run settles, and one line names each failure', async () => {
    const down = () => {
      throw new Error('KV down')
    }
    const kv = { get: down, put: down, getWithMetadata: down, list: down, delete: down }
    const db = {
      prepare: () => {
        throw new Error('D1 down')
      },
      batch: () => Promise.reject(new Error('D1 down')),
    }
    await expect(runCron({ ROBOTS_KV: kv, DB: db })).resolves.toBeUndefined()
    const lines = cronLines()
    expect(lines).toHaveLength(1)
    const [line] = lines
    expect(line!.retry).toBe('next run')
    expect(typeof line!.prune).toBe('string')
    expect(line!.prune).toContain('D1 down')
    const ipRanges = line!.ipRanges as Exclude<CronLine['ipRanges'], string>
    expect(ipRanges.failed.map((f) => f.url).sort()).toEqual(ipRangeLists.map((l) => l.url).sort())
    expect(ipRanges.failed.every((f) => f.error.length > 0)).toBe(true)
    expect(error).not.toHaveBeenCalled()
  })

  it('a list that could not be fetched is fetched again on the next run', async () => {
    await runCron({ ROBOTS_KV: env.ROBOTS_KV })
    const first = cronLines()[0]!.ipRanges as Exclude<CronLine['ipRanges'], string>
    expect(first.failed.find((f) => f.url === GOOGLEBOT)?.error).toBe('Network connection lost.')
    expect(await env.ROBOTS_KV.get(ipRangesKey(GOOGLEBOT))).toBeNull()

    // The network is back.
    network.mockImplementation(async (input) => {
      const url = input instanceof Request ? input.url : String(input)
      const list = ipRangeLists.find((l) => l.url === url)
      return new Response(list?.format === 'google-json' ? googlebot : uptimerobot)
    })
    await runCron({ ROBOTS_KV: env.ROBOTS_KV })
    const second = cronLines()[1]!
    expect(second.ipRanges).toEqual({ lists: ipRangeLists.length, failed: [] })
    expect(await env.ROBOTS_KV.get(ipRangesKey(GOOGLEBOT))).not.toBeNull()
    expect(JSON.parse((await env.ROBOTS_KV.get(IP_RANGES_INDEX_KEY))!)).toMatchObject({ failures: [] })
  })
})
