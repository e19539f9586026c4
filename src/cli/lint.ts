import { readFileSync, renameSync, writeFileSync } from 'node:fs'
import {
  buildPolicy,
  CHECK_CONTEXTS,
  ConfigError,
  formatIssue,
  noindexConflicts,
  resolveConfig,
  validateConfig,
  type ConfigContext,
  type ConfigInput,
  type ConfigIssue,
  type RobotsConfig,
} from '../core/config/index.ts'
import { visible } from '../core/visible.ts'
import { fixRobotsTxt, lintRobotsTxt, type FixedRobotsTxt, type LintDiagnostic, type Severity } from '../core/robots/index.ts'
import { CliError, UsageError } from './errors.ts'
import { columns, count, issueLines, printJson, severityLabel } from './format.ts'
import { styleFor, type Io, type Style } from './io.ts'

export interface LintOptions {
  /** A robots.txt file to lint; without it, the config is linted. */
  readonly file?: string | undefined
  /** The config, when no file is given. */
  readonly config?: ConfigInput | undefined
  /** Where the config came from, for the heading. Default: `robots.config.ts`. */
  readonly source?: string | undefined
  readonly json?: boolean | undefined
  /** Rewrite `file` in the reader-safe order first, then lint what was written. Default: false. */
  readonly fix?: boolean | undefined
}

interface ContextIssue {
  readonly severity: Severity
  readonly issue: ConfigIssue
  readonly contexts: ConfigContext[]
}

interface RenderedFile {
  readonly text: string
  readonly contexts: ConfigContext[]
  readonly diagnostics: LintDiagnostic[]
}

/** Errors and warnings of the config for one context, and the file it renders when it is valid. */
function examine(input: ConfigInput, context: ConfigContext): { errors: readonly ConfigIssue[]; warnings: readonly ConfigIssue[]; text?: string } {
  try {
    const { config, warnings } = resolveConfig(input, context)
    try {
      const policy = buildPolicy(config)
      const raw = (typeof input === 'function' ? input(context) : input) as RobotsConfig
      return { errors: [], warnings: [...warnings, ...noindexConflicts(raw, policy)], text: policy.text }
    } catch (error) {
      if (error instanceof ConfigError) return { errors: error.issues, warnings }
      throw error
    }
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error
    // resolveConfig stops at the errors; the warnings are still worth showing.
    let warnings: ConfigIssue[] = []
    try {
      warnings = validateConfig(typeof input === 'function' ? input(context) : input).warnings
    } catch {
      // The config function threw: its error already says so.
    }
    return { errors: error.issues, warnings }
  }
}

/** `localhost, example.com (production); example.com (staging)`. */
export function contextLabel(contexts: readonly ConfigContext[]): string {
  const byEnv = new Map<string, string[]>()
  for (const c of contexts) byEnv.set(c.env, [...(byEnv.get(c.env) ?? []), c.host])
  return [...byEnv].map(([env, hosts]) => `${hosts.join(', ')} (${env})`).join('; ')
}

function diagnosticLines(diagnostics: readonly LintDiagnostic[], style: Style): string[] {
  // Messages quote the file, which may be anyone's: its invisible and bidi characters are shown as escapes.
  const rows = diagnostics.map((d) => [d.line === 0 ? '-' : String(d.line), severityLabel(d.severity, style), `${visible(d.message)}  ${style.dim(d.code)}`])
  const lineWidth = Math.max(0, ...rows.map((r) => r[0]!.length))
  const lines = columns(
    rows.map((r) => [r[0]!.padStart(lineWidth), ...r.slice(1)]),
    '  ',
  )
  const pad = 2 + lineWidth + 2 + 'warning'.length + 2
  return diagnostics.flatMap((d, i) => [lines[i]!, ...(d.fix ? [' '.repeat(pad) + style.dim(`fix: ${d.fix}`)] : [])])
}

function summary(severities: readonly Severity[], style: Style): string {
  const errors = severities.filter((s) => s === 'error').length
  const warnings = severities.filter((s) => s === 'warning').length
  const infos = severities.length - errors - warnings
  if (severities.length === 0) return style.green('✔ no problems')
  const text = [count(errors, 'error'), count(warnings, 'warning'), ...(infos > 0 ? [`${infos} info`] : [])].join(', ')
  return errors > 0 ? style.red(`✖ ${text}`) : style.yellow(`⚠ ${text}`)
}

/** `(lines 6, 10)`, or `(line 6)`. */
const lineList = (lines: readonly number[]): string => `(line${lines.length === 1 ? '' : 's'} ${lines.join(', ')})`

/** Writes the reader-safe form over `file` (through a temporary file, so a failure leaves the original whole). */
function writeFixed(file: string, text: string): void {
  const temporary = `${file}.robots-edge-${process.pid}.tmp`
  try {
    writeFileSync(temporary, text)
    renameSync(temporary, file)
  } catch (error) {
    throw new CliError(`cannot write ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`)
  }
}

function fixLines(fixed: FixedRobotsTxt, style: Style): string[] {
  if (!fixed.changed) return ['  already in the reader-safe order: nothing written']
  const lines = ["  fixed: wrote the reader-safe order (longest rule first, Allow first at equal length, groups whose token contains another's first, * last); the RFC 9309 meaning is unchanged"]
  // Every rewrite is said with its line; those some reader now reads differently say so first.
  const width = Math.max(0, ...fixed.rewrites.map((r) => String(r.line).length))
  for (const r of fixed.rewrites) {
    const label = r.changesMeaning ? style.yellow('changes meaning for some readers') : style.dim('same meaning')
    lines.push(`  line ${String(r.line).padStart(width)}: ${visible(r.message)} ${style.dim('(')}${label}${style.dim(')')}`)
  }
  if (fixed.droppedComments.length > 0) lines.push(`  left out ${count(fixed.droppedComments.length, 'comment')} inside groups or after a record ${lineList(fixed.droppedComments)}`)
  if (fixed.droppedLines.length > 0) lines.push(`  left out ${count(fixed.droppedLines.length, 'line')} no crawler reads ${lineList(fixed.droppedLines)}`)
  return lines
}

function lintFile(file: string, json: boolean, fix: boolean, io: Io): number {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    throw new CliError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`)
  }
  const fixed = fix ? fixRobotsTxt(text) : undefined
  if (fixed?.changed) writeFixed(file, fixed.text)
  const diagnostics = lintRobotsTxt(fixed?.text ?? text)
  const failed = diagnostics.some((d) => d.severity === 'error')
  if (json) {
    const written = fixed === undefined ? {} : { fixed: { written: fixed.changed, droppedComments: fixed.droppedComments, droppedLines: fixed.droppedLines, rewrites: fixed.rewrites } }
    printJson(io, { ok: !failed, file, ...written, diagnostics })
  } else {
    const style = styleFor(io)
    io.out(style.bold(file))
    if (fixed !== undefined) for (const line of fixLines(fixed, style)) io.out(line)
    for (const line of diagnosticLines(diagnostics, style)) io.out(line)
    io.out(
      summary(
        diagnostics.map((d) => d.severity),
        style,
      ),
    )
  }
  return failed ? 1 : 0
}

/**
 * The contexts a config is linted in: the hosts it lists (each in production,
 * the first also in staging), so a site is never told about hosts it does not
 * serve; without a list (or from a config function) any host may come, and the
 * sample the Worker checks at start-up stands for them.
 */
export function lintContexts(input: ConfigInput): readonly ConfigContext[] {
  const hosts = typeof input === 'function' || !Array.isArray(input.hosts) ? [] : input.hosts.filter((h): h is string => typeof h === 'string' && h !== '')
  if (hosts.length === 0) return CHECK_CONTEXTS
  return [...hosts.map((host) => ({ host, env: 'production' })), { host: hosts[0]!, env: 'staging' }]
}

function lintConfig(input: ConfigInput, source: string, json: boolean, io: Io): number {
  const issues = new Map<string, ContextIssue>()
  const files = new Map<string, RenderedFile>()
  const contexts = lintContexts(input)
  for (const context of contexts) {
    const { errors, warnings, text } = examine(input, context)
    for (const [severity, list] of [
      ['error', errors],
      ['warning', warnings],
    ] as const) {
      for (const issue of list) {
        const key = `${severity}\n${formatIssue(issue)}`
        const found = issues.get(key)
        if (found) found.contexts.push(context)
        else issues.set(key, { severity, issue, contexts: [context] })
      }
    }
    if (text === undefined) continue
    const file = files.get(text)
    if (file) file.contexts.push(context)
    else files.set(text, { text, contexts: [context], diagnostics: lintRobotsTxt(text) })
  }
  const all = [...issues.values()]
  const rendered = [...files.values()]
  const severities = [...all.map((i) => i.severity), ...rendered.flatMap((f) => f.diagnostics.map((d) => d.severity))]
  const failed = severities.includes('error')
  if (json) {
    printJson(io, {
      ok: !failed,
      config: source,
      issues: all.map(({ severity, issue, contexts }) => ({ severity, ...issue, contexts })),
      files: rendered.map(({ contexts, diagnostics }) => ({ contexts, diagnostics })),
    })
    return failed ? 1 : 0
  }
  const style = styleFor(io)
  const everywhere = (i: ContextIssue) => i.contexts.length === contexts.length
  io.out(style.bold(source))
  if (all.length === 0) io.out(`  ${style.green('✔')} valid for ${contextLabel(contexts)}`)
  const shown = all.map((i) => ({ severity: i.severity, issue: everywhere(i) ? i.issue : { ...i.issue, message: `${i.issue.message} [for ${contextLabel(i.contexts)}]` } }))
  for (const line of issueLines(shown, style)) io.out(line)
  for (const file of rendered) {
    io.out('')
    io.out(style.bold(`robots.txt for ${contextLabel(file.contexts)}`))
    if (file.diagnostics.length === 0) io.out(`  ${style.green('✔')} no problems`)
    for (const line of diagnosticLines(file.diagnostics, style)) io.out(line)
  }
  io.out('')
  io.out(summary(severities, style))
  return failed ? 1 : 0
}

/**
 * `lint [file] [--fix]`: with a file, the diagnostics of that robots.txt
 * (with `--fix`, after writing it in the reader-safe order); without, the
 * config's errors and warnings (with field paths) and the diagnostics of the
 * file it renders in each of CHECK_CONTEXTS, which robots-edge already serves
 * in the reader-safe order. Exit 1 when anything is an error, so it can gate
 * CI.
 *
 * @example
 * lint({ file: 'public/robots.txt', fix: true }, processIo())
 */
export function lint(options: LintOptions, io: Io): number {
  if (options.file !== undefined) return lintFile(options.file, options.json === true, options.fix === true, io)
  if (options.fix === true) throw new UsageError('--fix needs a robots.txt file: the file robots-edge renders from the config is written in the reader-safe order already.')
  if (options.config === undefined) throw new CliError('lint needs a config or a file.')
  return lintConfig(options.config, options.source ?? 'robots.config.ts', options.json === true, io)
}
