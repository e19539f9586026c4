import { describe, expect, it } from 'vitest'
import { commands, type Command } from '../../src/cli/commands.ts'
import { run } from '../../src/cli/main.ts'
import { captureIo, jsonOf } from '../support/cli-io.ts'

// Unit tests of the dispatcher: argv in, exit code out. Config files load
// from the working directory, the repository root under vitest.

const SMALL = 'test/cli/fixtures/small.config.ts'

describe('run: dispatch', () => {
  it('runs a command with its arguments and options', async () => {
    const io = captureIo()
    expect(await run(['check', 'AcmeBot', '/x', '--config', SMALL, '--json'], io)).toBe(0)
    expect(jsonOf(io)).toMatchObject({ verdict: { allowed: false, group: 'acmebot', rule: { line: 2, text: 'Disallow: /' } } })
  })

  it('loads ./robots.config.ts by default', async () => {
    const io = captureIo()
    expect(await run(['validate'], io)).toBe(0)
    expect(io.stdout[0]).toMatch(/^✔ robots\.config\.ts is valid/)
  })

  it('lints a file given as an argument without loading the config', async () => {
    const io = captureIo()
    expect(await run(['lint', 'test/cli/fixtures/bad-robots.txt', '--config', 'test/cli/fixtures/throws.config.ts'], io)).toBe(1)
    expect(io.stdout.at(-1)).toBe('✖ 3 errors, 1 warning')
  })

  // A new command (the coming `report`) is one entry in the table.
  it('dispatches any command in the table', async () => {
    const seen: unknown[] = []
    const report: Command = { usage: '[--host H]', summary: 'the report', positionals: [0, 0], options: ['host', 'json'], run: (args) => (seen.push(args), 0) }
    const io = captureIo()
    expect(await run(['report', '--host', 'example.com'], io, { ...commands, report })).toBe(0)
    expect(seen).toEqual([{ positionals: [], values: { host: 'example.com', env: undefined, config: undefined, json: false } }])
  })
})

describe('run: usage and help', () => {
  it('prints the usage on --help and exits 0', async () => {
    const io = captureIo()
    expect(await run(['--help'], io)).toBe(0)
    expect(io.stdout[0]).toBe('Usage: robots-edge <command> [options]')
    expect(io.stdout).toEqual(expect.arrayContaining([expect.stringMatching(/^ {2}check {5}the verdict for an agent/)]))
  })

  it("prints a command's usage on <command> --help and on help <command>", async () => {
    for (const argv of [
      ['check', '--help'],
      ['help', 'check'],
      ['check', '-h'],
    ]) {
      const io = captureIo()
      expect(await run(argv, io)).toBe(0)
      expect(io.stdout[0]).toBe('Usage: robots-edge check <agent> <url-or-path> [--host H] [--env E] [options]')
    }
  })

  it('lists --remote once for the commands that read a Worker, with --url as its alias, and no URL default for --host where no URL is given', async () => {
    for (const name of ['impact', 'history', 'diff', 'ranges']) {
      const io = captureIo()
      expect(await run([name, '--help'], io)).toBe(0)
      const text = io.stdout.join('\n')
      expect(text).toMatch(/^ {2}--remote <url> +read the deployed Worker.*; --url <url> is an alias$/m)
      expect(text).not.toMatch(/^ {2}--url /m)
      expect(text).not.toContain("URL's host")
    }
    const check = captureIo()
    await run(['check', '--help'], check)
    expect(check.stdout.join('\n')).toContain("(default: the URL's host, else localhost)")
  })

  // Wrong arguments: a message and the usage on stderr, exit 2, nothing on stdout.
  it.each([
    [[], 'no command given.'],
    [['frobnicate'], 'unknown command "frobnicate".'],
    [['check', 'GPTBot'], 'check needs <agent> <url-or-path>.'],
    [['print', 'extra'], 'print takes no arguments; got "extra".'],
    [['lint', 'a', 'b'], 'lint takes at most 1 argument; got "b".'],
    [['validate', '--host', 'x'], 'validate takes no --host.'],
    [['print', '--colour'], "Unknown option '--colour'"],
    [['check', 'GPTBot', 'admin/x', '--config', SMALL], '"admin/x" is neither a URL nor a path'],
  ])('exits 2 on %j', async (argv, message) => {
    const io = captureIo()
    expect(await run(argv, io)).toBe(2)
    expect(io.stdout).toEqual([])
    expect(io.stderr[0]).toContain(message)
    expect(io.stderr).toEqual(expect.arrayContaining([expect.stringMatching(/^Usage: robots-edge/)]))
  })
})

describe('run: failures', () => {
  // A bad config: every issue with its path, exit 1.
  it('reports an invalid config with field paths', async () => {
    const io = captureIo()
    expect(await run(['print', '--config', 'test/cli/fixtures/bad.config.ts'], io)).toBe(1)
    expect(io.stderr[0]).toBe('robots-edge: Invalid robots config:')
    expect(
      io.stderr
        .slice(1)
        .filter((l) => !l.includes('fix:'))
        .map((l) => l.trim().split(/ {2,}/)[1]),
    ).toEqual(['rules[0].userAgent', 'rules[0].disallow', 'sitemap'])
  })

  it('reports a config that is missing, throws while loading, or exports nothing', async () => {
    const cases = [
      ['nope.config.ts', 'no config at nope.config.ts'],
      ['test/cli/fixtures/throws.config.ts', 'could not be loaded: boom while loading'],
      ['test/cli/fixtures/no-default.config.ts', 'has no default export'],
    ]
    for (const [file, message] of cases) {
      const io = captureIo()
      expect(await run(['validate', '--config', file!], io), file).toBe(1)
      expect(io.stderr.join('\n')).toContain(message)
    }
  })

  it('reports failures as one JSON document with --json', async () => {
    const io = captureIo()
    expect(await run(['validate', '--json', '--config', 'nope.config.ts'], io)).toBe(1)
    expect(jsonOf(io)).toEqual({ ok: false, error: 'no config at nope.config.ts. Run from the project root, or pass --config <file>.', issues: [] })
    const bad = captureIo()
    expect(await run(['check', 'GPTBot', '/', '--json', '--config', 'test/cli/fixtures/bad.config.ts'], bad)).toBe(1)
    expect(jsonOf(bad)).toMatchObject({ ok: false, error: 'Invalid robots config', issues: [{ path: 'rules[0].userAgent' }, { path: 'rules[0].disallow' }, { path: 'sitemap' }] })
  })
})
