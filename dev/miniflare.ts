/**
 * What every local runtime here shares (the e2e tests, the consumer apps of
 * the package tests, the load test, the simulator, the benchmarks): a
 * Worker's bundle run by Miniflare with the runtime its wrangler config
 * names, offline, on a free 127.0.0.1 port, its D1 migrated as
 * `wrangler d1 migrations apply` would.
 */
import { readdir, readFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { unstable_splitSqlQuery } from 'wrangler'

const ROOT = fileURLToPath(new URL('../', import.meta.url))

/** Served on a free port of 127.0.0.1, with no `cf` object fetched from Cloudflare (tests run offline). */
export const LOCAL = { cf: false, host: '127.0.0.1', port: 0 } as const

/** The parts of a wrangler config a Worker's runtime is made of. */
export interface RuntimeConfig {
  readonly name?: string
  readonly compatibility_date?: string
  readonly compatibility_flags?: string[]
}

/** One Worker's Miniflare options: its bundle as ES modules named from `modulesRoot` (default: the bundle's folder), on the runtime its config names. */
export function bundledWorker(config: RuntimeConfig, scriptPath: string, modulesRoot: string = dirname(scriptPath)) {
  return {
    ...(config.name === undefined ? {} : { name: config.name }),
    modules: true,
    scriptPath,
    modulesRoot,
    compatibilityDate: config.compatibility_date ?? '2026-04-20',
    compatibilityFlags: config.compatibility_flags ?? [],
  }
}

/** Drops what the Worker prints (a JSON line per judged request): its cost is the Worker's, its output nobody's. */
export function discardStdio(stdout: NodeJS.ReadableStream, stderr: NodeJS.ReadableStream): void {
  stdout.resume()
  stderr.resume()
}

/** The migrations in `dir` (default migrations/), in order, split into statements by wrangler's own splitter. */
export async function migrationStatements(dir = join(ROOT, 'migrations')): Promise<string[]> {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.sql')).sort((a, b) => parseInt(a, 10) - parseInt(b, 10))
  const statements: string[] = []
  for (const file of files) statements.push(...unstable_splitSqlQuery(await readFile(join(dir, file), 'utf8')))
  return statements
}
