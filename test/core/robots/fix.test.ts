import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { compileRobotsTxt, fixRobotsTxt } from '../../../src/core/robots/index.ts'

// Unit tests of fixRobotsTxt, what `robots-edge lint --fix` writes: the
// reader-safe order, the same RFC 9309 meaning, and the comments that still
// make sense.

const txt = (...lines: string[]): string => lines.join('\n') + '\n'

describe('fixRobotsTxt', () => {
  it('writes the reader-safe order and keeps the header, group comments and the comment at the end', () => {
    const body = txt(
      '# robots.txt for example.com',
      '',
      '# everyone',
      'User-agent: *',
      'Allow: /',
      'Disallow: /admin/ # the back office',
      '',
      '# Google',
      'User-agent: googlebot',
      '# a comment between rules',
      'Disallow: /images/',
      '',
      'User-agent: googlebot-image',
      'Allow: /images/',
      '',
      'Sitemap: https://example.com/sitemap.xml',
      '',
      '# legal notice',
      '# second line',
    )
    const fixed = fixRobotsTxt(body)
    expect(fixed.text).toBe(
      txt(
        '# robots.txt for example.com',
        '',
        'User-agent: googlebot-image',
        'Allow: /images/',
        '',
        '# Google',
        'User-agent: googlebot',
        'Disallow: /images/',
        '',
        '# everyone',
        'User-agent: *',
        'Disallow: /admin/',
        'Allow: /',
        '',
        'Sitemap: https://example.com/sitemap.xml',
        '',
        '# legal notice',
        '# second line',
      ),
    )
    expect(fixed).toMatchObject({ changed: true, droppedComments: [6, 10], droppedLines: [] })
  })

  // Values as written, except one with "/", which readers comparing the whole value never match.
  it('keeps user-agent values as written, but writes the token of a value with a version', () => {
    const fixed = fixRobotsTxt(txt('User-agent: MJ12bot', 'User-agent: Googlebot/2.1', 'User-agent: Offline Explorer', 'Disallow: /'))
    expect(fixed.text).toBe(txt('User-agent: MJ12bot', 'User-agent: Googlebot', 'User-agent: Offline Explorer', 'Disallow: /'))
  })

  // Lines no crawler applies are left out and listed; typos are written as the keys RFC 9309 names.
  it('leaves out what no crawler reads, and spells keys out', () => {
    const fixed = fixRobotsTxt(txt('Disallow: /early', 'User-agent: *', 'Disalow /x', 'this is junk', 'Allow: /'))
    expect(fixed.text).toBe(txt('User-agent: *', 'Disallow: /x', 'Allow: /'))
    expect(fixed.droppedLines).toEqual([1, 4])
  })

  it('reports a file already in the reader-safe order as unchanged', () => {
    const body = txt('User-agent: gptbot', 'Disallow: /', '', 'User-agent: *', 'Disallow: /admin/', 'Allow: /')
    expect(fixRobotsTxt(body)).toEqual({ text: body, changed: false, droppedComments: [], droppedLines: [], rewrites: [] })
  })

  // A file's opening comment speaks for the file: it stays on top even when the group below it moves.
  it('keeps the leading comment at the top when the first group moves', () => {
    const fixed = fixRobotsTxt(txt('# example.com: keep out of /admin/', 'User-agent: *', 'Disallow: /admin/', '', 'User-agent: gptbot', 'Disallow: /'))
    expect(fixed.text).toBe(txt('# example.com: keep out of /admin/', '', 'User-agent: gptbot', 'Disallow: /', '', 'User-agent: *', 'Disallow: /admin/'))
    expect(fixed.rewrites).toEqual([{ line: 5, kind: 'group-moved', changesMeaning: false, message: expect.stringContaining('group "gptbot" moved') }])
  })

  // Every rewrite is listed with its line; those that change what some reader reads say so.
  it('lists every rewrite with its line, and which change meaning for some readers', () => {
    const fixed = fixRobotsTxt(
      txt(
        'User-agent: *', //              1
        'Allow: /', //                   2
        'Disalow: /admin/', //           3  typo, and moves above line 2
        'Disallow: /admin/', //          4  a repeat of line 3
        '',
        'User-agent: Googlebot/2.1', //  6  value cut to its token; merged with line 11's group
        'Disallow /x', //                7  no colon
        '',
        'User-agent: googlebot-image', // 9  moves above googlebot
        'Allow: /',
        'User-agent: googlebot', //     11
        'Disallow: /y',
      ),
    )
    expect(fixed.rewrites.map(({ line, kind, changesMeaning }) => [line, kind, changesMeaning])).toEqual([
      [3, 'key-spelling', true],
      [3, 'rule-moved', false],
      [4, 'repeated', false],
      [6, 'user-agent-value', true],
      [6, 'group-merged', true],
      [7, 'key-spelling', true],
      [9, 'group-moved', false],
      [11, 'group-merged', true],
    ])
    expect(fixed.rewrites[0]!.message).toBe(
      '"Disalow" written as "Disallow:". Google and other RFC 9309 readers already read it so; readers that skip a key they do not know (Python\'s urllib.robotparser among them) ignored this line and will now apply it.',
    )
    expect(fixed.rewrites[5]!.message).toMatch(/^"Disallow" without a colon written as "Disallow:"/)
  })

  // A rule named twice in one group (or in two merged groups) is written once.
  it('writes a repeated rule once', () => {
    const fixed = fixRobotsTxt(txt('User-agent: gptbot', 'Disallow: /', 'Crawl-delay: 2', '', 'User-agent: GPTBot', 'Disallow: /', 'crawl-delay: 2'))
    expect(fixed.text).toBe(txt('User-agent: gptbot', 'Crawl-delay: 2', 'Disallow: /'))
  })

  it('drops a byte-order mark and reads CRLF', () => {
    expect(fixRobotsTxt('\uFEFFUser-agent: *\r\nAllow: /\r\nDisallow: /a\r\n').text).toBe(txt('User-agent: *', 'Disallow: /a', 'Allow: /'))
  })
})

describe('fixRobotsTxt: properties', () => {
  const line = fc.oneof(
    fc.constantFrom('User-agent: *', 'User-agent: googlebot', 'User-agent: googlebot-image', 'User-agent: Googlebot/2.1', 'User-agent: bot', 'User-agent: MJ12bot'),
    fc.tuple(fc.constantFrom('Allow', 'Disallow', 'Disalow'), fc.constantFrom('', '/', '/a', '/a/', '/a/b', '/*.pdf$', '/a*', '/index.html')).map(([k, v]) => `${k}: ${v}`),
    fc.constantFrom('# note', '', 'Crawl-delay: 5', 'Sitemap: https://example.com/s.xml', 'Noindex: /x', 'junk'),
  )
  const body = fc.array(line, { maxLength: 16 }).map((lines) => lines.join('\n'))
  const url = fc.constantFrom('/', '/a', '/a/', '/a/b', '/a/b/c', '/x.pdf', '/a.pdf', '/b', '/index.html')
  const token = fc.constantFrom('googlebot', 'googlebot-image', 'bot', 'mj', 'otherbot')

  // The RFC 9309 meaning is kept: every verdict and group.
  it('keeps every verdict', () => {
    fc.assert(
      fc.property(body, token, url, (text, t, u) => {
        const before = compileRobotsTxt(text).check(t, u)
        const after = compileRobotsTxt(fixRobotsTxt(text).text).check(t, u)
        expect({ allowed: after.allowed, group: after.group }).toEqual({ allowed: before.allowed, group: before.group })
      }),
      { numRuns: 1000 },
    )
  })

  // Nothing that changes a reader's reading goes unsaid: every accepted typo and missing colon is listed.
  it('lists every key it spells out', () => {
    fc.assert(
      fc.property(body, (text) => {
        const fixed = fixRobotsTxt(text)
        const spelled = new Set(fixed.rewrites.filter((r) => r.kind === 'key-spelling').map((r) => r.line))
        const lines = text.split('\n')
        lines.forEach((l, i) => {
          const rule = /^(Disalow|Disallow|Allow):? /.exec(l)
          const dropped = fixed.droppedLines.includes(i + 1)
          if (rule && rule[1] === 'Disalow' && !dropped) expect(spelled.has(i + 1)).toBe(true)
        })
        expect(fixed.rewrites.map((r) => r.line)).toEqual([...fixed.rewrites.map((r) => r.line)].sort((a, b) => a - b))
      }),
      { numRuns: 500 },
    )
  })

  it('is idempotent', () => {
    fc.assert(
      fc.property(body, (text) => {
        const once = fixRobotsTxt(text).text
        expect(fixRobotsTxt(once)).toMatchObject({ text: once, changed: false })
      }),
      { numRuns: 500 },
    )
  })
})
