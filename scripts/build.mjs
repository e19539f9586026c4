// `npm run build` (after `prebuild` has validated the config): the edge
// Worker bundled offline as deploy makes it (`wrangler deploy --dry-run
// --minify`, into dist/ unless --outdir is given), with the defines of
// dev/checked-config.ts, so the size wrangler prints ("Total Upload: …
// / gzip: …") is the deployed one. Arguments go to wrangler.
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { register } from 'tsx/esm/api'

// As bin/robots-edge.mjs: the TypeScript source, through tsx.
register()
const { checkedConfigDefines } = await import('../dev/checked-config.ts')
const args = process.argv.slice(2)
const outdir = args.some((a) => a === '--outdir' || a.startsWith('--outdir=')) ? [] : ['--outdir', 'dist']
const env = { ...process.env, WRANGLER_SEND_METRICS: 'false', WRANGLER_SEND_ERROR_REPORTS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false' }
const result = spawnSync(join('node_modules', '.bin', 'wrangler'), ['deploy', '--dry-run', '--minify', ...outdir, ...(await checkedConfigDefines()), ...args], { stdio: 'inherit', env })
process.exit(result.status ?? 1)
