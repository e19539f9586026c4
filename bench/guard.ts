import { checkEitherWay } from '../src/core/judge/readings.ts'
import { compileRobotsTxt } from '../src/core/robots/index.ts'
import { REAL_FILES, REAL_TOKENS, realFile, realUrls } from './fixtures.ts'
import { fastest, formatNs, table } from '../dev/harness.ts'

/**
 * The guard's reading of a path (src/guard/readings.ts) against the
 * engine's single check, on the real files' URLs: as they are (most
 * requests, which get no extra reading), and each spelled as a client
 * probing a normalizing origin would (`//`, `..%2F`), which gets all of them.
 * Prints numbers only: the baseline is the same run's single check.
 */
export function runGuardBench(): boolean {
  console.log("\n## The guard's readings of a path vs one check (same URLs, same run, median of 7 rounds)\n")
  const rows: string[][] = [['case', 'one check', 'guard readings', 'ratio']]
  for (const site of REAL_FILES) {
    const text = realFile(site)
    const matcher = compileRobotsTxt(text)
    const policy = { matcher }
    const plain = realUrls(site, text)
    const probing = plain.map((url, i) => url.replace(/^(https:\/\/[^/]+)\//, i % 2 === 0 ? '$1//' : '$1/x/..%2F'))
    for (const [name, sample] of [
      ['as crawled', plain],
      ['probing (`//`, `..%2F`)', probing],
    ] as const) {
      const n = sample.length
      const one = fastest((i) => matcher.check(REAL_TOKENS[i & 7]!, sample[i % n]!))
      const guard = fastest((i) => checkEitherWay(policy, [REAL_TOKENS[i & 7]!], sample[i % n]!))
      rows.push([`${site}, ${name}`, formatNs(one), formatNs(guard), `${(guard / one).toFixed(2)}x`])
    }
  }
  table(rows)
  return true
}
