/**
 * The cap on distinct hosts the ledger stores when the config lists no
 * `hosts`: every host a request names could otherwise add rows (and a
 * robots.txt version with its whole text) without bound. The first
 * MAX_STORED_HOSTS hosts are admitted, in D1 (`ledger_hosts`, so the cap
 * holds across isolates); events for any later host are stored under
 * `other-hosts.invalid`, and the report says the cap was reached.
 */
import { isBucketHost, OTHER_HOSTS } from '../core/config/index.ts'

/** Distinct hosts stored when the config lists no `hosts`. */
export const MAX_STORED_HOSTS = 100

/** Once the cap is seen reached, new hosts go to the shared key without asking D1 for this long. */
const FULL_RECHECK_MS = 5 * 60_000

/** Decides, per isolate, under which host each event is stored. */
export interface HostGate {
  /** Maps each host to itself when it is (or now gets) a place in the ledger, else to `other-hosts.invalid`. */
  place(db: D1Database, hosts: Iterable<string>, now: number): Promise<Map<string, string>>
}

/**
 * The gate of one isolate. Admitted hosts are remembered; an unknown host is
 * admitted by one INSERT that counts the stored hosts first, so concurrent
 * isolates never admit more than `cap` between them.
 *
 * @example
 * const gate = createHostGate()
 * const placed = await gate.place(env.DB, ['example.com', 'x.example.com'], Date.now())
 */
export function createHostGate(cap: number = MAX_STORED_HOSTS): HostGate {
  const admitted = new Set<string>()
  let fullUntil = 0
  return {
    async place(db, hosts, now) {
      const placed = new Map<string, string>()
      const unknown: string[] = []
      for (const host of hosts) {
        if (isBucketHost(host) || admitted.has(host)) placed.set(host, host)
        else if (!placed.has(host)) unknown.push(host)
      }
      // No more than `cap` can be admitted: asking about more would be wasted statements.
      const ask = now < fullUntil ? [] : unknown.slice(0, cap)
      if (ask.length > 0) {
        const insert = db.prepare(
          `INSERT INTO ledger_hosts (host, first_seen) SELECT ?, ? WHERE (SELECT count(*) FROM ledger_hosts) < ?
           ON CONFLICT (host) DO NOTHING`,
        )
        const results = await db.batch<{ host: string }>([
          ...ask.map((host) => insert.bind(host, Math.trunc(now), cap)),
          db.prepare('SELECT host FROM ledger_hosts WHERE host IN (SELECT value FROM json_each(?))').bind(JSON.stringify(ask)),
        ])
        for (const row of results.at(-1)?.results ?? []) admitted.add(row.host)
        if (ask.some((host) => !admitted.has(host))) fullUntil = now + FULL_RECHECK_MS
      }
      for (const host of unknown) placed.set(host, admitted.has(host) ? host : OTHER_HOSTS)
      return placed
    },
  }
}

/** What the report says about the cap: how many hosts are stored, and whether later ones went to the shared key. */
export interface HostCapNote {
  readonly limit: number
  readonly stored: number
  readonly reached: boolean
}

/** The cap's state, for the report: reached once `limit` hosts are stored (it then applies to any new host). */
export async function readHostCap(db: D1Database, limit: number = MAX_STORED_HOSTS): Promise<HostCapNote> {
  const row = await db.prepare('SELECT count(*) AS n FROM ledger_hosts').first<{ n: number }>()
  const stored = row?.n ?? 0
  return { limit, stored, reached: stored >= limit }
}
