import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { UsageError } from '../../src/cli/errors.ts'
import { lint } from '../../src/cli/lint.ts'
import { run } from '../../src/cli/main.ts'
import { CHECK_CONTEXTS, type RobotsConfig } from '../../src/core/config/index.ts'
import { captureIo, jsonOf } from '../support/cli-io.ts'

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
    expect((doc.diagnostics as { line: number; code: string }[]).map((d) => [d.line, d.code])).toEqual([
      [1, 'rule-outside-group'],
      [3, 'typo-accepted'],
      [4, 'pattern-start'],
      [5, 'sitemap-url'],
    ])
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
    expect(
      lint(
        {
          config: {
            rules: [
              { userAgent: 'GPTBot', disallow: '/a' },
              { userAgent: 'GPTBot', disallow: '/b' },
            ],
          },
          json: true,
        },
        io,
      ),
    ).toBe(0)
    const doc = jsonOf(io)
    expect(doc.ok).toBe(true)
    expect(doc.issues).toEqual([
      {
        severity: 'warning',
        path: 'rules[1].userAgent',
        message: expect.stringContaining('"GPTBot" is also named at rules[0].userAgent'),
        fix: 'Name each token in one group.',
        contexts: CHECK_CONTEXTS,
      },
    ])
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
    expect(io.stdout.slice(3, 5)).toEqual([
      'robots.txt for localhost, example.com (production)',
      '  2  info  "X-Robots-Extra" is not a key crawlers are known to read; they ignore the line.  unknown-key',
    ])
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
      expect(io.text()).toContain('"Disal\\u202Elow" is not a key crawlers are known to read')
      expect(io.text()).toContain('The line holds U+202E (RIGHT-TO-LEFT OVERRIDE) at character 6')
      expect(io.text()).not.toContain('\u202e')
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})

describe('lint <file> --fix', () => {
  const dirs: string[] = []
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
  })
  /** A robots.txt in a fresh temporary directory. */
  function file(text: string): string {
    const dir = mkdtempSync(join(tmpdir(), 'robots-edge-lint-'))
    dirs.push(dir)
    const path = join(dir, 'robots.txt')
    writeFileSync(path, text)
    return path
  }
  const UNSAFE =
    'User-agent: googlebot\nDisallow: /images/\nDisallow: /admin/\n\nUser-agent: *\nAllow: /\nDisallow: /admin/ # back office\n\nUser-agent: googlebot-image\nAllow: /images/\nDisallow: /admin/\n'

  // Without --fix, the warnings name the readers, the example URL, each deciding line and the fix.
  it('warns where the readers disagree', () => {
    const path = file(UNSAFE)
    const io = captureIo()
    expect(lint({ file: path }, io)).toBe(0)
    expect(io.stdout).toEqual([
      path,
      '  1  warning  Readers disagree on "/images/" for googlebot-image: Google and other RFC 9309 readers allow it (line 10, "Allow: /images/"); first-match readers (the 1996 draft, e.g. Python\'s urllib.robotparser) and readers of the 1994 document take the first group whose value is part of "googlebot-image", the one at line 1 ("googlebot"), and disallow it (line 2, "Disallow: /images/"). 1 more URL differs the same way.  reader-group',
      '              fix: Name each crawler by its bare product token, in one group only, above groups naming a part of its name (robots-edge lint --fix writes this order).',
      '  7  warning  Readers disagree on "/admin/" for crawlers without a group of their own: Google and other RFC 9309 readers disallow it (line 7, "Disallow: /admin/"), the longest match; first-match readers (the 1996 draft, e.g. Python\'s urllib.robotparser) allow it (line 6, "Allow: /"), the first match in file order. 1 more URL differs the same way.  reader-order',
      '              fix: Write longer patterns first, and Allow before Disallow at equal length (robots-edge lint --fix writes this order).',
      '⚠ 0 errors, 2 warnings',
    ])
  })

  // --fix writes the reader-safe form in place, says what it left out, and lints what it wrote.
  it('writes the reader-safe form and lints it', () => {
    const path = file(UNSAFE)
    const io = captureIo()
    expect(lint({ file: path, fix: true }, io)).toBe(0)
    expect(readFileSync(path, 'utf8')).toBe(
      'User-agent: googlebot-image\nAllow: /images/\nDisallow: /admin/\n\nUser-agent: googlebot\nDisallow: /images/\nDisallow: /admin/\n\nUser-agent: *\nDisallow: /admin/\nAllow: /\n',
    )
    expect(io.stdout).toEqual([
      path,
      "  fixed: wrote the reader-safe order (longest rule first, Allow first at equal length, groups whose token contains another's first, * last); the RFC 9309 meaning is unchanged",
      '  line 7: rule moved: longest pattern first, Allow before Disallow at equal length. (same meaning)',
      '  line 9: group "googlebot-image" moved: groups whose token contains another\'s first, * last. (same meaning)',
      '  left out 1 comment inside groups or after a record (line 7)',
      '✔ no problems',
    ])
    const again = captureIo()
    expect(lint({ file: path, fix: true }, again)).toBe(0)
    expect(again.stdout.slice(1, 2)).toEqual(['  already in the reader-safe order: nothing written'])
  })

  it('reports the fix in JSON', () => {
    const path = file(UNSAFE)
    const io = captureIo()
    expect(lint({ file: path, fix: true, json: true }, io)).toBe(0)
    expect(jsonOf(io)).toEqual({
      ok: true,
      file: path,
      fixed: {
        written: true,
        droppedComments: [7],
        droppedLines: [],
        rewrites: [
          { line: 7, kind: 'rule-moved', changesMeaning: false, message: 'rule moved: longest pattern first, Allow before Disallow at equal length.' },
          { line: 9, kind: 'group-moved', changesMeaning: false, message: 'group "googlebot-image" moved: groups whose token contains another\'s first, * last.' },
        ],
      },
      diagnostics: [],
    })
  })

  // The file robots-edge serves from the config is reader-safe already: --fix needs a file.
  it('refuses --fix without a file, and --fix on other commands', async () => {
    expect(() => lint({ fix: true, config: { rules: { userAgent: '*' } } }, captureIo())).toThrow(UsageError)
    const io = captureIo()
    expect(await run(['lint', '--fix'], io)).toBe(2)
    expect(io.stderr[0]).toBe('robots-edge: --fix needs a robots.txt file: the file robots-edge renders from the config is written in the reader-safe order already.')
    const check = captureIo()
    expect(await run(['check', 'x', '/', '--fix'], check)).toBe(2)
    expect(check.stderr[0]).toBe('robots-edge: check takes no --fix.')
  })

  // A file that can be read but not replaced (its directory takes no new files, even for root) is an error that names it.
  it('reports a file it cannot write, and leaves it whole', () => {
    expect(() => lint({ file: '/proc/self/status', fix: true }, captureIo())).toThrow(/^cannot write \/proc\/self\/status: E[A-Z]+$/)
  })
})

describe('lint: the hosts a config lists', () => {
  it('lints only the hosts a config serves, and the Worker sample when it lists none', () => {
    const io = captureIo()
    expect(lint({ config: { hosts: ['shop.test', 'www.shop.test'], rules: [{ userAgent: '*', allow: '/' }] }, source: 'robots.config.ts' }, io)).toBe(0)
    expect(io.text()).toContain('valid for shop.test, www.shop.test')
    expect(io.text()).not.toMatch(/example\.com|localhost|workers\.dev/)
    const json = captureIo()
    lint({ config: { hosts: ['shop.test'], rules: [{ userAgent: '*', allow: '/' }] }, source: 'robots.config.ts', json: true }, json)
    expect((jsonOf(json) as { files: { contexts: unknown[] }[] }).files.flatMap((f) => f.contexts)).toEqual([
      { host: 'shop.test', env: 'production' },
      { host: 'shop.test', env: 'staging' },
    ])
    const sample = captureIo()
    lint({ config: { rules: [{ userAgent: '*', allow: '/' }] }, source: 'robots.config.ts', json: true }, sample)
    expect((jsonOf(sample) as { files: { contexts: unknown[] }[] }).files.flatMap((f) => f.contexts)).toEqual([...CHECK_CONTEXTS])
  })
})
