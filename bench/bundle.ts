import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { gzipSync } from 'node:zlib'
import { BUNDLE_BUDGET_KIB } from '../dev/checked-config.ts'

/**
 * The edge Worker's bundle against its budget: the production build exactly
 * as `npm run build` and `npm run deploy` make it (`wrangler deploy --dry-run
 * --minify`; the edge through scripts/build.mjs, with dev/checked-config.ts's
 * defines), with
 * the gzip figure wrangler reports ("Total Upload: … / gzip: N KiB"), next to
 * the 64 KiB gzip the project holds it to. The admin
 * Worker's bundle (wrangler.admin.toml: the report and dashboard, run only
 * for the site owner) is printed beside it, with no budget.
 * `npm run bench -- bundle` runs this part alone.
 */

export { BUNDLE_BUDGET_KIB }

const OFFLINE = { ...process.env, WRANGLER_SEND_METRICS: 'false', WRANGLER_SEND_ERROR_REPORTS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false' }
const OUTDIR = 'dist/bench-bundle'
const ADMIN_OUTDIR = 'dist/bench-bundle-admin'

export interface BundleSize {
  /** What wrangler reports, in KiB. */
  readonly rawKiB: number
  readonly gzipKiB: number
  readonly pass: boolean
}

/** Reads wrangler's "Total Upload: 215.24 KiB / gzip: 73.54 KiB" line. */
export function parseTotalUpload(output: string): { rawKiB: number; gzipKiB: number } | undefined {
  const match = /Total Upload: ([\d.]+) KiB \/ gzip: ([\d.]+) KiB/.exec(output)
  return match ? { rawKiB: Number(match[1]), gzipKiB: Number(match[2]) } : undefined
}

/** Builds one Worker as `npm run build` does, into `outdir`; its size as wrangler reports it (or measured, should it not). */
function buildSize(configPath: string, outdir: string): { rawKiB: number; gzipKiB: number; measured: boolean } {
  // The edge through the build script itself (it adds the defines); the admin Worker has none.
  const [command, args] = configPath === 'wrangler.toml' ? ['node', ['scripts/build.mjs']] : ['npx', ['wrangler', 'deploy', '--dry-run', '--minify']]
  const output = execFileSync(command, [...args, '-c', configPath, '--outdir', outdir], { env: OFFLINE, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
  const reported = parseTotalUpload(output)
  if (reported) return { ...reported, measured: false }
  // Wrangler's own figure is the one the budget is about; gzip of the bundle
  // file is a fallback should wrangler ever stop printing it.
  const script = readdirSync(outdir).find((f) => f.endsWith('.js'))
  const bundle = readFileSync(`${outdir}/${script}`)
  return { rawKiB: bundle.length / 1024, gzipKiB: gzipSync(bundle).length / 1024, measured: true }
}

/** Builds both Workers, prints the edge's size next to the budget and the admin's beside it; resolves to whether the edge fits. */
export function runBundleBench(): BundleSize {
  console.log('\n## Worker bundles (wrangler deploy --dry-run --minify, as npm run build)\n')
  const size = buildSize('wrangler.toml', OUTDIR)
  const admin = buildSize('wrangler.admin.toml', ADMIN_OUTDIR)
  const pass = size.gzipKiB <= BUNDLE_BUDGET_KIB
  const note = (s: { measured: boolean }) => (s.measured ? ' (measured here: wrangler printed no Total Upload line)' : '')
  console.log(`edge bundle: ${size.rawKiB.toFixed(2)} KiB, gzip ${size.gzipKiB.toFixed(2)} KiB${note(size)}`)
  console.log(`budget: gzip ${BUNDLE_BUDGET_KIB} KiB; headroom ${(BUNDLE_BUDGET_KIB - size.gzipKiB).toFixed(2)} KiB`)
  console.log(`admin bundle (no budget: it runs only for /_robots/): ${admin.rawKiB.toFixed(2)} KiB, gzip ${admin.gzipKiB.toFixed(2)} KiB${note(admin)}`)
  console.log(`${pass ? 'PASS' : 'FAIL'} edge Worker bundle gzip ${size.gzipKiB.toFixed(2)} KiB (goal <= ${BUNDLE_BUDGET_KIB} KiB)`)
  return { rawKiB: size.rawKiB, gzipKiB: size.gzipKiB, pass }
}
