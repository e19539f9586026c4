import { migrationStatements } from '../../dev/miniflare.ts'
import type { Io } from '../../src/cli/io.ts'

/** An Io that keeps what a command writes, for assertions. */
export interface CapturedIo extends Io {
  readonly stdout: string[]
  readonly stderr: string[]
  /** Everything written to stdout, one string. */
  text(): string
}

export function captureIo(options: { isTTY?: boolean; env?: Record<string, string | undefined> } = {}): CapturedIo {
  const stdout: string[] = []
  const stderr: string[] = []
  return {
    stdout,
    stderr,
    out: (line) => void stdout.push(line),
    err: (line) => void stderr.push(line),
    isTTY: options.isTTY ?? false,
    env: options.env ?? {},
    text: () => stdout.join('\n'),
  }
}

/** Parses the one document a `--json` run prints. */
export function jsonOf(io: CapturedIo): Record<string, unknown> {
  return JSON.parse(io.text()) as Record<string, unknown>
}

/**
 * Applies every migration in migrations/ to a local D1 opened through
 * wrangler's platform proxy, statement by statement, as `wrangler d1
 * migrations apply --local` does (that command itself is run by `npm run
 * dev`'s setup, tested in test/package/first-minutes.pack.test.ts; starting it
 * here cost each file a second local runtime).
 */
export async function migrate(db: unknown): Promise<void> {
  const d1 = db as { prepare(sql: string): { run(): Promise<unknown> } }
  for (const sql of await migrationStatements()) await d1.prepare(sql).run()
}
