// `npm run deploy` (after `wrangler login`; `predeploy` has validated the
// config): everything a first deploy needs, and nothing to paste.
//   1. the D1 ledger: found by its database_name, created if missing, and
//      migrated before the Worker that writes to it goes live;
//   2. `wrangler deploy`, which creates the KV namespace on first deploy;
//   3. the secrets: ROBOTS_ADMIN_TOKEN and IP_HASH_SALT get random values
//      when the Worker has none yet; the token is printed once.
// Arguments go to `wrangler deploy` (e.g. `npm run deploy -- --env staging`).
// `--dry-run` bundles only, offline, as `npm run build` does.
import { spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { unstable_readConfig } from 'wrangler'

const args = process.argv.slice(2)
const envIndex = args.findIndex((a) => a === '--env' || a === '-e')
const env = envIndex >= 0 ? args[envIndex + 1] : args.find((a) => a.startsWith('--env='))?.slice(6)
const envArgs = env ? ['--env', env] : []
const SECRETS = ['ROBOTS_ADMIN_TOKEN', 'IP_HASH_SALT']

function wrangler(argv, { capture = false } = {}) {
  // No stdin: wrangler never stops at a "continue?" prompt.
  const result = spawnSync(join('node_modules', '.bin', 'wrangler'), argv, { stdio: ['ignore', capture ? 'pipe' : 'inherit', 'inherit'], encoding: 'utf8' })
  if (result.status !== 0) {
    console.error(`robots-edge: \`wrangler ${argv.join(' ')}\` failed; nothing after it was done.`)
    process.exit(result.status ?? 1)
  }
  return result.stdout ?? ''
}

if (args.includes('--dry-run')) {
  wrangler(['deploy', ...args])
  process.exit(0)
}

const config = unstable_readConfig({ config: 'wrangler.toml', env }, { hideWarnings: true })
const db = config.d1_databases.find((d) => d.binding === 'DB')
if (db) {
  let id = db.database_id
  if (!id) {
    const find = () => JSON.parse(wrangler(['d1', 'list', '--json'], { capture: true })).find((d) => d.name === db.database_name)?.uuid
    id = find()
    if (!id) {
      console.log(`robots-edge: creating the D1 database "${db.database_name}"...`)
      wrangler(['d1', 'create', db.database_name])
      id = find()
    }
  }
  // wrangler's migrations read the id from a config file: a temporary one
  // names it, so wrangler.toml needs none.
  const dir = mkdtempSync(join(tmpdir(), 'robots-edge-deploy-'))
  try {
    const migrations = { name: config.name, d1_databases: [{ binding: 'DB', database_name: db.database_name, database_id: id, migrations_dir: resolve(db.migrations_dir ?? 'migrations') }] }
    writeFileSync(join(dir, 'wrangler.json'), JSON.stringify(migrations))
    wrangler(['d1', 'migrations', 'apply', 'DB', '--remote', '--config', join(dir, 'wrangler.json')])
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

wrangler(['deploy', ...args])

const present = new Set(JSON.parse(wrangler(['secret', 'list', '--format', 'json', ...envArgs], { capture: true })).map((s) => s.name))
const missing = SECRETS.filter((name) => !present.has(name))
if (missing.length > 0) {
  const values = Object.fromEntries(missing.map((name) => [name, randomBytes(24).toString('base64url')]))
  const dir = mkdtempSync(join(tmpdir(), 'robots-edge-secrets-'))
  try {
    writeFileSync(join(dir, 'secrets.json'), JSON.stringify(values), { mode: 0o600 })
    wrangler(['secret', 'bulk', join(dir, 'secrets.json'), ...envArgs])
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  console.log(`robots-edge: set ${missing.join(' and ')} with random values.`)
  if (values.ROBOTS_ADMIN_TOKEN) {
    console.log(`robots-edge: the dashboard token (shown once; keep it): ${values.ROBOTS_ADMIN_TOKEN}`)
  }
}
console.log('robots-edge: deployed. The report: /_robots/ on your Worker, with the admin token as the password.')
