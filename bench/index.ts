import { runBundleBench } from './bundle.ts'
import { runCrawlDelayBench } from './crawl-delay.ts'
import { runBytesBench } from './bytes.ts'
import { runGuardBench } from './guard.ts'
import { printIdentifyBench, runIdentifyBench } from './identify.ts'
import { runPoliciesBench } from './policies.ts'
import { runRobotsBench } from './robots.ts'
import { runWebBotAuthBench } from './web-bot-auth.ts'
import { runWorkerBench } from './worker.ts'

// `npm run bench` bundles this file with esbuild and runs the bundle, so the
// numbers are those of bundled code, as the Worker ships it.
// `npm run bench -- robots` runs the engine's part alone, `-- bundle` the
// Worker bundle's size alone, `-- policies` the per-host policies alone,
// `-- guard` the guard's readings of a path alone, `-- bytes` the guard
// with byte counting against without it, `-- identify` identifyAgent
// against isbot alone.
const only = process.argv[2]
console.log(`robots-edge benchmarks, node ${process.version}, ${new Date().toISOString()}`)
// A missed goal fails the run, after every part has printed its numbers.
const failed: string[] = []

async function identifyPart(): Promise<void> {
  console.log('\n## identifyAgent vs isbot (same headers, same run)\n')
  const identify = await runIdentifyBench()
  printIdentifyBench(identify)
  if (!identify.pass) failed.push('identifyAgent')
}

if (only === 'identify') {
  await identifyPart()
} else if (only === 'policies') {
  if (!runPoliciesBench()) failed.push('policies')
} else if (only === 'guard') {
  if (!runGuardBench()) failed.push('guard')
} else if (only === 'crawl-delay') {
  if (!(await runCrawlDelayBench())) failed.push('Crawl-delay')
} else if (only === 'bytes') {
  if (!(await runBytesBench())) failed.push('bytes')
} else {
  if (only !== 'robots' && !runBundleBench().pass) failed.push('bundle')
  if (only !== 'bundle' && !runRobotsBench()) failed.push('robots')
}
if (only === undefined) {
  if (!runPoliciesBench()) failed.push('policies')
  if (!runGuardBench()) failed.push('guard')
  if (!(await runBytesBench())) failed.push('bytes')
  await identifyPart()
  if (!runWebBotAuthBench()) failed.push('Web Bot Auth')
  if (!(await runWorkerBench())) failed.push('Worker')
  if (!(await runCrawlDelayBench())) failed.push('Crawl-delay')
}
if (failed.length > 0) {
  console.log(`\nFAIL: goals missed (${failed.join(', ')})`)
  process.exitCode = 1
}
