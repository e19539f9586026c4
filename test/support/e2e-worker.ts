/**
 * The built Workers, served as production serves them: wrangler's dry-run
 * bundles (what `npm run deploy` uploads) of the edge Worker (wrangler.toml,
 * with the static assets in front of it) and the admin Worker
 * (wrangler.admin.toml), run by Miniflare and joined by the ROBOTS_ADMIN
 * service binding, sharing one migrated D1 and one KV namespace, with the two
 * secrets, the edge on a real 127.0.0.1 port.
 */
import { readFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { Miniflare } from 'miniflare'
import { unstable_readConfig } from 'wrangler'
import { bundledWorker, LOCAL, migrationStatements } from '../../dev/miniflare.ts'
import { DERIVE_RULES } from '../../src/ledger/rules-sql.ts'
import { builtWorkers } from './built-workers.ts'

export interface RunningWorker {
  /** The edge Worker's `http://127.0.0.1:<port>`, no trailing slash. */
  readonly origin: string
  /** The edge Worker's bundle, as uploaded. */
  readonly bundle: string
  /** The admin Worker's bundle, as uploaded. */
  readonly adminBundle: string
  /** Runs bound statements on the Worker's D1, in one batch (one transaction). */
  batch(statements: readonly { sql: string; params: readonly (string | number)[] }[]): Promise<void>
  /** Writes entries into the Worker's ROBOTS_KV, as the cron (or `wrangler kv bulk put`) would. */
  putKv(entries: readonly { key: string; value: string; metadata?: unknown }[]): Promise<void>
  /** What the hourly cron's roll-up adds up for the report's most violated rules (src/ledger/rules-sql.ts). */
  deriveRules(): Promise<void>
  stop(): Promise<void>
}

/** Runs every migration in migrations/, in order, in one batch, split as `wrangler d1 migrations apply` splits them. */
async function migrate(mf: Miniflare): Promise<void> {
  const db = await mf.getD1Database('DB')
  await db.batch((await migrationStatements()).map((sql) => db.prepare(sql)))
}

const EDGE = 'wrangler.toml'
const ADMIN = 'wrangler.admin.toml'

/** One Worker as `npm run deploy` would upload it (test/support/built-workers.ts: built once per change, shared, never removed here). */
function built(configPath: string, script: string): { outdir: string; script: string; config: ReturnType<typeof unstable_readConfig> } {
  return { outdir: dirname(script), script, config: unstable_readConfig({ config: configPath }, { hideWarnings: true }) }
}

/** Both Workers as `wrangler deploy --dry-run --minify` bundles them, served; `secrets` become bindings of both. */
export async function startBuiltWorker(secrets: { ROBOTS_ADMIN_TOKEN: string; IP_HASH_SALT: string }): Promise<RunningWorker> {
  const bundles = await builtWorkers()
  const [edge, admin] = [built(EDGE, bundles.edge), built(ADMIN, bundles.admin)]
  const assets = edge.config.assets?.directory
  if (!assets) throw new Error('wrangler.toml has no [assets] directory')
  const service = edge.config.services?.find((s: { binding: string; service?: string }) => s.binding === 'ROBOTS_ADMIN')?.service
  if (service !== admin.config.name) throw new Error(`wrangler.toml's ROBOTS_ADMIN names "${service}", but wrangler.admin.toml's Worker is "${admin.config.name}"`)
  // The same ids in both Workers: one database and one namespace, as `npm run deploy` binds them.
  const storage = { d1Databases: { DB: 'e2e' }, kvNamespaces: { ROBOTS_KV: 'e2e-kv' } }
  const worker = ({ outdir, script, config }: typeof edge) => ({
    // Module names are paths relative to the bundle's folder, outside the project.
    ...bundledWorker(config, script, outdir),
    bindings: { ...config.vars, ...secrets },
    ...storage,
  })
  const mf = new Miniflare({
    workers: [
      // The first Worker is the one served on the port.
      {
        ...worker(edge),
        assets: { directory: assets, routerConfig: { has_user_worker: true } },
        serviceBindings: { ROBOTS_ADMIN: admin.config.name },
      },
      worker(admin),
    ],
    ...LOCAL,
    // The Worker logs each judged request as a JSON line; the tests assert on pages and the API, so only its warnings and errors are shown.
    handleStructuredLogs: ({ level, message }) => {
      if (level === 'warn' || level === 'error') process.stderr.write(`${message}\n`)
    },
  })
  const url = await mf.ready
  await migrate(mf)
  const db = await mf.getD1Database('DB')
  return {
    origin: url.origin,
    bundle: await readFile(edge.script, 'utf8'),
    adminBundle: await readFile(admin.script, 'utf8'),
    async batch(statements) {
      await db.batch(statements.map(({ sql, params }) => db.prepare(sql).bind(...params)))
    },
    async putKv(entries) {
      const kv = (await mf.getKVNamespace('ROBOTS_KV')) as unknown as { put(key: string, value: string, options: { metadata?: unknown }): Promise<void> }
      for (const { key, value, metadata } of entries) await kv.put(key, value, metadata === undefined ? {} : { metadata })
    },
    async deriveRules() {
      await db.batch(DERIVE_RULES.map((sql) => db.prepare(sql)))
    },
    async stop() {
      await mf.dispose()
    },
  }
}
