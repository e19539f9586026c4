import { describe, expect, it } from 'vitest'
import { ConfigError, createPolicies, formatIssue, resolveConfig, validateConfig, type RobotsConfig } from '../../../src/core/config/index.ts'
import { USER_TRIGGERED_FETCHERS } from '../../../src/core/agents/exempt.ts'
import { crawlDelayOf } from '../../../src/core/judge/event.ts'

// The guard's config options: `guard.exempt` and `forwardedHeaders`. Checked
// strictly at start-up, each error naming the field and the fix.

const base: RobotsConfig = { rules: [{ userAgent: '*', disallow: '/admin/' }] }
const errorsOf = (config: unknown) => validateConfig(config).errors.map(formatIssue)
const warningsOf = (config: unknown) => validateConfig(config).warnings.map(formatIssue)
const resolved = (config: RobotsConfig) => resolveConfig(config, { host: 'example.com', env: 'production' }).config

describe('guard.exempt', () => {
  it("defaults to the registry's user-triggered fetchers", () => {
    expect(resolved(base).guard.exempt).toEqual([...USER_TRIGGERED_FETCHERS])
  })

  it('is stored in lower case, as tokens compare', () => {
    expect(resolved({ ...base, guard: { exempt: ['ChatGPT-User', 'CURL'] } }).guard.exempt).toEqual(['chatgpt-user', 'curl'])
    expect(resolved({ ...base, guard: { exempt: [] } }).guard.exempt).toEqual([])
  })

  it('must be a list', () => {
    expect(errorsOf({ ...base, guard: { exempt: 'ChatGPT-User' } })).toEqual([
      'guard.exempt: "ChatGPT-User" is not a list of product tokens. Write exempt: [\'ChatGPT-User\', \'Perplexity-User\'], or exempt: [] to judge every automated client by the "*" group.',
    ])
  })

  it('refuses "*", which would undo the * group', () => {
    expect(errorsOf({ ...base, guard: { exempt: ['*'] } })).toEqual([
      'guard.exempt[0]: "*" would exempt every client from the "*" group, so only groups naming a client would judge it. List the fetchers to exempt by their tokens, or set guard.mode: \'off\' to judge nothing.',
    ])
  })

  it('refuses what is not a product token, saying what crawlers would read', () => {
    expect(errorsOf({ ...base, guard: { exempt: ['ChatGPT-User/1.0', 42] } })).toEqual([
      'guard.exempt[0]: "ChatGPT-User/1.0" is not a product token (letters, "-" and "_" only, RFC 9309 §2.2.1): crawlers read only "ChatGPT-User", the part before the first other character. Use "ChatGPT-User".',
      'guard.exempt[1]: 42 is not a string. Write a product token such as "Googlebot", or "*".',
    ])
  })

  it('warns about a token no known agent or tool has (a typo exempts nobody)', () => {
    expect(errorsOf({ ...base, guard: { exempt: ['ChatGPT-Users'] } })).toEqual([])
    expect(warningsOf({ ...base, guard: { exempt: ['ChatGPT-Users', 'curl'] } })).toEqual([
      'guard.exempt[0]: "ChatGPT-Users" is not the token of any agent or tool robots-edge knows, so it exempts only a client identified by exactly that token. Check the spelling against the operator\'s documentation (e.g. "ChatGPT-User").',
    ])
  })

  it('fails at start-up, never on a live request', () => {
    expect(() => createPolicies({ ...base, guard: { exempt: ['*'] } })).toThrow(ConfigError)
  })
})

describe('forwardedHeaders', () => {
  it('defaults to overwrite, the safe choice', () => {
    expect(resolved(base).forwardedHeaders).toBe('overwrite')
    expect(resolved({ ...base, forwardedHeaders: 'pass' }).forwardedHeaders).toBe('pass')
  })

  it.each([['keep'], [true], [''], ['Overwrite']])('refuses %j with the choices and what each does', (value) => {
    expect(errorsOf({ ...base, forwardedHeaders: value })).toEqual([
      `forwardedHeaders: ${typeof value === 'string' ? JSON.stringify(value) : String(value)} is not an option. Use 'overwrite' (the default: the client's X-Forwarded-*, Forwarded, X-Real-IP, X-Original-URL and X-Rewrite-URL are replaced by what the Worker knows) or 'pass' (forwarded as sent: only for an origin behind a proxy of yours that sets them).`,
    ])
  })
})

describe('guard.crawlDelay', () => {
  it("defaults to 'measure', and takes 'enforce'", () => {
    expect(resolved(base).guard.crawlDelay).toBe('measure')
    expect(resolved({ ...base, guard: { crawlDelay: 'enforce' } }).guard.crawlDelay).toBe('enforce')
  })

  it('refuses anything else, naming the two options', () => {
    expect(errorsOf({ ...base, guard: { crawlDelay: 'strict' } })).toEqual(["guard.crawlDelay: \"strict\" is not an option. Use 'measure' or 'enforce'."])
    // The same check still guards `spoofed`.
    expect(errorsOf({ ...base, guard: { spoofed: 'allow' } })).toEqual(["guard.spoofed: \"allow\" is not an option. Use 'judge' or 'block'."])
  })

  it('gives each event the delay of the group that applied, only where that file is served', () => {
    const config: RobotsConfig = {
      rules: [
        { userAgent: '*', allow: '/' },
        { userAgent: ['Bingbot', 'Yandex'], crawlDelay: 2.5 },
      ],
      hosts: ['example.com'],
    }
    const policies = createPolicies(config)
    const served = policies.get('example.com', 'production')
    expect(crawlDelayOf(served, 'bingbot')).toBe(2.5)
    expect(crawlDelayOf(served, 'yandex')).toBe(2.5)
    expect(crawlDelayOf(served, '*')).toBeUndefined()
    expect(crawlDelayOf(served, null)).toBeUndefined()
    // Staging serves disallow-all, with no Crawl-delay in it.
    expect(crawlDelayOf(policies.get('example.com', 'staging'), 'bingbot')).toBeUndefined()
  })
})
