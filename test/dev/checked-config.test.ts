// dev/checked-config.ts: the defines that let the template's build and
// deploy leave the config validator out of the edge Worker. Only a config
// object that validates gets them; anything else is left to the Worker.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { checkedConfigDefines } from '../../dev/checked-config.ts'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const dirs: string[] = []
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

/** A project folder holding only this robots.config.ts. */
function project(source: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'robots-edge-checked-config-'))
  dirs.push(dir)
  writeFileSync(join(dir, 'robots.config.ts'), source)
  return dir
}

describe('checkedConfigDefines', () => {
  it("defines the flag and no warnings for the template's config", { timeout: 60_000 }, async () => {
    expect(await checkedConfigDefines(ROOT)).toEqual(['--define', 'ROBOTS_EDGE_CONFIG_CHECKED:true', '--define', 'ROBOTS_EDGE_CONFIG_WARNINGS:[]'])
  })

  it('passes the start-up warnings createPolicies would log, as JSON', { timeout: 60_000 }, async () => {
    const dir = project("export default { rules: [{ userAgent: 'GPTBot', disallow: '/' }, { userAgent: 'gptbot', disallow: '/x/' }, { userAgent: '*', allow: '/' }] }\n")
    const defines = await checkedConfigDefines(dir)
    expect(defines.slice(0, 3)).toEqual(['--define', 'ROBOTS_EDGE_CONFIG_CHECKED:true', '--define'])
    const warnings = JSON.parse(defines[3]!.slice('ROBOTS_EDGE_CONFIG_WARNINGS:'.length)) as string[]
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatch(/^robots-edge: warning: rules\[1\]\.userAgent: "gptbot" is also named at rules\[0\]\.userAgent/)
  })

  it('defines nothing for a config function: its result for each new host is validated by the Worker', { timeout: 60_000 }, async () => {
    const dir = project("export default () => ({ rules: [{ userAgent: '*', allow: '/' }] })\n")
    expect(await checkedConfigDefines(dir)).toEqual([])
  })

  it('defines nothing, and says why, for a config that fails (the Worker then fails at start-up itself)', { timeout: 60_000 }, async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    try {
      expect(await checkedConfigDefines(project('export default { rules: 3 }\n'))).toEqual([])
      expect(await checkedConfigDefines(project("export default { rules: [{ userAgent: '*', disallow: 'no-slash' }] }\n"))).toEqual([])
      expect(warn).toHaveBeenCalledTimes(2)
      expect(String(warn.mock.calls[0]![0])).toMatch(/^robots-edge: the config could not be checked before bundling, so the edge Worker keeps its validator: .*rules: is not an object/s)
    } finally {
      warn.mockRestore()
    }
  })
})
