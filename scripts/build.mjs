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
const { BUNDLE_BUDGET_KIB, checkedConfigDefines } = await import('../dev/checked-config.ts')
const args = process.argv.slice(2)
const outdir = args.some((a) => a === '--outdir' || a.startsWith('--outdir=')) ? [] : ['--outdir', 'dist']
// The edge Worker (wrangler.toml) unless another config is named: only the edge gets the defines and has a budget.
const configAt = args.findIndex((a) => a === '-c' || a === '--config')
const edge = (configAt >= 0 ? args[configAt + 1] : args.find((a) => a.startsWith('--config='))?.slice(9)) ?? 'wrangler.toml'
const isEdge = edge.replace(/^\.\//, '') === 'wrangler.toml'
const env = { ...process.env, WRANGLER_SEND_METRICS: 'false', WRANGLER_SEND_ERROR_REPORTS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false' }
const result = spawnSync(join('node_modules', '.bin', 'wrangler'), ['deploy', '--dry-run', '--minify', ...outdir, ...(isEdge ? await checkedConfigDefines() : []), ...args], {
  stdio: ['inherit', 'pipe', 'inherit'],
  env,
  encoding: 'utf8',
})
process.stdout.write(result.stdout ?? '')
// The figure beside its budget (`npm run bench` fails above it).
const gzip = /Total Upload: [\d.]+ KiB \/ gzip: ([\d.]+) KiB/.exec(result.stdout ?? '')?.[1]
if (isEdge && result.status === 0 && gzip !== undefined) {
  const headroom = BUNDLE_BUDGET_KIB - Number(gzip)
  console.log(`robots-edge: edge Worker bundle ${gzip} KiB gzip; budget ${BUNDLE_BUDGET_KIB} KiB (${headroom >= 0 ? `${headroom.toFixed(2)} KiB headroom` : `${(-headroom).toFixed(2)} KiB OVER`})`)
}
process.exit(result.status ?? 1)
