// Counts that stay exact: more violation groups than the first
// report's cap (20,000 distinct path-and-hour groups, beyond which it counted
// a fraction and called small violators compliant), written through the real
// write path, counted exactly, with every verdict right.
import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import type { EventAgent, JudgedRequest } from '../../src/core/events.ts'
import { getReport } from '../../src/admin/queries.ts'
import { recordRobotsVersion, rollUpLedger, writeEvents } from '../../src/ledger/ledger.ts'
import { DAY, HOUR, T0, fetched, judged } from '../support/report-fixtures.ts'
import { clearLedger } from '../support/workerd/ledger-tables.ts'

const db = env.DB
const FORMER_CAP = 20_000
const bot = (id: string): EventAgent => ({ id, tokens: [id], kind: 'bot', operator: id, category: 'AI Crawler', obeysRobotsTxt: true })

/** `violations` disallowed requests to distinct paths among `requests`, spread over a week, after one robots.txt fetch. */
function crawl(agent: EventAgent, requests: number, violations: number): JudgedRequest[] {
  const events: JudgedRequest[] = [fetched({ agent, time: T0 })]
  const every = requests / violations
  for (let i = 0; i < requests; i++) {
    const bad = Math.floor((i + 1) / every) > Math.floor(i / every)
    events.push(judged({ agent, time: T0 + HOUR + Math.floor((i * 7 * DAY) / requests), path: bad ? `/admin/${agent.id}/${i}` : `/page/${i % 300}`, allowed: !bad }))
  }
  return events
}

describe('exact counts beyond any cap', () => {
  it(`counts every violation of ${FORMER_CAP.toLocaleString('en-US')}+ distinct groups and judges every agent right`, async () => {
    await clearLedger(db)
    await recordRobotsVersion(db, { host: 'example.com', hash: 'v1', text: 'User-agent: *\nDisallow: /admin/\n', time: T0 - 30 * DAY })
    const seeded = { heavy1: 6_500, heavy2: 6_500, heavy3: 6_500, heavy4: 6_500, petalbot: 40, dotbot: 20, strayer: 2, clean: 0 }
    const events = [
      ...crawl(bot('heavy1'), 8_000, seeded.heavy1),
      ...crawl(bot('heavy2'), 8_000, seeded.heavy2),
      ...crawl(bot('heavy3'), 8_000, seeded.heavy3),
      ...crawl(bot('heavy4'), 8_000, seeded.heavy4),
      ...crawl(bot('petalbot'), 3_932, seeded.petalbot),
      ...crawl(bot('dotbot'), 1_942, seeded.dotbot),
      ...crawl(bot('strayer'), 1_000, seeded.strayer),
      ...crawl(bot('clean'), 1_000, 1).map((e) => ({ ...e, allowed: true, path: '/page/x' })),
    ].sort((a, b) => a.time - b.time)
    const groups = new Set(events.filter((e) => !e.allowed).map((e) => `${e.agent.id}\n${e.path}\n${Math.floor(e.time / HOUR)}`))
    expect(groups.size).toBeGreaterThan(FORMER_CAP)
    for (let i = 0; i < events.length; i += 1000) await writeEvents(db, events.slice(i, i + 1000))
    // The cron adds up the violations per rule from the request shapes.
    await rollUpLedger(db, { now: T0 })

    const report = await getReport(db, { since: T0, until: T0 + 8 * DAY })
    const counted = Object.fromEntries(report.agents.map((a) => [a.agentKey, a.evidence.violations.counted]))
    expect(counted).toEqual(seeded)
    expect(report.totals.violations).toBe(Object.values(seeded).reduce((a, b) => a + b, 0))
    const verdicts = Object.fromEntries(report.agents.map((a) => [a.agentKey, a.verdict]))
    expect(verdicts).toEqual({
      heavy1: 'ignores robots.txt',
      heavy2: 'ignores robots.txt',
      heavy3: 'ignores robots.txt',
      heavy4: 'ignores robots.txt',
      petalbot: 'ignores robots.txt',
      dotbot: 'ignores robots.txt',
      strayer: 'isolated violations',
      clean: 'complies',
    })
    expect(report.totals.truncated).toBe(false)
    // Paths beyond each day's cap add up under "other", and the top list still adds up.
    expect(report.coverage.paths.other).toBeGreaterThan(0)
    expect(report.topRules[0]).toMatchObject({ pattern: '/admin/', violations: report.totals.violations })
  }, 120_000)
})
