import { CHECK_CONTEXTS, checkConfig, ConfigError, formatIssue, type ConfigContext, type ConfigInput, type ConfigIssue } from '../core/config/index.ts'
import { issueLines, printJson } from './format.ts'
import { styleFor, type Io } from './io.ts'
import { contextLabel } from './lint.ts'

export interface ValidateOptions {
  readonly config: ConfigInput
  /** Where the config came from, for messages. Default: `robots.config.ts`. */
  readonly source?: string | undefined
  /** Default: CHECK_CONTEXTS, as the Worker checks at start-up. */
  readonly contexts?: readonly ConfigContext[] | undefined
  readonly json?: boolean | undefined
}

/** Issues seen in several contexts are listed once. */
function addUnique(into: Map<string, ConfigIssue>, issues: readonly ConfigIssue[]): void {
  for (const issue of issues) if (!into.has(formatIssue(issue))) into.set(formatIssue(issue), issue)
}

/**
 * `validate`: checkConfig in each context the Worker checks at start-up.
 * Warnings are printed; exit 1 on a ConfigError, so `predeploy` stops
 * `npm run deploy` before a bad config reaches the edge.
 */
export function validate(options: ValidateOptions, io: Io): number {
  const source = options.source ?? 'robots.config.ts'
  const contexts = options.contexts ?? CHECK_CONTEXTS
  const warnings = new Map<string, ConfigIssue>()
  const errors = new Map<string, ConfigIssue>()
  const failedIn: ConfigContext[] = []
  // One context at a time, so an error can say where it happened.
  for (const context of contexts) {
    try {
      addUnique(warnings, checkConfig(options.config, [context]))
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error
      failedIn.push(context)
      addUnique(errors, error.issues)
    }
  }
  const ok = errors.size === 0
  if (options.json) {
    printJson(io, { ok, config: source, contexts, failedIn, errors: [...errors.values()], warnings: [...warnings.values()] })
    return ok ? 0 : 1
  }
  const style = styleFor(io)
  const warningLines = issueLines(
    [...warnings.values()].map((issue) => ({ severity: 'warning' as const, issue })),
    style,
  )
  if (ok) {
    io.out(`${style.green('✔')} ${source} is valid for ${contextLabel(contexts)}`)
    for (const line of warningLines) io.out(line)
    return 0
  }
  // stderr: the reason a deploy stopped must show even when stdout is discarded.
  const errStyle = styleFor({ ...io, isTTY: false })
  io.err(`✖ ${source} is invalid for ${contextLabel(failedIn)}:`)
  for (const line of issueLines(
    [...errors.values()].map((issue) => ({ severity: 'error' as const, issue })),
    errStyle,
  ))
    io.err(line)
  for (const line of issueLines(
    [...warnings.values()].map((issue) => ({ severity: 'warning' as const, issue })),
    errStyle,
  ))
    io.err(line)
  return 1
}
