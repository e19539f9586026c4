// A checked build (src/core/config/policies.ts, ROBOTS_EDGE_CONFIG_CHECKED):
// the template's build and deploy bundle the edge without the config
// validator when dev/checked-config.ts has validated a config object. Here
// core/config is bundled by esbuild, as wrangler bundles it, with and
// without the defines, and the two bundles are compared on the same configs.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { build } from 'esbuild'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import config from '../../../robots.config.ts'
import type * as ConfigModule from '../../../src/core/config/index.ts'

/** What the edge Worker takes from core/config (src/edge/edge.ts), so the bundle holds what the edge's does. */
type Config = Pick<typeof ConfigModule, 'createPolicies' | 'ConfigError'>
const dir = mkdtempSync(join(tmpdir(), 'robots-edge-checked-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const WARNING = 'robots-edge: warning: rules[1].userAgent: "GPTBot" is also named at rules[0].userAgent[0] (as the build found it)'

async function bundle(name: string, define: Record<string, string>): Promise<{ code: string; module: Config }> {
  const result = await build({
    stdin: { contents: "export { createPolicies, ConfigError } from './src/core/config/index.ts'", resolveDir: join(import.meta.dirname, '../../..'), loader: 'ts' },
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    minify: true,
    write: false,
    logLevel: 'silent',
    define,
  })
  const code = result.outputFiles[0]!.text
  const file = join(dir, `${name}.mjs`)
  writeFileSync(file, code)
  return { code, module: (await import(pathToFileURL(file).href)) as Config }
}

let checked: { code: string; module: Config }
let plain: { code: string; module: Config }
beforeAll(async () => {
  ;[checked, plain] = await Promise.all([bundle('checked', { ROBOTS_EDGE_CONFIG_CHECKED: 'true', ROBOTS_EDGE_CONFIG_WARNINGS: JSON.stringify([WARNING]) }), bundle('plain', {})])
}, 60_000)

describe('a checked build of core/config', () => {
  it('leaves the validator out of the bundle, and only then', () => {
    // Texts only the validator (validate.ts, validate-fields.ts) writes.
    for (const text of ['is not a product token', 'is not an absolute http(s) URL']) {
      expect(plain.code).toContain(text)
      expect(checked.code).not.toContain(text)
    }
    expect(checked.code.length).toBeLessThan(plain.code.length - 10_000)
  })

  it('serves the template config exactly as a validating build does, for every host and environment', () => {
    const a = checked.module.createPolicies(config, { warn: () => {} })
    const b = plain.module.createPolicies(config, { warn: () => {} })
    for (const [host, env] of [
      ['example.com', 'production'],
      ['Example.COM.:443', 'production'],
      ['robots-edge.example.workers.dev', 'production'],
      ['example.com', 'staging'],
      ['new-host.test', 'preview-7'],
    ] as const) {
      const [pa, pb] = [a.get(host, env), b.get(host, env)]
      expect(pa.text).toBe(pb.text)
      expect(pa.version).toBe(pb.version)
      expect(pa.config).toEqual(pb.config)
      for (const [ua, path] of [
        ['GPTBot', '/'],
        ['Googlebot', '/private/press/x'],
        ['Googlebot', '/a.pdf'],
        ['SomeBot', '/admin/'],
      ] as const) {
        expect(pa.matcher.check(ua.toLowerCase(), path)).toEqual(pb.matcher.check(ua.toLowerCase(), path))
      }
    }
  })

  it('logs the start-up warnings the build computed, once, in place of its own', () => {
    const warned: string[] = []
    checked.module.createPolicies({ rules: [{ userAgent: '*', allow: '/' }] }, { warn: (m) => warned.push(m) })
    expect(warned).toEqual([WARNING])
  })

  it('refuses a config function at start-up, with a clear message, since it would run unvalidated for new hosts', () => {
    let thrown: unknown
    try {
      checked.module.createPolicies(() => ({ rules: [{ userAgent: '*', allow: '/' }] }), { warn: () => {} })
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(checked.module.ConfigError)
    expect((thrown as Error).message).toMatch(/\(config\): is a function, which a Worker built with ROBOTS_EDGE_CONFIG_CHECKED cannot validate/)
    // A validating build takes the same function.
    expect(plain.module.createPolicies(() => ({ rules: [{ userAgent: '*', allow: '/' }] }), { warn: () => {} }).get('a.test', 'production').text).toContain('User-agent: *')
  })

  it('falls back, as before, for a host whose config fails at run time (validating build)', () => {
    const logged: string[] = []
    let calls = 0
    const policies = plain.module.createPolicies(
      ({ host }) => {
        calls++
        return host === 'bad.test' ? ({ rules: 3 } as never) : { rules: [{ userAgent: '*', disallow: '/x/' }] }
      },
      { log: (m) => logged.push(m), warn: () => {} },
    )
    expect(calls).toBeGreaterThan(0)
    expect(policies.get('bad.test', 'production').text).not.toContain('Disallow: /x/')
    expect(logged[0]).toMatch(/config failed for host "bad.test"/)
  })
})
