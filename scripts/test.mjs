// `npm test`: the type check, the linter and the formatter's check, beside the test suite. The
// suite spends much of its time waiting on runtimes it starts (workerd,
// wrangler, Chromium), so the checks fit in its gaps instead of going first.
// Their output is held back and printed after the suite's, whole; the exit
// code is the first failure's. Arguments go to vitest (`npm test -- test/cli`).
// `npm run format` writes what the formatter's check asks for.
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { buildLineDiff } from './build-line-diff.mjs'

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
  // The Worker's code (Workers types), the Node side (scripts, tests), the dashboard's scripts (DOM types).
  for (const project of ['tsconfig.json', 'tsconfig.node.json', 'tsconfig.public.json']) {
    const result = await run(bin('tsc'), ['-p', project, '--pretty'], { quiet: true })
    if (result.code !== 0) return { ...result, step: `tsc -p ${project}` }
  }
  // Biome (biome.json): its lint rules (unused code, `any`, promises left
  // floating) and the formatter's check, read-only.
  const lint = await run(bin('biome'), ['ci', '--colors=off'], { quiet: true })
  if (lint.code !== 0) return { ...lint, step: 'biome ci (lint and format)' }
  return { code: 0, output: '' }
}

// Both the type check and the suite read the dashboard's line diff, written from its TypeScript source.
buildLineDiff()

const [types, tests] = await Promise.all([typecheck(), run(bin('vitest'), ['run', ...process.argv.slice(2)])])
if (types.code !== 0) {
  process.stderr.write(`\n${types.output}\nnpm test: ${types.step} failed.\n`)
} else {
  process.stdout.write('npm test: the type check, the lint and the format check passed (tsc -p tsconfig.json, tsconfig.node.json, tsconfig.public.json; biome ci).\n')
}
process.exit(types.code !== 0 ? types.code : tests.code)
