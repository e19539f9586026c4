// The request shapes a replay reads (migrations/0006, UPSERT_SHAPE_PATHS in
// src/ledger/ledger-sql.ts), written by the real write path into a local
// D1: every genuine request counted once per (day, host, agent, version,
// path), spoofed claims and robots.txt fetches left out, every path its own
// row (issue 18: no cap when written; retention and a row cap in the cron).
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { writeEvents } from '../../src/ledger/ledger.ts'
import { DAY, HOUR, T0, fetched, googlebot, googlebotImage, gptbot, judged } from '../support/report-fixtures.ts'
import { clearLedger } from '../support/workerd/ledger-tables.ts'
import { SHAPE_PATHS_SQL } from '../../src/ledger/shape-packs.ts'

const db = env.DB

interface ShapeRow {
  day: number
  host: string
  agent_key: string
  robots_version: string
  path: string
  agent_tokens: string
  requests: number
}

async function shapes(): Promise<ShapeRow[]> {
  return (await db.prepare(`SELECT * FROM (${SHAPE_PATHS_SQL}) ORDER BY day, host, agent_key, robots_version, path`).all<ShapeRow>()).results
}

beforeEach(() => clearLedger(db))

describe('request shapes', () => {
  it('counts every genuine request once per day, host, agent, version and path, allowed or not', async () => {
    await writeEvents(db, [
      judged({ path: '/a' }),
      judged({ path: '/a', time: T0 + HOUR }),
      judged({ path: '/admin/x', allowed: false, verification: 'unverified' }),
      judged({ path: '/a', robotsVersion: 'v2', time: T0 + 2 * HOUR }),
      judged({ path: '/a', time: T0 + DAY }),
      judged({ agent: googlebotImage, path: '/img.png', verification: 'unknown' }),
      // Not the agent it names, and not a request: left out.
      judged({ path: '/a', verification: 'spoofed' }),
      fetched(),
    ])
    await writeEvents(db, [judged({ path: '/a', time: T0 + 3 * HOUR })])
    const day = Math.floor(T0 / DAY) * DAY
    const rows = (await shapes()).filter((r) => r.path !== '')
    expect(rows.map((r) => [r.day - day, r.agent_key, r.robots_version, r.path, r.agent_tokens, r.requests])).toEqual([
      [0, 'googlebot', 'v1', '/a', 'googlebot', 3],
      [0, 'googlebot', 'v1', '/admin/x', 'googlebot', 1],
      [0, 'googlebot', 'v2', '/a', 'googlebot', 1],
      [0, 'googlebot-image', 'v1', '/img.png', 'googlebot-image googlebot', 1],
      [DAY, 'googlebot', 'v1', '/a', 'googlebot', 1],
    ])
    // No "other" rows any more: nothing goes beyond a cap.
    expect((await shapes()).filter((r) => r.path === '')).toEqual([])
  })

  it('gives every shape of an agent, host and day its own row, past the old cap of 1,000', async () => {
    const batch = (from: number, n: number, agent = gptbot) => Array.from({ length: n }, (_, i) => judged({ agent, path: `/p/${from + i}`, time: T0 + i }))
    await writeEvents(db, batch(0, 600))
    await writeEvents(db, [...batch(600, 500), ...batch(0, 3), judged({ agent: googlebot, path: '/g' })])
    const rows = await shapes()
    const gpt = rows.filter((r) => r.agent_key === 'gptbot')
    expect(gpt).toHaveLength(1100)
    expect(gpt.filter((r) => r.path === '')).toHaveLength(0)
    // 1,103 requests: 1,100 shapes, 3 of them twice.
    expect(gpt.reduce((n, r) => n + r.requests, 0)).toBe(1103)
    expect(gpt.find((r) => r.path === '/p/2')?.requests).toBe(2)
    expect(rows.find((r) => r.agent_key === 'googlebot' && r.path === '/g')?.requests).toBe(1)
  })
})
