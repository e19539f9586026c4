import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { fixRobotsTxt, lintRobotsTxt, serializeRobotsTxt } from '../../../src/core/robots/index.ts'
import type { LintDiagnostic, RobotsTxtModel } from '../../../src/core/robots/index.ts'

// Unit tests of the reader comparison in lintRobotsTxt: where Google's
// reading (RFC 9309), the first-match reading (1996 draft,
// urllib.robotparser) and the 1994 prefix reading differ, a diagnostic names
// the readers, an example URL, each reader's deciding line and the fix.

const txt = (...lines: string[]): string => lines.join('\n') + '\n'
const READERS = (d: LintDiagnostic) => d.code.startsWith('reader-')
const readerDiagnostics = (body: string) => lintRobotsTxt(body).filter(READERS)
const FIRST = "first-match readers (the 1996 draft, e.g. Python's urllib.robotparser)"
const OLD = 'readers of the 1994 document'

describe('rule order: first match against longest match', () => {
  // The shipped config used to render this: urllib.robotparser read /admin/x as allowed for everyone.
  it('warns when Allow: / comes before Disallow: /admin/', () => {
    expect(readerDiagnostics(txt('User-agent: *', 'Allow: /', 'Disallow: /admin/'))).toEqual([
      {
        code: 'reader-order',
        severity: 'warning',
        line: 3,
        message: `Readers disagree on "/admin/" for crawlers without a group of their own: Google and other RFC 9309 readers disallow it (line 3, "Disallow: /admin/"), the longest match; ${FIRST} allow it (line 2, "Allow: /"), the first match in file order. 1 more URL differs the same way.`,
        fix: 'Write longer patterns first, and Allow before Disallow at equal length (robots-edge lint --fix writes this order).',
        example: {
          crawler: 'examplebot',
          url: '/admin/',
          readings: [
            { reader: 'rfc9309', allowed: false, line: 3 },
            { reader: 'first-match', allowed: true, line: 2 },
          ],
        },
      },
    ])
  })

  // A nested Allow after its Disallow: first-match readers never reach it; 1994 readers do not know Allow at all.
  it('warns about a nested Allow after its Disallow, and notes that 1994 readers skip it anyway', () => {
    const found = readerDiagnostics(txt('User-agent: googlebot', 'Disallow: /private/', 'Allow: /private/press/'))
    expect(found.map((d) => [d.code, d.severity, d.line, d.example?.url, d.example?.readings])).toEqual([
      [
        'reader-order',
        'warning',
        3,
        '/private/press/',
        [
          { reader: 'rfc9309', allowed: true, line: 3 },
          { reader: 'first-match', allowed: false, line: 2 },
        ],
      ],
      [
        'reader-allow',
        'info',
        3,
        '/private/press/',
        [
          { reader: 'rfc9309', allowed: true, line: 3 },
          { reader: 'prefix-1994', allowed: false, line: 2 },
        ],
      ],
    ])
    expect(found[1]!.message).toBe(
      `Readers disagree on "/private/press/" for googlebot: Google and other RFC 9309 readers allow it (line 3, "Allow: /private/press/"); ${OLD} know no Allow lines and disallow it (line 2, "Disallow: /private/"). They fetch less, never more (the guard never refuses them for it), and no order changes that. 1 more URL differs the same way.`,
    )
    expect(found[1]).not.toHaveProperty('fix')
  })

  // In the order --fix writes, only what no order can change is left.
  it('has nothing to warn about once fixed', () => {
    const fixed = fixRobotsTxt(txt('User-agent: googlebot', 'Disallow: /private/', 'Allow: /private/press/', '', 'User-agent: *', 'Allow: /', 'Disallow: /admin/')).text
    expect(readerDiagnostics(fixed).map((d) => d.code)).toEqual(['reader-allow'])
  })
})

describe('group choice: substring against exact token', () => {
  // A reader that takes the first group whose value is part of its name gives googlebot-image the googlebot group.
  it('warns when googlebot comes before googlebot-image', () => {
    const found = readerDiagnostics(txt('User-agent: googlebot', 'Disallow: /images/', '', 'User-agent: googlebot-image', 'Allow: /images/'))
    expect(found).toEqual([
      {
        code: 'reader-group',
        severity: 'warning',
        line: 1,
        message: `Readers disagree on "/images/" for googlebot-image: Google and other RFC 9309 readers allow it (line 5, "Allow: /images/"); ${FIRST} and ${OLD} take the first group whose value is part of "googlebot-image", the one at line 1 ("googlebot"), and disallow it (line 2, "Disallow: /images/"). 1 more URL differs the same way.`,
        fix: 'Name each crawler by its bare product token, in one group only, above groups naming a part of its name (robots-edge lint --fix writes this order).',
        example: {
          crawler: 'googlebot-image',
          url: '/images/',
          readings: [
            { reader: 'rfc9309', allowed: true, line: 5 },
            { reader: 'first-match', allowed: false, line: 2 },
            { reader: 'prefix-1994', allowed: false, line: 2 },
          ],
        },
      },
    ])
  })

  // RFC 9309 §2.2.1 merges every * group; urllib.robotparser reads the first only.
  it('warns about a second * group', () => {
    const [d, ...rest] = readerDiagnostics(txt('User-agent: *', 'Disallow: /a/', '', 'User-agent: *', 'Disallow: /b/'))
    expect(rest).toEqual([])
    expect(d).toMatchObject({ code: 'reader-group', severity: 'warning', line: 1 })
    expect(d!.message).toContain('read only the first "*" group, at line 1, and allow it (no rule matches)')
  })

  // A value with "/" never matches for readers that compare the whole value (they cut the crawler's name at "/").
  it('warns about a user-agent value with a version', () => {
    const [d] = readerDiagnostics(txt('User-agent: Googlebot/2.1', 'Disallow: /x'))
    expect(d).toMatchObject({ code: 'reader-group', example: { crawler: 'Googlebot', url: '/x' } })
    expect(d!.message).toContain('find no group for it and allow it (no rule matches)')
    expect(readerDiagnostics(fixRobotsTxt(txt('User-agent: Googlebot/2.1', 'Disallow: /x')).text)).toEqual([])
  })
})

describe('what no order can change (information)', () => {
  // Wildcards: readers without them read "*" and "$" literally.
  it('notes a wildcard rule, naming the readers that read it differently', () => {
    expect(readerDiagnostics(txt('User-agent: *', 'Disallow: /*.pdf$'))).toEqual([
      {
        code: 'reader-wildcard',
        severity: 'info',
        line: 2,
        message: `Readers disagree on "/x.pdf" for crawlers without a group of their own: Google and other RFC 9309 readers disallow it (line 2, "Disallow: /*.pdf$"); ${FIRST} and ${OLD} read "*" and "$" as plain characters and allow it (no rule matches). No order can make them agree: crawlers built on those readers read this rule differently.`,
        fix: 'Where a prefix says the same, write the prefix ("/downloads/" rather than "/downloads/*"); otherwise this is only information.',
        example: {
          crawler: 'examplebot',
          url: '/x.pdf',
          readings: [
            { reader: 'rfc9309', allowed: false, line: 2 },
            { reader: 'first-match', allowed: true, line: 0 },
            { reader: 'prefix-1994', allowed: true, line: 0 },
          ],
        },
      },
    ])
  })

  // Google extension: Allow: /dir/index.html also allows /dir/.
  it('notes the index.html extension', () => {
    const found = readerDiagnostics(txt('User-agent: *', 'Allow: /dir/index.html', 'Disallow: /dir/'))
    expect(found.map((d) => [d.code, d.example?.url])).toEqual([
      ['reader-allow', '/dir/index.html'],
      ['reader-extension', '/dir/'],
    ])
  })

  it('has nothing to say about a file every reader reads alike', () => {
    expect(readerDiagnostics(txt('User-agent: gptbot', 'Disallow: /', '', 'User-agent: *', 'Disallow: /admin/', 'Disallow: /tmp/'))).toEqual([])
  })
})

// Arbitraries: wildcard-free files in any order, with tokens that contain each other.
const TOKENS = ['*', 'a', 'ab', 'bot', 'googlebot', 'googlebot-image', 'bingbot']
const SEGMENTS = ['a', 'b', 'ab', 'x.pdf']
const literal = fc.tuple(fc.array(fc.constantFrom(...SEGMENTS), { maxLength: 3 }), fc.boolean()).map(([s, slash]) => (s.length === 0 ? '/' : '/' + s.join('/') + (slash ? '/' : '')))
const model = (pattern: fc.Arbitrary<string>): fc.Arbitrary<RobotsTxtModel> =>
  fc
    .array(
      fc.record({
        userAgents: fc.uniqueArray(fc.constantFrom(...TOKENS), { minLength: 1, maxLength: 3 }),
        rules: fc.array(fc.record({ type: fc.constantFrom('allow' as const, 'disallow' as const), pattern }), { minLength: 1, maxLength: 5 }),
        other: fc.constant([]),
      }),
      { minLength: 1, maxLength: 4 },
    )
    .map((groups) => ({ groups, sitemaps: [], other: [] }))
const wildPattern = fc.oneof(
  literal,
  literal.map((p) => p + '*'),
  literal.map((p) => `/*${p.slice(1)}$`),
)

describe('properties', () => {
  // Every warning about order or group choice is one --fix removes.
  it('warns only about what the reader-safe order fixes', () => {
    fc.assert(
      fc.property(model(fc.oneof(literal, wildPattern)), (m) => {
        const fixed = fixRobotsTxt(serializeRobotsTxt(m)).text
        expect(lintRobotsTxt(fixed).filter((d) => d.code === 'reader-order' || d.code === 'reader-group')).toEqual([])
      }),
      { numRuns: 300 },
    )
  })

  // Every reader diagnostic shows a real difference: the example's readings do not all agree.
  it('gives each reader difference an example whose readings differ', () => {
    fc.assert(
      fc.property(model(fc.oneof(literal, wildPattern)), (m) => {
        for (const d of readerDiagnostics(serializeRobotsTxt(m))) {
          const verdicts = new Set(d.example!.readings.map((r) => r.allowed))
          expect(verdicts.size).toBe(2)
          expect(d.example!.readings[0]!.reader).toBe('rfc9309')
        }
      }),
      { numRuns: 300 },
    )
  })
})
