import { ConfigError, type ConfigIssue } from '../core/config/index.ts'
import { issueLines, printJson } from './format.ts'
import { styleFor, type Io } from './io.ts'

/** Wrong arguments: the usage is shown and the exit code is 2. */
export class UsageError extends Error {
  override name = 'UsageError'
}

/** A failure the user can act on (no config file, say): its message is shown, exit code 1. */
export class CliError extends Error {
  override name = 'CliError'
}

/**
 * Reports a command's failure and returns its exit code. A ConfigError lists
 * each issue with its field path and fix; anything unexpected is rethrown, so
 * a bug keeps its stack trace.
 */
export function reportFailure(error: unknown, io: Io, json: boolean): number {
  if (error instanceof UsageError) throw error
  if (!(error instanceof ConfigError) && !(error instanceof CliError)) throw error
  const issues: readonly ConfigIssue[] = error instanceof ConfigError ? error.issues : []
  const message = error instanceof ConfigError ? 'Invalid robots config' : error.message
  if (json) {
    printJson(io, { ok: false, error: message, issues })
    return 1
  }
  const style = styleFor({ ...io, isTTY: false })
  io.err(`robots-edge: ${message}${issues.length > 0 ? ':' : ''}`)
  for (const line of issueLines(
    issues.map((issue) => ({ severity: 'error' as const, issue })),
    style,
  ))
    io.err(line)
  return 1
}
