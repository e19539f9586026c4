import { describe, expect, it } from 'vitest'
import {
  buildPolicy,
  canonicalHost,
  checkConfig,
  ConfigError,
  createPolicies,
  INVALID_HOST,
  OTHER_HOSTS,
  POLICY_CACHE_CHARACTERS,
  POLICY_CACHE_LIMIT,
  resolveConfig,
  validateConfig,
  type ConfigContext,
  type RobotsConfig,
} from '../../../src/core/config/index.ts'

// Host names as robots-edge keys them (src/core/config/host.ts), the `hosts`
// option, and the per-isolate policy cache (src/core/config/policies.ts).

describe('canonicalHost', () => {
  it.each([
    ['example.com', 'example.com'],
    ['EXAMPLE.Com', 'example.com'],
    ['example.com.', 'example.com'],
    ['example.com..', 'example.com'],
    ['example.com:8080', 'example.com'],
    ['Example.COM.:443', 'example.com'],
    ['bücher.de', 'xn--bcher-kva.de'],
    ['xn--bcher-kva.de', 'xn--bcher-kva.de'],
    ['127.0.0.1', '127.0.0.1'],
    ['127.0.0.1.', '127.0.0.1'],
    ['0x7f.1', '127.0.0.1'],
    ['[::1]', '[::1]'],
    ['[::1]:8787', '[::1]'],
    ['[0:0::1]', '[::1]'],
    ['localhost', 'localhost'],
    ['_dmarc.example.com', '_dmarc.example.com'],
    // IDNA mapping (UTS #46), as the runtime applies it to the request URL, drops a zero-width space.
    ['g\u200bptbot.com', 'gptbot.com'],
    [`${'a'.repeat(63)}.com`, `${'a'.repeat(63)}.com`],
  ])('reads %j as %j', (raw, canonical) => {
    expect(canonicalHost(raw)).toBe(canonical)
  })

  it.each([
    ['empty', ''],
    ['only dots', '..'],
    ['an empty label', 'a..b'],
    ['a leading dot', '.example.com'],
    ['a label of 64 characters', `${'a'.repeat(64)}.com`],
    ['254 characters', `${'abcdefghi.'.repeat(25)}comx`],
    ['7,933 characters', 'x'.repeat(7933)],
    ['a space', 'a b.com'],
    ['a path', 'a.com/../b'],
    ['credentials', 'user@example.com'],
    ['a leading hyphen', '-a.com'],
    ['a trailing hyphen', 'a-.com'],
    ['five numbers', '1.2.3.4.5'],
    ['an IPv4 part over 255', '256.1.1.1'],
    ['a markup character', 'ex<ample.com'],
    ['a control character', 'exa\u0000mple.com'],
  ])('puts %s in the one invalid-host key', (_label, raw) => {
    expect(canonicalHost(raw)).toBe(INVALID_HOST)
  })

  it('never throws, whatever it is given', () => {
    for (const raw of [undefined, null, '[', '[zz]', ']', ':', ':80', '%', 'a%2e.com', '\ud800', '\u202e.com']) {
      expect(() => canonicalHost(raw as string)).not.toThrow()
      expect(canonicalHost(raw as string)).toMatch(/^[a-z0-9.:[\]_-]{1,253}$/)
    }
  })
})

describe('the hosts option', () => {
  const errorsOf = (config: unknown) => validateConfig(config).errors.map((e) => `${e.path}: ${e.message} ${e.fix ?? ''}`)

  it('takes exact host names', () => {
    expect(errorsOf({ rules: [], hosts: ['example.com', 'www.example.com', 'localhost', '[::1]'] })).toEqual([])
  })

  it('refuses what is not an exact, canonical host name, saying how to write it', () => {
    const errors = errorsOf({ rules: [], hosts: ['Example.com', 'example.com.', 'example.com:8080', '*.example.com', 'https://x.com', 7, OTHER_HOSTS] })
    expect(errors).toEqual([
      'hosts[0]: "Example.com" is not written as requests are keyed (lower case, no port, no trailing dot, IDNs as xn--). Write "example.com".',
      'hosts[1]: "example.com." is not written as requests are keyed (lower case, no port, no trailing dot, IDNs as xn--). Write "example.com".',
      'hosts[2]: "example.com:8080" is not written as requests are keyed (lower case, no port, no trailing dot, IDNs as xn--). Write "example.com".',
      'hosts[3]: "*.example.com" is not a host name. Write an exact name such as "example.com" (no scheme, port, path or wildcard).',
      'hosts[4]: "https://x.com" is not a host name. Write an exact name such as "example.com" (no scheme, port, path or wildcard).',
      'hosts[5]: 7 is not a host name. Write an exact name such as "example.com" (no scheme, port, path or wildcard).',
      'hosts[6]: "other-hosts.invalid" is not a host name. Write an exact name such as "example.com" (no scheme, port, path or wildcard).',
    ])
    expect(errorsOf({ rules: [], hosts: 'example.com' })).toEqual(["hosts: \"example.com\" is not a list of host names. Write hosts: ['example.com', 'www.example.com'], or remove it."])
    expect(errorsOf({ rules: [], hosts: [] })).toHaveLength(1)
  })

  const config: RobotsConfig = { rules: [{ userAgent: '*', disallow: '/admin/' }], hosts: ['example.com', 'www.example.com'] }

  it('serves listed hosts their rules and every other host one disallow-all policy, keyed other-hosts.invalid', () => {
    const policies = createPolicies(config)
    expect(policies.get('www.example.com', 'production').text).toContain('Disallow: /admin/')
    expect(policies.get('WWW.example.com.', 'production').config.host).toBe('www.example.com')
    const others = ['evil.example.com', 'example.org', 'x'.repeat(300), 'a..b'].map((h) => policies.get(h, 'production'))
    for (const policy of others) {
      expect(policy.config.host).toBe(OTHER_HOSTS)
      expect(policy.config.indexable).toBe(false)
      expect(policy.text).toContain('# Not production (a host not listed in `hosts`)')
    }
    expect(new Set(others)).toEqual(new Set([others[0]]))
  })

  it('lets `indexable: true` serve the rules to unlisted hosts too, still under the one key', () => {
    const policy = createPolicies({ ...config, indexable: true }).get('evil.example.com', 'production')
    expect(policy.config.host).toBe(OTHER_HOSTS)
    expect(policy.text).toContain('Disallow: /admin/')
  })

  it('must be the same for every host and environment: a config function is checked at start-up', () => {
    const varying = ({ host }: ConfigContext): RobotsConfig => ({ rules: [], hosts: host === 'localhost' ? ['localhost'] : ['example.com'] })
    expect(() => createPolicies(varying)).toThrow(/hosts: differs between host "localhost" \(production\) and host "example.com" \(production\)/)
  })

  it('checks a config function for every listed host at start-up, not on a live request', () => {
    const fn = ({ host }: ConfigContext): RobotsConfig => {
      if (host === 'shop.example.com') throw new Error('no rules for the shop')
      return { rules: [], hosts: ['example.com', 'shop.example.com'] }
    }
    expect(() => createPolicies(fn)).toThrow(ConfigError)
    expect(() => checkConfig(fn)).toThrow(/the config function threw for host "shop.example.com"/)
  })
})

describe('invalid Host headers without a hosts list', () => {
  it('share one disallow-all policy, whatever the header', () => {
    const policies = createPolicies({ rules: [{ userAgent: '*', allow: '/' }] })
    const policy = policies.get('x'.repeat(7933), 'production')
    expect(policy.config.host).toBe(INVALID_HOST)
    expect(policy.text).toContain('# Not production (the Host header is no host name)')
    expect(policies.get('a..b', 'production')).toBe(policy)
  })

  it('a trailing dot or two is the same host, never a second one', () => {
    const policies = createPolicies({ rules: [{ userAgent: '*', disallow: '/x' }] })
    const policy = policies.get('example.com', 'production')
    expect(policies.get('example.com.', 'production')).toBe(policy)
    expect(policies.get('example.com..', 'production')).toBe(policy)
    expect(policies.get('EXAMPLE.COM:8443', 'production')).toBe(policy)
  })
})

describe('the policy cache', () => {
  /** A config function that counts how often it is asked for each host (and returns a new object each time, so nothing is shared). */
  function counting() {
    const calls = new Map<string, number>()
    const input = ({ host }: ConfigContext): RobotsConfig => {
      calls.set(host, (calls.get(host) ?? 0) + 1)
      return { rules: [{ userAgent: '*', disallow: `/${host}/` }] }
    }
    return { input, calls }
  }

  it('evicts the least recently used host, not every host at once', () => {
    const { input, calls } = counting()
    const policies = createPolicies(input)
    const hot = policies.get('hot.example', 'production')
    for (let i = 0; i < POLICY_CACHE_LIMIT * 2; i++) {
      policies.get(`h${i}.example`, 'production')
      expect(policies.get('hot.example', 'production')).toBe(hot)
    }
    expect(calls.get('hot.example')).toBe(1)
    // The oldest of the others was evicted and is built again.
    policies.get('h0.example', 'production')
    expect(calls.get('h0.example')).toBe(2)
    // The most recent others are still cached.
    policies.get(`h${POLICY_CACHE_LIMIT * 2 - 1}.example`, 'production')
    expect(calls.get(`h${POLICY_CACHE_LIMIT * 2 - 1}.example`)).toBe(1)
  })

  it('bounds the compiled policies it keeps by their size, counting a shared one once', () => {
    // Some 165,000 characters of robots.txt per distinct policy: six fill the budget.
    const rules = Array.from({ length: 2500 }, (_, i) => ({
      userAgent: `bot-${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + (Math.floor(i / 26) % 26))}${String.fromCharCode(97 + Math.floor(i / 676))}`,
      disallow: [`/private-${i}/`, `/tmp-${i}/`],
    }))
    const shared: RobotsConfig = { rules }
    const calls = new Map<string, number>()
    const count = (host: string) => calls.set(host, (calls.get(host) ?? 0) + 1)
    const sharing = createPolicies(({ host }) => (count(`s:${host}`), shared))
    const apart = createPolicies(({ host }) => (count(`a:${host}`), { rules, header: host }))
    expect(sharing.get('h0.example', 'production').text.length).toBeGreaterThan(POLICY_CACHE_CHARACTERS / 7)
    for (let i = 1; i < 20; i++) {
      sharing.get(`h${i}.example`, 'production')
      apart.get(`h${i}.example`, 'production')
    }
    // One compiled policy for twenty hosts: all still cached. Twenty distinct ones: the oldest went.
    sharing.get('h1.example', 'production')
    apart.get('h1.example', 'production')
    expect([calls.get('s:h1.example'), calls.get('a:h1.example')]).toEqual([1, 2])
  })

  it('builds a config object once per environment: a new host shares the compiled matcher', () => {
    const policies = createPolicies({ rules: [{ userAgent: '*', disallow: '/admin/' }] })
    const a = policies.get('a.example', 'production')
    const b = policies.get('b.example', 'production')
    expect(b.matcher).toBe(a.matcher)
    expect(b.text).toBe(a.text)
    expect([a.config.host, b.config.host]).toEqual(['a.example', 'b.example'])
  })

  it('a shared policy equals the one resolved for that host alone', () => {
    const config: RobotsConfig = {
      rules: [
        { userAgent: '*', disallow: '/admin/' },
        { userAgent: 'GPTBot', disallow: '/', guard: 'block' },
      ],
      previewHosts: ['*.preview.example'],
      sitemap: 'https://example.com/s.xml',
      guard: { mode: 'log', status: 402 },
    }
    const policies = createPolicies(config)
    const contexts: ConfigContext[] = [
      { host: 'a.example', env: 'production' },
      { host: 'b.example', env: 'production' },
      { host: 'x.preview.example', env: 'production' },
      { host: 'x.workers.dev', env: 'production' },
      { host: 'a.example', env: 'staging' },
      { host: 'b.example', env: 'staging' },
    ]
    for (const context of contexts) {
      const shared = policies.get(context.host, context.env)
      const alone = buildPolicy(resolveConfig(config, context).config)
      expect({ config: shared.config, text: shared.text, version: shared.version }).toEqual({ config: alone.config, text: alone.text, version: alone.version })
      expect(shared.modeFor('gptbot')).toBe(alone.modeFor('gptbot'))
    }
  })
})
