/**
 * Which counters answer a report's range, and what the answer covers. Counts
 * are kept per hour and per day: a range reads whole days where it holds
 * them and hours only at its two ends, so a week costs about 7 rows per key
 * instead of 168. Pure, so the plan and its wording are tested in Node.
 */
import type { Coverage, ReportFilter } from './types.ts'

export const MINUTE = 60_000
export const HOUR = 3_600_000
export const DAY = 24 * HOUR
/** Ranges up to a week get an hourly timeline; longer ones a daily one. */
const HOURLY_TIMELINE_UP_TO = 7 * DAY + HOUR
/** Activity up to three hours old reads per minute (at most 180 bins); migrations/0060 keeps minutes two days. */
const MINUTE_TIMELINE_UP_TO = 3 * HOUR

export interface Span {
  readonly since: number
  readonly until: number
}

export interface RangePlan {
  /** The whole hours counted: those starting in [since, until). */
  readonly hours: Span
  /** Whole UTC days inside `hours` and rolled up, read from the daily counters (empty when since === until). */
  readonly days: Span
  /** The hours outside `days`, read from the hourly counters (at most two spans). */
  readonly edges: readonly Span[]
  /** The whole days rules and paths are counted over: every day `hours` touches. */
  readonly pathDays: Span
  /** The timeline's bin: an hour, or a day for ranges over a week. */
  readonly bin: number
  /** Hours before this (within `hours`) are rolled up into timeline_hourly; from it on, read from counts_hourly. */
  readonly rolledUntil: number
}

/** What the ledger says of its own counters. */
export interface CounterState {
  /** Where the hourly counters start (older ones were pruned). Default 0. */
  readonly hourlySince?: number
  /** Hours before this are rolled up into the daily counters and the timeline. Default 0: none. */
  readonly rolledHour?: number
}

const floorTo = (t: number, unit: number) => Math.floor(t / unit) * unit
const ceilTo = (t: number, unit: number) => Math.ceil(t / unit) * unit

/**
 * The plan for `filter`. Days come from the daily counters only once rolled
 * up; an end older than the hourly counters' retention is read in whole days.
 */
export function planRange(filter: Pick<ReportFilter, 'since' | 'until'>, state: CounterState = {}): RangePlan {
  const rolledHour = state.rolledHour ?? 0
  let since = ceilTo(filter.since, HOUR)
  const until = Math.max(since, ceilTo(filter.until, HOUR))
  if (since < (state.hourlySince ?? 0)) since = Math.min(until, ceilTo(since, DAY))
  const firstDay = Math.min(ceilTo(since, DAY), until)
  const lastDay = Math.max(firstDay, Math.min(floorTo(until, DAY), floorTo(rolledHour, DAY)))
  const edges = [
    { since, until: firstDay },
    { since: lastDay, until },
  ].filter((s) => s.until > s.since)
  return {
    hours: { since, until },
    days: { since: firstDay, until: lastDay },
    edges: firstDay >= lastDay ? [{ since, until }].filter((s) => s.until > s.since) : edges,
    pathDays: { since: floorTo(since, DAY), until: Math.max(floorTo(since, DAY) + DAY, ceilTo(until, DAY)) },
    bin: until - since <= HOURLY_TIMELINE_UP_TO ? HOUR : DAY,
    rolledUntil: Math.min(until, Math.max(since, rolledHour)),
  }
}

/**
 * The timeline's bin for activity from `activitySince` to the range's end
 * (`until`): a minute for up to three hours, an hour for up to a week, else
 * a day. The chart runs to the range's end, so the span is measured to it:
 * a first minute of traffic reads as minutes, not as one spike at the right
 * edge of 24 hourly bins. Never coarser than the range's own bin (`plan`).
 */
export function timelineBinFor(activitySince: number | null, until: number, planned: number): number {
  if (activitySince === null) return planned
  const span = until - activitySince
  const bin = span <= MINUTE_TIMELINE_UP_TO ? MINUTE : span <= HOURLY_TIMELINE_UP_TO ? HOUR : DAY
  return Math.min(bin, planned)
}

/** "7 days", "2.3 days", "18 hours". */
export function formatSpan(ms: number): string {
  if (ms >= 2 * DAY - HOUR) {
    const days = Math.round((ms / DAY) * 10) / 10
    return `${days} days`
  }
  const hours = Math.round(ms / HOUR)
  return `${hours} hour${hours === 1 ? '' : 's'}`
}

const day = (t: number) => new Date(t).toISOString().slice(0, 10)

export interface CoverageFacts {
  readonly plan: RangePlan
  /** When the ledger's earliest agent was first seen, if any. */
  readonly ledgerStart: number | null
  /** Raw rows older than this were pruned (0: none ever). */
  readonly rawSince: number
  /** Samples kept and requests counted in the range. */
  readonly kept: number
  readonly requests: number
  readonly budgetPerHour: number
  /** The budget of counted violations, when it differs. Default: the same. */
  readonly violationBudgetPerHour?: number
  /** Violations counted under path '' (beyond the per-day cap). */
  readonly otherPaths: number
}

/** What a report over `filter` covers, and the sentence that says it. */
export function describeCoverage(filter: Pick<ReportFilter, 'since' | 'until'>, facts: CoverageFacts): Coverage {
  const { plan } = facts
  const requested = filter.until - filter.since
  const countsSince = plan.hours.since
  const dataSince = facts.ledgerStart === null ? countsSince : Math.max(countsSince, facts.ledgerStart)
  const counts =
    countsSince > filter.since + HOUR
      ? `counts cover the last ${formatSpan(plan.hours.until - countsSince)} (older hourly counts were pruned)`
      : dataSince > countsSince + HOUR
        ? `counts cover the full ${formatSpan(requested)} (the ledger holds nothing before ${day(dataSince)})`
        : `counts cover the full ${formatSpan(requested)}`
  const samplesSince = Math.max(countsSince, facts.rawSince)
  const samples =
    facts.kept === 0 || samplesSince >= filter.until
      ? null
      : {
          since: samplesSince,
          until: filter.until,
          kept: facts.kept,
          requests: facts.requests,
          budgetPerHour: facts.budgetPerHour,
        }
  const sampled =
    facts.kept < facts.requests ? `, at most ${facts.budgetPerHour} per agent, class and hour${facts.violationBudgetPerHour ? ` (${facts.violationBudgetPerHour} of counted violations)` : ''}` : ''
  const samplesText =
    samples === null
      ? 'no request samples are kept for this range'
      : samplesSince > Math.max(countsSince, dataSince) + HOUR
        ? `request samples cover the last ${formatSpan(filter.until - samplesSince)}${sampled}`
        : `request samples cover the full range${sampled}`
  return {
    counts: plan.hours,
    samples,
    paths: { ...plan.pathDays, other: facts.otherPaths },
    summary: `${counts}; ${samplesText}; the most violated rules and paths count whole UTC days (${day(plan.pathDays.since)} to ${day(plan.pathDays.until - 1)})`,
  }
}
