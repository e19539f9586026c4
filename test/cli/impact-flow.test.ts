// The impact flow, end to end: `npm run simulate` sends its traffic
// to the built Worker (Miniflare, its D1 in a temporary folder of its own),
// the config is changed to disallow /articles/ for everyone, and
// `robots-edge impact` replays what was recorded against it through the
// Worker's API: Googlebot and Bingbot lose access to the article paths they
// crawled, the rule and its line are named, and `--fail-on protected` exits 1.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { builtWorkers } from '../support/built-workers.ts'
import { startWorker, waitForLedger, type LocalWorker } from '../../dev/worker.ts'
import { run } from '../../src/cli/main.ts'
import { simulate } from '../../dev/simulate/run.ts'
import { loadConfig, policyFor } from '../../src/cli/config.ts'
import { captureIo, jsonOf } from '../support/cli-io.ts'
import { SHAPE_PATHS_SQL } from '../../src/ledger/shape-sql.ts'

const OUT = 'dist/test-impact-flow'
const TOKEN = 'impact-flow-token'
let worker: LocalWorker
let config = ''
/** The line of `Disallow: /articles/` in the robots.txt the edited config renders, by the group it is in (its first User-agent). */
const articleLine: Record<string, number> = {}
let articlesCrawled: Record<string, string[]> = {}

beforeAll(async () => {
  worker = await startWorker({ outdir: OUT, adminToken: TOKEN, d1OnDisk: true, bundles: await builtWorkers() })
  const report = await simulate({ url: worker.url, seconds: 4, rate: 50, seed: 13 })
  await waitForLedger(worker.db, { expected: report.clients.filter((c) => c.spec.role !== 'browser').reduce((s, c) => s + c.requests, 0) })
  const rows = await worker.db
    // Every genuine claim's request per path (raw rows are only a sample): what the replay judges.
    .prepare(`SELECT DISTINCT agent_key AS agent, path FROM (${SHAPE_PATHS_SQL})
    WHERE path LIKE '/articles/%' AND agent_key IN ('googlebot', 'bingbot')`)
    .all<{ agent: string; path: string }>()
  articlesCrawled = {}
  for (const r of rows.results) (articlesCrawled[r.agent] ??= []).push(r.path)
  // 1. The edit a site owner makes: /articles/ disallowed in every group that allowed it.
  const source = await readFile('robots.config.ts', 'utf8')
  const edited = source
    .replace("disallow: ['/admin/', '/*.pdf$'],", () => "disallow: ['/admin/', '/*.pdf$', '/articles/'],")
    .replace("disallow: ['/admin/', '/*.pdf$', '/private/']", () => "disallow: ['/admin/', '/*.pdf$', '/private/', '/articles/']")
  expect(edited.match(/'\/articles\/'/g)).toHaveLength(2)
  await mkdir(OUT, { recursive: true })
  config = join(OUT, 'robots.config.ts')
  await writeFile(config, edited)
  const rendered = policyFor((await loadConfig(config)).input, '127.0.0.1', 'production').policy.text
  const lines = rendered.split('\n')
  lines.forEach((line, i) => {
    if (line !== 'Disallow: /articles/') return
    let first = i
    while (first > 0 && !/^User-agent:/i.test(lines[first]!)) first--
    while (first > 0 && /^User-agent:/i.test(lines[first - 1]!)) first--
    articleLine[lines[first]!.slice('User-agent:'.length).trim().toLowerCase()] = i + 1
  })
  expect(Object.keys(articleLine).sort()).toEqual(['*', 'googlebot'])
}, 180_000)

afterAll(async () => {
  await worker?.dispose()
  await Promise.all([OUT, `${OUT}-admin`].map((dir) => rm(dir, { recursive: true, force: true })))
})

const impact = (...args: string[]) => {
  const io = captureIo({ env: { ROBOTS_ADMIN_TOKEN: TOKEN } })
  return run(['impact', '--remote', worker.url, '--config', config, ...args], io).then((code) => ({ code, io }))
}

describe('simulate, disallow /articles/, impact', { timeout: 60_000 }, () => {
  it('the simulation had Googlebot and Bingbot crawl articles', () => {
    expect(articlesCrawled.googlebot?.length).toBeGreaterThan(0)
    expect(articlesCrawled.bingbot?.length).toBeGreaterThan(0)
  })

  it('reports Googlebot and Bingbot losing access to the article paths they crawled, by which rule and line, and exits 1 with --fail-on protected', async () => {
    const { code, io } = await impact('--fail-on', 'protected')
    expect(code).toBe(1)
    const text = io.text()
    // Applebot, a search engine crawler too, is protected by default and crawled articles in the simulation as well.
    expect(text).toMatch(/^Protected agents would lose access to paths they crawled: (?=.*\bgooglebot\b)(?=.*\bbingbot\b).*\.$/m)
    expect(io.stderr.join('\n')).toMatch(/\d protected agents would lose access \(--fail-on protected\)/)
    expect(text).toMatch(/^googlebot \(Google, Search Engine Crawler\) PROTECTED, LOSES ACCESS/m)
    expect(text).toMatch(/^bingbot \(Microsoft, Search Engine Crawler\) PROTECTED, LOSES ACCESS/m)
    for (const path of [...articlesCrawled.googlebot!, ...articlesCrawled.bingbot!]) expect(text).toContain(`        ${path}  (`)
    // The new deciding rule, with its line in the file the edited config renders: Googlebot's own group, Bingbot's the `*` group.
    expect(text).toContain(`now line ${articleLine.googlebot} Disallow: /articles/ (group googlebot)`)
    expect(text).toContain(`now line ${articleLine['*']} Disallow: /articles/ (group *)`)
    expect(text).toMatch(/^ {4}127\.0\.0\.1: was line \d+ Allow: \/ \(group \*\)/m)
  })

  it('gives the same in --json, with the lines of the rendered candidate, and exits 0 with --fail-on none', async () => {
    const { code, io } = await impact('--json', '--fail-on', 'none')
    expect(code).toBe(0)
    const doc = jsonOf(io) as {
      summary: { protectedLosing: string[] }
      exitCode: number
      agents: { agentKey: string; lost: { paths: number; changes: { after: { rule: { line: number; pattern: string } } }[] } }[]
    }
    expect(doc.summary.protectedLosing).toEqual(expect.arrayContaining(['googlebot', 'bingbot']))
    expect(doc.exitCode).toBe(0)
    const google = doc.agents.find((a) => a.agentKey === 'googlebot')!
    expect(google.lost.paths).toBe(articlesCrawled.googlebot!.length)
    expect(google.lost.changes.map((c) => [c.after.rule.pattern, c.after.rule.line])).toEqual([['/articles/', articleLine.googlebot]])
  })
})
