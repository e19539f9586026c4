// `npm test`: the type check and the test suite, side by side. The suite
// spends much of its time waiting on runtimes it starts (workerd, wrangler,
// Chromium), so the type check fits in its gaps instead of going first.
// Its output is held back and printed after the suite's, whole; the exit
// code is the first failure's. Arguments go to vitest (`npm test -- test/cli`).
import { spawn } from 'node:child_process'
import { join } from 'node:path'

const bin = (name) => join(process.cwd(), 'node_modules', '.bin', name)

/** Runs a command; resolves with its exit code and, when `quiet`, what it printed. */
function run(command, args, { quiet = false } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit' })
    let output = ''
    if (quiet) {
      child.stdout.on('data', (chunk) => (output += chunk))
      child.stderr.on('data', (chunk) => (output += chunk))
    }
    child.on('error', (error) => resolve({ code: 1, output: `${output}${command}: ${error.message}\n` }))
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output }))
  })
}

async function typecheck() {
  // The Worker's code (Workers types), then the Node side (scripts, tests).
  for (const project of ['tsconfig.json', 'tsconfig.node.json']) {
    const result = await run(bin('tsc'), ['-p', project, '--pretty'], { quiet: true })
    if (result.code !== 0) return { ...result, project }
  }
  return { code: 0, output: '' }
}

const [types, tests] = await Promise.all([typecheck(), run(bin('vitest'), ['run', ...process.argv.slice(2)])])
if (types.code !== 0) {
  process.stderr.write(`\n${types.output}\nnpm test: the type check (tsc -p ${types.project}) failed.\n`)
} else {
  process.stdout.write('npm test: the type check passed (tsc -p tsconfig.json, tsc -p tsconfig.node.json).\n')
}
process.exit(types.code !== 0 ? types.code : tests.code)
