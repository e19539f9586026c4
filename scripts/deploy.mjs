// `npm run deploy` (after `wrangler login`; `predeploy` has validated the
// config): everything a first deploy of the template's two Workers needs,
// and nothing to paste.
//   1. the D1 ledger: found by its database_name, created if missing, and
//      migrated before the Workers that use it go live;
//   2. the KV namespace of ROBOTS_KV: found by its title, created if
//      missing. Both Workers must bind the same one (the edge's cron writes
//      the IP ranges the admin's report reads), and a plain `wrangler
//      deploy` of id-less bindings would create one per Worker;
//   3. the admin Worker (wrangler.admin.toml), then the edge Worker
//      (wrangler.toml), whose ROBOTS_ADMIN service binding names it. Each is
//      deployed from a temporary copy of its config, beside it, with the
//      database and namespace ids filled in: the committed files hold none;
//   4. the secrets: the admin's ROBOTS_ADMIN_TOKEN, the edge's IP_HASH_SALT,
//      random values when a Worker has none yet; the token is printed once.
// Arguments go to both `wrangler deploy`s (e.g. `npm run deploy -- --env
// staging`). `--dry-run` bundles both, offline, as `npm run build` does the edge.
// `--queue` puts the ledger queue in front of D1 (scripts/queue-config.mjs):
// the queue and its dead-letter queue are created if missing (before the
// Workers, which bind them), and both Workers are deployed with the
// producer and consumer bindings. Without it, the edge writes to D1 itself;
// a later deploy without `--queue` returns to that (the queues stay, unused).
import { spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { register } from 'tsx/esm/api'
import { experimental_readRawConfig, unstable_readConfig } from 'wrangler'
import { queueConfigs } from './queue-config.mjs'

// The edge Worker is bundled as `npm run build` measures it: for a config
// object, checked here, without the validator (dev/checked-config.ts).
register()
const { checkedConfigDefines } = await import('../dev/checked-config.ts')

const queued = process.argv.includes('--queue')
const args = process.argv.slice(2).filter((a) => a !== '--queue')
const envIndex = args.findIndex((a) => a === '--env' || a === '-e')
const env = envIndex >= 0 ? args[envIndex + 1] : args.find((a) => a.startsWith('--env='))?.slice(6)
const EDGE_CONFIG = 'wrangler.toml'
const ADMIN_CONFIG = 'wrangler.admin.toml'
const namedEnvs = [...new Set([EDGE_CONFIG, ADMIN_CONFIG].flatMap((c) => Object.keys(experimental_readRawConfig({ config: c }, { hideWarnings: true }).rawConfig.env ?? {})))]
// Without --env, every wrangler call below would warn that several environments exist: say it once here, and target the top level explicitly.
const topLevel = env === undefined && namedEnvs.length > 0
if (topLevel) console.warn(`robots-edge: no --env given: deploying the top-level (production) environment; for another, run \`npm run deploy -- --env <name>\` (${namedEnvs.join(', ')}).`)
const envArgs = env ? ['--env', env] : topLevel ? ['--env='] : []
const deployArgs = topLevel ? [...args, '--env='] : args
const EDGE = EDGE_CONFIG
const ADMIN = ADMIN_CONFIG
/** Which Worker reads which secret: the edge salts IP hashes (and its loop marker), the admin checks the token. */
const SECRETS = { [ADMIN]: ['ROBOTS_ADMIN_TOKEN'], [EDGE]: ['IP_HASH_SALT'] }

function wrangler(argv, { capture = false } = {}) {
  // No stdin: wrangler never stops at a "continue?" prompt.
  const result = spawnSync(join('node_modules', '.bin', 'wrangler'), argv, { stdio: ['ignore', capture ? 'pipe' : 'inherit', 'inherit'], encoding: 'utf8' })
  if (result.status !== 0) {
    console.error(`robots-edge: \`wrangler ${argv.join(' ')}\` failed; nothing after it was done.`)
    process.exit(result.status ?? 1)
  }
  return result.stdout ?? ''
}

const edge = unstable_readConfig({ config: EDGE, env }, { hideWarnings: true })
const admin = unstable_readConfig({ config: ADMIN, env }, { hideWarnings: true })
// A renamed Worker or environment must not leave the edge bound to nothing.
const bound = edge.services?.find((s) => s.binding === 'ROBOTS_ADMIN')?.service
if (bound !== admin.name) {
  console.error(`robots-edge: ${EDGE}'s ROBOTS_ADMIN service binding${env ? ` (env ${env})` : ''} names "${bound ?? 'nothing'}", but ${ADMIN} deploys "${admin.name}". Make them the same.`)
  process.exit(1)
}

const edgeDefines = await checkedConfigDefines()
// With --queue: both configs with the queue's bindings, deployed from copies like the ids below.
const withQueue = queued ? queueConfigs(env) : undefined

if (args.includes('--dry-run')) {
  if (withQueue) {
    deploy(ADMIN, {}, withQueue.admin)
    deploy(EDGE, {}, withQueue.edge, edgeDefines)
  } else {
    wrangler(['deploy', '-c', ADMIN, '--minify', ...deployArgs])
    wrangler(['deploy', '-c', EDGE, '--minify', ...edgeDefines, ...deployArgs])
  }
  process.exit(0)
}

/** The D1 ledger's id: found by name, created if missing, then migrated. */
function ensureDatabase(db) {
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
  // wrangler's migrations read the id from a config file: a temporary one names it.
  const dir = mkdtempSync(join(tmpdir(), 'robots-edge-deploy-'))
  try {
    const migrations = { name: edge.name, d1_databases: [{ binding: 'DB', database_name: db.database_name, database_id: id, migrations_dir: resolve(db.migrations_dir ?? 'migrations') }] }
    writeFileSync(join(dir, 'wrangler.json'), JSON.stringify(migrations))
    wrangler(['d1', 'migrations', 'apply', 'DB', '--remote', '--config', join(dir, 'wrangler.json')])
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  return id
}

/**
 * The ROBOTS_KV namespace's id, found by title or created. The title is the
 * one wrangler's own provisioning gives the edge's binding
 * ("<worker>-robots-kv"), so a deployment made before the split keeps its
 * IP ranges.
 */
function ensureNamespace(kv) {
  if (kv.id) return kv.id
  const title = `${edge.name}-${kv.binding.toLowerCase().replaceAll('_', '-')}`
  const find = () => JSON.parse(wrangler(['kv', 'namespace', 'list'], { capture: true })).find((n) => n.title === title)?.id
  let id = find()
  if (!id) {
    console.log(`robots-edge: creating the KV namespace "${title}"...`)
    // No --env: wrangler would prefix the title with it; this one is complete.
    wrangler(['kv', 'namespace', 'create', title])
    id = find()
  }
  if (!id) {
    console.error(`robots-edge: the KV namespace "${title}" was created but is not listed; run \`npm run deploy\` again.`)
    process.exit(1)
  }
  return id
}

/**
 * Deploys one Worker from a copy of its config with the ids filled in. The
 * copy sits beside the original, so every relative path in it (main, alias,
 * assets, migrations) means what it means there; it is removed afterwards.
 */
function deploy(configPath, ids, overlaid = undefined, defines = []) {
  const rawConfig = overlaid ?? experimental_readRawConfig({ config: configPath }).rawConfig
  const target = env ? rawConfig.env?.[env] : rawConfig
  if (!target) {
    console.error(`robots-edge: ${configPath} has no [env.${env}].`)
    process.exit(1)
  }
  for (const db of target.d1_databases ?? []) if (db.binding === 'DB' && ids.db) db.database_id ??= ids.db
  for (const kv of target.kv_namespaces ?? []) if (kv.binding === 'ROBOTS_KV' && ids.kv) kv.id ??= ids.kv
  const copy = resolve(`.${configPath.replace(/\.toml$/, '')}.deploy.json`)
  try {
    writeFileSync(copy, JSON.stringify(rawConfig, null, 2))
    // Minified, as `npm run build` measures it against the 64 KiB budget.
    wrangler(['deploy', '-c', copy, '--minify', ...defines, ...deployArgs])
  } finally {
    rmSync(copy, { force: true })
  }
}

/** Sets the Worker's missing secrets to random values; returns what was set. */
function ensureSecrets(configPath) {
  const names = SECRETS[configPath]
  const target = ['-c', configPath, ...envArgs]
  const present = new Set(JSON.parse(wrangler(['secret', 'list', '--format', 'json', ...target], { capture: true })).map((s) => s.name))
  const missing = names.filter((name) => !present.has(name))
  if (missing.length === 0) return {}
  const values = Object.fromEntries(missing.map((name) => [name, randomBytes(24).toString('base64url')]))
  const dir = mkdtempSync(join(tmpdir(), 'robots-edge-secrets-'))
  try {
    writeFileSync(join(dir, 'secrets.json'), JSON.stringify(values), { mode: 0o600 })
    wrangler(['secret', 'bulk', join(dir, 'secrets.json'), ...target])
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  console.log(`robots-edge: set ${missing.join(' and ')} on ${configPath === ADMIN ? admin.name : edge.name} with random values.`)
  return values
}

/** A queue, created unless `wrangler queues info` finds it (default retention: 4 days, which queue-consumer.ts's record of applied ids outlasts). */
function ensureQueue(name) {
  const found = spawnSync(join('node_modules', '.bin', 'wrangler'), ['queues', 'info', name], { stdio: 'ignore' })
  if (found.status === 0) return
  console.log(`robots-edge: creating the queue "${name}"...`)
  wrangler(['queues', 'create', name])
}

if (withQueue) {
  ensureQueue(withQueue.names.deadLetter)
  ensureQueue(withQueue.names.queue)
}

const db = edge.d1_databases.find((d) => d.binding === 'DB')
const kv = edge.kv_namespaces.find((k) => k.binding === 'ROBOTS_KV')
const ids = { db: db ? ensureDatabase(db) : undefined, kv: kv ? ensureNamespace(kv) : undefined }

// The admin first: the edge's service binding must name a Worker that exists.
deploy(ADMIN, ids, withQueue?.admin)
deploy(EDGE, ids, withQueue?.edge, edgeDefines)

const { ROBOTS_ADMIN_TOKEN: token } = ensureSecrets(ADMIN)
ensureSecrets(EDGE)
if (token) console.log(`robots-edge: the dashboard token (shown once; keep it): ${token}`)
if (withQueue) console.log(`robots-edge: the edge sends its events to the queue ${withQueue.names.queue}; ${admin.name} writes them to D1 (dead letters: ${withQueue.names.deadLetter}).`)
console.log(`robots-edge: deployed ${admin.name} and ${edge.name}. The report: /_robots/ on the edge Worker, with the admin token as the password.`)
