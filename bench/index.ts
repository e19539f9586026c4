import { printIdentifyBench, runIdentifyBench } from './identify.ts'
import { runRobotsBench } from './robots.ts'
import { runWorkerBench } from './worker.ts'

// `npm run bench` bundles this file with esbuild and runs the bundle, so the
// numbers are those of bundled code, as the Worker ships it.
// `npm run bench -- robots` runs the engine's part alone.
const only = process.argv[2]
console.log(`robots-edge benchmarks, node ${process.version}, ${new Date().toISOString()}`)
// A missed goal fails the run, after every part has printed its numbers.
if (!runRobotsBench()) process.exitCode = 1
if (only !== 'robots') {
  console.log('\n## identifyAgent vs isbot (same headers, same run)\n')
  printIdentifyBench(await runIdentifyBench())
  await runWorkerBench()
}
