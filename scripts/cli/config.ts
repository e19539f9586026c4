import { existsSync } from 'node:fs'
import { relative, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { canonicalHost, createPolicies, type ConfigInput, type Policy } from '../../src/config/index.ts'
import { CliError } from './errors.ts'

export const DEFAULT_CONFIG = 'robots.config.ts'

export interface LoadedConfig {
  readonly input: ConfigInput
  /** The file it came from, relative to the working directory, for messages. */
  readonly source: string
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
    module = (await import(pathToFileURL(file).href)) as { default?: unknown }
  } catch (error) {
    throw new CliError(`${source} could not be loaded: ${(error as Error)?.message ?? String(error)}`)
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
  const policy = createPolicies(input, { log: (message) => (fallback ??= message) }).get(host, env)
  return { policy, fallback }
}
