import { DEFAULTS, formatIssue, resolveConfig, type ConfigInput, type ConfigIssue } from '../core/config/index.ts'
import { normalizeHost, policyFor } from './config.ts'
import { printJson } from './format.ts'
import { styleFor, type Io, type Style } from './io.ts'

export interface PrintOptions {
  readonly config: ConfigInput
  /** Default: `localhost`. */
  readonly host?: string | undefined
  /** Default: `production`. */
  readonly env?: string | undefined
  readonly json?: boolean | undefined
}

/** Warnings are advice about the config, not part of the file: they never block printing. */
function warningsFor(config: ConfigInput, host: string, env: string): ConfigIssue[] {
  try {
    return resolveConfig(config, { host, env }).warnings
  } catch {
    return []
  }
}

function highlight(line: string, style: Style): string {
  if (line.startsWith('#')) return style.dim(line)
  const colon = line.indexOf(':')
  if (colon < 0) return line
  const key = line.slice(0, colon)
  const paint = /^user-agent$/i.test(key) ? style.bold : /^allow$/i.test(key) ? style.green : /^disallow$/i.test(key) ? style.red : style.cyan
  return paint(key) + line.slice(colon)
}

/**
 * `print`: the robots.txt a host would be served. Piped, it is the file byte
 * for byte (so `robots print > robots.txt` works); on a terminal each line
 * gets the number that `check` and `lint` refer to. Exit 1 when the config
 * fails for this host and the Worker would fall back to allow-all.
 */
export function print(options: PrintOptions, io: Io): number {
  const host = normalizeHost(options.host ?? 'localhost')
  const env = options.env || DEFAULTS.env
  const { policy, fallback } = policyFor(options.config, host, env)
  const warnings = warningsFor(options.config, host, env)
  const bytes = new TextEncoder().encode(policy.text).length
  if (options.json) {
    printJson(io, {
      ok: fallback === undefined,
      host,
      env,
      indexable: policy.config.indexable,
      version: policy.version,
      etag: policy.etag,
      cacheControl: policy.config.cacheControl,
      bytes,
      text: policy.text,
      warnings,
      ...(fallback === undefined ? {} : { fallback }),
    })
    return fallback === undefined ? 0 : 1
  }
  for (const w of warnings) io.err(`warning: ${formatIssue(w)}`)
  if (fallback !== undefined) io.err(fallback)
  const lines = policy.text.split('\n')
  if (lines[lines.length - 1] === '') lines.pop()
  if (!io.isTTY) {
    for (const line of lines) io.out(line)
  } else {
    const style = styleFor(io)
    const digits = String(lines.length).length
    io.out(style.dim(`robots.txt for ${host} (${env}${policy.config.indexable ? '' : ', not indexable'}) · ${bytes} bytes · version ${policy.version}`))
    lines.forEach((line, i) => io.out(`${style.dim(`${String(i + 1).padStart(digits)} │`)} ${highlight(line, style)}`.trimEnd()))
  }
  return fallback === undefined ? 0 : 1
}
