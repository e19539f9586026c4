/**
 * The template's two Workers as `wrangler deploy --dry-run --minify` bundles
 * them, built once per change of what goes into them and shared by every
 * test that serves the built Workers (the e2e project, loadtest, simulate,
 * impact-flow). Seven files used to build both Workers each, one wrangler
 * process per bundle, which on two cores was a large part of `npm test`.
 *
 * The bundles live in node_modules/.cache/robots-edge-test/<hash>, where the
 * hash covers every input of the build: src/, robots.config.ts, both wrangler
 * configs, tsconfig.json, package-lock.json (the bundled dependencies' versions), dev/checked-config.ts (the edge's defines). A change
 * to any of them builds afresh; nothing is ever served from a stale bundle.
 * Test files in parallel processes share one build: the first takes a lock
 * directory, the others wait for its result (or build their own copy if the
 * lock is older than a build can take).
 */
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { buildWorkers, type Bundles } from '../../dev/worker.ts'
import { sharedBuild } from './shared-build.ts'

async function bundlesIn(dir: string): Promise<Bundles | undefined> {
  const script = async (sub: string) => (await readdir(join(dir, sub)).catch(() => [] as string[])).find((f) => f.endsWith('.js'))
  const [edge, admin] = await Promise.all([script('edge'), script('edge-admin')])
  return edge && admin ? { edge: join(dir, 'edge', edge), admin: join(dir, 'edge-admin', admin) } : undefined
}

let pending: Promise<Bundles> | undefined

/** The bundles of this checkout as it is now, built if no earlier test built them. Never modify or remove them. */
export function builtWorkers(): Promise<Bundles> {
  pending ??= sharedBuild({
    name: 'robots-edge-test',
    inputs: ['src', 'robots.config.ts', 'wrangler.toml', 'wrangler.admin.toml', 'tsconfig.json', 'package-lock.json', 'dev/checked-config.ts'],
    // Longer than two builds take on a loaded machine.
    staleLockMs: 180_000,
    build: async (dir) => {
      await buildWorkers(join(dir, 'edge'))
    },
    read: bundlesIn,
  })
  pending.catch(() => (pending = undefined))
  return pending
}
