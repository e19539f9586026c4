/**
 * The edge's side of the ledger queue (Cloudflare Queues): with a
 * `LEDGER_QUEUE` producer binding, the recorder sends its buffered events
 * here instead of writing them to D1 itself, and one consumer
 * (queue-consumer.ts, in the admin Worker) writes many isolates' events in
 * one D1 transaction. Kept small: it is in every request's bundle.
 */
import type { JudgedRequest } from '../core/events.ts'
import { SEND_EVENTS, type RobotsVersion } from './recorder.ts'

/** One message: an isolate's buffered events, and the robots.txt versions they refer to that it has not sent yet. */
export interface LedgerMessage {
  /**
   * Unique, and sortable by when it was made: the time in base-36 ms, 9
   * digits, then a random UUID. The consumer applies each id once, and
   * prunes its record of them by that time (queue-consumer.ts).
   */
  readonly id: string
  readonly events: readonly JudgedRequest[]
  readonly versions: readonly RobotsVersion[]
  /** True when the config lists no `hosts`: the consumer caps the distinct hosts stored (hosts.ts). */
  readonly gate: boolean
}

/**
 * Events per message: a sendBatch (at most 256 KB) carries four, the most
 * the recorder takes per write on the queue path. An event is at most about 3 KB, so a message stays
 * under 64 KB, which Queues bills as one operation (its limit is 128 KB).
 * The robots.txt versions ride with the first message of a write (a large
 * text may take it over the limit: Queues refuses it, and those events go
 * to D1 directly, the versions with them).
 */
export const MESSAGE_EVENTS = SEND_EVENTS / 4

/**
 * Sends up to SEND_EVENTS `events` (and `versions`, with the first message)
 * in one sendBatch of messages of MESSAGE_EVENTS each. The recorder
 * (`queue` option) writes them to D1 directly should it reject.
 */
export function queueSink(queue: Queue<LedgerMessage>, gate: boolean): (events: readonly JudgedRequest[], versions: readonly RobotsVersion[]) => Promise<unknown> {
  return (events, versions) => {
    const messages: MessageSendRequest<LedgerMessage>[] = []
    for (let i = 0; i < events.length; i += MESSAGE_EVENTS)
      messages.push({ body: { id: Date.now().toString(36).padStart(9, '0') + crypto.randomUUID(), events: events.slice(i, i + MESSAGE_EVENTS), versions: i > 0 ? [] : versions, gate } })
    return queue.sendBatch(messages)
  }
}
