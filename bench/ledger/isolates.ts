/**
 * The measurement behind classifying in SQL (chosen by
 * measurement): what per-isolate state would get wrong. Cloudflare spreads
 * a crawler's requests, its robots.txt fetch included, over many isolates;
 * an isolate that classified from the fetches it saw itself would call a
 * violation after a fetch "never fetched" whenever the fetch went elsewhere.
 * Replays the workload with requests dealt to `isolates` isolates at random
 * and counts the disallowed requests whose class would differ from the one
 * the whole ledger gives (the SQL in the write batch sees every isolate's
 * fetches, at the cost of a few index reads per disallowed request).
 */
import { rng } from '../../dev/harness.ts'
import { createWorkload, START } from './workload.ts'

const DAY = 86_400_000
/** When each host was first served (workload.ts VERSIONS): c.example at START, the others long before. */
const hostStart = (host: string) => (host === 'c.example' ? START : START - 30 * DAY)

export interface IsolateResult {
  readonly isolates: number
  /** Genuine claims' disallowed requests. */
  readonly disallowed: number
  /** Of them, classified differently by one isolate's own knowledge. */
  readonly wrong: number
  /** Of those, moved between counted and not counted (e.g. "never fetched" excused on a new host). */
  readonly flipped: number
}

type Seen = Map<string, number>

function classOf(seen: Seen, host: string, agent: string, operator: string | undefined, version: string, time: number): string {
  const read = (v: string) => [agent, operator].some((who) => who !== undefined && (seen.get(`${host}\n${who}\n${v}`) ?? Infinity) <= time)
  if (read(version)) return 'afterFetch'
  if (read('*')) return 'staleCopy'
  return time < hostStart(host) + DAY ? 'newHost' : 'neverFetched'
}

function note(seen: Seen, key: string, time: number): void {
  if (!seen.has(key)) seen.set(key, time)
}

/** Replays `total` events of the workload over `isolates` isolates. */
export function measureIsolates(total: number, isolates: number): IsolateResult {
  const deal = rng(17)
  const global: Seen = new Map()
  const local: Seen[] = Array.from({ length: isolates }, () => new Map())
  const workload = createWorkload(total)
  let disallowed = 0
  let wrong = 0
  let flipped = 0
  while (workload.remaining > 0) {
    for (const e of workload.take(10_000)) {
      const own = local[Math.floor(deal() * isolates)]!
      const agent = e.agent.id ?? e.agent.tokens[0] ?? 'unknown'
      if (e.type === 'robots-txt') {
        if (e.verification === 'spoofed') continue
        for (const who of [agent, e.agent.operator]) {
          if (who === undefined) continue
          for (const v of [e.robotsVersion, '*']) {
            note(global, `${e.host}\n${who}\n${v}`, e.time)
            note(own, `${e.host}\n${who}\n${v}`, e.time)
          }
        }
        continue
      }
      if (e.allowed || (e.verification !== 'verified' && e.verification !== 'unverified')) continue
      disallowed++
      const truth = classOf(global, e.host, agent, e.agent.operator, e.robotsVersion, e.time)
      const guess = classOf(own, e.host, agent, e.agent.operator, e.robotsVersion, e.time)
      if (truth === guess) continue
      wrong++
      if ((truth === 'newHost') !== (guess === 'newHost')) flipped++
    }
  }
  return { isolates, disallowed, wrong, flipped }
}
