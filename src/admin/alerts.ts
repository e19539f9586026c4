/**
 * The cron's alerts: reads the ledger, decides with src/admin/alert-rules.ts
 * what has changed since the last run, queues one message per event in D1
 * (`alert_outbox`, migrations/0050) together with the new states, in one
 * batch, then posts what is queued, signed (src/core/http/webhook-signature.ts).
 * Queuing first means nothing is lost between deciding and posting: a post
 * that fails or times out stays queued and is tried again on the next run.
 */
import type { ConfigInput } from '../core/config/index.ts'
import { configFor } from '../core/config/resolve.ts'
import { resolveAlerts, webhookUrlProblem, type ResolvedAlerts } from '../core/config/alerts.ts'
import { SIGNATURE_HEADER, signWebhook } from '../core/http/webhook-signature.ts'
import { ALERT_WINDOW_MS, planAlerts, type LossRow, type NewClientRow, type SpoofHour, type StoredState } from './alert-rules.ts'
import { getReport } from './queries.ts'

/** States unconfirmed, and messages undelivered, for this long are pruned (the latter counted as dropped). */
export const ALERT_RETENTION_MS = 30 * 86_400_000
/** Messages posted per run at most: a first run over a busy ledger queues many, and Slack takes about one a second. */
export const POSTS_PER_RUN = 20
/** How long a post may take before it counts as failed (and is tried again next run). */
export const POST_TIMEOUT_MS = 10_000

/** What a run did, for the cron's log line. */
export interface AlertRun {
  /** Messages queued by this run. */
  readonly queued: number
  readonly sent: number
  /** Posts that failed this run (HTTP error or timeout); they stay queued. */
  readonly failed: number
  /** Messages still queued after this run. */
  readonly pending: number
  /** Undelivered messages pruned after ALERT_RETENTION_MS. */
  readonly dropped: number
  /** Why nothing was posted, or why the last post failed; never the webhook URL. */
  readonly error?: string
}

/**
 * The `alerts` of a config for the Worker's environment, or null when it
 * sets none. A config function is called as for host `localhost`, the first
 * context every config is checked in. Throws ConfigError when invalid.
 */
export function alertsFor(config: ConfigInput | undefined, env: unknown): ResolvedAlerts | null {
  if (config === undefined) return null
  const name = (env as { ROBOTS_ENV?: unknown } | undefined)?.ROBOTS_ENV
  return resolveAlerts(configFor(config, { host: 'localhost', env: typeof name === 'string' && name !== '' ? name : 'production' }))
}

const HOUR_MS = 3_600_000

const NEW_CLIENTS_SQL = `SELECT agent_key AS agentKey, kind, first_seen AS firstSeen FROM agents
  WHERE agent_id IS NULL AND agent_key <> 'unknown' AND first_seen >= ?1`
const LOSSES_SQL = 'SELECT id, from_time AS "from", to_time AS "to", events FROM ledger_losses WHERE to_time >= ?1 AND events > 0'
// Driven from `agents`, as the report's reads are: counts_hourly is keyed by agent first.
const SPOOF_SQL = `SELECT c.agent_key AS agentKey, a.operator, c.hour, sum(c.requests) AS requests
  FROM agents a CROSS JOIN counts_hourly c ON c.agent_key = a.agent_key AND c.hour >= ?1
  WHERE c.verification = 'spoofed' GROUP BY c.agent_key, c.hour`
const UPSERT_STATE = `INSERT INTO alert_state (alert_key, state, changed_at, checked_at) VALUES (?1, ?2, ?3, ?3)
  ON CONFLICT (alert_key) DO UPDATE SET state = excluded.state, checked_at = excluded.checked_at,
    changed_at = CASE WHEN alert_state.state = excluded.state THEN alert_state.changed_at ELSE excluded.changed_at END`

/** Decides and queues this run's messages; returns how many. One batch: the states and their messages are written together or not at all. */
async function queueAlerts(db: D1Database, settings: ResolvedAlerts, now: number): Promise<number> {
  const since = Math.floor((now - ALERT_WINDOW_MS) / HOUR_MS) * HOUR_MS
  const [report, reads] = await Promise.all([
    getReport(db, { since: now - ALERT_WINDOW_MS, until: now }),
    db.batch([
      db.prepare('SELECT alert_key AS key, state, checked_at AS checkedAt FROM alert_state'),
      db.prepare(NEW_CLIENTS_SQL).bind(since),
      db.prepare(LOSSES_SQL).bind(since),
      db.prepare(SPOOF_SQL).bind(since),
    ]),
  ])
  const [stored, newClients, losses, spoofHours] = reads.map((r) => r.results) as [(StoredState & { key: string })[], NewClientRow[], LossRow[], SpoofHour[]]
  const plan = planAlerts({ now, settings, report, newClients, losses, spoofHours, stored: new Map(stored.map(({ key, ...s }) => [key, s])) })
  const statements = [
    ...plan.states.map((s) => db.prepare(UPSERT_STATE).bind(s.key, s.state, now)),
    ...plan.messages.map((m) => db.prepare('INSERT INTO alert_outbox (alert_key, body, created_at) VALUES (?1, ?2, ?3)').bind(m.key, JSON.stringify(m.message), now)),
  ]
  if (statements.length > 0) await db.batch(statements)
  return plan.messages.length
}

/** A secret by the name the config gives it; undefined when unset or empty. */
function secretOf(env: unknown, name: string): string | undefined {
  const value = (env as Record<string, unknown> | undefined)?.[name]
  return typeof value === 'string' && value !== '' ? value : undefined
}

/** Posts queued messages, oldest first, until one fails: the rest wait for the next run rather than each waiting out a timeout. */
async function deliver(db: D1Database, url: string, key: string, timeoutMs: number): Promise<{ sent: number; failed: number; error?: string }> {
  const { results } = await db.prepare('SELECT id, body FROM alert_outbox ORDER BY id LIMIT ?1').bind(POSTS_PER_RUN).all<{ id: number; body: string }>()
  let sent = 0
  for (const row of results) {
    let error: string | undefined
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', [SIGNATURE_HEADER]: await signWebhook(key, row.body, Date.now()) },
        body: row.body,
        signal: AbortSignal.timeout(timeoutMs),
      })
      await res.body?.cancel()
      if (!res.ok) error = `the webhook answered ${res.status}`
    } catch (e) {
      // An error may quote the URL, a credential: it is taken out.
      const reason = e instanceof Error ? `${e.name}: ${e.message}` : String(e)
      error = `the post failed: ${reason.split(url).join('<webhook>')}`
    }
    if (error === undefined) {
      await db.prepare('DELETE FROM alert_outbox WHERE id = ?1').bind(row.id).run()
      sent++
      continue
    }
    await db.prepare('UPDATE alert_outbox SET attempts = attempts + 1, last_error = ?2 WHERE id = ?1').bind(row.id, error).run()
    return { sent, failed: 1, error: `${error}; retried on the next run` }
  }
  return { sent, failed: 0 }
}

/**
 * One run: prune, decide and queue, post (each post cut off after
 * `options.timeoutMs`, default POST_TIMEOUT_MS). A missing or unusable secret
 * posts nothing and says so (in the cron's log line, once per run); what
 * was queued waits for it, and is counted as `pending`.
 */
export async function runAlerts(env: unknown, db: D1Database, settings: ResolvedAlerts, now: number = Date.now(), options: { timeoutMs?: number } = {}): Promise<AlertRun> {
  const cutoff = now - ALERT_RETENTION_MS
  const [, pruned] = await db.batch([db.prepare('DELETE FROM alert_state WHERE checked_at < ?1').bind(cutoff), db.prepare('DELETE FROM alert_outbox WHERE created_at < ?1').bind(cutoff)])
  const dropped = pruned?.meta.changes ?? 0
  const queued = await queueAlerts(db, settings, now)
  const url = secretOf(env, settings.webhook)
  const key = secretOf(env, settings.secret)
  const problem =
    url === undefined
      ? `no secret ${settings.webhook} (the webhook URL): nothing posted; set it with \`wrangler secret put ${settings.webhook}\``
      : (webhookUrlProblem(url, settings.webhook) ??
        (key === undefined ? `no secret ${settings.secret} (the signing key): nothing posted; set it with \`wrangler secret put ${settings.secret}\`` : undefined))
  const result = problem === undefined ? await deliver(db, url!, key!, options.timeoutMs ?? POST_TIMEOUT_MS) : { sent: 0, failed: 0, error: problem }
  const left = await db.prepare('SELECT count(*) AS n FROM alert_outbox').first<{ n: number }>()
  return { queued, sent: result.sent, failed: result.failed, pending: left?.n ?? 0, dropped, ...(result.error === undefined ? {} : { error: result.error }) }
}
