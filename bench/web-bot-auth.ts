import { execFileSync, spawnSync } from 'node:child_process'

/**
 * Runs bench/entries/web-bot-auth.ts (the guard in process, with and without
 * Web Bot Auth): it imports the Worker's modules, typed for workerd, so it is
 * bundled and run as its own script. A miss of its goal fails the run.
 */
export function runWebBotAuthBench(): boolean {
  // robots.config.ts imports the package by name: bundled from source here, like the rest.
  execFileSync(
    'npx',
    [
      'esbuild',
      'bench/entries/web-bot-auth.ts',
      '--bundle',
      '--platform=node',
      '--format=esm',
      '--packages=external',
      '--alias:robots-edge=./src/package/index.ts',
      '--outfile=dist/bench-web-bot-auth.mjs',
      '--log-level=warning',
    ],
    { stdio: 'inherit' },
  )
  const run = spawnSync('node', ['dist/bench-web-bot-auth.mjs'], { stdio: 'inherit' })
  return run.status === 0
}
