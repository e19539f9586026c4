/**
 * identifyAgent against isbot on the same headers, in one run.
 *
 * Part of `npm run bench` (bench/index.ts). The goals: at most 1000 ns per header on average,
 * and at most 1.5 times isbot's time on the same headers.
 */
import { readFileSync } from 'node:fs'
import { isbot } from 'isbot'
import { identifyAgent } from '../src/bots/index.ts'
import { botHeaders, browserHeaders, toolHeaders } from '../test/bots/user-agents.ts'

export interface BenchRow {
  readonly name: string
  readonly nsPerHeader: number
}

export interface IdentifyBenchResult {
  readonly rows: readonly BenchRow[]
  readonly headers: number
  readonly ratio: number
  readonly pass: boolean
}

const GOAL_NS = 1000
const GOAL_RATIO = 1.5
// Most traffic is people: browsers are weighted so that they are about three
// quarters of the mix, as on a typical site.
const BROWSER_WEIGHT = 6

function loadHeaders(): string[] {
  const jsonl = readFileSync(new URL('../test/fixtures/user-agent-examples.jsonl', import.meta.url), 'utf8')
  const examples = jsonl
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => (JSON.parse(line) as { ua: string }).ua)
  const automated = [...botHeaders, ...toolHeaders].map((c) => c.ua)
  const browsers: string[] = []
  for (let k = 0; k < BROWSER_WEIGHT; k++) browsers.push(...browserHeaders)
  // Interleave so neither function sees long runs of one kind (branch predictors love those).
  const mix = [...examples, ...automated, ...browsers]
  for (let i = mix.length - 1; i > 0; i--) {
    const j = (i * 7919) % (i + 1)
    const swap = mix[i] as string
    mix[i] = mix[j] as string
    mix[j] = swap
  }
  return mix
}

let sink = 0

// One timing loop per contender, written out twice on purpose: a shared loop
// calling `fn(ua)` would see two call targets and slow both down unevenly.
function roundIdentify(headers: readonly string[], iterations: number): number {
  const start = process.hrtime.bigint()
  for (let r = 0; r < iterations; r++) {
    for (const ua of headers) if (identifyAgent(ua) !== null) sink++
  }
  return Number(process.hrtime.bigint() - start) / (iterations * headers.length)
}

function roundIsbot(headers: readonly string[], iterations: number): number {
  const start = process.hrtime.bigint()
  for (let r = 0; r < iterations; r++) {
    for (const ua of headers) if (isbot(ua)) sink++
  }
  return Number(process.hrtime.bigint() - start) / (iterations * headers.length)
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN
}

/** Time identifyAgent and isbot on the same headers; rounds alternate so both see the same machine load. */
export async function runIdentifyBench(): Promise<IdentifyBenchResult> {
  const headers = loadHeaders()
  const contenders: Array<[string, (headers: readonly string[], iterations: number) => number]> = [
    ['identifyAgent', roundIdentify],
    ['isbot', roundIsbot],
  ]
  // Warm-up: let both functions reach their optimised tiers.
  for (const [, round] of contenders) round(headers, 300)

  const samples = new Map<string, number[]>(contenders.map(([name]) => [name, []]))
  for (let r = 0; r < 15; r++) {
    for (const [name, round] of contenders) samples.get(name)?.push(round(headers, 60))
    await Promise.resolve()
  }
  const rows = contenders.map(([name]) => ({ name, nsPerHeader: median(samples.get(name) ?? []) }))
  const ours = rows[0]?.nsPerHeader ?? Number.NaN
  const theirs = rows[1]?.nsPerHeader ?? Number.NaN
  const ratio = ours / theirs
  return { rows, headers: headers.length, ratio, pass: ours <= GOAL_NS && ratio <= GOAL_RATIO }
}

export function printIdentifyBench(result: IdentifyBenchResult): void {
  console.log(`identifyAgent vs isbot: ${result.headers} headers per round, median of 15 rounds`)
  for (const row of result.rows) console.log(`  ${row.name.padEnd(14)} ${row.nsPerHeader.toFixed(0).padStart(6)} ns/header`)
  console.log(`  ratio          ${result.ratio.toFixed(2)}x isbot`)
  const ours = result.rows[0]?.nsPerHeader ?? Number.NaN
  console.log(`${ours <= GOAL_NS ? 'PASS' : 'FAIL'} speed: ${ours.toFixed(0)} ns/header (goal <= ${GOAL_NS})`)
  console.log(`${result.ratio <= GOAL_RATIO ? 'PASS' : 'FAIL'} ratio: ${result.ratio.toFixed(2)}x isbot (goal <= ${GOAL_RATIO}x)`)
  if (sink < 0) console.log(sink)
}
