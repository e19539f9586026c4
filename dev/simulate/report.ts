import type { ClientReport, SimulationReport } from './run.ts'

/** The end-of-run summary of `npm run simulate`: what each client sent and saw, what the ledger should show, and where to look. */

interface Row {
  readonly name: string
  readonly ip: string
  readonly expected: string
  readonly robotsTxt: number
  readonly requests: number
  readonly disallowed: number | null
  readonly refused: number
  readonly errors: number
}

// People are many sessions with one story: one row for all of them.
function rows(clients: readonly ClientReport[]): Row[] {
  const out: Row[] = []
  const browsers = clients.filter((c) => c.spec.role === 'browser')
  for (const c of clients) {
    if (c.spec.role === 'browser') continue
    out.push({ name: c.spec.name, ip: c.spec.ip, expected: c.spec.expected, robotsTxt: c.robotsTxt, requests: c.requests, disallowed: c.disallowed, refused: c.refused, errors: c.errors })
  }
  if (browsers.length > 0) {
    const sum = (f: (c: ClientReport) => number) => browsers.reduce((s, c) => s + f(c), 0)
    out.push({
      name: `browsers (${browsers.length} kinds)`,
      ip: browsers.length === 1 ? browsers[0]!.spec.ip : `${browsers[0]!.spec.ip}…`,
      expected: browsers[0]!.spec.expected,
      robotsTxt: sum((c) => c.robotsTxt),
      requests: sum((c) => c.requests),
      disallowed: null,
      refused: sum((c) => c.refused),
      errors: sum((c) => c.errors),
    })
  }
  return out
}

function table(cells: readonly (readonly string[])[]): string[] {
  const widths = cells[0]!.map((_, i) => Math.max(...cells.map((row) => row[i]!.length)))
  return cells.map(
    (row) =>
      '  ' +
      row
        .map((cell, i) => (i === 0 || i === 1 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
        .join('  ')
        .trimEnd(),
  )
}

export interface ReportContext {
  /** Where the dashboard lives: the Worker's URL. */
  readonly url: string
}

export function formatReport(report: SimulationReport, context: ReportContext): string[] {
  const seconds = (report.elapsedMs / 1000).toFixed(1)
  const all = rows(report.clients)
  const lines = [
    '',
    `Sent ${report.sent} requests in ${seconds} s (${(report.sent / (report.elapsedMs / 1000)).toFixed(1)} req/s), ${report.errors} errors${report.skipped > 0 ? `, ${report.skipped} ticks skipped (every client was still waiting)` : ''}.`,
    ...(report.stoppedEarly ? [`Stopped early: ${report.stoppedEarly}.`] : []),
    '',
    ...table([
      ['client', 'IP (CF-Connecting-IP)', 'robots.txt', 'requests', 'disallowed', 'refused 403', 'errors'],
      ...all.map((r) => [r.name, r.ip, String(r.robotsTxt), String(r.requests), r.disallowed === null ? 'not judged' : String(r.disallowed), String(r.refused), String(r.errors)]),
    ]),
    '',
    'Expected in the ledger:',
    ...all.map((r) => `  ${r.name} → ${r.expected}`),
    '  (In the first 24 hours robots-edge serves a host, a crawler that never fetched robots.txt may hold the',
    '  site\'s previous copy, RFC 9309 §2.4: its disallowed requests are not counted yet, and it reads "pending",',
    '  never "complies", until they are over.)',
    '',
    'Next: open the report and compare.',
    `  ${new URL('/_robots/', context.url).href}   (sign in with ROBOTS_ADMIN_TOKEN from .dev.vars; npm run dev creates it)`,
    `  curl -H "Authorization: Bearer $ROBOTS_ADMIN_TOKEN" ${new URL('/_robots/api/report', context.url).href}`,
  ]
  return lines
}
