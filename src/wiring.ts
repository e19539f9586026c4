import type { Context } from 'hono'
import type { AgentIdentity } from './bots/index.ts'
import { cfOf, verifyClaim } from './bots/verify.ts'
import type { Policy } from './config/index.ts'
import { d1Of, kvOf, type RobotsEdgeEnv } from './env.ts'
import type { JudgedRequest, Verification } from './events.ts'
import { writeToAnalyticsEngine } from './storage/analytics-engine.ts'
import { createIpRangeLoader, refreshIpRanges } from './storage/ip-ranges.ts'
import { pruneLedger, recordRobotsVersion } from './storage/ledger.ts'
import { createRecorder, type Recorder } from './storage/recorder.ts'

/**
 * The Worker's storage and verification, per isolate: one recorder that
 * batches events into D1, the set of robots.txt versions already recorded,
 * and the operators' IP ranges loaded from KV once (see storage/ip-ranges).
 */
export interface Wiring {
  record(event: JudgedRequest, c: Context, policy: Policy): Promise<void>
  verify(c: Context, identity: AgentIdentity): Promise<Verification>
  scheduled(env: RobotsEdgeEnv, now?: number): Promise<void>
  readonly recorder: () => Recorder | undefined
}

const envOf = (c: Context): RobotsEdgeEnv => c.env as RobotsEdgeEnv

export function createWiring(): Wiring {
  let recorder: Recorder | undefined
  let db: D1Database | undefined
  const versions = new Set<string>()
  const loadIpRanges = createIpRangeLoader()

  const recorderFor = (env: RobotsEdgeEnv): Recorder => {
    db = env.DB
    recorder ??= createRecorder(() => db!)
    return recorder
  }

  return {
    recorder: () => recorder,

    async record(event, c, policy) {
      const env = envOf(c)
      if (!env?.DB) return
      const r = recorderFor(env)
      const key = `${event.host}\n${event.robotsVersion}`
      if (!versions.has(key)) {
        // The report re-reads each version's text to judge rule changes.
        // Hosts come from requests: the memo is bounded (the upsert is idempotent).
        if (versions.size >= 1024) versions.clear()
        versions.add(key)
        await recordRobotsVersion(env.DB, { host: event.host, hash: policy.version, text: policy.text, time: event.time }).catch((error: unknown) => {
          versions.delete(key)
          console.error('robots-edge: could not record the robots.txt version', error)
        })
      }
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
      const kv = kvOf(env)
      const ranges = kv ? await loadIpRanges(kv) : new Map()
      return verifyClaim(identity.id, ip, cf, ranges)
    },

    async scheduled(env, now = Date.now()) {
      // A Worker without one of the bindings has that feature off (said once, on the first request).
      const kv = kvOf(env)
      const database = d1Of(env)
      const [refresh, prune] = await Promise.allSettled([
        kv ? refreshIpRanges(kv) : Promise.reject(new Error('no ROBOTS_KV binding')),
        database ? pruneLedger(database, { now }) : Promise.reject(new Error('no DB binding')),
      ])
      const failed = refresh.status === 'fulfilled' ? refresh.value.filter((r) => !r.ok) : []
      console.log(JSON.stringify({
        robotsEdge: 'cron',
        ipRanges: refresh.status === 'fulfilled' ? { lists: refresh.value.length, failed: failed.map((f) => ({ url: f.url, error: f.error })) } : String(refresh.reason),
        prune: prune.status === 'fulfilled' ? prune.value : String(prune.reason),
      }))
    },
  }
}
