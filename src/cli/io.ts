/**
 * Where a command writes. Injected, so tests call a command with arrays
 * instead of spawning a process or mocking `process.stdout`.
 */
export interface Io {
  /** One line of the command's result (stdout). */
  out(line: string): void
  /** One line of diagnostics or usage (stderr). */
  err(line: string): void
  /** Whether stdout is a terminal: colour and decoration only then. */
  readonly isTTY: boolean
  /** Environment read for `NO_COLOR` and `COLUMNS`. Default: `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>
  /** The terminal's width in characters, when stdout is one. */
  readonly columns?: number | undefined
}

/** The real terminal. */
export function processIo(): Io {
  return {
    out: (line) => process.stdout.write(line + '\n'),
    err: (line) => process.stderr.write(line + '\n'),
    isTTY: process.stdout.isTTY === true,
    columns: process.stdout.isTTY === true ? process.stdout.columns : undefined,
  }
}

/** How wide output may be: COLUMNS, else the terminal's width; unlimited into a pipe or file, where nothing wraps. */
export function terminalWidth(io: Io): number {
  const fromEnv = Number((io.env ?? process.env).COLUMNS)
  if (Number.isInteger(fromEnv) && fromEnv > 0) return fromEnv
  return io.columns !== undefined && io.columns > 0 ? io.columns : Number.POSITIVE_INFINITY
}

export type Paint = (text: string) => string

export interface Style {
  readonly color: boolean
  readonly bold: Paint
  readonly dim: Paint
  readonly red: Paint
  readonly green: Paint
  readonly yellow: Paint
  readonly cyan: Paint
}

const sgr =
  (open: number, close: number): Paint =>
  (text) =>
    `\x1b[${open}m${text}\x1b[${close}m`
const plain: Paint = (text) => text

/** https://no-color.org: colour only on a terminal, and never when NO_COLOR is set to anything but "". */
export function styleFor(io: Io): Style {
  const env = io.env ?? process.env
  const color = io.isTTY && !env.NO_COLOR
  if (!color) return { color, bold: plain, dim: plain, red: plain, green: plain, yellow: plain, cyan: plain }
  return { color, bold: sgr(1, 22), dim: sgr(2, 22), red: sgr(31, 39), green: sgr(32, 39), yellow: sgr(33, 39), cyan: sgr(36, 39) }
}
