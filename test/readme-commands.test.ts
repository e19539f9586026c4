// The commands the README shows, checked against the CLI and package.json:
// a renamed flag, command or script fails here before a reader trips on it.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { commands } from '../src/cli/commands.ts'
import { run } from '../src/cli/main.ts'
import { captureIo } from './support/cli-io.ts'

const README = readFileSync(new URL('../README.md', import.meta.url), 'utf8')
const scripts = Object.keys((JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { scripts: Record<string, string> }).scripts)

/** Shell words, single and double quotes kept together; `[--snapshot]` (optional) reads as `--snapshot`. */
const words = (text: string) => (text.match(/'[^']*'|"[^"]*"|\S+/g) ?? []).map((w) => w.replace(/^['"]|['"]$/g, '').replace(/^\[|\]$/g, ''))

// `robots-edge deviation` is the README's name for a choice of its own, not a command.
const cliCalls = [...README.matchAll(/(?:npm run robots --|npx robots-edge|`robots-edge) ([^#`\n]+)/g)].map((m) => words(m[1]!.trim())).filter((argv) => argv[0] !== 'deviation')
const npmScripts = [...new Set([...README.matchAll(/npm run ([a-z][a-z:-]*)/g)].map((m) => m[1]!))]

describe('README: the commands it shows', () => {
  it('finds the commands', () => {
    expect(cliCalls.length).toBeGreaterThan(10)
    expect(npmScripts).toContain('dev')
  })

  it.each(npmScripts)('npm run %s is a script', (name) => expect(scripts).toContain(name))

  it.each(cliCalls.map((argv) => [argv.join(' '), argv] as const))('robots-edge %s: its command and flags exist', async (_, argv) => {
    const [name = ''] = argv
    expect(Object.keys(commands)).toContain(name)
    const flags = argv.filter((a) => a.startsWith('--')).map((a) => a.slice(2).split('=')[0]!)
    for (const flag of flags) expect([...commands[name]!.options, 'help'], `--${flag}`).toContain(flag)
    // The parser accepts the words as written (strict: an unknown flag is exit 2).
    const io = captureIo()
    expect(await run([...argv, '--help'], io), io.text()).toBe(0)
  })

  it.each([['lint'], ['validate'], ['check', 'GPTBot', '/articles/1'], ['print', '--host', 'example.com']])('robots-edge %s runs on the template', { timeout: 30_000 }, async (...argv) => {
    const io = captureIo()
    expect(await run(argv, io), io.text()).toBe(0)
  })
})
