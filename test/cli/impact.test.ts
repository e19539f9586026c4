// Tests of `impact`, `history` and `diff` over the local D1 in a temporary
// directory, opened by wrangler's platform proxy (as `npm run dev` lays it
// out), migrated and written through the ledger's own write path, then read by the commands,
// which run the Worker's own routes over it. --remote is tested with an
// injected fetch; the whole flow through a running Worker is impact-flow.test.ts.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig, policyFor } from '../../src/cli/config.ts'
import { UsageError } from '../../src/cli/errors.ts'
import { diff, history } from '../../src/cli/history.ts'
import { impact, type ImpactCommandOptions } from '../../src/cli/impact.ts'
import { run } from '../../src/cli/main.ts'
import { ConfigError } from '../../src/core/config/index.ts'
import { contentHash } from '../../src/core/config/hash.ts'
import type { JudgedRequest } from '../../src/core/events.ts'
import { gptbot, HOUR, judged } from '../support/report-fixtures.ts'
import { captureIo, jsonOf, migrate } from '../support/cli-io.ts'

/** src/ledger/ledger.ts, loaded at run time (a Workers module; see report.test.ts). */
interface LedgerModule {
  writeEvents(db: unknown, events: readonly JudgedRequest[]): Promise<number>
  recordRobotsVersion(db: unknown, v: { host: string; hash: string; text: string; time: number }): Promise<void>
}
const LEDGER_MODULE = new URL('../../src/ledger/ledger.ts', import.meta.url).href

const now = Date.now()
const V1 = '# first\nUser-agent: *\nAllow: /\n'
const V2 = '# second\nUser-agent: *\nDisallow: /drafts/\nAllow: /\n'
const OTHER = 'User-agent: *\nDisallow: /\n'
/** The candidate: /articles/ disallowed for everyone. */
const CONFIG = `import { defineConfig } from 'robots-edge'
export default defineConfig({ rules: [{ userAgent: '*', allow: '/', disallow: ['/drafts/', '/articles/'] }], protect: ['Googlebot', 'Inkbot'] })
`
/** Two files whose hashes share their first 4 characters: a prefix that names two versions. */
function twins(): [string, string] {
  const seen = new Map<string, string>()
  for (let i = 0; ; i++) {
    const text = `User-agent: *\nDisallow: /n${i}/\n`
    const twin = seen.get(contentHash(text).slice(0, 4))
    if (twin !== undefined) return [twin, text]
    seen.set(contentHash(text).slice(0, 4), text)
  }
}
const TWINS = twins()
const inkbot = { tokens: ['inkbot'], kind: 'bot' as const, obeysRobotsTxt: true, operator: 'Ink\x1b[31m Corp \u202eevil' }

let dir = ''
let configFile = ''
let options: ImpactCommandOptions

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'robots-edge-impact-'))
  const { getPlatformProxy } = await import('wrangler')
  const proxy = await getPlatformProxy<{ DB: unknown }>({ persist: { path: `${dir}/v3` }, remoteBindings: false })
  try {
    await migrate(proxy.env.DB)
    const { writeEvents, recordRobotsVersion } = (await import(LEDGER_MODULE)) as LedgerModule
    await recordRobotsVersion(proxy.env.DB, { host: 'example.com', hash: contentHash(V1), text: V1, time: now - 10 * HOUR })
    await recordRobotsVersion(proxy.env.DB, { host: 'example.com', hash: contentHash(V2), text: V2, time: now - 5 * HOUR })
    await recordRobotsVersion(proxy.env.DB, { host: 'other.example', hash: contentHash(OTHER), text: OTHER, time: now - 5 * HOUR })
    for (const [i, text] of TWINS.entries()) await recordRobotsVersion(proxy.env.DB, { host: 'twins.example', hash: contentHash(text), text, time: now - (9 - i) * HOUR })
    const at = (o: Partial<JudgedRequest>) => judged({ time: now - 2 * HOUR, robotsVersion: contentHash(V2), ...o })
    const events = [
      ...[1, 1, 2].map((i) => at({ path: `/articles/${i}` })),
      at({ path: '/about' }),
      at({ agent: gptbot, path: '/articles/1' }),
      at({ agent: inkbot, path: '/articles/\u202eevil', userAgent: 'Inkbot/1.0' }),
    ]
    expect(await writeEvents(proxy.env.DB, events)).toBe(events.length)
  } finally {
    await proxy.dispose()
  }
  // The config loader resolves `robots-edge` from the project: the file lives under it.
  await mkdir('dist/test-impact-cli', { recursive: true })
  configFile = 'dist/test-impact-cli/robots.config.ts'
  await writeFile(configFile, CONFIG)
  options = { persistTo: dir, config: (await loadConfig(configFile)).input, configSource: configFile, host: 'example.com' }
}, 120_000)

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true })
  await rm('dist/test-impact-cli', { recursive: true, force: true })
})

// Each test starts wrangler's local runtime over the D1 files: seconds on a busy 2-core machine.
describe('impact: the local D1', { timeout: 120_000 }, () => {
  it('prints who loses access, worst first, with the rules and lines, and exits 1 only with --fail-on protected', async () => {
    const io = captureIo({ env: {} })
    expect(await impact({ ...options, failOn: 'protected' }, io)).toBe(1)
    const text = io.text()
    expect(text).toMatch(/^Impact of dist\/test-impact-cli\/robots\.config\.ts · local D1 \(.+\) · \d{4}-\d\d-\d\d to \d{4}-\d\d-\d\d UTC · compared with the robots.txt served now$/m)
    expect(text).toContain(`  example.com: ${contentHash(V2).slice(0, 8)} -> `)
    expect(text).toMatch(/^3 of 3 agents change · 5 of 6 requests newly disallowed, 0 newly allowed · 6 requests replayed as 5 distinct shapes$/m)
    expect(text).toContain('Protected agents would lose access to paths they crawled: googlebot, inkbot.')
    const google = text.indexOf('googlebot (Google, Search Engine Crawler) PROTECTED, LOSES ACCESS · 4 requests')
    expect(google).toBeGreaterThan(0)
    const candidate = policyFor(options.config, 'example.com', 'production').policy.text
    const line = candidate.split('\n').indexOf('Disallow: /articles/') + 1
    expect(text.slice(google).split('\n').slice(1, 6)).toEqual([
      '  newly disallowed: 3 requests (75.0 % of its traffic) to 2 distinct paths',
      `    example.com: was line 4 Allow: / (group *) [${contentHash(V2).slice(0, 8)}]`,
      `                 now line ${line} Disallow: /articles/ (group *) [${contentHash(candidate).slice(0, 8)}] · 3 requests`,
      '        /articles/1  (2)',
      '        /articles/2  (1)',
    ])
    // GPTBot is not protected: listed after the protected agents that lose access.
    expect(text.indexOf('gptbot (OpenAI, AI Crawler) · 1 request')).toBeGreaterThan(google)
    expect(io.stderr).toEqual(['robots-edge: 2 protected agents would lose access (--fail-on protected).'])
    expect(await impact({ ...options, failOn: 'none' }, captureIo({ env: {} }))).toBe(0)
    // The default: protected when CI=true, none otherwise.
    expect(await impact(options, captureIo({ env: { CI: 'true' } }))).toBe(1)
    expect(await impact(options, captureIo({ env: {} }))).toBe(0)
  })

  it('shows control, invisible and bidi characters from the ledger as escapes, never raw', async () => {
    const io = captureIo({ env: {} })
    await impact(options, io)
    expect(io.text()).not.toMatch(/[\x1b\u202e]/)
    expect(io.text()).toContain('inkbot (Ink\\u{1B}[31m Corp \\u{202E}evil)')
    expect(io.text()).toContain('/articles/\\u{202E}evil')
  })

  it('prints the API document with --json, with the exit code it chose', async () => {
    const io = captureIo({ env: {} })
    expect(await impact({ ...options, json: true, failOn: 'protected', agent: 'gptbot' }, io)).toBe(0)
    const doc = jsonOf(io) as { agents: { agentKey: string; lost: { requests: number } }[]; failOn: string; exitCode: number; estimate: { exact: boolean } }
    expect(doc.agents.map((a) => [a.agentKey, a.lost.requests])).toEqual([['gptbot', 1]])
    expect(doc).toMatchObject({ failOn: 'protected', exitCode: 0, estimate: { exact: true } })
  })

  it('refuses a bad --fail-on and a bad range as usage errors, and a config that fails for a host', async () => {
    await expect(impact({ ...options, failOn: 'always' }, captureIo({ env: {} }))).rejects.toThrow(new UsageError('--fail-on must be "protected" or "none", not "always"'))
    await expect(impact({ ...options, since: 'yesterday' }, captureIo({ env: {} }))).rejects.toThrow(/^--since: "yesterday" is not a time/)
    const failing = (ctx: { host: string }) => ({ rules: [{ userAgent: ctx.host === 'example.com' ? 'bad token!' : '*', disallow: '/' }] })
    await expect(impact({ ...options, config: failing as never }, captureIo({ env: {} }))).rejects.toThrow(ConfigError)
  })

  it('through the CLI: --remote needs a URL, --fail-on takes protected or none, exit 2 on usage errors', async () => {
    const bare = captureIo()
    expect(await run(['impact', '--remote', '--config', configFile], bare)).toBe(2)
    expect(bare.stderr[0]).toContain("--remote needs the Worker's URL")
    const bad = captureIo()
    expect(await run(['impact', '--config', configFile, '--fail-on', 'sometimes'], bad)).toBe(2)
    const print = captureIo()
    expect(await run(['print', '--fail-on', 'none'], print)).toBe(2)
    expect(print.stderr[0]).toBe('robots-edge: print takes no --fail-on.')
    const help = captureIo()
    expect(await run(['impact', '--help'], help)).toBe(0)
    expect(help.text()).toContain('--fail-on <what>')
  })
})

describe('impact --remote', () => {
  it("asks the Worker for its hosts, then posts the candidate per host with the config's lists, with the token", async () => {
    const seen: { method: string; url: string; auth: string | null; body: unknown }[] = []
    const doc = {
      days: { since: 0, until: 86_400_000 },
      baseline: 'current',
      hosts: [],
      agents: [],
      skipped: [],
      rowsRead: 0,
      summary: { agents: 0, changed: 0, requests: 0, replayed: 0, shapes: 0, lost: 0, gained: 0, protectedLosing: [] },
      estimate: { beyondCap: 0, shapeCap: 200, beyondRead: 0, maxShapes: 50_000, shapesSince: 0, exact: true },
    }
    const fakeFetch = (async (url: URL, init: RequestInit) => {
      seen.push({ method: init.method ?? 'GET', url: String(url), auth: new Headers(init.headers).get('authorization'), body: init.body ? JSON.parse(String(init.body)) : null })
      return Response.json(
        String(url).includes('/history')
          ? {
              hosts: [
                { host: 'example.com', versions: [] },
                { host: 'shop.example', versions: [] },
              ],
              truncated: false,
            }
          : doc,
      )
    }) as unknown as typeof fetch
    const io = captureIo({ env: { ROBOTS_ADMIN_TOKEN: 's3cret' } })
    const { host: _, ...all } = options
    expect(await impact({ ...all, url: 'https://w.example', since: '2d', fetch: fakeFetch }, io)).toBe(0)
    expect(seen.map((s) => [s.method, s.url, s.auth])).toEqual([
      ['GET', 'https://w.example/_robots/api/history', 'Bearer s3cret'],
      ['POST', 'https://w.example/_robots/api/impact?since=2d', 'Bearer s3cret'],
    ])
    const body = seen[1]!.body as { robotsTxt: Record<string, string>; protect: string[]; exempt: string[] }
    expect(Object.keys(body.robotsTxt)).toEqual(['example.com', 'shop.example'])
    expect(body.robotsTxt['example.com']).toContain('Disallow: /articles/')
    expect(body.protect).toEqual(['googlebot', 'inkbot'])
    expect(io.text()).toContain('No recorded request changes verdict.')
  })
})

describe('the token of a Worker on this machine', () => {
  it('is read from .dev.vars when ROBOTS_ADMIN_TOKEN is not set, and never sent to another host', async () => {
    await writeFile(join(dir, '.dev.vars'), 'IP_HASH_SALT=x\nROBOTS_ADMIN_TOKEN="from-dev-vars"\n')
    const seen: (string | null)[] = []
    const fakeFetch = (async (_url: URL, init: RequestInit) => {
      seen.push(new Headers(init.headers).get('authorization'))
      return Response.json({ hosts: [], truncated: false })
    }) as unknown as typeof fetch
    expect(await history({ url: 'http://127.0.0.1:8787', cwd: dir, fetch: fakeFetch }, captureIo({ env: {} }))).toBe(0)
    expect(seen).toEqual(['Bearer from-dev-vars'])
    await expect(history({ url: 'https://w.example', cwd: dir, fetch: fakeFetch }, captureIo({ env: {} }))).rejects.toThrow(/ROBOTS_ADMIN_TOKEN is not set/)
  })
})

describe('history and diff', { timeout: 120_000 }, () => {
  const v1 = contentHash(V1)
  const v2 = contentHash(V2)

  it('lists every version per host, oldest first, with the one served now', async () => {
    const io = captureIo()
    expect(await history({ persistTo: dir }, io)).toBe(0)
    const text = io.text()
    expect(text).toMatch(
      new RegExp(
        `^example\\.com\\n\\s+Version\\s+First served\\s+Last used \\(day\\)\\s+Deployment\\s+Lines\\s+Change\\n\\s+${v1.slice(0, 12)}\\s+[\\d-]+ [\\d:]+\\s+[\\d-]+\\s+-\\s+3\\s+first version\\n\\s+${v2.slice(0, 12)}\\s+[\\d-]+ [\\d:]+\\s+[\\d-]+\\s+-\\s+4\\s+rules changed\\s+served now$`,
        'm',
      ),
    )
    expect(text).toContain('other.example')
    const one = captureIo()
    await history({ persistTo: dir, host: 'other.example', json: true }, one)
    expect((jsonOf(one) as { hosts: { host: string }[] }).hosts.map((h) => h.host)).toEqual(['other.example'])
  })

  it('diffs two versions by hash prefix, or one against the version before it', async () => {
    const io = captureIo()
    expect(await diff({ persistTo: dir, from: v1.slice(0, 6), to: v2.slice(0, 6) }, io)).toBe(0)
    expect(io.stdout).toEqual([
      `--- ${v1.slice(0, 12)} (example.com)`,
      `+++ ${v2.slice(0, 12)} (example.com)`,
      '@@ line 1 -> line 1 @@',
      '- # first',
      '+ # second',
      '  User-agent: *',
      '+ Disallow: /drafts/',
      '  Allow: /',
      '1 line removed, 2 lines added',
    ])
    const previous = captureIo()
    await diff({ persistTo: dir, from: v2.slice(0, 8) }, previous)
    expect(previous.stdout.slice(2)).toEqual(io.stdout.slice(2))
  })

  it('says when a version is unknown, ambiguous, or has none before it', async () => {
    await expect(diff({ persistTo: dir, from: 'ffffffff', to: v2 }, captureIo())).rejects.toThrow(/no stored version starts with ffffffff: run `history` for the list/)
    await expect(diff({ persistTo: dir, from: 'xyz!' }, captureIo())).rejects.toThrow(UsageError)
    // Long enough but not hex: the message names the real problem, not the length.
    await expect(diff({ persistTo: dir, from: 'zzzz' }, captureIo())).rejects.toThrow(/"zzzz" is not a version: a version is a hex hash prefix/)
    await expect(diff({ persistTo: dir, from: v1.slice(0, 8) }, captureIo())).rejects.toThrow(/is the first version of example\.com's robots\.txt stored/)
    await expect(diff({ persistTo: dir, from: v1.slice(0, 3) }, captureIo())).rejects.toThrow(/at least 4 characters/)
    const prefix = contentHash(TWINS[0]).slice(0, 4)
    await expect(diff({ persistTo: dir, from: prefix }, captureIo())).rejects.toThrow(
      new RegExp(`^${prefix} names 2 versions: \\w{12} \\(twins\\.example\\), \\w{12} \\(twins\\.example\\)\\. Give more of the hash\\.$`),
    )
    // Within one host (--host), the same prefix may be unambiguous elsewhere: it is looked up there only.
    await expect(diff({ persistTo: dir, host: 'example.com', from: prefix }, captureIo())).rejects.toThrow(/no stored version of example\.com's robots\.txt starts with/)
  })
})
