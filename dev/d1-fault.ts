import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { existsSync } from 'node:fs'
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import type { JudgedRequest } from '../src/core/events.ts'
import { Backlog, BACKLOG_LIMITS } from '../src/ledger/backlog.ts'

/**
 * `--fault d1`: D1 made unavailable to the Worker for a while, the way an
 * outage looks from inside it. The Worker under test is the real bundle with
 * Miniflare's real D1; another process opens the database's SQLite file and
 * holds an exclusive lock on it, so every write the Worker makes fails with
 * SQLITE_BUSY (`D1_ERROR: database is locked`) until the lock is released.
 * Nothing in the Worker is replaced or told about it.
 */

/** Debian's Python, which has the sqlite3 module (TOOLCHAIN.md: another python3 may come first on PATH). */
const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3'

/**
 * Holds the lock while its stdin is open: `lock` takes it (waiting for a
 * write in progress), `unlock` or the end of stdin releases it, so the lock
 * never outlives the load test.
 */
const LOCKER = `
import sys, sqlite3
db = sqlite3.connect(sys.argv[1], timeout=30, isolation_level=None)
for line in sys.stdin:
    if line.strip() == 'lock':
        db.execute('BEGIN EXCLUSIVE')
        print('locked', flush=True)
    elif line.strip() == 'unlock':
        db.execute('COMMIT')
        print('unlocked', flush=True)
        break
db.close()
`

/** The SQLite file Miniflare keeps a D1 database in, under its `d1Persist` directory. */
export async function d1File(persistDir: string): Promise<string> {
  const dir = join(persistDir, 'miniflare-D1DatabaseObject')
  const files = (await readdir(dir)).filter((f) => f.endsWith('.sqlite') && f !== 'metadata.sqlite')
  if (files.length !== 1) throw new Error(`loadtest: expected one D1 database file in ${dir}, found ${files.length}`)
  return join(dir, files[0]!)
}

/** A lock on a D1 database's file, taken and released on demand. */
export interface D1Lock {
  /** Takes the lock; resolves when it is held (ms since the epoch). */
  lock(): Promise<number>
  /** Releases it; resolves when released (ms since the epoch). */
  unlock(): Promise<number>
  /** Ends the locking process, releasing any lock. */
  close(): void
}

/** Starts the locking process for `file`. Throws a clear error when Python's sqlite3 is missing. */
export async function d1Lock(file: string): Promise<D1Lock> {
  const child: ChildProcessWithoutNullStreams = spawn(PYTHON, ['-c', LOCKER, file], { stdio: 'pipe' })
  const lines: string[] = []
  const waiting = new Map<string, (time: number) => void>()
  let stderr = ''
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d))
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    for (const line of chunk.split('\n').filter(Boolean)) {
      lines.push(line)
      waiting.get(line)?.(Date.now())
    }
  })
  const failed = new Promise<never>((_, reject) => {
    child.on('error', (error) => reject(new Error(`loadtest --fault d1 needs Python 3 with its sqlite3 module (${PYTHON}): ${error.message}. On Debian: apt-get install -y python3`)))
    child.on('exit', (code) => reject(new Error(`loadtest --fault d1: the locking process exited (${code}) ${stderr.trim()}`)))
  })
  failed.catch(() => {})
  const send = (command: string, answer: string) => {
    const done = new Promise<number>((resolve) => waiting.set(answer, resolve))
    child.stdin.write(`${command}\n`)
    return Promise.race([done, failed])
  }
  return {
    lock: () => send('lock', 'locked'),
    unlock: () => send('unlock', 'unlocked'),
    close: () => {
      child.stdin.end()
      if (child.exitCode === null) child.kill()
    },
  }
}

/** `--fault d1`: when D1 goes away, and for how long, from the start of the measured phase. */
export interface FaultOptions {
  readonly kind: 'd1'
  readonly startSeconds: number
  readonly seconds: number
}

/** What happened during the fault, as the load generator saw it. */
export interface FaultWindow {
  /** When the lock was held and released, seconds from the start of the measured phase. */
  readonly lockedAt: number
  readonly releasedAt: number
  /** Requests answered while D1 was locked, per workload template. */
  readonly answered: readonly number[]
}

/**
 * Takes the lock `startSeconds` into the measured phase and releases it
 * `seconds` later; `answered` snapshots the load generator's per-template
 * counts at both moments. Resolves once released (at the latest when
 * `stop` resolves: a measured phase cut short never leaves D1 locked).
 */
export async function runFault(lock: D1Lock, fault: FaultOptions, answered: () => readonly number[], stop: Promise<unknown>): Promise<FaultWindow> {
  const start = Date.now()
  const wait = (ms: number) => Promise.race([new Promise((resolve) => setTimeout(resolve, Math.max(0, ms))), stop])
  await wait(fault.startSeconds * 1000)
  const lockedAt = await lock.lock()
  const before = answered()
  await wait(lockedAt + fault.seconds * 1000 - Date.now())
  const after = answered()
  const releasedAt = await lock.unlock()
  return { lockedAt: (lockedAt - start) / 1000, releasedAt: (releasedAt - start) / 1000, answered: after.map((n, i) => n - (before[i] ?? 0)) }
}

/**
 * The fewest events the Worker had to drop: those answered while D1 was
 * locked, pushed in the workload's order into a backlog with the Worker's
 * own bounds (src/ledger/backlog.ts), beyond what it holds.
 */
export function minimumDropped(templates: readonly { path: string; userAgent: string; recorded: boolean }[], answered: readonly number[], host: string): number {
  const backlog = new Backlog(BACKLOG_LIMITS.events, BACKLOG_LIMITS.bytes)
  const left = [...answered]
  let dropped = 0
  for (let more = true; more; ) {
    more = false
    templates.forEach((t, i) => {
      if (!t.recorded || left[i]! <= 0) return
      left[i]!--
      more = true
      const event = { path: t.path.slice(0, 2048), userAgent: t.userAgent.slice(0, 512), host, time: 0 } as JudgedRequest
      if (!backlog.push(event)) dropped++
    })
  }
  return dropped
}
