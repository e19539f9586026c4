import { printIdentifyBench, runIdentifyBench } from './identify.ts'
import { runPoliciesBench } from './policies.ts'
import { runRobotsBench } from './robots.ts'
import { runWebBotAuthBench } from './web-bot-auth.ts'
import { runWorkerBench } from './worker.ts'

// `npm run bench` bundles this file with esbuild and runs the bundle, so the
// numbers are those of bundled code, as the Worker ships it.
console.log(`robots-edge benchmarks, node ${process.version}, ${new Date().toISOString()}`)
runRobotsBench()
if (!runPoliciesBench()) process.exitCode = 1
console.log('\n## identifyAgent vs isbot (same headers, same run)\n')
const identify = await runIdentifyBench()
printIdentifyBench(identify)
runWebBotAuthBench()
const worker = await runWorkerBench()
// A benchmark that misses its goal fails the run, so CI and scripts can rely on the exit code.
const failed = [identify.pass ? '' : 'identifyAgent', worker ? '' : 'Worker'].filter((name) => name !== '')
if (failed.length > 0) {
  console.log(`\nFAIL: goals missed (${failed.join(', ')})`)
  process.exitCode = 1
}
