import { describe, expect, it } from 'vitest'
import { agents, checkConfig, createPolicies, DEFAULTS, resolveConfig, validateConfig } from '../../../src/core/config/index.ts'

// The `protect` option: the agents `robots-edge impact` must not
// let a change shut out. Validated as strictly as the other options; it
// changes nothing in robots.txt or the guard.

const base = { rules: [{ userAgent: '*', disallow: '/admin/' }] }
const resolved = (config: object) => resolveConfig(config as never, { host: 'example.com', env: 'production' }).config

describe('protect', () => {
  it('defaults to the search-engine crawlers of the registry, lower case', () => {
    expect(resolved(base).protect).toEqual([...agents.searchEngines])
    expect(DEFAULTS.protect).toContain('googlebot')
    expect(DEFAULTS.protect).toContain('bingbot')
    expect(DEFAULTS.protect).not.toContain('gptbot')
  })

  it('takes product tokens in any case, "*" for every agent, and [] for none', () => {
    expect(resolved({ ...base, protect: ['Googlebot', 'Applebot'] }).protect).toEqual(['googlebot', 'applebot'])
    expect(resolved({ ...base, protect: ['*'] }).protect).toEqual(['*'])
    expect(resolved({ ...base, protect: [] }).protect).toEqual([])
    expect(checkConfig({ ...base, protect: [...agents.searchEngines, 'Applebot'] })).toEqual([])
  })

  it('refuses what is not a list of product tokens, naming the field and the fix', () => {
    expect(validateConfig({ ...base, protect: 'Googlebot' }).errors).toEqual([
      { path: 'protect', message: '"Googlebot" is not a list of product tokens.', fix: "Write protect: [...agents.searchEngines, 'Applebot'], or protect: [] to protect none." },
    ])
    expect(validateConfig({ ...base, protect: ['Googlebot/2.1', 42] }).errors.map((e) => e.path)).toEqual(['protect[0]', 'protect[1]'])
    expect(() => resolved({ ...base, protect: ['Google bot'] })).toThrow(/protect\[0\]: "Google bot" is not a product token/)
  })

  it('warns about a token no known agent has: likely a typo', () => {
    expect(validateConfig({ ...base, protect: ['Gooblebot'] }).warnings).toEqual([
      {
        path: 'protect[0]',
        message: '"Gooblebot" is not the token of any agent or tool robots-edge knows, so it protects only an agent recorded under exactly that token.',
        fix: 'Check the spelling against the operator\'s documentation (e.g. "Googlebot").',
      },
    ])
  })

  it('changes nothing in the served robots.txt', () => {
    const text = (config: object) => createPolicies(config as never).get('example.com', 'production').text
    expect(text({ ...base, protect: ['*'] })).toBe(text(base))
  })
})
