/**
 * identifyAgent against isbot on the same headers, in one run.
 *
 * Part of `npm run bench` (bench/index.ts). Two sets of headers: a traffic-like
 * mix (three quarters browsers) and the public-corpora sample
 * (test/fixtures/public-corpora-sample.jsonl, 3,357 real headers, a fifth of
 * them bots). The goals, on each set: at most 1000 ns per header on average,
 * and no slower than isbot on the same headers in the same run.
 */
import { readFileSync } from 'node:fs'
import { isbot } from 'isbot'
import { identifyAgent } from '../src/core/agents/index.ts'
import { botHeaders, browserHeaders, toolHeaders } from '../dev/user-agents.ts'

export interface BenchRow {
  readonly name: string
  readonly nsPerHeader: number
}

export interface BenchSet {
  readonly name: string
  readonly headers: number
  /** identifyAgent, then isbot. */
  readonly rows: readonly BenchRow[]
  readonly ratio: number
  readonly pass: boolean
}

export interface IdentifyBenchResult {
  readonly sets: readonly BenchSet[]
  readonly pass: boolean
}

const GOAL_NS = 1000
const GOAL_RATIO = 1
// Most traffic is people: browsers are weighted so that they are about three
// quarters of the mix, as on a typical site.
const BROWSER_WEIGHT = 6
const ROUNDS = 15

function lines(path: string): string[] {
  return readFileSync(new URL(path, import.meta.url), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => (JSON.parse(line) as { ua: string }).ua)
}

function mixHeaders(): string[] {
  const examples = lines('../test/fixtures/user-agent-examples.jsonl')
  const automated = [...botHeaders, ...toolHeaders].map((c) => c.ua)
  const browsers: string[] = []
  for (let k = 0; k < BROWSER_WEIGHT; k++) browsers.push(...browserHeaders)
  return shuffle([...examples, ...automated, ...browsers])
}

// Interleave so neither function sees long runs of one kind (branch predictors love those).
function shuffle(headers: string[]): string[] {
  for (let i = headers.length - 1; i > 0; i--) {
    const j = (i * 7919) % (i + 1)
    const swap = headers[i] as string
    headers[i] = headers[j] as string
    headers[j] = swap
  }
  return headers
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

/** Times both on one set; rounds alternate so both see the same machine load. */
async function measureSet(name: string, headers: readonly string[]): Promise<BenchSet> {
  // About 30,000 calls per round whatever the set's size.
  const iterations = Math.max(1, Math.round(30_000 / headers.length))
  roundIdentify(headers, iterations * 5)
  roundIsbot(headers, iterations * 5)
  const ours: number[] = []
  const theirs: number[] = []
  for (let r = 0; r < ROUNDS; r++) {
    ours.push(roundIdentify(headers, iterations))
    theirs.push(roundIsbot(headers, iterations))
    await Promise.resolve()
  }
  const rows = [
    { name: 'identifyAgent', nsPerHeader: median(ours) },
    { name: 'isbot', nsPerHeader: median(theirs) },
  ]
  const ratio = (rows[0]?.nsPerHeader ?? Number.NaN) / (rows[1]?.nsPerHeader ?? Number.NaN)
  return { name, headers: headers.length, rows, ratio, pass: (rows[0]?.nsPerHeader ?? Infinity) <= GOAL_NS && ratio <= GOAL_RATIO }
}

/** Time identifyAgent and isbot on the traffic-like mix and on the public-corpora sample. */
export async function runIdentifyBench(): Promise<IdentifyBenchResult> {
  const sets = [await measureSet('traffic mix (3/4 browsers)', mixHeaders()), await measureSet('public-corpora sample', shuffle(lines('../test/fixtures/public-corpora-sample.jsonl')))]
  return { sets, pass: sets.every((set) => set.pass) }
}

export function printIdentifyBench(result: IdentifyBenchResult): void {
  for (const set of result.sets) {
    console.log(`${set.name}: ${set.headers} headers, median of ${ROUNDS} alternating rounds`)
    for (const row of set.rows) console.log(`  ${row.name.padEnd(14)} ${row.nsPerHeader.toFixed(0).padStart(6)} ns/header`)
    const ours = set.rows[0]?.nsPerHeader ?? Number.NaN
    console.log(`${ours <= GOAL_NS ? 'PASS' : 'FAIL'} speed: ${ours.toFixed(0)} ns/header (goal <= ${GOAL_NS})`)
    console.log(`${set.ratio <= GOAL_RATIO ? 'PASS' : 'FAIL'} ratio: ${set.ratio.toFixed(2)}x isbot (goal <= ${GOAL_RATIO.toFixed(1)}x)\n`)
  }
  if (sink < 0) console.log(sink)
}
