// Runs before `npm run dev` (predev): gives a fresh clone what local
// development needs, with no manual step and no prompt, and stops early,
// with only the config's own message, when robots.config.ts is invalid.
//   1. robots.config.ts is validated first (the Worker would refuse to start);
//   2. .dev.vars (never committed) gets a random admin token and IP-hash salt;
//   3. the local D1 gets the migrations: wrangler asks "continue?" when its
//      stdin is a terminal, so it is given none, and its tables print only
//      when something fails.
// `npm run dev` then runs both Workers (wrangler.toml, wrangler.admin.toml):
// both read this .dev.vars (it sits beside both configs) and open the same
// local D1 and KV (local state is keyed by binding name), so migrating the
// edge's DB migrates the admin's too.
// Options: --persist-to <dir> (as wrangler's; default .wrangler/state).
import { spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { buildLineDiff } from './build-line-diff.mjs'

const { values } = parseArgs({ options: { 'persist-to': { type: 'string' } } })
const root = process.cwd()
const bin = (name) => join(root, 'node_modules', '.bin', name)

const validated = spawnSync(process.execPath, [join(root, 'bin', 'robots-edge.mjs'), 'validate'], { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' })
if (validated.status !== 0) process.exit(validated.status ?? 1)
process.stdout.write(validated.stdout)
// The dashboard's line diff, from its TypeScript source.
buildLineDiff()

const devVars = join(root, '.dev.vars')
if (!existsSync(devVars)) {
  const token = randomBytes(24).toString('base64url')
  const salt = randomBytes(24).toString('base64url')
  writeFileSync(devVars, `# Local secrets for wrangler dev (git-ignored). Created by scripts/dev-setup.mjs.\nROBOTS_ADMIN_TOKEN=${token}\nIP_HASH_SALT=${salt}\n`, { mode: 0o600 })
  console.log('robots-edge: created .dev.vars with a random ROBOTS_ADMIN_TOKEN (the dashboard token) and IP_HASH_SALT.')
}

const persist = values['persist-to'] ? ['--persist-to', values['persist-to']] : []
const migrated = spawnSync(bin('wrangler'), ['d1', 'migrations', 'apply', 'DB', '--local', ...persist], {
  stdio: ['ignore', 'pipe', 'pipe'],
  encoding: 'utf8',
  env: { ...process.env, WRANGLER_SEND_METRICS: 'false', WRANGLER_SEND_ERROR_REPORTS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false' },
})
if (migrated.status !== 0) {
  process.stderr.write(`${migrated.stdout}${migrated.stderr}robots-edge: the local D1 migrations failed (above).\n`)
  process.exit(migrated.status ?? 1)
}
// wrangler redraws its table as each file applies: count the files, not the lines.
const applied = new Set([...migrated.stdout.matchAll(/│ (\S+\.sql)\s+│ ✅/g)].map((m) => m[1])).size
console.log(applied > 0 ? `robots-edge: applied ${applied} migration(s) to the local D1.` : 'robots-edge: the local D1 is up to date.')
