// Runs before `npm run dev`: gives a fresh clone what local development
// needs, with no manual step. Creates .dev.vars (never committed) with a
// random admin token and IP-hash salt if it is missing.
import { randomBytes } from 'node:crypto'
import { existsSync, writeFileSync } from 'node:fs'

const file = new URL('../.dev.vars', import.meta.url)
if (!existsSync(file)) {
  const token = randomBytes(24).toString('base64url')
  const salt = randomBytes(24).toString('base64url')
  writeFileSync(file, `# Local secrets for wrangler dev (git-ignored). Created by scripts/dev-setup.mjs.\nROBOTS_ADMIN_TOKEN=${token}\nIP_HASH_SALT=${salt}\n`, { mode: 0o600 })
  console.log('robots-edge: created .dev.vars with a random ROBOTS_ADMIN_TOKEN (the dashboard token) and IP_HASH_SALT.')
} else {
  console.log('robots-edge: using the secrets in .dev.vars.')
}
