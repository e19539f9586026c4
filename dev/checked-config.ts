// The edge Worker's build without the config validator: `npm run build`,
// `npm run deploy` and `npm run bench` bundle the edge with the defines this
// returns. When robots.config.ts is an object (one resolution serves every
// host), it is validated here, in Node, exactly as the Worker would at
// start-up (createPolicies), and the bundle gets
// ROBOTS_EDGE_CONFIG_CHECKED (the validator is left out: about 5 KiB of the
// 64 KiB gzip budget) and the start-up warnings it would have logged. A
// config function (called again for each new host at run time), or a config
// that fails here, gets no defines: the Worker then validates it itself, as
// any consumer's does. See src/core/config/policies.ts.
import { loadConfig } from '../src/cli/config.ts'
import { createPolicies } from '../src/core/config/index.ts'

/** The edge Worker's budget, gzip, as wrangler reports it: `npm run build` prints the bundle beside it, `npm run bench` fails above it. */
export const BUNDLE_BUDGET_KIB = 64

/** wrangler's `--define` arguments for the edge Worker of the config in `cwd`. */
export async function checkedConfigDefines(cwd: string = process.cwd()): Promise<string[]> {
  let input: unknown
  const warnings: string[] = []
  try {
    input = (await loadConfig(undefined, cwd)).input
    if (typeof input !== 'object' || input === null) return []
    createPolicies(input as Parameters<typeof createPolicies>[0], { warn: (line) => warnings.push(line), log: () => {} })
  } catch (error) {
    // Never a failed build for this: the Worker validates the config itself (and fails at start-up, if it must).
    console.warn(`robots-edge: the config could not be checked before bundling, so the edge Worker keeps its validator: ${(error as Error)?.message ?? String(error)}`)
    return []
  }
  return ['--define', 'ROBOTS_EDGE_CONFIG_CHECKED:true', '--define', `ROBOTS_EDGE_CONFIG_WARNINGS:${JSON.stringify(warnings)}`]
}
