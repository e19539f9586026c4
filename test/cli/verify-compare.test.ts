// compareRobotsTxt: the live file against the configured one, as RFC 9309
// reads them, and the block Cloudflare's managed robots.txt prepends.
import { describe, expect, it } from 'vitest'
import { compareRobotsTxt, findPrepended } from '../../src/cli/verify-compare.ts'

const CONFIGURED = `# robots.txt for example.com

User-agent: GPTBot
User-agent: CCBot
Disallow: /

User-agent: *
Allow: /
Disallow: /admin/
Content-Signal: search=yes, ai-train=no

Sitemap: https://example.com/sitemap.xml
`

/** The shape of what Cloudflare prepends (its notice shortened; its markers and groups as the zone serves them). */
const NOTICE = `# As a condition of accessing this website, you agree to abide by the following
# content signals:
# ai-train: training or fine-tuning AI models.

`
const MANAGED_GROUPS = `User-Agent: *
Content-signal: search=yes,ai-train=no
Allow: /

User-agent: Amazonbot
Disallow: /
`
const MANAGED = `${NOTICE}# BEGIN Cloudflare Managed content

${MANAGED_GROUPS}
# END Cloudflare Managed Content
`

const kinds = (live: string) => compareRobotsTxt(live, CONFIGURED).differences.map((d) => `${d.kind} ${d.token ?? '-'} ${d.text}`)

describe('RFC 9309 §2.2: comments, blank lines, order and white space carry no meaning', () => {
  it('the same file is identical and has no differences', () => {
    expect(compareRobotsTxt(CONFIGURED, CONFIGURED)).toEqual({ identical: true, differences: [], prepended: null })
  })

  it('reordered groups and rules, other comments, CRLF and key case: no differences, not identical', () => {
    const live =
      'user-agent: *\r\nDISALLOW:/admin/   # private\r\nallow: /\r\ncontent-signal: search=yes,ai-train=no\r\n\r\nSitemap: https://example.com/sitemap.xml\r\nuser-agent: ccbot\r\nuser-agent: gptbot\r\ndisallow: /\r\n'
    const result = compareRobotsTxt(live, CONFIGURED)
    expect(result.identical).toBe(false)
    expect(result.differences).toEqual([])
  })

  it('§2.2.1: a token named in two groups reads as one merged group; split groups for tokens are the same rules', () => {
    const live =
      'User-agent: GPTBot\nDisallow: /\n\nUser-agent: CCBot\nDisallow: /\n\nUser-agent: *\nAllow: /\nDisallow: /admin/\nContent-Signal: search=yes, ai-train=no\nSitemap: https://example.com/sitemap.xml\n'
    expect(kinds(live)).toEqual([])
  })

  it('§2.2.2: patterns compare after percent-encoding normalisation', () => {
    const configured = 'User-agent: *\nDisallow: /café/\n'
    expect(compareRobotsTxt('User-agent: *\nDisallow: /caf%C3%A9/\n', configured).differences).toEqual([])
  })
})

describe('each difference is named, with its token and line', () => {
  it('a rule removed and a rule added, per token', () => {
    const live = CONFIGURED.replace('Disallow: /admin/', 'Disallow: /private/')
    const [removed, added] = compareRobotsTxt(live, CONFIGURED).differences
    expect(removed).toMatchObject({ kind: 'rule-removed', token: '*', text: 'Disallow: /admin/', file: 'configured', line: 9 })
    expect(added).toMatchObject({ kind: 'rule-added', token: '*', text: 'Disallow: /private/', file: 'live', line: 9, prepended: false })
  })

  it('a missing group, and an extra one with its rules', () => {
    const live = CONFIGURED.replace('User-agent: CCBot\n', '') + '\nUser-agent: Bytespider\nDisallow: /\n'
    expect(kinds(live)).toEqual(['missing-group ccbot User-agent: CCBot', 'extra-group bytespider User-agent: Bytespider'])
    expect(compareRobotsTxt(live, CONFIGURED).differences[1]?.detail).toEqual(['Disallow: /'])
  })

  it('records (Crawl-delay, Content-Signal) and sitemaps', () => {
    const live = CONFIGURED.replace('Content-Signal: search=yes, ai-train=no', 'Crawl-delay: 5').replace('sitemap.xml', 'sitemap-2.xml')
    expect(kinds(live)).toEqual([
      'record-removed * Content-Signal: search=yes, ai-train=no',
      'record-added * Crawl-delay: 5',
      'sitemap-removed - Sitemap: https://example.com/sitemap.xml',
      'sitemap-added - Sitemap: https://example.com/sitemap-2.xml',
    ])
  })

  it('a 404 page or an empty body: every group missing', () => {
    expect(kinds('')).toEqual([
      'missing-group gptbot User-agent: GPTBot',
      'missing-group ccbot User-agent: CCBot',
      'missing-group * User-agent: *',
      'sitemap-removed - Sitemap: https://example.com/sitemap.xml',
    ])
  })
})

describe("Cloudflare's managed robots.txt, prepended by the zone", () => {
  it('with its markers: recognised, its second * group and its rules named as its own', () => {
    const result = compareRobotsTxt(MANAGED + CONFIGURED, CONFIGURED)
    expect(result.identical).toBe(false)
    expect(result.prepended).toMatchObject({ managed: true, fromLine: 1, toLine: 14, tokens: ['*', 'amazonbot'] })
    expect(result.prepended?.evidence).toContain('BEGIN Cloudflare Managed content')
    // Merged, the * group reads the same rules (its Allow: / and Content-Signal are the config's too): only the group is extra.
    expect(result.differences).toEqual([
      { kind: 'extra-group', token: '*', text: 'User-agent: *', line: 7, file: 'live', prepended: true, detail: ['Allow: /', 'Content-signal: search=yes,ai-train=no'] },
      { kind: 'extra-group', token: 'amazonbot', text: 'User-agent: Amazonbot', line: 11, file: 'live', prepended: true, detail: ['Disallow: /'] },
    ])
  })

  it('its notice alone, before the configured file: recognised', () => {
    const prepended = findPrepended(NOTICE + MANAGED_GROUPS + '\n' + CONFIGURED, CONFIGURED)
    expect(prepended).toMatchObject({ managed: true, fromLine: 1, toLine: 11 })
    expect(prepended?.evidence).toContain('As a condition of accessing this website')
  })

  it('a Content-Signal group alone before an intact copy of the configured file: recognised', () => {
    const live = 'User-agent: *\nContent-Signal: search=yes,ai-train=no\nAllow: /\n\n' + CONFIGURED
    const result = compareRobotsTxt(live, CONFIGURED)
    expect(result.prepended).toMatchObject({ managed: true, fromLine: 1, toLine: 4, tokens: ['*'] })
    expect(kinds(live)).toEqual(['extra-group * User-agent: *'])
    expect(result.differences[0]?.prepended).toBe(true)
  })

  it('with its markers but the Worker file changed too: the managed group and the change both named', () => {
    const result = compareRobotsTxt(MANAGED + CONFIGURED.replace('Disallow: /admin/\n', ''), CONFIGURED)
    expect(result.prepended?.managed).toBe(true)
    expect(result.differences.map((d) => [d.kind, d.token, d.prepended])).toEqual([
      ['extra-group', '*', true],
      ['extra-group', 'amazonbot', true],
      ['rule-removed', '*', false],
    ])
  })

  it('other text before the configured file is prepended, not managed', () => {
    const live = 'User-agent: BadBot\nDisallow: /\n\n' + CONFIGURED
    expect(compareRobotsTxt(live, CONFIGURED).prepended).toMatchObject({ managed: false, fromLine: 1, toLine: 3, tokens: ['badbot'] })
    expect(kinds(live)).toEqual(['extra-group badbot User-agent: BadBot'])
  })

  it('a file with none of its marks has nothing prepended', () => {
    expect(compareRobotsTxt('User-agent: *\nDisallow: /\n', CONFIGURED).prepended).toBeNull()
  })
})
