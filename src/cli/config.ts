import { existsSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, relative, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { canonicalHost, createPolicies, type ConfigInput, type Policy } from '../core/config/index.ts'
import { CliError } from './errors.ts'

export const DEFAULT_CONFIG = 'robots.config.ts'

/**
 * Run from this repository's TypeScript (npm run robots), the CLI resolves
 * `robots-edge` in a config to the source, as the Worker's build does;
 * installed from npm, to the package's built JavaScript.
 */
const FROM_SOURCE = import.meta.url.endsWith('.ts')

export interface LoadedConfig {
  readonly input: ConfigInput
  /** The file it came from, relative to the working directory, for messages. */
  readonly source: string
}

/**
 * Compiles a config module and what it imports into one ES module with
 * esbuild, the bundler wrangler itself uses: a consumer's project needs no
 * TypeScript loader, and Node 20 cannot import .ts. Errors name the file,
 * line and column.
 */
async function bundle(file: string): Promise<string> {
  const { build } = await import('esbuild')
  const result = await build({
    entryPoints: [file],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    write: false,
    logLevel: 'silent',
    conditions: FROM_SOURCE ? ['robots-edge-source'] : [],
  })
  return result.outputFiles[0]!.text
}

/** Runs the compiled module from a private temporary folder, removed afterwards, and returns its exports. */
async function importBundled(code: string): Promise<{ default?: unknown }> {
  const dir = await mkdtemp(join(tmpdir(), 'robots-edge-config-'))
  try {
    const module = join(dir, 'robots.config.mjs')
    await writeFile(module, code)
    return (await import(pathToFileURL(module).href)) as { default?: unknown }
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

/** esbuild's failures carry their own located messages; anything else, its message. */
function messageOf(error: unknown): string {
  const errors = (error as { errors?: { text: string; location: { file: string; line: number; column: number } | null }[] })?.errors
  if (Array.isArray(errors) && errors.length > 0) {
    return errors.map((e) => (e.location ? `${e.location.file}:${e.location.line}:${e.location.column + 1}: ${e.text}` : e.text)).join('; ')
  }
  return (error as Error)?.message ?? String(error)
}

/**
 * Imports a config module (default `./robots.config.ts`, resolved from `cwd`)
 * and returns its default export. Validation is left to checkConfig, which
 * names every field; this only refuses what is not a config at all.
 */
export async function loadConfig(path: string = DEFAULT_CONFIG, cwd: string = process.cwd()): Promise<LoadedConfig> {
  const file = resolve(cwd, path)
  const source = relative(cwd, file) || file
  if (!existsSync(file)) throw new CliError(`no config at ${source}. Run from the project root, or pass --config <file>.`)
  let module: { default?: unknown }
  try {
    module = await importBundled(await bundle(file))
  } catch (error) {
    throw new CliError(`${source} could not be loaded: ${messageOf(error)}`)
  }
  const input = module.default
  if (input === undefined) throw new CliError(`${source} has no default export. Write: export default defineConfig({ rules: [...] }).`)
  if (typeof input !== 'object' && typeof input !== 'function') {
    throw new CliError(`the default export of ${source} is not a config (found ${typeof input}). Write: export default defineConfig({ rules: [...] }).`)
  }
  return { input: input as ConfigInput, source }
}

/** A host as the Worker keys it (canonicalHost), given as a host or a URL. */
export function normalizeHost(host: string): string {
  try {
    return canonicalHost(new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(host) ? host : `http://${host}`).hostname)
  } catch {
    return canonicalHost(host)
  }
}

/**
 * The policy the Worker would build for this host and environment, through
 * the same createPolicies: a config that is bad everywhere throws
 * ConfigError; one that fails only for this host yields the allow-all
 * fallback, and `fallback` carries the message the Worker would log.
 */
export function policyFor(input: ConfigInput, host: string, env: string): { policy: Policy; fallback: string | undefined } {
  let fallback: string | undefined
  const policy = createPolicies(input, { log: (message) => (fallback ??= message), warn: () => undefined }).get(host, env)
  return { policy, fallback }
}
