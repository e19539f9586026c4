import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { lint } from '../../scripts/cli/lint.ts'
import { CHECK_CONTEXTS, type RobotsConfig } from '../../src/config/index.ts'
import { captureIo, jsonOf } from './io.ts'

// Unit tests of `lint`: line-numbered diagnostics with severity, message and
// fix, and an exit code that can gate CI.

const BAD_FILE = fileURLToPath(new URL('./fixtures/bad-robots.txt', import.meta.url))

describe('lint <file>', () => {
  it('lists each diagnostic with its line, severity, message and fix; exit 1 on an error', () => {
    const io = captureIo()
    expect(lint({ file: BAD_FILE }, io)).toBe(1)
    expect(io.stdout).toEqual([
      BAD_FILE,
      '  1  error    "Disallow" comes before any User-agent line, so no crawler applies it (RFC 9309 §2.1).  rule-outside-group',
      '              fix: Put a "User-agent: *" line above it.',
      '  3  warning  "Disalow" is not a standard key; Google reads it as one, other crawlers ignore the line.  typo-accepted',
      '              fix: Use the exact key: User-agent, Allow, Disallow or Sitemap.',
      '  4  error    Pattern "admin/" does not start with "/" or "*", so it never matches a path (RFC 9309 §2.2.2).  pattern-start',
      '              fix: Write "/admin/".',
      '  5  error    Sitemap "/sitemap.xml" is not an absolute http(s) URL (RFC 9309 §2.3.5).  sitemap-url',
      '              fix: Write the full URL, e.g. "https://example.com/sitemap.xml".',
      '✖ 3 errors, 1 warning',
    ])
  })

  it('prints the diagnostics as JSON with --json', () => {
    const io = captureIo()
    expect(lint({ file: BAD_FILE, json: true }, io)).toBe(1)
    const doc = jsonOf(io)
    expect(doc).toMatchObject({ ok: false, file: BAD_FILE })
    expect((doc.diagnostics as { line: number; code: string }[]).map((d) => [d.line, d.code])).toEqual([[1, 'rule-outside-group'], [3, 'typo-accepted'], [4, 'pattern-start'], [5, 'sitemap-url']])
  })

  it('exits 0 on a clean file', () => {
    const io = captureIo()
    const clean = fileURLToPath(new URL('./fixtures/clean-robots.txt', import.meta.url))
    expect(lint({ file: clean }, io)).toBe(0)
    expect(io.stdout.at(-1)).toBe('✔ no problems')
  })

  it('reports a file it cannot read', () => {
    expect(() => lint({ file: '/nonexistent/robots.txt' }, captureIo())).toThrow(/cannot read \/nonexistent\/robots\.txt: ENOENT/)
  })
})

describe('lint (the config)', () => {
  // Config errors carry their field path; the file of every valid context is linted too.
  it('lists config errors with field paths and exits 1', () => {
    const io = captureIo()
    expect(lint({ config: { rules: [{ userAgent: 'Brightbot 1.0', disallow: 'admin/' }] } as unknown as RobotsConfig }, io)).toBe(1)
    expect(io.stdout[0]).toBe('robots.config.ts')
    expect(io.stdout[1]).toMatch(/^ {2}error {2}rules\[0\]\.userAgent {2}"Brightbot 1\.0" is not a product token .*crawlers read only "Brightbot"/)
    expect(io.stdout[2]).toBe(`${' '.repeat(29)}fix: Use "Brightbot".`)
    expect(io.stdout[3]).toMatch(/^ {2}error {2}rules\[0\]\.disallow {3}"admin\/" does not start with "\/" or "\*"/)
    expect(io.stdout.at(-1)).toBe('✖ 2 errors, 0 warnings')
  })

  // Each distinct rendered file is linted once, headed by the contexts that serve it.
  it('lints the file rendered for each context, once per distinct file', () => {
    const io = captureIo()
    expect(lint({ config: { rules: { userAgent: '*', disallow: '/admin/' } } }, io)).toBe(0)
    expect(io.stdout).toEqual([
      'robots.config.ts',
      '  ✔ valid for localhost, example.com, robots-edge.example.workers.dev (production); example.com (staging)',
      '',
      'robots.txt for localhost, example.com (production)',
      '  ✔ no problems',
      '',
      'robots.txt for robots-edge.example.workers.dev (production)',
      '  ✔ no problems',
      '',
      'robots.txt for example.com (staging)',
      '  ✔ no problems',
      '',
      '✔ no problems',
    ])
  })

  // Warnings (a token in two groups) do not fail the run.
  it('shows warnings and exits 0 when there is no error', () => {
    const io = captureIo()
    expect(lint({ config: { rules: [{ userAgent: 'GPTBot', disallow: '/a' }, { userAgent: 'GPTBot', disallow: '/b' }] }, json: true }, io)).toBe(0)
    const doc = jsonOf(io)
    expect(doc.ok).toBe(true)
    expect(doc.issues).toEqual([{ severity: 'warning', path: 'rules[1].userAgent', message: expect.stringContaining('"GPTBot" is also named at rules[0].userAgent'), fix: 'Name each token in one group.', contexts: CHECK_CONTEXTS }])
  })

  // A config function can fail in some contexts only; each issue says where.
  it('names the contexts an issue is limited to', () => {
    const config = ({ env }: { env: string }): RobotsConfig => ({ rules: { userAgent: '*', disallow: env === 'staging' ? 'oops' : '/' } })
    const io = captureIo()
    expect(lint({ config }, io)).toBe(1)
    expect(io.text()).toContain('[for example.com (staging)]')
    const json = captureIo()
    lint({ config, json: true }, json)
    expect(jsonOf(json).issues).toEqual([expect.objectContaining({ path: 'rules.disallow', contexts: [{ host: 'example.com', env: 'staging' }] })])
  })

  // The rendered file's own diagnostics are listed under it, with their line in the served file.
  it('lints the rendered output too', () => {
    const io = captureIo()
    expect(lint({ config: { rules: { userAgent: '*', disallow: '/x', other: { 'X-Robots-Extra': 'on' } } } }, io)).toBe(0)
    expect(io.stdout.slice(3, 5)).toEqual(['robots.txt for localhost, example.com (production)', '  2  info  "X-Robots-Extra" is not a key crawlers are known to read; they ignore the line.  unknown-key'])
    expect(io.stdout.at(-1)).toBe('⚠ 0 errors, 0 warnings, 1 info')
  })

  // A stray key is a strict-validation error with its path.
  it('reports unknown keys', () => {
    const io = captureIo()
    expect(lint({ config: { rules: { userAgent: '*' }, json: true } as unknown as RobotsConfig, json: true }, io)).toBe(1)
    expect(jsonOf(io).issues).toEqual([expect.objectContaining({ severity: 'error', path: 'json', message: 'is not a known option.' })])
  })
})

describe('lint <file>: what the file says is shown as escapes', () => {
  it('a key holding a bidi override reads as one, never reordered', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'robots-edge-lint-'))
    try {
      const file = join(dir, 'robots.txt')
      await writeFile(file, 'User-agent: *\nDisal\u202elow: /x\n')
      const io = captureIo()
      lint({ file }, io)
      expect(io.text()).toContain('"Disal\\u{202E}low" is not a key crawlers are known to read')
      expect(io.text()).not.toContain('\u202e')
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
