/**
 * The built Worker, served as production serves it: wrangler's dry-run
 * bundle (what `npm run deploy` uploads) run by Miniflare with the static
 * assets in front of it, a migrated D1, and the two secrets, on a real
 * 127.0.0.1 port.
 */
import { execFile } from 'node:child_process'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { Miniflare } from 'miniflare'
import { unstable_readConfig, unstable_splitSqlQuery } from 'wrangler'

const WRANGLER_ENV = { ...process.env, WRANGLER_SEND_METRICS: 'false', WRANGLER_SEND_ERROR_REPORTS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false', CI: 'true' }

export interface RunningWorker {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  readonly origin: string
  /** The bundle that was served, as uploaded. */
  readonly bundle: string
  /** Runs bound statements on the Worker's D1, in one batch (one transaction). */
  batch(statements: readonly { sql: string; params: readonly (string | number)[] }[]): Promise<void>
  /** Writes entries into the Worker's ROBOTS_KV, as the cron (or `wrangler kv bulk put`) would. */
  putKv(entries: readonly { key: string; value: string; metadata?: unknown }[]): Promise<void>
  stop(): Promise<void>
}

/** Runs each migration in migrations/, in order, as `wrangler d1 migrations apply` would. */
async function migrate(mf: Miniflare): Promise<void> {
  const db = await mf.getD1Database('DB')
  for (const file of (await readdir('migrations')).filter((f) => f.endsWith('.sql')).sort()) {
    const statements = unstable_splitSqlQuery(await readFile(join('migrations', file), 'utf8'))
    await db.batch(statements.map((sql: string) => db.prepare(sql)))
  }
}

/** Builds the Worker with `wrangler deploy --dry-run --minify` and serves it; `secrets` become bindings. */
export async function startBuiltWorker(secrets: { ROBOTS_ADMIN_TOKEN: string; IP_HASH_SALT: string }): Promise<RunningWorker> {
  const outdir = await mkdtemp(join(tmpdir(), 'robots-edge-e2e-'))
  await promisify(execFile)('node_modules/.bin/wrangler', ['deploy', '--dry-run', '--outdir', outdir, '--minify'], { env: WRANGLER_ENV })
  const config = unstable_readConfig({ config: 'wrangler.toml' }, { hideWarnings: true })
  if (!config.assets?.directory) throw new Error('wrangler.toml has no [assets] directory')
  const mf = new Miniflare({
    modules: true,
    scriptPath: join(outdir, 'index.js'),
    // Module names are paths relative to this root; the bundle lives outside the project.
    modulesRoot: outdir,
    compatibilityDate: config.compatibility_date,
    compatibilityFlags: config.compatibility_flags,
    assets: { directory: config.assets.directory, routerConfig: { has_user_worker: true } },
    d1Databases: { DB: 'e2e' },
    kvNamespaces: ['ROBOTS_KV'],
    bindings: { ...config.vars, ...secrets },
    cf: false,
    // The Worker logs each judged request as a JSON line; the tests assert on pages and the API, so only its warnings and errors are shown.
    handleStructuredLogs: ({ level, message }) => {
      if (level === 'warn' || level === 'error') process.stderr.write(`${message}\n`)
    },
    host: '127.0.0.1',
    port: 0,
  })
  const url = await mf.ready
  await migrate(mf)
  const db = await mf.getD1Database('DB')
  return {
    origin: url.origin,
    bundle: await readFile(join(outdir, 'index.js'), 'utf8'),
    async batch(statements) {
      await db.batch(statements.map(({ sql, params }) => db.prepare(sql).bind(...params)))
    },
    async putKv(entries) {
      const kv = (await mf.getKVNamespace('ROBOTS_KV')) as unknown as { put(key: string, value: string, options: { metadata?: unknown }): Promise<void> }
      for (const { key, value, metadata } of entries) await kv.put(key, value, metadata === undefined ? {} : { metadata })
    },
    async stop() {
      await mf.dispose()
      await rm(outdir, { recursive: true, force: true })
    },
  }
}
