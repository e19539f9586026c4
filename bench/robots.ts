import robotsParser from 'robots-parser'
import { compileRobotsTxt, parseRobotsTxt } from '../src/robots/index.ts'
import { longRobots, SHORT_ROBOTS, TOKENS, urls } from './fixtures.ts'
import { formatNs, measure, table } from './harness.ts'

/** The engine against robots-parser on the same inputs, in one run. */
export function runRobotsBench(): void {
  console.log('\n## robots.txt engine vs robots-parser (same inputs, same run)\n')
  const sample = urls(4096)
  const mask = sample.length - 1
  const rows: string[][] = [['case', 'robots-edge', 'robots-parser', 'speed-up', 'goal']]

  const long = longRobots(40 * 1024)
  for (const [name, text] of [['decide, short file', SHORT_ROBOTS], [`decide, long file (${long.split('\n').length} lines)`, long]] as const) {
    const ours = compileRobotsTxt(text)
    const theirs = robotsParser('https://www.example.com/robots.txt', text)
    // Same answers first: a benchmark of two engines that disagree measures nothing.
    let differ = 0
    for (let i = 0; i < 2000; i++) {
      const tok = TOKENS[i % TOKENS.length]!
      if (ours.check(tok, sample[i]!).allowed !== theirs.isAllowed(sample[i]!, tok)) differ++
    }
    const a = measure((i) => ours.check(TOKENS[i & 7]!, sample[i & mask]!))
    const b = measure((i) => theirs.isAllowed(sample[i & mask]!, TOKENS[i & 7]!))
    rows.push([`${name} (${differ}/2000 verdicts differ)`, formatNs(a.ns), formatNs(b.ns), `${(b.ns / a.ns).toFixed(1)}x`, '>= 10x'])
  }

  // A crawler parses the file and decides for its own token. robots-edge
  // compiles a token's groups on first use; robots-parser compiles every rule
  // up front. The second row forces robots-edge to compile every group too.
  const big = longRobots(500 * 1024)
  const allTokens = [...new Set(parseRobotsTxt(big).groups.flatMap((g) => g.userAgents.map((u) => u.toLowerCase())))]
  const url = sample[0]!
  const a = measure(() => compileRobotsTxt(big).check('googlebot', url), 3000)
  const b = measure(() => robotsParser('https://www.example.com/robots.txt', big).isAllowed(url, 'googlebot'), 3000)
  const kib = (big.length / 1024).toFixed(0)
  rows.push([`parse + compile + first decision, ${kib} KiB`, formatNs(a.ns), formatNs(b.ns), `${(b.ns / a.ns).toFixed(1)}x`, '>= 2x'])
  const all = measure(() => {
    const m = compileRobotsTxt(big)
    for (const t of allTokens) m.check(t, url)
  }, 3000)
  rows.push([`  same, every one of ${allTokens.length} groups compiled`, formatNs(all.ns), formatNs(b.ns), `${(b.ns / all.ns).toFixed(1)}x`, ''])
  const parseOnly = measure(() => parseRobotsTxt(big), 2000)
  rows.push(['  of which parse', formatNs(parseOnly.ns), '', '', 'Google C++: ~2.5 ms'])

  const patho = 'User-agent: *\nDisallow: /*a*a*a*a*a*a*a*a*a*b\n'
  const path = '/' + 'a'.repeat(4095)
  const pa = compileRobotsTxt(patho)
  const pb = robotsParser('https://www.example.com/robots.txt', patho)
  const p1 = measure(() => pa.check('anybot', path))
  const p2 = measure(() => pb.isAllowed('https://www.example.com' + path, 'anybot'))
  rows.push(['pathological /*a*a*a*a*a*a*a*a*a*b, 4 KiB path', formatNs(p1.ns), formatNs(p2.ns), `${(p2.ns / p1.ns).toFixed(1)}x`, 'per check'])
  table(rows)
}


