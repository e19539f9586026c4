import type { ConfigIssue } from '../core/config/index.ts'
import type { Severity } from '../core/robots/index.ts'
import type { Io, Style } from './io.ts'

// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-9;]*m/g

/** Width on screen: escape sequences take none. */
export function width(text: string): number {
  return text.replace(ANSI, '').length
}

/**
 * Rows as aligned columns: each column as wide as its widest cell, the last
 * one left ragged so no line carries trailing blanks.
 */
export function columns(rows: readonly (readonly string[])[], indent = '', gap = '  '): string[] {
  const widths: number[] = []
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, width(cell))))
  return rows.map(
    (row) =>
      indent +
      row
        .map((cell, i) => (i === row.length - 1 ? cell : cell + ' '.repeat((widths[i] ?? 0) - width(cell))))
        .join(gap)
        .trimEnd(),
  )
}

/** Words laid out in lines at most `room` wide (a longer word stands alone); escape sequences take no width. */
export function wrapWords(text: string, room: number): string[] {
  const lines: string[] = []
  let line = ''
  for (const word of text.split(' ')) {
    if (line !== '' && width(line) + 1 + width(word) > room) {
      lines.push(line)
      line = word
    } else line = line === '' ? word : `${line} ${word}`
  }
  lines.push(line)
  return lines
}

/** Plain text cut to `room` characters, its end replaced with an ellipsis when cut. */
export function ellipsis(text: string, room: number): string {
  return text.length <= room ? text : `${text.slice(0, Math.max(0, room - 1))}…`
}

/** `1 error`, `2 warnings`. */
export function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`
}

export function severityLabel(severity: Severity, style: Style): string {
  if (severity === 'error') return style.red('error')
  if (severity === 'warning') return style.yellow('warning')
  return style.cyan('info')
}

/** Config issues as `severity  path  message`, the fix on the next line under the message. */
export function issueLines(issues: readonly { severity: Severity; issue: ConfigIssue }[], style: Style, indent = '  '): string[] {
  const rows = issues.map(({ severity, issue }) => [severityLabel(severity, style), style.bold(issue.path), issue.message])
  const lines = columns(rows, indent)
  const pad = rows.length === 0 ? 0 : Math.max(...rows.map((r) => width(r[0]!))) + Math.max(...rows.map((r) => width(r[1]!))) + 4
  return issues.flatMap(({ issue }, i) => [lines[i]!, ...(issue.fix ? [`${indent}${' '.repeat(pad)}${style.dim(`fix: ${issue.fix}`)}`] : [])])
}

/** The one machine-readable document a `--json` run prints. */
export function printJson(io: Io, value: unknown): void {
  io.out(JSON.stringify(value, null, 2))
}
