import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { gzipSync } from 'node:zlib'

/**
 * The Worker bundle against its budget: the production build exactly as
 * `npm run build` makes it (`wrangler deploy --dry-run --minify`), with the
 * gzip figure wrangler reports ("Total Upload: … / gzip: N KiB"), next to
 * the 64 KiB gzip the project holds it to (issues 8, 12 and 14).
 * `npm run bench -- bundle` runs this part alone.
 */

export const BUNDLE_BUDGET_KIB = 64

const OFFLINE = { ...process.env, WRANGLER_SEND_METRICS: 'false', WRANGLER_SEND_ERROR_REPORTS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false' }
const OUTDIR = 'dist/bench-bundle'

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

/** Builds the Worker, prints its size next to the budget; resolves to whether it fits. */
export function runBundleBench(): BundleSize {
  console.log('\n## Worker bundle (wrangler deploy --dry-run --minify, as npm run build)\n')
  const output = execFileSync('npx', ['wrangler', 'deploy', '--dry-run', '--outdir', OUTDIR, '--minify'], { env: OFFLINE, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
  const reported = parseTotalUpload(output)
  // Wrangler's own figure is the one the budget is about; gzip of the bundle
  // file is a fallback should wrangler ever stop printing it.
  const size = reported ?? (() => {
    const bundle = readFileSync(`${OUTDIR}/index.js`)
    return { rawKiB: bundle.length / 1024, gzipKiB: gzipSync(bundle).length / 1024 }
  })()
  const pass = size.gzipKiB <= BUNDLE_BUDGET_KIB
  console.log(`bundle: ${size.rawKiB.toFixed(2)} KiB, gzip ${size.gzipKiB.toFixed(2)} KiB${reported ? '' : ' (measured here: wrangler printed no Total Upload line)'}`)
  console.log(`budget: gzip ${BUNDLE_BUDGET_KIB} KiB; headroom ${(BUNDLE_BUDGET_KIB - size.gzipKiB).toFixed(2)} KiB`)
  console.log(`${pass ? 'PASS' : 'FAIL'} Worker bundle gzip ${size.gzipKiB.toFixed(2)} KiB (goal <= ${BUNDLE_BUDGET_KIB} KiB)`)
  return { ...size, pass }
}
