/**
 * What a recorder holds during a D1 outage, made durable before it is held,
 * so that an isolate evicted or crashed mid-outage loses nothing unseen.
 *
 * While D1 refuses writes, every event the recorder accepts (held in its
 * backlog, or dropped because the backlog is full) joins the open entry of
 * this journal; `sync` closes it and writes it to KV as one key (`count`
 * events between `from` and `to`), and resolves once KV has acknowledged it.
 * A promise given to waitUntil dies with its isolate: only what KV
 * acknowledged is durable, so the Worker awaits `sync` before it answers a
 * request during an outage (and only then: a healthy D1 costs no KV write).
 *
 * Retiring: each later D1 write adds, in the same transaction as the events,
 * how many of each entry's events it stored (`ledger_held`, migrations/0011).
 * So what an entry counted and D1 never stored is exactly `count - stored`,
 * worked out in SQL by the same statement whoever runs it: the isolate, once
 * all of an entry's events are written or dropped, or the cron, for an entry
 * whose isolate is gone. No event is counted twice, and the cron reading
 * a key the isolate already retired settles it to the same row.
 *
 * The bound: what a dying isolate can still lose unseen is (1) the events
 * recorded while D1 still looked healthy and not yet written when it began
 * to fail, until the writer's first failed attempt journals them (one batch
 * and what gathered during that attempt); (2) the responses leaving at the
 * moment it dies, and any whose `sync` outlasted SYNC_WAIT_MS (the
 * response stops waiting then); (3) events whose KV put failed, KV being
 * down with D1. test/storage/isolate-kill.test.ts kills workerd right
 * after its last response and finds every request stored or counted.
 *
 * Keys are written once each (a new sequence number per entry; again only
 * after a put that failed or did not answer), so KV's limit of one write
 * per second per key does not bite. Across locations KV is eventually
 * consistent: the cron reads entries only once they are STALE_STASH_MS
 * old, by which time every location has them.
 */
import type { JudgedRequest } from '../core/events.ts'
import { HELD_PREFIX } from './backlog.ts'
import { eachKey, LOSS_STASH_PREFIX, STALE_STASH_MS } from './losses.ts'
import { isCounterEvent } from './served.ts'

export { HELD_PREFIX }

/** What a journal entry's key holds, as its KV metadata (listed without a read per key). */
export interface HeldEntry {
  readonly count: number
  readonly from: number
  readonly to: number
  /** When it was written, ms since the epoch. */
  readonly at: number
}

/** Where journal entries go: Workers KV in the Worker. */
export interface HeldStore {
  put(id: string, entry: HeldEntry): Promise<void>
  remove(id: string): Promise<void>
}

export function kvHeldStore(kv: KVNamespace): HeldStore {
  return {
    put: (id, entry) => kv.put(`${HELD_PREFIX}${id}`, '', { metadata: entry }),
    remove: (id) => kv.delete(`${HELD_PREFIX}${id}`),
  }
}

/** Kept as long as the cron may still meet an entry's key: a week without a cron run would over-count. */
const HELD_ROWS_MS = 7 * 86_400_000

/** `since` stays the first retirement's: the row is kept HELD_ROWS_MS from then. */
const RETIRE = 'INSERT INTO ledger_held VALUES (?,?,?) ON CONFLICT DO UPDATE SET stored=stored+excluded.stored'

/** The loss of one entry: its count less what D1 stored of it. The isolate's own run corrects an earlier one of the cron's. */
const SETTLE = 'INSERT INTO ledger_losses SELECT ?1,?2,?3,max(0,?4-coalesce((SELECT stored FROM ledger_held WHERE id=?1),0)),?5 WHERE 1 ON CONFLICT DO '
const SETTLE_OWN = `${SETTLE}UPDATE SET events=excluded.events`
const SETTLE_GONE = `${SETTLE}NOTHING RETURNING events`

class Entry {
  count = 0
  from = Number.POSITIVE_INFINITY
  to = Number.NEGATIVE_INFINITY
  /** Held events not yet written or dropped. */
  open = 0
  /** Whether KV acknowledged it. */
  acked = false
  constructor(readonly id: string) {}
}

/** How long a request waits for entries another request is writing. */
const SYNC_WAIT_MS = 2000

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

export class Journal {
  private current: Entry | null = null
  private seq = 0
  /** Each held event's entry; an event and its copy under another host share one tag, so it settles once. */
  private readonly tagOf = new WeakMap<JudgedRequest, { entry: Entry; settled: boolean }>()
  /** Entries not yet acknowledged by KV, oldest first. */
  private pending: Entry[] = []
  /** Acknowledged entries whose events are all written or dropped: to settle in D1, then remove. */
  private done = new Set<Entry>()
  /** Whether a put is in flight (in some request's context). */
  private putting = false

  constructor(
    private readonly store: HeldStore,
    private readonly isolate: () => string,
    private readonly now: () => number,
  ) {}

  /** Counts an event accepted during an outage: `held` in the backlog, or dropped at once. */
  note(event: JudgedRequest, held: boolean): void {
    // Counters are not requests: the journal counts requests (served.ts).
    if (this.tagOf.has(event) || isCounterEvent(event)) return
    const e = (this.current ??= new Entry(`${this.isolate()}~${++this.seq}`))
    if (e.count === 0) this.pending.push(e)
    e.count++
    e.from = Math.min(e.from, event.time)
    e.to = Math.max(e.to, event.time)
    if (held) {
      e.open++
      this.tagOf.set(event, { entry: e, settled: false })
    }
  }

  /**
   * Resolves once every event counted so far is in an entry KV has
   * acknowledged (or a put failed, or took longer than SYNC_WAIT_MS: the
   * next sync tries again, so a KV that never answers holds nothing up for
   * longer, and the recorder's D1 writes go on). One put at a
   * time per isolate, as with the recorder's D1 writes: what gathers during
   * a put goes in the next, so an outage under load costs a few KV writes a
   * second rather than one per request. Another request's put is watched by
   * polling, never awaited (workerd binds I/O to the request that made it),
   * and given up on after SYNC_WAIT_MS.
   */
  async sync(): Promise<void> {
    // Entries leave `pending` once acknowledged: none, nothing to write or wait for.
    if (this.pending.length === 0) return
    for (let waited = 0; this.putting && waited < SYNC_WAIT_MS; waited += 5) await sleep(5)
    this.putting = true
    this.current = null
    const puts = this.pending.map((e) =>
      this.store.put(e.id, { count: e.count, from: e.from, to: e.to, at: this.now() }).then(
        () => {
          e.acked = true
          if (e.open === 0) this.done.add(e)
        },
        () => {},
      ),
    )
    await Promise.race([Promise.all(puts), sleep(SYNC_WAIT_MS)])
    this.putting = false
    this.pending = this.pending.filter((e) => !e.acked)
  }

  /** D1 statements that retire the journaled events among `events`: to go in the same batch as they do. */
  retirements(db: D1Database, events: readonly JudgedRequest[]): D1PreparedStatement[] {
    const stored = new Map<string, number>()
    for (const event of events) {
      const tag = this.tagOf.get(event)
      if (tag && !tag.settled) stored.set(tag.entry.id, (stored.get(tag.entry.id) ?? 0) + 1)
    }
    return [...stored].map(([id, n]) => db.prepare(RETIRE).bind(id, n, Math.trunc(this.now())))
  }

  /** An event that stands for `original` in a write (the same request under another host): it retires the same entry. */
  alias(original: JudgedRequest, copy: JudgedRequest): void {
    const tag = this.tagOf.get(original)
    if (tag) this.tagOf.set(copy, tag)
  }

  /** Events written or dropped; returns those the journal does not count (the caller counts their drop). */
  settle(events: readonly JudgedRequest[]): JudgedRequest[] {
    const rest: JudgedRequest[] = []
    for (const event of events) {
      const tag = this.tagOf.get(event)
      if (tag === undefined) rest.push(event)
      else if (!tag.settled) {
        tag.settled = true
        if (--tag.entry.open === 0 && tag.entry.acked) this.done.add(tag.entry)
      }
    }
    return rest
  }

  /** After a write D1 took: each finished entry's loss to D1 (0 when all were stored), then its key removed. */
  async retire(db: D1Database): Promise<void> {
    if (this.done.size === 0) return
    const entries = [...this.done]
    await db.batch(entries.map((e) => db.prepare(SETTLE_OWN).bind(e.id, Math.trunc(e.from), Math.trunc(e.to), e.count, Math.trunc(this.now()))))
    for (const e of entries) this.done.delete(e)
    // A key left behind settles to the same row when the cron finds it.
    await Promise.all(entries.map((e) => this.store.remove(e.id).catch(() => {})))
  }
}

/**
 * The cron's part, after collectStashedLosses: journal entries older than
 * STALE_STASH_MS whose isolate shows no sign of life (no loss stash it
 * rewrote since) are settled into
 * `ledger_losses` (count less what D1 stored of them) and removed. An
 * isolate alive in a long outage rewrites its stash every few seconds.
 */
export async function collectHeldLosses(kv: KVNamespace, db: D1Database, now: number): Promise<{ moved: number; events: number }> {
  let moved = 0
  let events = 0
  const alive = new Map<string, boolean>()
  await eachKey<HeldEntry>(kv, HELD_PREFIX, async (key) => {
    const id = key.name.slice(HELD_PREFIX.length)
    const entry = key.metadata
    if (entry && now - entry.at < STALE_STASH_MS) return
    const isolate = id.split('~')[0]!
    if (!alive.has(isolate)) alive.set(isolate, await isolateAlive(kv, isolate))
    if (alive.get(isolate)) return
    if (entry) {
      const row = await db.prepare(SETTLE_GONE).bind(id, Math.trunc(entry.from), Math.trunc(entry.to), entry.count, Math.trunc(now)).first<{ events: number }>()
      events += row?.events ?? 0
    }
    await kv.delete(key.name)
    moved++
  })
  await db
    .prepare('DELETE FROM ledger_held WHERE since<?')
    .bind(Math.trunc(now - HELD_ROWS_MS))
    .run()
  return { moved, events }
}

/** Runs after collectStashedLosses, which removes the stale stashes: any stash left is a live isolate's. */
async function isolateAlive(kv: KVNamespace, isolate: string): Promise<boolean> {
  return (await kv.list({ prefix: `${LOSS_STASH_PREFIX}${isolate}-`, limit: 1 })).keys.length > 0
}
