/**
 * The optional second sink: Workers Analytics Engine, for sites too busy to
 * keep every event in D1. Analytics Engine samples and keeps 3 months. Each
 * point carries the class the D1 ledger gave the request when it recorded it
 * (src/ledger/classes.ts), so the Analytics Engine report
 * (src/admin/analytics-engine.ts) judges as the D1 report does, with
 * sampled estimates for counts.
 *
 * Data-point layout (dataset `robots_edge_events`). Positions are fixed:
 * queries name columns by position, so append new fields, never reorder.
 *
 * | column  | value                                        |
 * | ------- | -------------------------------------------- |
 * | index1  | agent key (registry id, else first token, else `unknown`): the sampling key, so a rare agent is not drowned out by a busy one |
 * | blob1   | event type: `request` or `robots-txt`        |
 * | blob2   | host                                         |
 * | blob3   | agent key                                    |
 * | blob4   | operator (`` when unknown)                   |
 * | blob5   | category                                     |
 * | blob6   | verification: verified, unverified, spoofed, unknown |
 * | blob7   | method                                       |
 * | blob8   | path (at most 2048 characters)               |
 * | blob9   | deciding rule type: allow, disallow or ``    |
 * | blob10  | deciding rule pattern                        |
 * | blob11  | group that applied (token, `*`, or ``)       |
 * | blob12  | guard mode: off, log, block                  |
 * | blob13  | action: pass or block                        |
 * | blob14  | robots.txt version (hash) in force           |
 * | blob15  | country                                      |
 * | blob16  | agent kind: bot or tool                      |
 * | blob17  | ip hash (never the raw address)              |
 * | blob18  | User-Agent header (at most 512 characters)   |
 * | blob19  | class (allowed, afterFetch, staleCopy, neverFetched, grace, newHost, spoofed, unknown, robotsTxt) |
 * | blob20  | other crawlers an ambiguous header named, space-separated |
 * | double1 | allowed: 1, disallowed: 0                    |
 * | double2 | deciding rule's line (0 when none)           |
 * | double3 | status the visitor got (0 when passed on)    |
 * | double4 | ASN (0 when unknown)                         |
 * | double5 | 1, so `SUM(_sample_interval * double5)` counts events |
 *
 * Blobs total at most about 2.9 KB, well under Analytics Engine's 16 KB.
 */
import type { JudgedRequest } from '../core/events.ts'
import { knownClass } from './classes.ts'
import { agentKey, alsoOf } from './rollups.ts'

/**
 * The data point for one event, laid out as in the table above, written by
 * the edge when the event is recorded: its class is the one the event alone
 * decides (knownClass), else '' (a genuine claim's disallowed request, which
 * only D1 classifies; the Analytics Engine report shows it as unclassified).
 */
export function toDataPoint(event: JudgedRequest): AnalyticsEngineDataPoint {
  const key = agentKey(event.agent)
  return {
    // Analytics Engine allows one index of at most 96 bytes.
    indexes: [key.slice(0, 96)],
    blobs: [
      event.type,
      event.host,
      key,
      event.agent.operator ?? '',
      event.agent.category ?? '',
      event.verification,
      event.method,
      event.path.slice(0, 2048),
      event.rule?.type ?? '',
      event.rule?.pattern ?? '',
      event.group ?? '',
      event.mode,
      event.action,
      event.robotsVersion,
      event.country ?? '',
      event.agent.kind,
      event.ipHash ?? '',
      event.userAgent.slice(0, 512),
      knownClass(event) ?? '',
      alsoOf(event) ?? '',
    ],
    doubles: [event.allowed ? 1 : 0, event.rule?.line ?? 0, event.status, event.asn ?? 0, 1],
  }
}

/**
 * Writes one data point per event. `writeDataPoint` does not wait for
 * storage; it throws only on a malformed point, which is skipped, so one bad
 * event never costs the others or reaches the visitor.
 *
 * @returns how many points were handed to the dataset.
 */
export function writeToAnalyticsEngine(dataset: AnalyticsEngineDataset, events: readonly JudgedRequest[]): number {
  let written = 0
  for (const event of events) {
    try {
      dataset.writeDataPoint(toDataPoint(event))
      written++
    } catch {
      // Counted by the return value; logging per event would flood the log.
    }
  }
  return written
}
