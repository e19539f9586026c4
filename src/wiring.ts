import type { Context } from 'hono'
import type { AgentIdentity } from './bots/index.ts'
import { cfOf, verifyClaim } from './bots/verify.ts'
import type { Policy } from './config/index.ts'
import type { JudgedRequest, Verification } from './events.ts'
import { writeToAnalyticsEngine } from './storage/analytics-engine.ts'
import { createIpRangeLoader, refreshIpRanges } from './storage/ip-ranges.ts'
import { createHostGate } from './storage/hosts.ts'
import { pruneLedger } from './storage/ledger.ts'
import { collectStashedLosses, kvLossStash } from './storage/losses.ts'
import { createRecorder, type Recorder } from './storage/recorder.ts'

/**
 * The Worker's storage and verification, per isolate: one recorder that
 * batches events and the robots.txt versions they refer to into D1 (and
 * counts what D1 cannot take, see storage/recorder), and the operators' IP
 * ranges loaded from KV once (see storage/ip-ranges).
 */
export interface Wiring {
  record(event: JudgedRequest, c: Context, policy: Policy): Promise<void>
  verify(c: Context, identity: AgentIdentity): Promise<Verification>
  scheduled(env: Env, now?: number): Promise<void>
  readonly recorder: () => Recorder | undefined
}

const envOf = (c: Context): Env => c.env as Env

export function createWiring(): Wiring {
  let recorder: Recorder | undefined
  let db: D1Database | undefined
  const loadIpRanges = createIpRangeLoader()

  // The bindings are the isolate's; each request hands them over again.
  const recorderFor = (env: Env, policy: Policy): Recorder => {
    db = env.DB
    recorder ??= createRecorder(() => db!, {
      // Without a `hosts` list, every host a request names could add rows: the ledger stores a bounded number.
      ...(policy.config.hosts === undefined ? { hosts: createHostGate() } : {}),
      ...(env.ROBOTS_KV ? { stash: kvLossStash(env.ROBOTS_KV) } : {}),
    })
    return recorder
  }

  return {
    recorder: () => recorder,

    async record(event, c, policy) {
      const env = envOf(c)
      if (!env?.DB) return
      const r = recorderFor(env, policy)
      // The report re-reads each version's text to judge rule changes.
      r.recordVersion({ host: event.host, hash: policy.version, text: policy.text, time: event.time })
      r.record(event)
      if (env.ROBOTS_AE) {
        try {
          writeToAnalyticsEngine(env.ROBOTS_AE, [event])
        } catch (error) {
          console.error('robots-edge: Analytics Engine write failed', error)
        }
      }
      await r.flush()
    },

    async verify(c, identity) {
      const env = envOf(c)
      const cf = cfOf(c.req.raw)
      const ip = c.req.header('cf-connecting-ip') ?? null
      const ranges = env?.ROBOTS_KV ? await loadIpRanges(env.ROBOTS_KV) : new Map()
      return verifyClaim(identity.id, ip, cf, ranges)
    },

    async scheduled(env, now = Date.now()) {
      const [refresh, prune, losses] = await Promise.allSettled([
        refreshIpRanges(env.ROBOTS_KV),
        pruneLedger(env.DB, { now }),
        // Losses stashed in KV by isolates that stopped before D1 was back.
        collectStashedLosses(env.ROBOTS_KV, env.DB, now),
        // This isolate's own backlog, should D1 have come back while no request came.
        recorder?.flush(),
      ])
      const failed = refresh.status === 'fulfilled' ? refresh.value.filter((r) => !r.ok) : []
      console.log(JSON.stringify({
        robotsEdge: 'cron',
        ipRanges: refresh.status === 'fulfilled' ? { lists: refresh.value.length, failed: failed.map((f) => ({ url: f.url, error: f.error })) } : String(refresh.reason),
        prune: prune.status === 'fulfilled' ? prune.value : String(prune.reason),
        losses: losses.status === 'fulfilled' ? losses.value : String(losses.reason),
      }))
    },
  }
}
