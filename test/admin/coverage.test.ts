// Unit tests of the report's range plan and coverage wording (src/admin/coverage.ts).
import { describe, expect, it } from 'vitest'
import { DAY as D, describeCoverage, formatSpan, HOUR as H, MINUTE, planRange, timelineBinFor } from '../../src/admin/coverage.ts'

const HOUR = 3_600_000
const DAY = 24 * HOUR
const D0 = Date.UTC(2026, 0, 5)

describe('planRange', () => {
  it('reads rolled-up whole days from the daily counters and the two ends hour by hour', () => {
    const plan = planRange({ since: D0 + 10 * HOUR + 5, until: D0 + 7 * DAY + 10 * HOUR + 5 }, { rolledHour: D0 + 7 * DAY })
    expect(plan.hours).toEqual({ since: D0 + 11 * HOUR, until: D0 + 7 * DAY + 11 * HOUR })
    expect(plan.days).toEqual({ since: D0 + DAY, until: D0 + 7 * DAY })
    expect(plan.edges).toEqual([
      { since: D0 + 11 * HOUR, until: D0 + DAY },
      { since: D0 + 7 * DAY, until: D0 + 7 * DAY + 11 * HOUR },
    ])
    expect(plan.pathDays).toEqual({ since: D0, until: D0 + 8 * DAY })
    expect(plan.bin).toBe(HOUR)
    expect(plan.rolledUntil).toBe(D0 + 7 * DAY)
  })

  it('reads hours not rolled up yet from the hourly counters, whatever the range', () => {
    const plan = planRange({ since: D0, until: D0 + 7 * DAY }, { rolledHour: D0 + 3 * DAY + 5 * HOUR })
    expect(plan.days).toEqual({ since: D0, until: D0 + 3 * DAY })
    expect(plan.edges).toEqual([{ since: D0 + 3 * DAY, until: D0 + 7 * DAY }])
    expect(planRange({ since: D0, until: D0 + 2 * DAY }).edges).toEqual([{ since: D0, until: D0 + 2 * DAY }])
  })

  it('bins the timeline by day over a week, and reads a start older than the hourly counters in whole days', () => {
    const plan = planRange({ since: D0 + 5 * HOUR, until: D0 + 30 * DAY }, { hourlySince: D0 + DAY, rolledHour: D0 + 30 * DAY })
    expect(plan.bin).toBe(DAY)
    expect(plan.hours.since).toBe(D0 + DAY)
    expect(plan.edges).toEqual([])
  })
})

describe('describeCoverage', () => {
  const week = { since: D0, until: D0 + 7 * DAY }
  const facts = { plan: planRange(week, { rolledHour: D0 + 7 * DAY }), ledgerStart: D0 - DAY, rawSince: 0, kept: 10, requests: 10, budgetPerHour: 200, otherPaths: 0 }

  it('says the counts cover the full range and so do the samples', () => {
    expect(describeCoverage(week, facts).summary).toBe(
      'counts cover the full 7 days; request samples cover the full range; the most violated rules and paths count whole UTC days (2026-01-05 to 2026-01-11)',
    )
  })

  it('says how far the samples reach once pruned, and that they are sampled', () => {
    const c = describeCoverage(week, { ...facts, rawSince: D0 + 7 * DAY - 55 * HOUR, kept: 5, requests: 10 })
    expect(c.summary).toMatch(/^counts cover the full 7 days; request samples cover the last 2.3 days, at most 200 per agent, class and hour;/)
    expect(c.samples).toEqual({ since: D0 + 7 * DAY - 55 * HOUR, until: D0 + 7 * DAY, kept: 5, requests: 10, budgetPerHour: 200 })
  })

  it('says when the ledger holds nothing before a date, and when nothing is sampled', () => {
    const c = describeCoverage(week, { ...facts, ledgerStart: D0 + 4 * DAY, kept: 0 })
    expect(c.summary).toMatch(/^counts cover the full 7 days \(the ledger holds nothing before 2026-01-09\); no request samples are kept for this range;/)
    expect(c.samples).toBeNull()
  })

  it('formats spans in days or hours', () => {
    expect([formatSpan(7 * DAY), formatSpan(55 * HOUR), formatSpan(24 * HOUR), formatSpan(HOUR)]).toEqual(['7 days', '2.3 days', '24 hours', '1 hour'])
  })
})

describe('timelineBinFor', () => {
  const until = Date.UTC(2026, 10, 27, 2, 10)
  it('bins by minute up to three hours of activity before the range’s end, by hour up to a week, then by day', () => {
    expect(timelineBinFor(until - MINUTE, until, H)).toBe(MINUTE)
    expect(timelineBinFor(until - 3 * H, until, H)).toBe(MINUTE)
    expect(timelineBinFor(until - 3 * H - 1, until, H)).toBe(H)
    expect(timelineBinFor(until - 7 * D, until, D)).toBe(H)
    expect(timelineBinFor(until - 9 * D, until, D)).toBe(D)
  })
  it('never bins coarser than the range, and keeps it without activity', () => {
    expect(timelineBinFor(until - 9 * D, until, H)).toBe(H)
    expect(timelineBinFor(null, until, D)).toBe(D)
  })
})
