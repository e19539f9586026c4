/**
 * The template's two Workers as `wrangler deploy --dry-run --minify` bundles
 * them, built once per change of what goes into them and shared by every
 * test that serves the built Workers (the e2e project, loadtest, simulate,
 * impact-flow). Seven files used to build both Workers each, one wrangler
 * process per bundle, which on two cores was a large part of `npm test`.
 *
 * The bundles live in node_modules/.cache/robots-edge-test/<hash>, where the
 * hash covers every input of the build: src/, robots.config.ts, both wrangler
 * configs, tsconfig.json, package-lock.json (the bundled dependencies' versions). A change
 * to any of them builds afresh; nothing is ever served from a stale bundle.
 * Test files in parallel processes share one build: the first takes a lock
 * directory, the others wait for its result (or build their own copy if the
 * lock is older than a build can take).
 */
import { createHash } from 'node:crypto'
import { mkdir, readdir, readFile, rename, rm, stat } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildWorkers, type Bundles } from '../../dev/worker.ts'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const CACHE = join(ROOT, 'node_modules', '.cache', 'robots-edge-test')
const INPUTS = ['src', 'robots.config.ts', 'wrangler.toml', 'wrangler.admin.toml', 'tsconfig.json', 'package-lock.json']
/** Longer than two builds take on a loaded machine: a lock older than this was left by a process that died. */
const STALE_LOCK_MS = 180_000

async function filesUnder(path: string): Promise<string[]> {
  const info = await stat(path)
  if (!info.isDirectory()) return [path]
  const entries = await readdir(path, { withFileTypes: true })
  const nested = await Promise.all(entries.map((e) => filesUnder(join(path, e.name))))
  return nested.flat()
}

/** A hash of every input of the two bundles, by path and content. */
async function inputsHash(): Promise<string> {
  const files = (await Promise.all(INPUTS.map((p) => filesUnder(join(ROOT, p))))).flat().sort()
  const hash = createHash('sha256')
  for (const file of files)
    hash
      .update(relative(ROOT, file))
      .update('\0')
      .update(await readFile(file))
      .update('\0')
  return hash.digest('hex').slice(0, 16)
}

async function bundlesIn(dir: string): Promise<Bundles | undefined> {
  const script = async (sub: string) => (await readdir(join(dir, sub)).catch(() => [] as string[])).find((f) => f.endsWith('.js'))
  const [edge, admin] = await Promise.all([script('edge'), script('edge-admin')])
  return edge && admin ? { edge: join(dir, 'edge', edge), admin: join(dir, 'edge-admin', admin) } : undefined
}

async function build(hash: string): Promise<Bundles> {
  const dir = join(CACHE, hash)
  const existing = await bundlesIn(dir)
  if (existing) return existing
  await mkdir(CACHE, { recursive: true })
  const lock = `${dir}.lock`
  const locked = await mkdir(lock).then(
    () => true,
    () => false,
  )
  if (!locked) {
    // Another test process is building the same inputs: wait for it.
    for (;;) {
      const built = await bundlesIn(dir)
      if (built) return built
      const age = await stat(lock).then(
        (s) => Date.now() - s.mtimeMs,
        () => Infinity,
      )
      if (age > STALE_LOCK_MS) break
      await new Promise((r) => setTimeout(r, 200))
    }
  }
  // Built beside the final place and renamed into it whole: a reader never sees half a build.
  const scratch = `${dir}.${process.pid}.${Date.now()}`
  try {
    await buildWorkers(join(scratch, 'edge'))
    await rename(scratch, dir).catch(async () => {
      // Somebody else's build won the race: theirs is the same bundle.
      await rm(scratch, { recursive: true, force: true })
    })
  } finally {
    if (locked) await rm(lock, { recursive: true, force: true })
  }
  const built = await bundlesIn(dir)
  if (!built) throw new Error(`no bundles in ${dir} after building them`)
  // Earlier builds (other inputs) are of no more use.
  for (const name of await readdir(CACHE)) {
    if (!name.startsWith(hash) && /^[0-9a-f]{16}$/.test(name)) await rm(join(CACHE, name), { recursive: true, force: true })
  }
  return built
}

let pending: Promise<Bundles> | undefined

/** The bundles of this checkout as it is now, built if no earlier test built them. Never modify or remove them. */
export function builtWorkers(): Promise<Bundles> {
  pending ??= inputsHash().then(build)
  pending.catch(() => (pending = undefined))
  return pending
}
