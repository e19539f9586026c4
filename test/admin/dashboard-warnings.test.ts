// Unit tests of the dashboard's report warnings (public/_robots/static/warnings.js):
// each has a short title for the one-line summary and names the command to run.
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'

interface Warning {
  title: string
  text: string
  fix: string
}
/** The dashboard's module, loaded by path: plain JavaScript with no type declarations. */
const { reportWarnings } = (await import(pathToFileURL(resolve('public/_robots/static/warnings.js')).href)) as {
  reportWarnings(report: unknown, where: { local: boolean; csv: string }): Warning[]
}

const CSV = 'https://example.com/_robots/api/report.csv?since=7d'
const at = Date.UTC(2026, 10, 27, 2, 8)

describe('reportWarnings', () => {
  it('gives none for a clean report', () => {
    expect(reportWarnings({ totals: { truncated: false }, omitted: { agents: 0 }, losses: [], hostCap: null }, { local: true, csv: CSV })).toEqual([])
  })

  it('names the command of each: the migrations for lost events (local or remote), lint and deploy for the host cap, the CSV for agents not listed', () => {
    const report = {
      totals: { truncated: true },
      omitted: { agents: 3, spoofed: 1 },
      losses: [{ from: at, to: at + 60_000, events: 1234 }],
      hostCap: { limit: 100, stored: 100, reached: true },
    }
    const local = reportWarnings(report, { local: true, csv: CSV })
    expect(local.map((w) => [w.title, w.fix])).toEqual([
      ['counts are lower bounds', 'npx robots-edge report --since 24h'],
      ['4 agents not listed', `curl -H "Authorization: Bearer $ROBOTS_ADMIN_TOKEN" '${CSV}'`],
      ['1,234 events not stored', 'npx wrangler d1 migrations apply DB --local'],
      ['host cap reached', 'npx robots-edge lint && npx wrangler deploy'],
    ])
    expect(local[2]!.text).toBe(
      "1,234 events could not be stored between 2026-11-27\u00a002:08 and 2026-11-27\u00a002:09 UTC; they are not in these counts. After a D1 outage there is nothing to run; if the Worker logged that the ledger's tables are missing, create them:",
    )
    expect(reportWarnings(report, { local: false, csv: CSV })[2]!.fix).toBe('npx wrangler d1 migrations apply DB --remote')
  })
})
