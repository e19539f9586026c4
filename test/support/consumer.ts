/**
 * Consumer projects for the tarball tests: the packed package installed
 * into fresh apps in temporary folders, bundled by wrangler as a deploy
 * would, migrated with the package's own migrations, and run by Miniflare on
 * a 127.0.0.1 port with persistence of their own.
 */
import { execFile } from 'node:child_process'
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises'
import { isAbsolute, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { gzipSync } from 'node:zlib'
import { Miniflare } from 'miniflare'
import { unstable_readConfig } from 'wrangler'
import { bundledWorker, LOCAL } from '../../dev/miniflare.ts'
import { sharedBuild } from './shared-build.ts'

export const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const WRANGLER = join(ROOT, 'node_modules', '.bin', 'wrangler')
const run = promisify(execFile)

/**
 * The environment of a command run as the consumer would run it: without
 * the variables the outer `npm test` sets (its npm config, and the
 * condition that makes `robots-edge` mean this repository's source), and
 * with wrangler offline.
 */
export function consumerEnv(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(npm_|VITEST)/i.test(name) && name !== 'NODE_OPTIONS' && name !== 'NODE_ENV'))
  return { ...env, WRANGLER_SEND_METRICS: 'false', WRANGLER_SEND_ERROR_REPORTS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false', NO_COLOR: '1', CI: 'true' }
}

export interface Tarball {
  readonly file: string
  readonly size: number
  readonly unpackedSize: number
  readonly files: readonly string[]
}

/** `npm pack` (its prepack builds lib/) into `dir`, with what npm said of it in `dir/tarball.json`. */
async function packInto(dir: string): Promise<void> {
  const { stdout } = await run('npm', ['pack', '--pack-destination', dir, '--json'], { cwd: ROOT, env: consumerEnv(), timeout: 240_000, maxBuffer: 16 << 20 })
  const [info] = JSON.parse(stdout.slice(stdout.indexOf('['))) as { filename: string; size: number; unpackedSize: number; files: { path: string }[] }[]
  if (!info) throw new Error(`npm pack printed no package: ${stdout.slice(0, 500)}`)
  const tarball = { file: info.filename, size: info.size, unpackedSize: info.unpackedSize, files: info.files.map((f) => f.path) }
  await writeFile(join(dir, 'tarball.json'), JSON.stringify(tarball))
}

async function packedIn(dir: string): Promise<Tarball | undefined> {
  const text = await readFile(join(dir, 'tarball.json'), 'utf8').catch(() => undefined)
  if (text === undefined) return undefined
  const tarball = JSON.parse(text) as Tarball
  return { ...tarball, file: join(dir, tarball.file) }
}

let packing: Promise<Tarball> | undefined

/**
 * The package as `npm pack` makes it from this checkout, packed once per
 * change of what goes into it and shared by the tarball tests: packing runs
 * the package build, which writes lib/, so two test files packing at once
 * would also race on it.
 */
export function pack(): Promise<Tarball> {
  packing ??= sharedBuild({
    name: 'robots-edge-pack',
    inputs: [
      'src',
      'types',
      'public',
      'migrations',
      'bin',
      'data',
      'scripts/build-package.mjs',
      'scripts/build-line-diff.mjs',
      'tsconfig.build.json',
      'package.json',
      'README.md',
      'CHANGELOG.md',
      'LICENSE',
    ],
    // Longer than a pack (the package build included) takes on a loaded machine.
    staleLockMs: 300_000,
    build: packInto,
    read: packedIn,
  })
  packing.catch(() => (packing = undefined))
  return packing
}

/**
 * A fresh app from test/package/fixtures/<name>, with the tarball installed
 * from disk and its other dependencies from the npm registry (npm's cache
 * first), as `npm install` gives any consumer.
 */
export async function createApp(name: string, dir: string, tarball: string, dependencies: readonly string[] = []): Promise<string> {
  const app = join(dir, name)
  await cp(join(ROOT, 'test', 'package', 'fixtures', name), app, { recursive: true })
  await writeFile(join(app, 'package.json'), `${JSON.stringify({ name, private: true, type: 'module' }, null, 2)}\n`)
  await run('npm', ['install', tarball, ...dependencies, '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], { cwd: app, env: consumerEnv(), timeout: 240_000 })
  return app
}

/** Runs this repository's wrangler in the app, as the app's own would run. */
export function wrangler(app: string, args: readonly string[], timeout = 120_000): Promise<{ stdout: string; stderr: string }> {
  return run(WRANGLER, [...args], { cwd: app, env: consumerEnv(), timeout, maxBuffer: 16 << 20 })
}

/** Runs the package's own bin in the app: `npx robots-edge ...`. */
export async function cli(app: string, args: readonly string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [join(app, 'node_modules', '.bin', 'robots-edge'), ...args], { cwd: app, env: { ...consumerEnv(), ...env }, timeout: 60_000 })
    return { code: 0, stdout, stderr }
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string }
    if (typeof e.code !== 'number') throw error
    return { code: e.code, stdout: e.stdout ?? '', stderr: e.stderr ?? '' }
  }
}

/** This repository's TypeScript over the app (its tsconfig.json): the published declarations, as the app's editor sees them. */
export async function tsc(app: string): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], { cwd: app, env: consumerEnv(), timeout: 180_000 })
    return { code: 0, output: `${stdout}${stderr}` }
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string }
    if (typeof e.code !== 'number') throw error
    return { code: e.code, output: `${e.stdout ?? ''}${e.stderr ?? ''}` }
  }
}

/** The app as `wrangler deploy` would upload it, minified: the script and its gzip size. */
export async function bundle(app: string): Promise<{ script: string; gzipBytes: number }> {
  const outdir = join(app, '.bundle')
  await wrangler(app, ['deploy', '--dry-run', '--outdir', outdir, '--minify'])
  const script = join(outdir, 'index.js')
  return { script, gzipBytes: gzipSync(await readFile(script)).length }
}

/** `wrangler d1 migrations apply DB --local` into the app's own state folder: the package's migrations, as the README says. */
export async function migrate(app: string): Promise<string> {
  const state = join(app, '.state')
  await mkdir(state, { recursive: true })
  const { stdout } = await wrangler(app, ['d1', 'migrations', 'apply', 'DB', '--local', '--persist-to', state])
  return stdout
}

export interface RunningApp {
  readonly origin: string
  readonly mf: Miniflare
  /** What the Worker wrote to its console, line by line. */
  readonly logs: string[]
  /** Runs the app's cron handler, as a cron trigger would. */
  scheduled(event: { cron: string; scheduledTime: Date }): Promise<{ outcome: string }>
  /** Runs a query on the app's D1. */
  all<T>(sql: string): Promise<T[]>
  stop(): Promise<void>
}

/**
 * Serves the bundle with the app's wrangler.toml settings: its assets, its
 * D1 (the state `migrate` wrote) and KV, the secrets given. Subrequests never
 * leave the machine: the cron's IP-range fetches get a 503.
 */
export async function start(app: string, script: string, options: { secrets?: Record<string, string>; bindings?: boolean } = {}): Promise<RunningApp> {
  const config = unstable_readConfig({ config: join(app, 'wrangler.toml') }, { hideWarnings: true })
  const withBindings = options.bindings !== false
  const assets = config.assets?.directory
  const logs: string[] = []
  const collect = (stream: NodeJS.ReadableStream) => {
    let rest = ''
    stream.setEncoding('utf8')
    stream.on('data', (chunk: string) => {
      const lines = (rest + chunk).split('\n')
      rest = lines.pop() ?? ''
      logs.push(...lines)
    })
  }
  const mf = new Miniflare({
    ...bundledWorker(config, script, join(app, '.bundle')),
    ...(assets ? { assets: { directory: isAbsolute(assets) ? assets : resolve(app, assets), routerConfig: { has_user_worker: true } } } : {}),
    ...(withBindings
      ? {
          // wrangler keys a local database without an id by its binding.
          d1Databases: { DB: 'DB' },
          d1Persist: join(app, '.state', 'v3', 'd1'),
          kvNamespaces: config.kv_namespaces.map((kv: { binding: string }) => kv.binding),
        }
      : {}),
    bindings: options.secrets ?? {},
    outboundService: () => new Response('offline in tests\n', { status: 503 }),
    ...LOCAL,
    handleRuntimeStdio(stdout, stderr) {
      collect(stdout)
      collect(stderr)
    },
  })
  const url = await mf.ready
  return {
    origin: url.origin,
    mf,
    logs,
    async scheduled(event) {
      // Miniflare types the Worker with the Workers runtime's Fetcher, which Node code does not load.
      const worker = (await mf.getWorker()) as unknown as { scheduled(event: { cron: string; scheduledTime: Date }): Promise<{ outcome: string }> }
      return worker.scheduled(event)
    },
    async all<T>(sql: string) {
      const db = await mf.getD1Database('DB')
      return (await db.prepare(sql).all<T>()).results
    },
    stop: () => mf.dispose(),
  }
}
