import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { run } from '../../src/cli/main.ts'
import { buildPolicy, CHECK_CONTEXTS, resolveConfig } from '../../src/core/config/index.ts'
import { agents } from '../../src/package/config.ts'
import { captureIo, jsonOf } from '../support/cli-io.ts'

// The README's "Write your policy" example, as a reader pastes it: it loads,
// lints with no warning, and the file it renders names each rule once.

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8')

/** The first ```ts block after a heading. */
function block(heading: string): string {
  const from = README.indexOf(`\n## ${heading}\n`)
  expect(from, `README has a "## ${heading}" section`).toBeGreaterThanOrEqual(0)
  const match = /```ts\n([\s\S]*?)```/.exec(README.slice(from))
  expect(match, `a ts block under "## ${heading}"`).not.toBeNull()
  return match![1]!
}

// Inside the repository, so `import … from 'robots-edge'` resolves as it does in the template.
const cache = join(process.cwd(), 'node_modules', '.cache')
mkdirSync(cache, { recursive: true })
const dir = mkdtempSync(join(cache, 'robots-edge-readme-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('a token named twice, on its own and through a preset', () => {
  // Crawlers merge the two groups (RFC 9309 §2.2.1); the merged group names each rule once.
  it('is written as one group with each rule once', () => {
    const input = {
      rules: [
        { userAgent: ['GPTBot', 'CCBot'], disallow: '/' },
        { userAgent: agents.aiTraining, disallow: '/' },
      ],
    }
    const { text } = buildPolicy(resolveConfig(input, CHECK_CONTEXTS[0]!).config)
    const gptbot = text.split(/\n\n+/).filter((g) => /^User-agent: gptbot$/im.test(g))
    expect(gptbot).toHaveLength(1)
    expect(gptbot[0]!.split('\n').filter((l) => l === 'Disallow: /')).toHaveLength(1)
  })
})

describe('README: Write your policy', () => {
  const file = join(dir, 'robots.config.ts')
  writeFileSync(file, block('Write your policy'))

  it('lints with no error and no warning', async () => {
    const io = captureIo()
    expect(await run(['lint', '--config', file, '--json'], io)).toBe(0)
    const doc = jsonOf(io) as { issues: { severity: string }[]; files: { diagnostics: { severity: string }[] }[] }
    expect(doc.issues).toEqual([])
    expect(doc.files.flatMap((f) => f.diagnostics).filter((d) => d.severity !== 'info')).toEqual([])
  }, 30_000)

  it('renders each group with distinct rules', async () => {
    const { default: input } = (await import(/* @vite-ignore */ file)) as { default: Parameters<typeof resolveConfig>[0] }
    for (const context of CHECK_CONTEXTS) {
      const { text } = buildPolicy(resolveConfig(input, context).config)
      for (const group of text.split(/\n\n+/)) {
        const rules = group.split('\n').filter((l) => /^(Allow|Disallow):/.test(l))
        expect(new Set(rules).size, group).toBe(rules.length)
      }
    }
  }, 30_000)
})
