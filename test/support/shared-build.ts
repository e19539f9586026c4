/**
 * A build made once per change of its inputs and shared by every test
 * process: kept in node_modules/.cache/<name>/<hash>, where the hash covers
 * each input file's path and content. The first process takes a lock
 * directory and builds beside the final place, then renames into it whole
 * (a reader never sees half a build); the others wait for its result, or
 * build their own copy if the lock is older than a build can take.
 */
import { createHash } from 'node:crypto'
import { mkdir, readdir, readFile, rename, rm, stat } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))

async function filesUnder(path: string): Promise<string[]> {
  // An input that does not exist (data/ before a release wrote it) is part of the hash as absent.
  const info = await stat(path).catch(() => undefined)
  if (info === undefined) return []
  if (!info.isDirectory()) return [path]
  const entries = await readdir(path, { withFileTypes: true })
  const nested = await Promise.all(entries.map((e) => filesUnder(join(path, e.name))))
  return nested.flat()
}

/** A hash of every file under `inputs` (paths from the repository's root), by path and content. */
async function inputsHash(inputs: readonly string[]): Promise<string> {
  const files = (await Promise.all(inputs.map((p) => filesUnder(join(ROOT, p))))).flat().sort()
  const hash = createHash('sha256')
  for (const file of files)
    hash
      .update(relative(ROOT, file))
      .update('\0')
      .update(await readFile(file))
      .update('\0')
  return hash.digest('hex').slice(0, 16)
}

export interface SharedBuild<T> {
  /** Folder name under node_modules/.cache. */
  readonly name: string
  /** Files and folders, from the repository's root, whose content decides the build. */
  readonly inputs: readonly string[]
  /** Longer than a build takes on a loaded machine: a lock older than this was left by a process that died. */
  readonly staleLockMs: number
  /** Builds into `dir` (empty, created by the caller's rename afterwards). */
  build(dir: string): Promise<void>
  /** What a finished build in `dir` holds, or undefined when it is not there (yet). */
  read(dir: string): Promise<T | undefined>
}

/** The build for the inputs as they are now, made if no process made it yet. Never modify or remove what it returns. */
export async function sharedBuild<T>(spec: SharedBuild<T>): Promise<T> {
  const cache = join(ROOT, 'node_modules', '.cache', spec.name)
  const hash = await inputsHash(spec.inputs)
  const dir = join(cache, hash)
  const existing = await spec.read(dir)
  if (existing !== undefined) return existing
  await mkdir(cache, { recursive: true })
  const lock = `${dir}.lock`
  const locked = await mkdir(lock).then(
    () => true,
    () => false,
  )
  if (!locked) {
    for (;;) {
      const built = await spec.read(dir)
      if (built !== undefined) return built
      const age = await stat(lock).then(
        (s) => Date.now() - s.mtimeMs,
        () => Infinity,
      )
      if (age > spec.staleLockMs) break
      await new Promise((r) => setTimeout(r, 200))
    }
  }
  const scratch = `${dir}.${process.pid}.${Date.now()}`
  try {
    await mkdir(scratch, { recursive: true })
    await spec.build(scratch)
    await rename(scratch, dir).catch(async () => {
      // Somebody else's build won the race: theirs is the same.
      await rm(scratch, { recursive: true, force: true })
    })
  } finally {
    if (locked) await rm(lock, { recursive: true, force: true })
  }
  const built = await spec.read(dir)
  if (built === undefined) throw new Error(`nothing in ${dir} after building it`)
  // Earlier builds (other inputs) are of no more use.
  for (const entry of await readdir(cache)) {
    if (entry !== hash && /^[0-9a-f]{16}$/.test(entry)) await rm(join(cache, entry), { recursive: true, force: true })
  }
  return built
}
