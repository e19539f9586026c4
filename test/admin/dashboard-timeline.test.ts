// Unit tests of the dashboard timeline's window (public/_robots/static/charts.js):
// the bins it draws follow the data, so recent activity in a long range is not
// one spike at the right edge.
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'

interface Window {
  from: number
  to: number
  bin: number
  follows: boolean
  earliest: number | null
}
interface Bin {
  hour: number
  requests: number
  violations: number
}
/** The dashboard's module, loaded by path: plain JavaScript with no type declarations. */
const charts = (await import(pathToFileURL(resolve('public/_robots/static/charts.js')).href)) as {
  timelineWindow(report: { filter: { since: number; until: number }; timeline: Bin[]; timelineBin: number }, changes?: { time: number }[]): Window
  binUnit(bin: number): string
}

const HOUR = 3_600_000
const DAY = 24 * HOUR
const until = Date.UTC(2026, 10, 24, 5, 30)
const week = { since: until - 7 * DAY, until }
const lastHour = Math.floor((until - 1) / HOUR) * HOUR
const bins = (...hoursAgo: number[]): Bin[] => hoursAgo.map((h) => ({ hour: lastHour - h * HOUR, requests: 5, violations: 1 }))

describe('timelineWindow', () => {
  it('shows a day, not a week, when everything happened in the last hour', () => {
    const w = charts.timelineWindow({ filter: week, timeline: bins(0), timelineBin: HOUR })
    // The window starts 23 hours back (24 bins at least), and names the bin of the first activity, not its own start.
    expect(w).toEqual({ from: lastHour - 23 * HOUR, to: lastHour, bin: HOUR, follows: true, earliest: lastHour })
  })

  it('starts a tenth of the span (at least two bins) before the first activity', () => {
    expect(charts.timelineWindow({ filter: week, timeline: bins(72, 3, 0), timelineBin: HOUR }).from).toBe(lastHour - 79 * HOUR)
    expect(charts.timelineWindow({ filter: week, timeline: bins(30, 0), timelineBin: HOUR }).from).toBe(lastHour - 33 * HOUR)
  })

  it('keeps the whole range when the data reaches back to its start, and when there is none', () => {
    const first = Math.floor(week.since / HOUR) * HOUR
    expect(charts.timelineWindow({ filter: week, timeline: bins(7 * 24 - 1, 0), timelineBin: HOUR })).toMatchObject({ from: first, follows: false })
    expect(charts.timelineWindow({ filter: week, timeline: [], timelineBin: HOUR })).toMatchObject({ from: first, follows: false })
    // Empty bins are no activity.
    expect(charts.timelineWindow({ filter: week, timeline: [{ hour: first, requests: 0, violations: 0 }, ...bins(0)], timelineBin: HOUR }).from).toBe(lastHour - 23 * HOUR)
  })

  it('reaches back to a rule change in the range, and ignores one before it', () => {
    expect(charts.timelineWindow({ filter: week, timeline: bins(0), timelineBin: HOUR }, [{ time: until - 50 * HOUR }]).from).toBe(lastHour - 55 * HOUR)
    expect(charts.timelineWindow({ filter: week, timeline: bins(0), timelineBin: HOUR }, [{ time: until - 30 * DAY }]).from).toBe(lastHour - 23 * HOUR)
  })

  it('counts in days when the report bins by day', () => {
    const quarter = { since: until - 90 * DAY, until }
    const lastDay = Math.floor((until - 1) / DAY) * DAY
    const w = charts.timelineWindow({ filter: quarter, timeline: [{ hour: lastDay - 2 * DAY, requests: 1, violations: 0 }], timelineBin: DAY })
    expect(w).toEqual({ from: lastDay - 23 * DAY, to: lastDay, bin: DAY, follows: true, earliest: lastDay - 2 * DAY })
  })

  it('draws a minute of traffic among minutes, and names the unit', () => {
    const now = { since: until - 7 * DAY, until }
    const minute = Math.floor((until - 1) / 60_000) * 60_000
    const w = charts.timelineWindow({ filter: now, timeline: [{ hour: minute - 60_000, requests: 3, violations: 1 }], timelineBin: 60_000 })
    // 24 minute bins at least, the activity near the right but not one spike at the edge of a day.
    expect(w).toEqual({ from: minute - 23 * 60_000, to: minute, bin: 60_000, follows: true, earliest: minute - 60_000 })
    expect([60_000, HOUR, DAY].map(charts.binUnit)).toEqual(['minute', 'hour', 'day'])
  })

  it('draws hours when a rule change reaches back beyond three hours of minutes', () => {
    const minute = Math.floor((until - 1) / 60_000) * 60_000
    const w = charts.timelineWindow({ filter: week, timeline: [{ hour: minute, requests: 3, violations: 1 }], timelineBin: 60_000 }, [{ time: until - 30 * HOUR }])
    expect(w).toMatchObject({ bin: HOUR, to: lastHour, earliest: Math.floor((until - 30 * HOUR) / HOUR) * HOUR })
  })
})
