/**
 * `npm run simulate`: about a minute of realistic traffic against the local
 * Worker (`npm run dev`), so the ledger and the dashboard have something to
 * show: crawlers that follow robots.txt, one that reads it and ignores it,
 * one that never reads it, a spoofed Googlebot, tools and people.
 *
 *   npm run simulate -- [--url http://localhost:8787] [--seconds 60] [--rate 30] [--no-seed]
 *
 * Client IPs travel in CF-Connecting-IP. wrangler dev (4.86) and Miniflare
 * pass a client's CF-Connecting-IP through to the Worker (checked), so
 * Googlebot from 66.249.66.1 verifies and Googlebot from 203.0.113.66 is
 * spoofed. On Cloudflare's edge the header is the real peer's address.
 *
 * Verifying a claim needs the operators' IP ranges in KV, which the cron
 * fills from the network. Before sending, the simulation writes fixture
 * excerpts of Google's and Bing's lists into the KV `npm run dev` reads
 * (`wrangler kv bulk put --local`), in the exact form the cron's own
 * refreshIpRanges stores (see simulate/ip-ranges.ts), and waits until the
 * Worker has loaded them (its coverage route, with ROBOTS_ADMIN_TOKEN from
 * .dev.vars), so no crawler is judged before the Worker can check its claim,
 * whenever the Worker first saw one. It persists in .wrangler/state;
 * `--no-seed` leaves the KV alone.
 *
 * After sending, it reads the Worker's report (the token as above, or
 * ROBOTS_ADMIN_TOKEN) and prints each client's expected and actual verdict
 * (simulate/verdicts.ts). Exit status 1 when a client that made disallowed
 * requests reads "complies", when the report cannot be read, or when the
 * run stopped early.
 */
import { parseArgs } from 'node:util'
import { adminToken, FIXTURE_LISTS, ipRangeEntries, seedLocalKv, waitForRanges } from '../dev/ip-ranges.ts'
import { formatReport } from '../dev/simulate/report.ts'
import { readRobotsTxt, simulate, unreachableHint, WorkerUnreachable, type Progress, type SimulationReport } from '../dev/simulate/run.ts'
import { checkVerdicts, clearedViolators, formatVerdicts, judgedRequests, readReport, reportedRequests, settledReport, type ReportSource } from '../dev/simulate/verdicts.ts'

const USAGE = 'usage: npm run simulate -- [--url http://localhost:8787] [--seconds 60] [--rate 30] [--no-seed]'

function positive(name: string, value: string, max: number): number {
  const n = Number(value)
  if (!Number.isFinite(n) || n < 1 || n > max) throw new Error(`--${name} must be a number between 1 and ${max}, not "${value}".`)
  return n
}

function isLocal(url: URL): boolean {
  return ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname)
}

async function main(): Promise<number> {
  let url: URL, seconds: number, rate: number, seed: boolean
  try {
    const { values } = parseArgs({
      options: {
        url: { type: 'string', default: 'http://localhost:8787' },
        seconds: { type: 'string', default: '60' },
        rate: { type: 'string', default: '30' },
        'no-seed': { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    })
    if (values.help) {
      console.log(USAGE)
      return 0
    }
    url = new URL(values.url)
    seconds = positive('seconds', values.seconds, 600)
    rate = positive('rate', values.rate, 50)
    seed = !values['no-seed']
  } catch (error) {
    console.error(`simulate: ${error instanceof Error ? error.message : String(error)}\n${USAGE}`)
    return 2
  }

  try {
    await readRobotsTxt(url.href)
  } catch (error) {
    if (error instanceof WorkerUnreachable) {
      console.error(unreachableHint(error.message, url.port === '8787' ? 'http://localhost:<port>/' : url.href))
    } else {
      console.error(`simulate: ${error instanceof Error ? error.message : String(error)}`)
    }
    return 1
  }

  console.log(`robots-edge simulate: ${seconds} s at about ${rate} req/s against ${url.href}`)
  if (seed && isLocal(url)) {
    // Before any crawler request, and waiting until the Worker has the ranges:
    // a claim judged before then would read as unknown, not as verified or spoofed.
    try {
      const { entries, lists } = await ipRangeEntries()
      await seedLocalKv(entries)
      console.log(`  Local KV (ROBOTS_KV) seeded with IP ranges (fixture excerpts of the published lists):`)
      for (const { url: list, count } of lists) console.log(`    ${list}  ${count} ranges  (${FIXTURE_LISTS[list]})`)
      const token = await adminToken()
      const loaded =
        token !== undefined &&
        (await waitForRanges(
          url.href,
          token,
          lists.map((l) => l.url),
        ))
      console.log(
        loaded ? '  The Worker has loaded them.' : '  Could not confirm that the Worker loaded them (no ROBOTS_ADMIN_TOKEN in .dev.vars, or no answer within 45 s): early claims may read as unknown.',
      )
    } catch (error) {
      console.log(`  Could not seed the local KV (${error instanceof Error ? error.message.split('\n')[0] : String(error)}): crawler claims will read as unknown.`)
    }
    console.log('  Each client sends its IP as CF-Connecting-IP; wrangler dev passes it through to the Worker.')
  } else if (!isLocal(url)) {
    console.log('  Not a local Worker: Cloudflare replaces CF-Connecting-IP with the real address, so both Googlebots will read as spoofed.')
  }
  console.log('')

  // The report before sending: the ledger may hold earlier runs, so the check waits for this run on top of them.
  // A local secret (.dev.vars) is never sent to another host.
  const token = isLocal(url) ? await adminToken() : process.env.ROBOTS_ADMIN_TOKEN || undefined
  const source: ReportSource | undefined = token === undefined ? undefined : { url: url.href, token }
  const before = source === undefined ? 0 : await readReport(source).then(reportedRequests, () => 0)

  const tty = process.stdout.isTTY === true
  let lastPrinted = 0
  const progress = (p: Progress) => {
    const line = `  ${(p.elapsedMs / 1000).toFixed(0).padStart(3)} s / ${seconds} s   sent ${p.sent}   refused ${p.refused}   errors ${p.errors}`
    if (tty) process.stdout.write(`\r${line.padEnd(72)}`)
    else if (p.elapsedMs - lastPrinted >= 10_000) {
      lastPrinted = p.elapsedMs
      console.log(line)
    }
  }
  const report = await simulate({ url: url.href, seconds, rate, progress })
  if (tty) process.stdout.write('\n')
  for (const line of formatReport(report, { url: url.href })) console.log(line)
  const checked = await checkOutcome(report, source, before)
  return report.stoppedEarly || !checked ? 1 : 0
}

/** Reads the report after the run and prints each client's verdict; false when a violator reads "complies" or the report cannot be read. */
async function checkOutcome(report: SimulationReport, source: ReportSource | undefined, before: number): Promise<boolean> {
  if (source === undefined) {
    console.log('\nNo ROBOTS_ADMIN_TOKEN (environment or .dev.vars): the verdicts were not checked.')
    return true
  }
  try {
    const { doc, settled } = await settledReport(source, before + judgedRequests(report.clients))
    const checks = checkVerdicts(report.clients, doc)
    for (const line of formatVerdicts(checks, settled)) console.log(line)
    return clearedViolators(checks).length === 0
  } catch (error) {
    console.error(`simulate: could not check the verdicts: ${error instanceof Error ? error.message : String(error)}`)
    return false
  }
}

process.exitCode = await main()
