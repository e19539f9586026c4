import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { compileRobotsTxt, fixRobotsTxt } from '../../src/robots/index.ts'

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
    expect(fixed.text).toBe(txt(
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
    ))
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
    expect(fixRobotsTxt(body)).toEqual({ text: body, changed: false, droppedComments: [], droppedLines: [] })
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
