/**
 * `npm run loadtest`: the built Worker in Miniflare on 127.0.0.1, a mixed
 * workload at the highest rate it sustains, then PASS/FAIL on errors == 0
 * and on every crawler request reaching the ledger. Exits 1 on a FAIL.
 *
 *   npm run loadtest -- [--seconds 30] [--step-seconds 3] [--connections N]
 */
import { parseArgs } from 'node:util'
import { loadtest, type LoadtestResult } from './loadtest/run.ts'

const USAGE = 'usage: npm run loadtest -- [--seconds 30] [--step-seconds 3] [--connections N (skip the ramp)]'

function report(r: LoadtestResult): string[] {
  const m = r.measured
  const l = r.ledger
  const unexpected = Object.entries(m.unexpected).map(([status, n]) => `${n}×${status}`).join(', ') || '0'
  const lines = [
    '',
    `Measured: ${m.seconds.toFixed(1)} s at ${m.connections} connections`,
    `  requests        ${m.requests}  (${m.rps.toFixed(0)} req/s)`,
    `  latency         p50 ${m.p50.toFixed(1)} ms, p99 ${m.p99.toFixed(1)} ms`,
    `  errors          ${r.errors}  (socket ${m.socketErrors}, timeouts ${m.timeouts}, unexpected status ${unexpected}${m.unanswered > 0 ? `, unanswered ${m.unanswered}` : ''})`,
    `  refused (403)   ${m.refused}  (each one a request the config refuses)`,
    `  bot requests    sent ${l.sent} (${l.sentRobotsTxt} robots.txt), events recorded ${l.recorded} (${l.recordedRobotsTxt} robots.txt); ledger settled in ${(l.waitedMs / 1000).toFixed(1)} s`,
  ]
  if (l.recorded !== l.sent) {
    const lost = l.sent - l.recorded
    lines.push(lost > 0
      ? `  LOST ${lost} events (${l.sentRobotsTxt - l.recordedRobotsTxt} of them robots.txt fetches). The Worker's stderr says:`
      : `  ${-lost} events MORE than requests sent. The Worker's stderr says:`)
    // The message and the top of its stack say which write failed; the rest is noise.
    lines.push(...(r.stderr.length > 0 ? r.stderr.slice(0, 12).map((s) => `    ${s.length > 240 ? `${s.slice(0, 240)}…` : s}`) : ['    (nothing)']))
    if (lost > 0) lines.push('  The recorder logs only its first failure per isolate and counts the rest in memory (stats), which nothing exposes.')
  }
  lines.push('')
  lines.push(`${r.passed.errors ? 'PASS' : 'FAIL'} errors == 0 (${r.errors})`)
  lines.push(`${r.passed.ledger ? 'PASS' : 'FAIL'} bot requests sent == events recorded (${l.sent} sent, ${l.recorded} recorded)`)
  return lines
}

async function main(): Promise<number> {
  let seconds: number, stepSeconds: number, connections: number | undefined
  try {
    const { values } = parseArgs({
      options: {
        seconds: { type: 'string', default: '30' },
        'step-seconds': { type: 'string', default: '3' },
        connections: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    })
    if (values.help) {
      console.log(USAGE)
      return 0
    }
    seconds = Number(values.seconds)
    stepSeconds = Number(values['step-seconds'])
    connections = values.connections === undefined ? undefined : Number(values.connections)
    if (!(seconds >= 1 && seconds <= 600) || !(stepSeconds >= 0.5 && stepSeconds <= 30)) throw new Error('--seconds must be 1..600 and --step-seconds 0.5..30.')
    if (connections !== undefined && !(Number.isInteger(connections) && connections >= 1 && connections <= 64)) throw new Error('--connections must be a whole number, 1..64.')
  } catch (error) {
    console.error(`loadtest: ${error instanceof Error ? error.message : String(error)}\n${USAGE}`)
    return 2
  }
  const result = await loadtest({ seconds, stepSeconds, ...(connections === undefined ? {} : { connections }), print: (line) => console.log(line) })
  for (const line of report(result)) console.log(line)
  return result.passed.errors && result.passed.ledger ? 0 : 1
}

process.exitCode = await main()
