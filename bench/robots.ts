import robotsParser from 'robots-parser'
import { compileRobotsTxt, parseRobotsTxt } from '../src/core/robots/index.ts'
import { longRobots, REAL_FILES, REAL_TOKENS, realFile, realRobots, realUrls, SHORT_ROBOTS, TOKENS, urls } from './fixtures.ts'
import { compare, fastest, formatNs, table } from '../dev/harness.ts'

/** Decisions on each real file: at least this many times faster than robots-parser. */
const DECISION_GOAL = 20
/** Parse, compile and a first decision on 500 KiB: within 2x of Google's C++ parser (about 2.5 ms). */
const PARSE_GOAL_NS = 5e6

const speedUp = (ours: number, theirs: number): string => `${(theirs / ours).toFixed(1)}x`

/**
 * The engine against robots-parser on the same inputs, in one run, each
 * measured in alternation with the other (see harness.ts). Prints one table
 * and returns whether every goal was met.
 */
export function runRobotsBench(): boolean {
  console.log('\n## robots.txt engine vs robots-parser (same inputs, same run, 10th percentile of short batches, median of 7 alternating rounds)\n')
  const rows: string[][] = [['case', 'robots-edge', 'robots-parser', 'speed-up', 'goal', '']]
  let pass = true
  const goal = (ok: boolean): string => {
    pass &&= ok
    return ok ? 'PASS' : 'FAIL'
  }

  // A crawler's decision, on the files of four real sites: check(token, url) against isAllowed(url, token).
  for (const site of REAL_FILES) {
    const text = realFile(site)
    const sample = realUrls(site, text)
    const ours = compileRobotsTxt(text)
    const theirs = robotsParser(`https://www.${site}/robots.txt`, text)
    // Same answers first: a benchmark of two engines that disagree measures nothing.
    let differ = 0
    for (let i = 0; i < sample.length; i++) {
      const token = REAL_TOKENS[i % REAL_TOKENS.length]!
      if (ours.check(token, sample[i]!).allowed !== theirs.isAllowed(sample[i]!, token)) differ++
    }
    const n = sample.length
    const t = compare(
      (i) => ours.check(REAL_TOKENS[i & 7]!, sample[i % n]!),
      (i) => theirs.isAllowed(sample[i % n]!, REAL_TOKENS[i & 7]!),
    )
    const rules = parseRobotsTxt(text).groups.reduce((sum, g) => sum + g.rules.length, 0)
    rows.push([
      `decide, ${site} (${rules} rules; ${differ}/${n} verdicts differ)`,
      formatNs(t.ours),
      formatNs(t.theirs),
      speedUp(t.ours, t.theirs),
      `>= ${DECISION_GOAL}x`,
      goal(t.theirs / t.ours >= DECISION_GOAL),
    ])
  }

  // The synthetic files of the earlier benchmark, for comparison.
  const sample = urls(4096)
  const mask = sample.length - 1
  const long = longRobots(40 * 1024)
  for (const [name, text] of [
    ['decide, short synthetic file', SHORT_ROBOTS],
    [`decide, synthetic ${long.split('\n').length}-line file`, long],
  ] as const) {
    const ours = compileRobotsTxt(text)
    const theirs = robotsParser('https://www.example.com/robots.txt', text)
    const t = compare(
      (i) => ours.check(TOKENS[i & 7]!, sample[i & mask]!),
      (i) => theirs.isAllowed(sample[i & mask]!, TOKENS[i & 7]!),
    )
    rows.push([name, formatNs(t.ours), formatNs(t.theirs), speedUp(t.ours, t.theirs), '', ''])
  }

  // A crawler reads the whole file and decides for its own token, as
  // Google's parser does in one pass. robots-edge compiles a token's groups
  // on first use; robots-parser compiles every rule up front.
  const url = 'https://www.example.com/articles/2026/robots-txt'
  for (const [name, big] of [
    ['real files', realRobots(500 * 1024)],
    ['synthetic', longRobots(500 * 1024)],
  ] as const) {
    const kib = (big.length / 1024).toFixed(0)
    const t = compare(
      () => compileRobotsTxt(big).check('googlebot', url),
      () => robotsParser('https://www.example.com/robots.txt', big).isAllowed(url, 'googlebot'),
      3000,
    )
    rows.push([`parse + compile + first decision, ${kib} KiB of ${name}`, formatNs(t.ours), formatNs(t.theirs), speedUp(t.ours, t.theirs), '<= 5 ms', goal(t.ours <= PARSE_GOAL_NS)])
    // A matcher indexes a token's rules on its 2nd check (src/core/robots/token-rules.ts): the guard's steady state.
    const tokens = [...new Set(parseRobotsTxt(big).groups.flatMap((g) => g.userAgents.map((u) => u.toLowerCase())))]
    const every = fastest(() => {
      const m = compileRobotsTxt(big)
      for (const token of tokens) for (let k = 0; k < 2; k++) m.check(token, url)
    }, 3000)
    rows.push([`  same, every one of ${tokens.length} tokens' rules indexed`, formatNs(every), formatNs(t.theirs), speedUp(every, t.theirs), '', ''])
    rows.push(['  of which parse', formatNs(fastest(() => parseRobotsTxt(big), 2000)), '', '', 'Google C++: ~2.5 ms', ''])
  }

  const patho = 'User-agent: *\nDisallow: /*a*a*a*a*a*a*a*a*a*b\n'
  const path = '/' + 'a'.repeat(4095)
  const pa = compileRobotsTxt(patho)
  const pb = robotsParser('https://www.example.com/robots.txt', patho)
  const p = compare(
    () => pa.check('anybot', path),
    () => pb.isAllowed('https://www.example.com' + path, 'anybot'),
    600,
  )
  rows.push(['pathological /*a*a*a*a*a*a*a*a*a*b, 4 KiB path', formatNs(p.ours), formatNs(p.theirs), speedUp(p.ours, p.theirs), '', ''])
  table(rows)
  console.log(`\n${pass ? 'PASS' : 'FAIL'} robots.txt engine goals`)
  return pass
}
