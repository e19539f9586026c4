/**
 * The ledger's API (/_robots/api) as the CLI reads it: from a running
 * Worker, local or deployed, with the admin token from ROBOTS_ADMIN_TOKEN
 * (the environment; for a Worker on this machine, also `.dev.vars`), or from the
 * local D1 exactly as `npm run dev` leaves it, through the Worker's own
 * report routes run in-process. Local and remote answers come from one code
 * path.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { CliError, UsageError } from './errors.ts'
import type { Io } from './io.ts'

export interface LedgerSourceOptions {
  /** The deployment environment: `staging` reads `[env.staging]`'s local D1. Default: production (the top level). */
  readonly env?: string | undefined
  /** A running Worker (local or deployed) whose API to read. Default: none, read the local D1. */
  readonly url?: string | undefined
  /** Local state, as `wrangler dev --persist-to`. Default: `.wrangler/state`, where `npm run dev` keeps it. */
  readonly persistTo?: string | undefined
  /** Default: `fetch`. */
  readonly fetch?: typeof fetch | undefined
  /** Where `.dev.vars` is read. Default: the working directory. */
  readonly cwd?: string | undefined
  /** The local binding the command needs: the ledger's D1 (default), or the KV of the IP ranges. */
  readonly binding?: 'DB' | 'ROBOTS_KV' | undefined
}

export interface LedgerApi {
  /** Where the answers come from, for the heading. */
  readonly source: string
  /** One call under /_robots/api, e.g. `/history?host=example.com`. */
  call(path: string, init?: { method: 'POST'; body: string }): Promise<Response>
}

/**
 * src/admin/routes.ts, loaded when a command runs. It is a Workers module
 * (its queries are typed against D1's runtime types), which the Node
 * typecheck does not load, so the one function used is restated here; the
 * CLI tests run it for real.
 */
interface ReportRoutesModule {
  createReportApp(): { request(path: string, init: RequestInit, env: Record<string, unknown>): Response | Promise<Response> }
}
// Widened to `string` so the Node typecheck does not follow it; the path
// stays a literal, so the package build (esbuild) bundles the module.
const loadRoutes = () => import('../admin/routes.ts' as string) as Promise<ReportRoutesModule>

const API = '/_robots/api'
const LOCAL = new Set(['localhost', '127.0.0.1', '[::1]'])

/**
 * The admin token: ROBOTS_ADMIN_TOKEN from the environment, else, for a
 * Worker on this machine (`npm run dev`), from `.dev.vars`. A local secret
 * is never sent to another host.
 */
function tokenFor(url: URL, io: Io, cwd = '.'): string | undefined {
  const token = (io.env ?? process.env).ROBOTS_ADMIN_TOKEN
  if (token || !LOCAL.has(url.hostname)) return token || undefined
  let vars = ''
  try {
    vars = readFileSync(join(cwd, '.dev.vars'), 'utf8')
  } catch {
    return undefined
  }
  const line = vars.split(/\r?\n/).find((l) => l.startsWith('ROBOTS_ADMIN_TOKEN='))
  return (
    line
      ?.slice('ROBOTS_ADMIN_TOKEN='.length)
      .trim()
      .replace(/^"(.*)"$/, '$1') || undefined
  )
}

function remoteApi(o: LedgerSourceOptions, flag: string, io: Io): LedgerApi {
  let base: URL
  try {
    base = new URL(API, o.url)
  } catch {
    throw new UsageError(`${flag} "${o.url}" is not a URL: write https://robots-edge.example.workers.dev`)
  }
  if (base.protocol !== 'https:' && base.protocol !== 'http:') throw new UsageError(`${flag} must be http(s), not ${base.protocol}`)
  const token = tokenFor(base, io, o.cwd)
  if (!token) throw new CliError("ROBOTS_ADMIN_TOKEN is not set: export the Worker's admin token (the ROBOTS_ADMIN_TOKEN secret) to read its ledger.")
  return {
    source: base.origin,
    async call(path, init) {
      const url = new URL(`${API}${path}`, base)
      const headers = { Authorization: `Bearer ${token}`, Accept: 'application/json', ...(init ? { 'Content-Type': 'application/json' } : {}) }
      try {
        return await (o.fetch ?? fetch)(url, { ...init, headers })
      } catch (error) {
        throw new CliError(`could not reach ${url.origin}: ${error instanceof Error ? error.message : String(error)}`)
      }
    },
  }
}

/**
 * The local D1 exactly as `npm run dev` leaves it: wrangler's own platform
 * proxy reads wrangler.toml (the database id, `[env.staging]`'s own
 * database) and the state under `.wrangler/state/v3`.
 */
async function withLocalApi<T>(o: LedgerSourceOptions, use: (api: LedgerApi) => Promise<T>): Promise<T> {
  const persistTo = o.persistTo ?? '.wrangler/state'
  const environment = o.env && o.env !== 'production' ? o.env : undefined
  // An optional peer dependency of the package: every Workers project has it, and only these commands need it.
  const { getPlatformProxy } = await import('wrangler').catch(() => {
    throw new CliError('reading the local D1 needs wrangler in this project (npm i -D wrangler); or read a running Worker with --url.')
  })
  // Wrangler logs to stdout ("Using secrets defined in .dev.vars"), which would corrupt --json.
  const logLevel = process.env.WRANGLER_LOG
  process.env.WRANGLER_LOG ??= 'error'
  const proxy = await getPlatformProxy<{ DB?: { prepare(sql: string): { first(): Promise<unknown> } }; ROBOTS_KV?: unknown }>({
    persist: { path: `${persistTo}/v3` },
    remoteBindings: false,
    ...(environment ? { environment } : {}),
  }).finally(() => {
    if (logLevel === undefined) delete process.env.WRANGLER_LOG
  })
  try {
    const db = proxy.env.DB
    const kv = proxy.env.ROBOTS_KV
    if (o.binding === 'ROBOTS_KV') {
      if (!kv) throw new CliError(`wrangler.toml has no KV binding ROBOTS_KV${environment ? ` in [env.${environment}]` : ''}: add [[kv_namespaces]] with binding = "ROBOTS_KV".`)
    } else {
      if (!db) throw new CliError(`wrangler.toml has no D1 binding DB${environment ? ` in [env.${environment}]` : ''}.`)
      const schema = await db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'events'").first()
      if (schema === null) {
        throw new CliError(`the local ledger in ${persistTo} has no tables yet: run \`npm run dev\` (it applies the migrations) and send it some requests, or pass --url.`)
      }
    }
    const app = (await loadRoutes()).createReportApp()
    // A token of this run only: the routes run behind the same check as in the Worker.
    const token = crypto.randomUUID()
    return await use({
      source: `local ${o.binding === 'ROBOTS_KV' ? 'KV' : 'D1'} (${persistTo}${environment ? `, env ${environment}` : ''})`,
      call: async (path, init) =>
        app.request(
          `${API}${path}`,
          {
            ...init,
            headers: { Authorization: `Bearer ${token}`, ...(init ? { 'Content-Type': 'application/json' } : {}) },
          },
          { ...(db ? { DB: db } : {}), ...(kv ? { ROBOTS_KV: kv } : {}), ROBOTS_ADMIN_TOKEN: token },
        ),
    })
  } finally {
    await proxy.dispose()
  }
}

/**
 * Runs `use` with the API of the Worker at `o.url` (named `flag` in
 * messages), or of the local D1 when no URL is given.
 *
 * @example
 * await withLedgerApi({ url: 'https://robots-edge.example.workers.dev' }, '--remote', io, async (api) => readJson(await api.call('/history'), api.source))
 */
export function withLedgerApi<T>(o: LedgerSourceOptions, flag: string, io: Io, use: (api: LedgerApi) => Promise<T>): Promise<T> {
  return o.url ? use(remoteApi(o, flag, io)) : withLocalApi(o, use)
}

/** The API's answer as JSON, or the error the user can act on: a 400 names the bad parameter, which is the user's argument. */
export async function readJson<T>(res: Response, source: string): Promise<T> {
  const body = (await res.json().catch(() => null)) as (T & { error?: string }) | null
  if (res.ok && body) return body
  const message = body?.error ?? `${res.status} ${res.statusText}`
  if (res.status === 400) throw new UsageError(`--${message}`)
  if (res.status === 401) throw new CliError(`${source} refused the token (401): set ROBOTS_ADMIN_TOKEN to the Worker's admin token.`)
  throw new CliError(`${source} answered ${res.status}: ${message}`)
}
