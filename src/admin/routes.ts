/**
 * The report over HTTP: the JSON API, its CSV export, one
 * agent's drill-down and the dashboard's HTML shell, all under /_robots/ and
 * all behind the admin token. The dashboard's scripts and the chart library
 * are static assets (public/_robots/static/), never part of this bundle.
 */
import type { Context } from 'hono'
// hono/tiny: the same Hono with its smallest router; see src/package/app.ts.
import { Hono } from 'hono/tiny'
import type { AdminBindings, AdminEnv } from './env.ts'
import { registry } from '../core/agents/index.ts'
import type { VerificationCoverage } from '../verify/coverage.ts'
import { adminAuth } from './admin-auth.ts'
import { ipRangeRoutes } from './ip-range-routes.ts'
import { getStorageNotes } from '../ledger/losses.ts'
import { getAnalyticsEngineJudgedReport } from './ae-report.ts'
import { AnalyticsEngineQueryError, getAnalyticsEngineReport, type AnalyticsEngineSource } from './analytics-engine.ts'
import { toCsv } from './csv.ts'
import { renderDashboard } from './dashboard/shell.ts'
import { getAgentRequests, getReport, MAX_PAGE } from './queries.ts'
import { BadParam, failure, filterOf, hostParam, ledgerOf, PRINTABLE, readQuery, text, time } from './params.ts'
import { policyRoutes } from './policy-routes.ts'
import { REPORT_BASE } from '../core/report-base.ts'
import type { Report, ReportFilter, ReportSource } from './types.ts'

export { parseTime } from './params.ts'

export { REPORT_BASE } from '../core/report-base.ts'

/** The default range: the last week. */
const DEFAULT_PAGE = 50
/**
 * Agents (and spoofed claims) in one JSON report, worst first. Unknown bots
 * are keyed by their own product token, so a client inventing names could
 * otherwise grow the document without bound. The CSV export keeps them all.
 */
export const MAX_AGENTS = 500

/**
 * The dashboard loads its scripts and styles from this origin only and runs
 * no inline script, so an agent-controlled string that slipped past the
 * escaping still could not execute.
 */
export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ')

/** Set on every /_robots/ response, refusals included: private, never cached, never indexed. */
const ADMIN_HEADERS: Readonly<Record<string, string>> = {
  'Cache-Control': 'no-store',
  'X-Robots-Tag': 'noindex, nofollow',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Content-Security-Policy': DASHBOARD_CSP,
}

/** The report's filter from a query string; throws BadParam. Defaults to the week before `now`. `source` is read by sourceOf. */
export function reportFilterOf(url: URL, now: number): ReportFilter {
  return filterOf(url, now, ['since', 'until', 'host', 'agent', 'category', 'source'])
}

/** Where the report is read: `d1` (default) or `analytics-engine`. Throws BadParam. */
export function sourceOf(url: URL): ReportSource {
  const value = url.searchParams.get('source')
  if (value === null || value === '' || value === 'd1') return 'd1'
  if (value === 'analytics-engine') return 'analytics-engine'
  throw new BadParam('source', `${JSON.stringify(value.slice(0, 80))} is not a source; use d1 or analytics-engine`)
}

/** The drill-down's paging from a query string; throws BadParam. */
export function pageOf(url: URL, now: number): { limit: number; before?: number; host?: string; violations?: boolean } {
  const q = readQuery(url, ['limit', 'before', 'host', 'violations'])
  const raw = q.get('limit')
  const limit = raw === undefined || raw === '' ? DEFAULT_PAGE : /^\d{1,4}$/.test(raw) ? Number(raw) : NaN
  if (!(limit >= 1 && limit <= MAX_PAGE)) throw new BadParam('limit', `must be a whole number from 1 to ${MAX_PAGE}`)
  const before = time('before', q.get('before'), now)
  const host = hostParam(q.get('host'))
  const violations = q.get('violations')
  if (violations !== undefined && !['', '0', '1', 'true', 'false'].includes(violations)) throw new BadParam('violations', 'must be 1 or 0')
  return {
    limit,
    ...(before === undefined ? {} : { before }),
    ...(host === undefined ? {} : { host }),
    ...(violations === '1' || violations === 'true' ? { violations: true } : {}),
  }
}

/**
 * The report as the API returns it: at most MAX_AGENTS agents, tools,
 * spoofed and unchecked claims each (`omitted` says how many more there
 * were; the totals count them all).
 */
function capped(report: Report) {
  const over = (list: readonly unknown[]) => Math.max(0, list.length - MAX_AGENTS)
  return {
    ...report,
    agents: report.agents.slice(0, MAX_AGENTS),
    tools: report.tools.slice(0, MAX_AGENTS),
    spoofed: report.spoofed.slice(0, MAX_AGENTS),
    unchecked: report.unchecked.slice(0, MAX_AGENTS),
    omitted: { agents: over(report.agents), spoofed: over(report.spoofed), tools: over(report.tools), unchecked: over(report.unchecked) },
  }
}

/** The Analytics Engine source from the secrets, or undefined when they are not set. */
function analyticsEngineOf(env: AdminBindings | undefined): AnalyticsEngineSource | undefined {
  const accountId = env?.AE_ACCOUNT_ID
  const apiToken = env?.AE_API_TOKEN
  return accountId && apiToken ? { accountId, apiToken, dataset: env?.AE_DATASET || 'robots_edge_events' } : undefined
}

const AE_MISSING = 'Analytics Engine is not configured: set the AE_ACCOUNT_ID and AE_API_TOKEN secrets (a token with Account Analytics Read).'

/** robots.txt texts from D1, for the Analytics Engine report's "nothing to ignore" check. */
function textsFrom(db: D1Database | undefined) {
  return async (hashes: readonly string[]): Promise<Map<string, string>> => {
    if (!db || hashes.length === 0) return new Map()
    const { results } = await db
      .prepare('SELECT hash, min(text) AS text FROM robots_versions WHERE hash IN (SELECT value FROM json_each(?1)) GROUP BY hash')
      .bind(JSON.stringify(hashes))
      .all<{ hash: string; text: string }>()
    return new Map(results.map((r) => [r.hash, r.text]))
  }
}

/** A value the SQL API will not take is a 400; the API failing is a 502, logged. */
function analyticsEngineFailure(c: Context, error: unknown): Response {
  if (error instanceof AnalyticsEngineQueryError) return c.json({ error: error.message }, 400)
  if (error instanceof BadParam) return failure(c, error)
  console.error('robots-edge: Analytics Engine report failed', error)
  return c.json({ error: 'the Analytics Engine SQL API could not be read' }, 502)
}

export interface ReportRoutesOptions {
  /** The admin token. Default: the `ROBOTS_ADMIN_TOKEN` secret. */
  token?: (c: Context<AdminEnv>) => string | undefined
  /** The clock, for relative times and the default range. Default: `Date.now`. */
  now?: () => number
  /** Verification coverage per operator, served at `/_robots/api/verification`. Default: none (that path is a 404). */
  coverage?: (c: Context<AdminEnv>) => Promise<VerificationCoverage>
}

/**
 * Mounts the report under /_robots/: the dashboard at `/_robots/`, JSON at
 * `/_robots/api/report`, CSV at `/_robots/api/report.csv`, one agent's
 * events at `/_robots/api/agents/:agent/requests`, and the policy's history
 * and impact (src/admin/policy-routes.ts). Everything needs the admin
 * token; anything else under /_robots/ is a 404, never the origin's.
 *
 * @example
 * createApp(config, { routes: (app) => reportRoutes(app) })
 */
export function reportRoutes<E extends AdminEnv>(host: Hono<E>, options: ReportRoutesOptions = {}): void {
  // The routes read only the admin's bindings, which any app mounting them holds (E extends AdminEnv).
  const app = host as unknown as Hono<AdminEnv>
  const now = options.now ?? Date.now
  const token = options.token ?? ((c: Context<AdminEnv>) => c.env?.ROBOTS_ADMIN_TOKEN)
  const categories = [...new Set(registry.map((a) => a.category))].sort()
  const api = `${REPORT_BASE}/api`

  app.use(`${REPORT_BASE}/*`, async function adminHeaders(c, next) {
    await next()
    for (const [name, value] of Object.entries(ADMIN_HEADERS)) c.res.headers.set(name, value)
  })
  // hono/tiny's router also matches a route's path with one "/" more: the
  // redirect and the routes below answer their exact paths only, as before.
  app.get(REPORT_BASE, (c, next) => (c.req.path === REPORT_BASE ? c.redirect(`${REPORT_BASE}/`, 308) : next()))
  app.use(
    `${REPORT_BASE}/*`,
    adminAuth({
      token: (c) => token(c),
      onUnauthorized: (c) =>
        c.req.path.startsWith(`${api}/`)
          ? c.json({ error: 'unauthorized: send Authorization: Bearer <ROBOTS_ADMIN_TOKEN>' }, 401)
          : c.text('401 Unauthorized: this page needs the robots-edge admin token. Sign in with any user name and the token as the password.\n', 401),
    }),
  )

  const notFound = (c: Context<AdminEnv>) =>
    c.json(
      {
        error: `not found: ${REPORT_BASE}/ serves /, /api/report, /api/report.csv, /api/agents/:agent/requests, /api/verification, /api/history, /api/history/version, POST /api/impact and POST /api/ip-ranges`,
      },
      404,
    )
  app.use(`${REPORT_BASE}/*`, async function exactPaths(c, next) {
    if (c.req.path.endsWith('/') && c.req.path !== `${REPORT_BASE}/`) return notFound(c)
    await next()
  })

  app.get(`${REPORT_BASE}/`, (c) => {
    const url = new URL(c.req.url)
    const sources = analyticsEngineOf(c.env) ? (['d1', 'analytics-engine'] as const) : (['d1'] as const)
    return c.html(renderDashboard({ base: REPORT_BASE, host: url.hostname, query: url.searchParams, categories, sources }))
  })
  app.get(`${api}/report`, async (c) => {
    try {
      const url = new URL(c.req.url)
      const filter = reportFilterOf(url, now())
      // What the ledger could not store, and whether its cap on hosts was reached
      // (src/ledger/losses.ts): `losses` and `hostCap`, whichever source counts.
      const db = c.env?.DB
      const notes = () => (db ? getStorageNotes(db, filter) : Promise.resolve({ losses: [], hostCap: null }))
      if (sourceOf(url) === 'd1') {
        const [report, storage] = await Promise.all([getReport(ledgerOf(c), filter), notes()])
        return c.json({ ...capped(report), ...storage })
      }
      const source = analyticsEngineOf(c.env)
      if (!source) return c.json({ error: AE_MISSING, param: 'source' }, 400)
      try {
        const [report, storage] = await Promise.all([getAnalyticsEngineJudgedReport(source, filter, { texts: textsFrom(c.env?.DB) }), notes()])
        return c.json({ ...capped(report), ...storage })
      } catch (error) {
        return analyticsEngineFailure(c, error)
      }
    } catch (error) {
      return failure(c, error)
    }
  })
  // Per-agent rows from Workers Analytics Engine as the first version served
  // them; the judged report from it is /api/report?source=analytics-engine.
  app.get(`${api}/report/analytics-engine`, async (c) => {
    const source = analyticsEngineOf(c.env)
    if (!source) return c.json({ error: AE_MISSING }, 400)
    try {
      const filter = reportFilterOf(new URL(c.req.url), now())
      return c.json(await getAnalyticsEngineReport(source, filter))
    } catch (error) {
      return analyticsEngineFailure(c, error)
    }
  })
  app.get(`${api}/report.csv`, async (c) => {
    try {
      const url = new URL(c.req.url)
      const filter = reportFilterOf(url, now())
      const source = sourceOf(url) === 'd1' ? undefined : analyticsEngineOf(c.env)
      if (sourceOf(url) !== 'd1' && !source) return c.json({ error: AE_MISSING, param: 'source' }, 400)
      const report = source ? await getAnalyticsEngineJudgedReport(source, filter, { texts: textsFrom(c.env?.DB) }) : await getReport(ledgerOf(c), filter)
      const csv = toCsv(report)
      return c.body(csv, 200, {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': 'attachment; filename="robots-edge-report.csv"',
      })
    } catch (error) {
      return failure(c, error)
    }
  })
  app.get(`${api}/agents/:agent/requests`, async (c) => {
    try {
      const agent = text('agent', c.req.param('agent'), 128, PRINTABLE, 'an agent key (gptbot)')
      if (agent === undefined) throw new BadParam('agent', 'is missing')
      const page = pageOf(new URL(c.req.url), now())
      const events = await getAgentRequests(ledgerOf(c), agent, page)
      const last = events.at(-1)
      return c.json({ agent: agent.toLowerCase(), events, next: events.length === page.limit && last ? last.time : null })
    } catch (error) {
      return failure(c, error)
    }
  })
  const coverage = options.coverage
  if (coverage) app.get(`${api}/verification`, async (c) => c.json(await coverage(c)))
  policyRoutes(app, api, now)
  ipRangeRoutes(app, api)
  app.all(`${REPORT_BASE}/*`, notFound)
}

/**
 * The report routes alone, without robots.txt or the guard: what the CLI
 * runs in-process over the local D1, so it reads exactly what the API serves.
 */
export function createReportApp(options: ReportRoutesOptions = {}): Hono<AdminEnv> {
  const app = new Hono<AdminEnv>()
  reportRoutes(app, options)
  return app
}
