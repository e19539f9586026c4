import type { Context } from 'hono'
import type { AgentIdentity } from '../core/agents/index.ts'
import { cfOf, verifyClaim } from '../verify/verify.ts'
import { claimBySignature, verifySignedRequest } from '../verify/web-bot-auth.ts'
import type { Policy } from '../core/config/index.ts'
import { d1Of, kvOf, type RobotsEdgeEnv } from './env.ts'
import type { SignatureEvidence, Verification } from '../core/events.ts'
import { createHostGate } from '../ledger/hosts.ts'
import { createIpRangeLoader, type IpRangeLoader } from '../verify/store/ip-range-loader.ts'
import { createKeyDirectories } from '../verify/store/key-directories.ts'
import type { Deployment } from '../ledger/ledger.ts'
import { kvHeldStore } from '../ledger/journal.ts'
import { kvLossStash } from '../ledger/losses.ts'
import { createRecorder, type Recorder } from '../ledger/recorder.ts'
import { toDataPoint } from '../ledger/analytics-engine.ts'
import { queueSink } from '../ledger/queue.ts'
import type { RecordFn } from './middleware/bot-guard.ts'

/**
 * The Worker's storage and verification, per isolate: one recorder that
 * batches events and the robots.txt versions they refer to into D1 (and
 * counts what D1 cannot take, see storage/recorder), and the operators' IP
 * ranges loaded from KV and kept current (see storage/ip-range-loader.ts).
 */
export interface Wiring {
  /** Records `event`; resolves once it is durable, which during a D1 outage means counted in KV (the writing goes on in waitUntil). */
  record: RecordFn
  /** Whether the response should wait for `record`: only while D1 refuses writes. */
  holding(): boolean
  verify(c: Context, identity: AgentIdentity): Promise<Verification>
  /**
   * The isolate's IP-range loader, which `verify` reads: the in-process
   * report reads verification coverage from it (src/verify/store/coverage.ts),
   * so that code is in no bundle that serves no report.
   */
  readonly ipRanges: IpRangeLoader
  /** What the request's Web Bot Auth signature showed, once `verify` ran for it; `record` adds it to the event. */
  signatureOf(request: Request): SignatureEvidence | undefined
  /** Writes what this isolate still holds, for the cron. */
  flush(): Promise<void>
  readonly recorder: () => Recorder | undefined
}

const bindingsOf = (c: Context): RobotsEdgeEnv => c.env as RobotsEdgeEnv

/** The Worker version serving this request, where wrangler.toml declares `[version_metadata]`. */
function deploymentOf(env: RobotsEdgeEnv): Deployment | undefined {
  const metadata = env.CF_VERSION_METADATA
  return metadata?.id ? { id: metadata.id, ...(metadata.tag ? { tag: metadata.tag } : {}) } : undefined
}

export function createWiring(): Wiring {
  let recorder: Recorder | undefined
  let db: D1Database | undefined
  const loadIpRanges = createIpRangeLoader()
  const keyDirectories = createKeyDirectories()
  // What each request's signature showed, from verify() to record(), which sees the same request.
  const signatures = new WeakMap<Request, SignatureEvidence>()

  // The bindings are the isolate's; each request hands them over again.
  const recorderFor = (env: RobotsEdgeEnv, database: D1Database, policy: Policy): Recorder => {
    db = database
    const kv = kvOf(env)
    recorder ??= createRecorder(() => db!, {
      // Without a `hosts` list, every host a request names could add rows: the ledger stores a bounded number.
      ...(policy.config.hosts === undefined ? { hosts: createHostGate() } : {}),
      ...(kv ? { stash: kvLossStash(kv), held: kvHeldStore(kv) } : {}),
      // With a queue, its consumer writes to D1 (and caps the hosts) for many isolates at once.
      queue: env.LEDGER_QUEUE && queueSink(env.LEDGER_QUEUE, policy.config.hosts === undefined),
    })
    return recorder
  }

  return {
    recorder: () => recorder,

    signatureOf: (request) => signatures.get(request),

    async record(judged, c, policy) {
      const env = bindingsOf(c)
      const signature = signatures.get(c.req.raw)
      const event = signature === undefined ? judged : { ...judged, signature }
      // Analytics Engine gets its point now, whatever D1 does, with the class the event alone decides ('' where only D1 can).
      // Referral and streamed-bytes events are counters, not requests: no point of their own.
      try {
        if (event.type === 'request' || event.type === 'robots-txt') env.ROBOTS_AE?.writeDataPoint(toDataPoint(event))
      } catch {
        // A point the dataset refuses (malformed) is skipped: it never reaches the visitor.
      }
      const database = d1Of(env)
      if (!database) return
      const r = recorderFor(env, database, policy)
      // The report re-reads each version's text to judge rule changes; the history names the deployment.
      r.recordVersion({ host: event.host, hash: policy.version, text: policy.text, time: event.time, deployment: deploymentOf(env) })
      r.record(event)
      const flushing = r.flush()
      if (!r.outage) return flushing
      try {
        c.executionCtx.waitUntil(flushing)
      } catch {
        // No execution context (a unit test calling app.request): the promise still runs.
      }
      await r.held()
    },

    holding: () => recorder?.outage === true,

    async verify(c, identity) {
      const kv = kvOf(bindingsOf(c))
      // Web Bot Auth: an unsigned request costs this one header lookup and goes on as before.
      if (c.req.raw.headers.has('signature')) {
        const signed = await verifySignedRequest(c.req.raw, { resolveKey: keyDirectories.resolver(kv) })
        const decided = claimBySignature(identity.id, signed)
        if (signed.status !== 'unsigned') {
          const { status, directory } = signed
          signatures.set(c.req.raw, { status, decided: decided !== undefined, ...(directory !== undefined && { directory }), ...(signed.status !== 'valid' && { reason: signed.reason }) })
        }
        if (decided !== undefined) return decided
      }
      const cf = cfOf(c.req.raw)
      const ip = c.req.header('cf-connecting-ip') ?? null
      const ranges = kv ? await loadIpRanges(kv) : new Map()
      return verifyClaim(identity.id, ip, cf, ranges)
    },

    ipRanges: loadIpRanges,

    // The cron's share here: this isolate's own backlog, should D1 have come
    // back while no request came. The ledger's upkeep is the admin side's
    // (src/admin/upkeep.ts), kept out of this bundle.
    flush: async () => {
      await recorder?.flush()
    },
  }
}
