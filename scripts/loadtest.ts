/**
 * `npm run loadtest`: the built Worker in Miniflare on 127.0.0.1, a mixed
 * workload at the highest rate it sustains, then PASS/FAIL on errors == 0
 * and on every crawler request reaching the ledger. Exits 1 on a FAIL.
 *
 * `--fault d1` makes D1 unavailable for `--fault-seconds` (default 10) in
 * the middle of the measured phase: then every crawler request must be
 * stored or counted as not stored (sent == stored + dropped), and the report
 * says how many had to be dropped at the least, given the Worker's backlog.
 *
 * `--queue` runs the queue path (`npm run deploy -- --queue`): the edge sends
 * its events to the ledger queue and the admin Worker writes them to D1, in
 * Miniflare's Queues. With `--fault d1` the queue holds what D1 refuses
 * meanwhile: sent == stored, none counted as lost.
 *
 *   npm run loadtest -- [--seconds 30] [--step-seconds 3] [--connections N] [--queue] [--fault d1 [--fault-seconds 10]]
 */
import { parseArgs } from 'node:util'
import { BACKLOG_LIMITS } from '../src/ledger/backlog.ts'
import type { FaultOptions } from '../dev/d1-fault.ts'
import { loadtest, type LoadtestResult } from './loadtest/run.ts'

const USAGE = 'usage: npm run loadtest -- [--seconds 30] [--step-seconds 3] [--connections N (skip the ramp)] [--queue] [--fault d1 [--fault-seconds 10]]'

function report(r: LoadtestResult): string[] {
  const m = r.measured
  const l = r.ledger
  const unexpected =
    Object.entries(m.unexpected)
      .map(([status, n]) => `${n}×${status}`)
      .join(', ') || '0'
  const lines = [
    '',
    `Measured: ${m.seconds.toFixed(1)} s at ${m.connections} connections`,
    `  requests        ${m.requests}  (${m.rps.toFixed(0)} req/s)`,
    `  latency         p50 ${m.p50.toFixed(1)} ms, p99 ${m.p99.toFixed(1)} ms`,
    `  errors          ${r.errors}  (socket ${m.socketErrors}, timeouts ${m.timeouts}, unexpected status ${unexpected}${m.unanswered > 0 ? `, unanswered ${m.unanswered}` : ''})`,
    `  refused (403)   ${m.refused}  (each one a request the config refuses)`,
    `  bot requests    sent ${l.sent} (${l.sentRobotsTxt} robots.txt), events recorded ${l.recorded} (${l.recordedRobotsTxt} robots.txt); ledger settled in ${(l.waitedMs / 1000).toFixed(1)} s`,
  ]
  if (r.queue) lines.push(`  queue path      the edge sent its events to the ledger queue; the admin Worker applied ${r.queue.messages} messages to D1`)
  const f = r.fault
  if (f) {
    lines.push(
      `  fault           D1 locked from ${f.window.lockedAt.toFixed(1)} s to ${f.window.releasedAt.toFixed(1)} s: ${f.sentDuring} crawler requests answered meanwhile`,
      r.queue
        ? `  not stored      ${f.dropped} events counted in ledger_losses (the queue held what D1 refused: none had to be)`
        : `  not stored      ${f.dropped} events counted in ledger_losses (at least ${f.minimumDropped} had to be: what the Worker's backlog of ${BACKLOG_LIMITS.events} events / ${BACKLOG_LIMITS.bytes >> 20} MiB could not hold)`,
      r.queue
        ? `  Worker log      ${f.logs.ledger} ledger messages, ${f.logs.busy} lines naming SQLITE_BUSY (the consumer's: one per batch handed back to the queue)`
        : `  Worker log      ${f.logs.ledger} ledger messages, ${f.logs.busy} lines naming SQLITE_BUSY (one outage: a message when it starts, one when events are dropped, one when it ends)`,
    )
  }
  const stored = l.recorded + (f?.dropped ?? 0)
  if (stored !== l.sent) {
    const lost = l.sent - stored
    lines.push(
      lost > 0
        ? `  LOST ${lost} events, neither stored nor counted (${l.sentRobotsTxt - l.recordedRobotsTxt} robots.txt fetches not stored). The Worker's stderr says:`
        : `  ${-lost} events MORE than requests sent. The Worker's stderr says:`,
    )
    // The message and the top of its stack say which write failed; the rest is noise.
    lines.push(...(r.stderr.length > 0 ? r.stderr.slice(0, 12).map((s) => `    ${s.length > 240 ? `${s.slice(0, 240)}…` : s}`) : ['    (nothing)']))
    if (lost > 0) lines.push('  The recorder counts every event it drops in ledger_losses: events missing from both were lost unseen.')
  }
  lines.push('')
  lines.push(`${r.passed.errors ? 'PASS' : 'FAIL'} errors == 0 (${r.errors})`)
  lines.push(
    f && r.queue
      ? `${r.passed.ledger ? 'PASS' : 'FAIL'} bot requests sent == events stored, none lost (${l.sent} sent, ${l.recorded} stored, ${f.dropped} counted as not stored)`
      : f
        ? `${r.passed.ledger ? 'PASS' : 'FAIL'} bot requests sent == events stored + counted as not stored (${l.sent} sent, ${l.recorded} stored, ${f.dropped} counted)`
        : `${r.passed.ledger ? 'PASS' : 'FAIL'} bot requests sent == events recorded (${l.sent} sent, ${l.recorded} recorded)`,
  )
  return lines
}

async function main(): Promise<number> {
  let seconds: number, stepSeconds: number, connections: number | undefined
  let fault: FaultOptions | undefined
  let queue = false
  try {
    const { values } = parseArgs({
      options: {
        seconds: { type: 'string', default: '30' },
        'step-seconds': { type: 'string', default: '3' },
        connections: { type: 'string' },
        fault: { type: 'string' },
        'fault-seconds': { type: 'string', default: '10' },
        queue: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    })
    if (values.help) {
      console.log(USAGE)
      return 0
    }
    queue = values.queue
    seconds = Number(values.seconds)
    stepSeconds = Number(values['step-seconds'])
    connections = values.connections === undefined ? undefined : Number(values.connections)
    if (!(seconds >= 1 && seconds <= 600) || !(stepSeconds >= 0.5 && stepSeconds <= 30)) throw new Error('--seconds must be 1..600 and --step-seconds 0.5..30.')
    if (connections !== undefined && !(Number.isInteger(connections) && connections >= 1 && connections <= 64)) throw new Error('--connections must be a whole number, 1..64.')
    if (values.fault !== undefined) {
      if (values.fault !== 'd1') throw new Error(`--fault ${values.fault}: the one fault is d1 (D1 unavailable).`)
      const faultSeconds = Number(values['fault-seconds'])
      if (!(faultSeconds >= 1 && faultSeconds < seconds)) throw new Error('--fault-seconds must be at least 1 and shorter than --seconds.')
      fault = { kind: 'd1', startSeconds: (seconds - faultSeconds) / 2, seconds: faultSeconds }
    }
  } catch (error) {
    console.error(`loadtest: ${error instanceof Error ? error.message : String(error)}\n${USAGE}`)
    return 2
  }
  const result = await loadtest({ seconds, stepSeconds, ...(connections === undefined ? {} : { connections }), ...(fault === undefined ? {} : { fault }), queue, print: (line) => console.log(line) })
  for (const line of report(result)) console.log(line)
  return result.passed.errors && result.passed.ledger ? 0 : 1
}

process.exitCode = await main()
