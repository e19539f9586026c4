import { describe, expect, it } from 'vitest'
import { compare, formatComparison, knownNames, nameOfPattern, type CrawlerListEntry } from '../../scripts/registry-check.ts'

describe('registry:check', () => {
  // A pattern that only spells a name is compared as that name, lower case.
  it.each([
    ['Googlebot\\/', 'googlebot'],
    ['^Apache-HttpClient', 'apache-httpclient'],
    ['[pP]ingdom', 'pingdom'],
    ['S[eE][mM]rushBot', 'semrushbot'],
    ['archive\\.org_bot', 'archive.org_bot'],
    ['Screaming Frog SEO Spider', 'screaming frog seo spider'],
    ['LCC ', 'lcc'],
  ])('reads %s as %s', (pattern, name) => {
    expect(nameOfPattern(pattern)).toBe(name)
  })

  // A real regular expression cannot be compared with names.
  it.each([['Y!J|YahooSeeker'], ['(^| )sentry\\/'], ['pinterest\\.com\\/bot'], ['^[\\w]+bot$'], ['']])('skips %j', (pattern) => {
    expect(nameOfPattern(pattern)).toBeUndefined()
  })

  it('knows the registry, the tools and their tokens', () => {
    const known = knownNames()
    for (const name of ['googlebot', 'gptbot', 'chatgpt-user', 'curl', 'python-requests', 'sogou web spider', 'pingdom.com']) expect(known.has(name), name).toBe(true)
  })

  it('sorts lacking names by whether identifyAgent sees them anyway', () => {
    const list: CrawlerListEntry[] = [
      { pattern: 'Googlebot\\/', instances: ['Googlebot/2.1'] },
      { pattern: 'AcmeBot', instances: ['AcmeBot/1.0', 'Mozilla/5.0 (compatible; AcmeBot)'], tags: ['seo'] },
      { pattern: 'Quietly', instances: ['Quietly/2.0 (x)'], tags: ['monitoring'] },
      { pattern: 'Listed', tags: ['seo'] },
      { pattern: 'Half', instances: ['Half/1.0 seen', 'Half/1.0'] },
      { pattern: 'a|b' },
    ]
    const seen = (ua: string) => ua.includes('AcmeBot') || ua === 'Half/1.0 seen'
    const c = compare(list, new Set(['googlebot']), seen, new Set(['listed']))
    expect(c.listed).toBe(6)
    expect(c.known).toBe(1)
    expect(c.notNames).toEqual(['a|b'])
    expect(c.seenAnyway.map((l) => l.name)).toEqual(['acmebot', 'listed'])
    expect(c.missing).toEqual([
      { name: 'quietly', tags: ['monitoring'], instances: 1, seen: 0 },
      { name: 'half', tags: [], instances: 2, seen: 1 },
    ])
    const text = formatComparison(c)
    expect(text).toContain('6 patterns; 1 known to the registry, 1 are regular expressions')
    expect(text).toMatch(/monitoring \(1\):\n {4}quietly \(0\/1 seen\)/)
    expect(text).toMatch(/untagged \(1\):\n {4}half \(1\/2 seen\)/)
  })
})
