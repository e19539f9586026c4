import { spawnSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'

// Integration tests of the wiring: the real process, through `npx tsx` and
// through the package's bin. Everything else is tested in-process.

const cwd = new URL('../..', import.meta.url)
const options = { cwd, encoding: 'utf8' as const, env: { ...process.env, NO_COLOR: '1' }, timeout: 60_000 }

describe('the CLI as a process', () => {
  it('npx tsx src/cli/robots.ts prints the file and exits 2 on an unknown command', () => {
    const printed = spawnSync('npx', ['tsx', 'src/cli/robots.ts', 'print', '--config', 'test/cli/fixtures/small.config.ts'], options)
    expect(printed.status).toBe(0)
    expect(printed.stdout).toBe('User-agent: AcmeBot\nDisallow: /\n\nUser-agent: *\nDisallow: /private/\n')
    const unknown = spawnSync('npx', ['tsx', 'src/cli/robots.ts', 'frobnicate'], options)
    expect(unknown.status).toBe(2)
    expect(unknown.stdout).toBe('')
    expect(unknown.stderr).toContain('robots-edge: unknown command "frobnicate".')
  }, 60_000)

  it('bin/robots-edge.mjs runs check --json and fails validate on a bad config', () => {
    const checked = spawnSync(process.execPath, ['bin/robots-edge.mjs', 'check', 'AcmeBot', 'https://example.com/a', '--json', '--config', 'test/cli/fixtures/small.config.ts'], options)
    expect(checked.stderr).toBe('')
    expect(checked.status).toBe(0)
    expect(JSON.parse(checked.stdout)).toMatchObject({ host: 'example.com', verdict: { allowed: false, group: 'acmebot' } })
    const invalid = spawnSync(process.execPath, ['bin/robots-edge.mjs', 'validate', '--config', 'test/cli/fixtures/bad.config.ts'], options)
    expect(invalid.status).toBe(1)
    expect(invalid.stderr).toContain('rules[0].userAgent')
  }, 60_000)
})
