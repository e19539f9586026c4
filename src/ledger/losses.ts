/**
 * Events the ledger could not store, counted instead of lost unseen: the
 * recorder counts every event it drops, writes the count with its time span
 * to D1 (`ledger_losses`, migrations/0010) once D1 takes writes again, and
 * keeps it in KV meanwhile, where the cron finds it should the isolate stop
 * first. The report reads it back as "N events could not be stored between
 * T1 and T2".
 */
import { LOSS_STASH_PREFIX, STALE_STASH_MS, type Loss, type LossEpisode, type LossStash } from './backlog.ts'
import { readHostCap, type HostCapNote } from './hosts.ts'

export type { Loss, LossEpisode, LossStash }
export { LOSS_STASH_PREFIX, STALE_STASH_MS }

/** Where the recorder parks a loss while D1 is down. */
export interface LossStashStore {
  put(stash: LossStash): Promise<void>
  remove(id: string): Promise<void>
}

/** Losses whose spans lie closer than this are shown as one (one outage, seen by several isolates). */
const MERGE_GAP_MS = 5 * 60_000

/**
 * Writes an isolate's own count of an episode. The isolate knows the exact
 * count, so its row replaces whatever the cron moved from an older stash.
 */
export async function recordLoss(db: D1Database, loss: LossEpisode, now: number): Promise<void> {
  await db
    .prepare(
      `INSERT INTO ledger_losses (id, from_time, to_time, events, recorded_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET from_time = excluded.from_time, to_time = excluded.to_time,
         events = excluded.events, recorded_at = excluded.recorded_at`,
    )
    .bind(loss.id, Math.trunc(loss.from), Math.trunc(loss.to), loss.events, Math.trunc(now))
    .run()
}

/** A loss as the report shows it: with how many of its events the ledger queue dead-lettered, when any (queue-consumer.ts). */
export type ShownLoss = Loss & { readonly deadLettered?: number }

/**
 * The losses within a time range, those close together merged, oldest first.
 * Events the ledger queue gave up on (after every retry, its dead-letter
 * queue) count like any other loss, and are named: `deadLettered`.
 *
 * @example
 * const losses = await readLosses(env.DB, { since: Date.now() - 7 * 86_400_000, until: Date.now() })
 * // [{ from: 1767607200000, to: 1767607210000, events: 4200 }]
 */
export async function readLosses(db: D1Database, range: { since: number; until: number }): Promise<ShownLoss[]> {
  const { results } = await db
    .prepare(
      `SELECT from_time AS "from", to_time AS "to", events, id LIKE 'dead-letter:%' AS dead FROM ledger_losses
       WHERE to_time >= ? AND from_time < ? AND events > 0 ORDER BY from_time`,
    )
    .bind(Math.trunc(range.since), Math.trunc(range.until))
    .all<Loss & { dead: number }>()
  const merged: { from: number; to: number; events: number; deadLettered?: number }[] = []
  for (const loss of results) {
    const last = merged.at(-1)
    const dead = loss.dead ? loss.events : 0
    if (last !== undefined && loss.from <= last.to + MERGE_GAP_MS) {
      last.to = Math.max(last.to, loss.to)
      last.events += loss.events
      if (dead > 0) last.deadLettered = (last.deadLettered ?? 0) + dead
    } else merged.push({ from: loss.from, to: loss.to, events: loss.events, ...(dead > 0 ? { deadLettered: dead } : {}) })
  }
  return merged
}

/** Stashes in Workers KV, one key per isolate and episode. Failures are the caller's to count. */
export function kvLossStash(kv: KVNamespace): LossStashStore {
  return {
    put: (stash) => kv.put(`${LOSS_STASH_PREFIX}${stash.id}`, JSON.stringify(stash)),
    remove: (id) => kv.delete(`${LOSS_STASH_PREFIX}${id}`),
  }
}

function parseStash(text: string | null): LossStash | null {
  try {
    const s = JSON.parse(text ?? 'null') as Partial<LossStash> | null
    const numbers = [s?.from, s?.to, s?.events, s?.held, s?.updated]
    return s && typeof s.id === 'string' && numbers.every((n) => typeof n === 'number' && Number.isFinite(n)) ? (s as LossStash) : null
  } catch {
    return null
  }
}

/**
 * The cron's part: moves stale stashes (isolates that stopped during an
 * outage, or before their loss reached D1) into `ledger_losses`, counting
 * what they still held as lost, and deletes them. A fresh stash is left to
 * its isolate. A row the isolate already wrote is kept as it is.
 *
 * @returns how many stashes were removed, and the events they added to `ledger_losses`.
 */
export async function collectStashedLosses(kv: KVNamespace, db: D1Database, now: number): Promise<{ moved: number; events: number }> {
  let moved = 0
  let events = 0
  await eachKey(kv, LOSS_STASH_PREFIX, async (key) => {
    const stash = parseStash(await kv.get(key.name))
    if (stash !== null && now - stash.updated < STALE_STASH_MS) return
    if (stash !== null && stash.events + stash.held > 0) {
      const written = await db
        .prepare('INSERT INTO ledger_losses (id, from_time, to_time, events, recorded_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING')
        .bind(stash.id, Math.trunc(stash.from), Math.trunc(stash.to), stash.events + stash.held, Math.trunc(now))
        .run()
      if (written.meta.changes > 0) events += stash.events + stash.held
    }
    await kv.delete(key.name)
    moved++
  })
  return { moved, events }
}

/** Calls `fn` for each key under `prefix`, page by page. */
export async function eachKey<M>(kv: KVNamespace, prefix: string, fn: (key: KVNamespaceListKey<M>) => Promise<void>): Promise<void> {
  let cursor: string | undefined
  do {
    const page = await kv.list<M>({ prefix, ...(cursor === undefined ? {} : { cursor }) })
    for (const key of page.keys) await fn(key)
    cursor = page.list_complete ? undefined : page.cursor
  } while (cursor !== undefined)
}

/** What the report says about the ledger itself, next to the counts it shows. */
export interface StorageNotes {
  /** Events that could not be stored within the range: "N events could not be stored between T1 and T2" (M of them dead-lettered by the ledger queue). */
  readonly losses: readonly ShownLoss[]
  /** The cap on distinct hosts, when reached: requests for further hosts are counted under `other-hosts.invalid`. */
  readonly hostCap: HostCapNote | null
}

/**
 * The one call the report makes for these notes; its fields go into the
 * report's JSON as they are.
 *
 * @example
 * const notes = await getStorageNotes(env.DB, { since, until })
 * // { losses: [{ from, to, events: 4200 }], hostCap: null }
 */
export async function getStorageNotes(db: D1Database, range: { since: number; until: number }): Promise<StorageNotes> {
  const [losses, cap] = await Promise.all([readLosses(db, range), readHostCap(db)])
  return { losses, hostCap: cap.reached ? cap : null }
}
