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
printIdentifyBench(await runIdentifyBench())
runWebBotAuthBench()
await runWorkerBench()
