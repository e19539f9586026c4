// Builds what `npm pack` ships (run by prepack): lib/ holds the four entry
// points and everything they import as JavaScript with declarations (tsc),
// and the CLI as one file (esbuild). Consumers never compile our TypeScript.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { join, relative, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { buildLineDiff } from './build-line-diff.mjs'

const root = fileURLToPath(new URL('..', import.meta.url))
process.chdir(root)
const bin = (name) => `node_modules/.bin/${name}`
const offline = { ...process.env, WRANGLER_SEND_METRICS: 'false', WRANGLER_SEND_ERROR_REPORTS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false' }

rmSync('lib', { recursive: true, force: true })
// public/ ships the dashboard, its line diff included.
buildLineDiff()

// The Workers runtime types alone: worker-configuration.d.ts also types this
// repository's own Worker (its main module and robots.config.ts), which is
// not part of the package.
mkdirSync('node_modules/.cache/robots-edge', { recursive: true })
execFileSync(bin('wrangler'), ['types', '--include-env=false', 'node_modules/.cache/robots-edge/runtime.d.ts'], { env: offline, stdio: 'pipe' })
execFileSync(bin('tsc'), ['-p', 'tsconfig.build.json'], { stdio: ['ignore', process.stderr, process.stderr] })

// The CLI imports the package's own modules from lib/, so one copy of the
// engine and the config ships, and the CLI checks a config with the very
// code the Worker runs.
const shared = new Set()
const sharedModules = {
  name: 'shared-modules',
  setup(b) {
    b.onResolve({ filter: /\.ts$/ }, (args) => {
      const file = resolve(args.resolveDir, args.path)
      // The CLI's own modules, and those only it uses, are bundled; the package's are shared from lib/.
      if (!file.startsWith(resolve('src') + sep) || file.startsWith(resolve('src/cli') + sep)) return undefined
      const path = `./${relative(resolve('src'), file).replace(/\.ts$/, '.js')}`
      if (!existsSync(join('lib', path))) return undefined
      shared.add(path)
      return { path, external: true }
    })
  },
}

await build({
  entryPoints: ['src/cli/robots.ts'],
  plugins: [sharedModules],
  outfile: 'lib/cli.mjs',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // hono, wrangler and esbuild stay imports: the consumer's installed copies.
  packages: 'external',
  logLevel: 'warning',
  legalComments: 'none',
})

// Every path package.json exports, and every module the CLI imports, must
// exist, or an install would fail on import.
const { exports } = JSON.parse(readFileSync('package.json', 'utf8'))
const missing = Object.values(exports)
  .flatMap((target) => (typeof target === 'string' ? [target] : [target.types, target.default]))
  .concat([...shared].map((path) => join('lib', path)))
  .filter((path) => !existsSync(path))
if (missing.length > 0) {
  console.error(`build-package: package.json exports files the build did not write: ${missing.join(', ')}`)
  process.exit(1)
}
// stderr: `npm pack --json` keeps stdout for its JSON.
console.error('build-package: lib/ written (entry points, declarations, cli.mjs)')
