import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

// Runs Python's urllib.robotparser and Protego (the parser Scrapy uses) over
// robots.txt files, once per batch: one interpreter reads every file. Debian's
// interpreter is called by its path, as another python3 earlier on PATH may
// lack Debian's python3-protego.

export const PYTHON = '/usr/bin/python3'
const SCRIPT = fileURLToPath(new URL('./python-readers.py', import.meta.url))
const INSTALL = 'apt-get install -y python3 python3-protego (.ci/run installs them on CI)'

export interface PythonFile {
  readonly text: string
  /** [crawler name, absolute URL] pairs. */
  readonly queries: readonly (readonly [string, string])[]
}

/** What each reader says for each query: [urllib.robotparser, Protego]. */
export type PythonVerdicts = [boolean, boolean][]

/**
 * Throws, with what to install, when the interpreter or Protego is missing:
 * a test that needs them fails rather than passing by skipping.
 */
export function requirePythonReaders(): void {
  const probe = spawnSync(PYTHON, ['-c', 'import urllib.robotparser, protego'], { encoding: 'utf8', timeout: 20_000 })
  if (probe.error !== undefined) {
    throw new Error(`Python 3 is not available at ${PYTHON} (${(probe.error as NodeJS.ErrnoException).code ?? probe.error.message}). Install it: ${INSTALL}.`)
  }
  if (probe.status !== 0) {
    throw new Error(`${PYTHON} cannot import Protego (${probe.stderr.trim().split('\n').at(-1) ?? 'no output'}). Install it: ${INSTALL}.`)
  }
}

/** Reads every file with both Python readers in one interpreter run. */
export function readWithPython(files: readonly PythonFile[]): PythonVerdicts[] {
  const run = spawnSync(PYTHON, [SCRIPT], { input: JSON.stringify({ files }), encoding: 'utf8', timeout: 60_000, maxBuffer: 64 * 1024 * 1024 })
  if (run.error !== undefined) throw new Error(`${PYTHON} ${SCRIPT} failed to run: ${run.error.message}. Install: ${INSTALL}.`)
  if (run.status !== 0) throw new Error(`${PYTHON} ${SCRIPT} exited ${run.status}: ${run.stderr}`)
  return (JSON.parse(run.stdout) as { results: PythonVerdicts[] }).results
}
