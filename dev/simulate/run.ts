import { identifyAgent, type AgentIdentity } from '../../src/core/agents/index.ts'
import { USER_TRIGGERED_FETCHERS } from '../../src/core/agents/exempt.ts'
import { compileRobotsTxt, type RobotsMatcher } from '../../src/core/robots/index.ts'
import { CLIENTS, SITE_PATHS, pick, randomSource, type ClientSpec } from './clients.ts'

/**
 * The traffic of `npm run simulate`: a fixed cast of clients (clients.ts)
 * sending a realistic mix to a running Worker at a modest, bounded rate.
 * Each client sends one request at a time, so a crawler that reads
 * robots.txt has its answer before its next request.
 */

export interface SimulateOptions {
  /** The Worker, e.g. http://localhost:8787. */
  url: string
  /** How long to send. Clamped to 1..600. */
  seconds: number
  /** Requests per second across all clients. Clamped to 1..50: a demonstration, not a load test. */
  rate: number
  /** Default: the global fetch. */
  fetch?: typeof fetch
  /** Default: the whole cast. */
  clients?: readonly ClientSpec[]
  /** Seed of the random choices, so a run can be repeated. Default: 1. */
  seed?: number
  /** Called about once a second while sending. */
  progress?: (progress: Progress) => void
}

export interface Progress {
  readonly elapsedMs: number
  readonly sent: number
  readonly refused: number
  readonly errors: number
}

export interface ClientReport {
  readonly spec: ClientSpec
  /** Every request, robots.txt fetches included. */
  requests: number
  robotsTxt: number
  /** Requests the served robots.txt disallows for this client, as the guard judges it; null for people, who are never judged. */
  disallowed: number | null
  /** 403 responses. */
  refused: number
  /** Network failures, timeouts and 5xx responses. */
  errors: number
  readonly statuses: Record<string, number>
}

export interface SimulationReport {
  readonly url: string
  readonly elapsedMs: number
  readonly sent: number
  /** Ticks with every client still waiting for an answer (the Worker was slower than the rate). */
  readonly skipped: number
  readonly errors: number
  /** Set when the run stopped early. */
  readonly stoppedEarly?: string
  readonly clients: readonly ClientReport[]
}

/** Nothing answered at the URL. */
export class WorkerUnreachable extends Error {
  override name = 'WorkerUnreachable'
}

/** What to do when nothing answers at `url`: start the Worker, or point the simulation at the one that runs elsewhere. */
export function unreachableHint(message: string, url: string): string {
  return `simulate: ${message}.\nStart the Worker first, in another terminal:\n\n  npm run dev\n\nthen run npm run simulate again. If the Worker already runs at another address, give it with --url:\n\n  npm run simulate -- --url ${url}\n`
}

const PROBE_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
const REQUEST_TIMEOUT_MS = 10_000
/** Consecutive network failures after which the Worker is taken to be gone. */
const GIVE_UP_AFTER = 20

/**
 * Reads the Worker's robots.txt with a browser's User-Agent, so the read is
 * not itself recorded. Throws WorkerUnreachable when nothing answers.
 */
export async function readRobotsTxt(url: string, fetchFn: typeof fetch = fetch): Promise<string> {
  let response: Response
  try {
    response = await fetchFn(new URL('/robots.txt', url), { headers: { 'user-agent': PROBE_AGENT }, signal: AbortSignal.timeout(5000) })
  } catch (error) {
    throw new WorkerUnreachable(`nothing answered at ${url} (${error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error)})`)
  }
  const text = await response.text()
  if (response.status !== 200) throw new Error(`${url}/robots.txt answered ${response.status}, not 200: is this robots-edge?`)
  return text
}

interface Client {
  readonly spec: ClientSpec
  readonly identity: AgentIdentity | null
  readonly report: ClientReport
  /** Site paths the guard would judge disallowed for it. */
  readonly disallowedPaths: readonly string[]
  readRobots: boolean
  busy: boolean
}

/**
 * Disallowed for this client as the guard judges it: every automated client
 * by its tokens, then `*`; the user-triggered fetchers of `guard.exempt`'s
 * default only by a group naming them.
 */
function isDisallowed(matcher: RobotsMatcher, identity: AgentIdentity | null, path: string): boolean {
  if (identity === null) return false
  // The `*` group never judges an unidentified client; a group naming it does.
  if (identity.unidentified === true && (matcher.groupFor(identity.tokens) ?? '*') === '*') return false
  const own = identity.tokens[0] ?? identity.names.find((name) => USER_TRIGGERED_FETCHERS.includes(name))
  if (own !== undefined && USER_TRIGGERED_FETCHERS.includes(own)) {
    const group = matcher.groupFor(own)
    if (group === null || group === '*') return false
  }
  return !matcher.check(identity.tokens, path).allowed
}

function nextPath(client: Client, random: () => number): string {
  const { spec, disallowedPaths } = client
  const any = () => pick(SITE_PATHS, random)!
  switch (spec.role) {
    case 'complies': {
      if (!client.readRobots || random() < 0.02) return '/robots.txt'
      return (
        pick(
          SITE_PATHS.filter((p) => !disallowedPaths.includes(p)),
          random,
        ) ?? '/robots.txt'
      )
    }
    case 'ignores': {
      if (!client.readRobots) return '/robots.txt'
      const favourite = spec.favourite === undefined ? [] : disallowedPaths.filter((p) => p.startsWith(spec.favourite!))
      return pick(favourite.length > 0 && random() < 0.85 ? favourite : disallowedPaths, random) ?? any()
    }
    case 'never-reads':
      return random() < 0.8 ? (pick(disallowedPaths, random) ?? any()) : any()
    case 'spoofed':
      return random() < 0.5 ? (pick(disallowedPaths, random) ?? any()) : any()
    case 'tool':
    case 'browser':
      return any()
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)))

/** Runs the simulation against a running Worker and reports what each client sent and saw. */
export async function simulate(options: SimulateOptions): Promise<SimulationReport> {
  const fetchFn = options.fetch ?? fetch
  const seconds = Math.min(600, Math.max(1, options.seconds))
  const rate = Math.min(50, Math.max(1, options.rate))
  const random = randomSource(options.seed ?? 1)
  const matcher = compileRobotsTxt(await readRobotsTxt(options.url, fetchFn))

  const clients: Client[] = (options.clients ?? CLIENTS).map((spec) => {
    const identity = identifyAgent(spec.userAgent)
    const report: ClientReport = { spec, requests: 0, robotsTxt: 0, disallowed: spec.role === 'browser' ? null : 0, refused: 0, errors: 0, statuses: {} }
    const disallowedPaths = SITE_PATHS.filter((p) => isDisallowed(matcher, identity, p))
    return { spec, identity, report, disallowedPaths, readRobots: false, busy: false }
  })
  const totalWeight = clients.reduce((sum, c) => sum + c.spec.weight, 0)

  let sent = 0,
    refused = 0,
    errors = 0,
    skipped = 0,
    failuresInARow = 0
  let stoppedEarly: string | undefined
  const inFlight = new Set<Promise<void>>()

  const send = async (client: Client, path: string): Promise<void> => {
    const { report, spec } = client
    report.requests++
    if (path === '/robots.txt') report.robotsTxt++
    else if (report.disallowed !== null && isDisallowed(matcher, client.identity, path)) report.disallowed++
    sent++
    try {
      const response = await fetchFn(new URL(path, options.url), {
        headers: { 'user-agent': spec.userAgent, 'cf-connecting-ip': spec.ip, accept: '*/*' },
        redirect: 'manual',
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      })
      await response.arrayBuffer()
      failuresInARow = 0
      report.statuses[response.status] = (report.statuses[response.status] ?? 0) + 1
      if (response.status === 403) {
        report.refused++
        refused++
      }
      if (response.status >= 500) {
        report.errors++
        errors++
      }
      if (path === '/robots.txt' && response.status === 200) client.readRobots = true
    } catch {
      report.errors++
      errors++
      if (++failuresInARow >= GIVE_UP_AFTER) stoppedEarly ??= `${GIVE_UP_AFTER} requests in a row failed: the Worker stopped answering`
    } finally {
      client.busy = false
    }
  }

  const choose = (): Client | undefined => {
    // Weighted choice among the clients not waiting for an answer.
    const idle = clients.filter((c) => !c.busy)
    let r = random() * idle.reduce((sum, c) => sum + c.spec.weight, 0)
    for (const c of idle) if ((r -= c.spec.weight) < 0) return c
    return idle.at(-1)
  }

  const start = Date.now()
  const end = start + seconds * 1000
  const interval = 1000 / rate
  let lastProgress = start
  for (let tick = 0; stoppedEarly === undefined && totalWeight > 0; tick++) {
    const due = start + tick * interval
    if (due >= end) break
    await sleep(due - Date.now())
    const client = choose()
    if (client === undefined) {
      skipped++
    } else {
      client.busy = true
      const work = send(client, nextPath(client, random))
      inFlight.add(work)
      void work.finally(() => inFlight.delete(work))
    }
    if (Date.now() - lastProgress >= 1000) {
      lastProgress = Date.now()
      options.progress?.({ elapsedMs: lastProgress - start, sent, refused, errors })
    }
  }
  await Promise.all(inFlight)
  const elapsedMs = Date.now() - start
  options.progress?.({ elapsedMs, sent, refused, errors })
  return { url: options.url, elapsedMs, sent, skipped, errors, clients: clients.map((c) => c.report), ...(stoppedEarly ? { stoppedEarly } : {}) }
}
