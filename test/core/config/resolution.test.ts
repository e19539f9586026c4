import { describe, expect, it, vi } from 'vitest'
import { ConfigError, createPolicies, DEFAULTS, matchesHost, resolveConfig, type ConfigContext, type RobotsConfig } from '../../../src/core/config/index.ts'

// Unit tests of resolveConfig and createPolicies: defaults declared once,
// which deployments are indexable, config functions per host and
// environment, per-group guard modes, and the run-time fallback.

const BASE: RobotsConfig = {
  rules: [
    { userAgent: '*', disallow: '/admin/' },
    { userAgent: 'GPTBot', disallow: '/' },
  ],
}
const at = (host: string, env = 'production'): ConfigContext => ({ host, env })

describe('defaults', () => {
  it('fills guard, cacheControl and lists', () => {
    const { config, warnings } = resolveConfig({ rules: { userAgent: '*', disallow: '/x' } }, at('example.com'))
    expect(warnings).toEqual([])
    expect(config).toEqual({
      host: 'example.com',
      env: 'production',
      indexable: true,
      rules: [{ userAgent: ['*'], allow: [], disallow: ['/x'], crawlDelay: undefined, contentSignal: undefined, contentUsage: [], comment: undefined, other: [], guard: undefined }],
      sitemap: [],
      robotsHost: undefined,
      header: undefined,
      guard: { mode: 'log', status: 403, body: DEFAULTS.guard.body, headers: {}, spoofed: 'judge', exempt: [...DEFAULTS.guard.exempt], crawlDelay: 'measure' },
      cacheControl: 'public, max-age=300',
      forwardedHeaders: 'overwrite',
      noindex: [],
      noindexMeta: false,
      protect: [...DEFAULTS.protect],
    })
  })

  it('keeps what the config sets and merges refusal headers', () => {
    const { config } = resolveConfig(
      { rules: { userAgent: '*' }, guard: { mode: 'block', status: 402, headers: { 'Retry-After': '60' } }, cacheControl: 'no-cache', host: 'example.com', sitemap: 'https://example.com/s.xml' },
      at('example.com'),
    )
    expect(config.guard).toEqual({
      mode: 'block',
      status: 402,
      body: DEFAULTS.guard.body,
      headers: { 'Retry-After': '60' },
      spoofed: 'judge',
      exempt: [...DEFAULTS.guard.exempt],
      crawlDelay: 'measure',
    })
    expect(config.cacheControl).toBe('no-cache')
    expect(config.robotsHost).toBe('example.com')
    expect(config.sitemap).toEqual(['https://example.com/s.xml'])
  })

  // `other` values become [key, string] pairs, one per list item, so numbers serialise as written.
  it('flattens other records', () => {
    const { config } = resolveConfig({ rules: { userAgent: '*', other: { 'Clean-param': ['a', 'b'], 'Request-rate': 10 } } }, at('example.com'))
    expect(config.rules[0]!.other).toEqual([
      ['Clean-param', 'a'],
      ['Clean-param', 'b'],
      ['Request-rate', '10'],
    ])
  })

  it('throws ConfigError listing every error', () => {
    expect(() => resolveConfig({ rules: [{ userAgent: 'a b', disallow: 'x' }] } as RobotsConfig, at('example.com'))).toThrow(ConfigError)
    try {
      resolveConfig({ rules: [{ userAgent: 'a b', disallow: 'x' }] } as RobotsConfig, at('example.com'))
    } catch (e) {
      expect((e as ConfigError).issues.map((i) => i.path)).toEqual(['rules[0].userAgent', 'rules[0].disallow'])
    }
  })
})

describe('indexable: only production serves the real rules', () => {
  const indexable = (config: RobotsConfig, context: ConfigContext) => resolveConfig(config, context).config.indexable

  it('is indexable in production on a real host, not in another environment', () => {
    expect(indexable(BASE, at('example.com'))).toBe(true)
    expect(indexable(BASE, at('localhost'))).toBe(true)
    expect(indexable(BASE, at('example.com', 'staging'))).toBe(false)
    expect(indexable(BASE, at('example.com', 'development'))).toBe(false)
  })

  // *.workers.dev and *.pages.dev are previews by default: any subdomain, not the bare suffix or a look-alike.
  it('is not indexable on a preview host', () => {
    expect(indexable(BASE, at('robots-edge.example.workers.dev'))).toBe(false)
    expect(indexable(BASE, at('abc123.my-site.pages.dev'))).toBe(false)
    expect(indexable(BASE, at('evilworkers.dev'))).toBe(true)
    expect(matchesHost('Robots-Edge.Example.WORKERS.dev', ['*.workers.dev'])).toBe(true)
    expect(matchesHost('workers.dev', ['*.workers.dev'])).toBe(false)
  })

  // previewHosts replaces the defaults: hosts listed exactly or as *.suffix.
  it('follows previewHosts', () => {
    const config: RobotsConfig = { ...BASE, previewHosts: ['staging.example.com', '*.preview.example.com'] }
    expect(indexable(config, at('staging.example.com'))).toBe(false)
    expect(indexable(config, at('pr-12.preview.example.com'))).toBe(false)
    expect(indexable(config, at('example.com'))).toBe(true)
    expect(indexable(config, at('x.workers.dev'))).toBe(true)
  })

  it('is indexable everywhere with indexable: true', () => {
    const config: RobotsConfig = { ...BASE, indexable: true }
    expect(indexable(config, at('example.com', 'staging'))).toBe(true)
    expect(indexable(config, at('x.workers.dev'))).toBe(true)
  })

  // A deployment that is not indexable disallows everything for everyone and says why in the file.
  it('serves Disallow: / for everyone where not indexable, with the reason', () => {
    const policies = createPolicies(BASE)
    expect(policies.get('example.com', 'staging').text).toBe(
      [
        '# Not production (environment staging): every crawler is',
        '# disallowed so this deployment is never indexed. Set `indexable: true`',
        '# in robots.config.ts to serve the real rules here.',
        '',
        'User-agent: *',
        'Disallow: /',
        '',
      ].join('\n'),
    )
    expect(policies.get('x.workers.dev', 'production').text).toContain('# Not production (preview host x.workers.dev)')
    expect(policies.get('x.workers.dev', 'production').matcher.check('googlebot', '/')).toMatchObject({ allowed: false, group: '*' })
  })
})

describe('config functions', () => {
  const fn = ({ host, env }: ConfigContext): RobotsConfig => ({
    rules: { userAgent: '*', disallow: host === 'shop.example.com' ? '/checkout/' : '/admin/' },
    sitemap: `https://${host}/sitemap.xml`,
    indexable: env === 'staging' && host === 'demo.example.com',
  })

  it('is called per host and environment', () => {
    const policies = createPolicies(fn)
    expect(policies.get('shop.example.com', 'production').text).toBe('User-agent: *\nDisallow: /checkout/\n\nSitemap: https://shop.example.com/sitemap.xml\n')
    expect(policies.get('blog.example.com', 'production').text).toBe('User-agent: *\nDisallow: /admin/\n\nSitemap: https://blog.example.com/sitemap.xml\n')
    expect(policies.get('demo.example.com', 'staging').config.indexable).toBe(true)
    expect(policies.get('blog.example.com', 'staging').config.indexable).toBe(false)
  })

  // Hosts are compared lower case; no environment means production.
  it('gets a lower-case host and production by default, and is called once per host', () => {
    const seen: ConfigContext[] = []
    const policies = createPolicies((context) => (seen.push(context), BASE))
    seen.length = 0
    const a = policies.get('Shop.Example.COM', undefined)
    const b = policies.get('shop.example.com', 'production')
    expect(a).toBe(b)
    expect(seen).toEqual([{ host: 'shop.example.com', env: 'production' }])
  })
})

describe('guard modes per group', () => {
  const config: RobotsConfig = {
    rules: [
      { userAgent: '*', disallow: '/admin/' },
      { userAgent: ['GPTBot', 'CCBot'], disallow: '/', guard: 'block' },
      { userAgent: 'Googlebot', disallow: '/private/', guard: 'off' },
    ],
    guard: { mode: 'log' },
  }

  it('gives each group its own mode, and the file-wide mode to the rest', () => {
    const policy = createPolicies(config).get('example.com', 'production')
    expect(policy.modeFor('gptbot')).toBe('block')
    expect(policy.modeFor('ccbot')).toBe('block')
    expect(policy.modeFor('googlebot')).toBe('off')
    expect(policy.modeFor('*')).toBe('log')
    expect(policy.modeFor(null)).toBe('log')
    // The group of a verdict is the key modeFor reads.
    expect(policy.modeFor(policy.matcher.check('GPTBot', '/x').group)).toBe('block')
  })

  // Where the real rules are not served, neither are their per-group modes.
  it('uses the file-wide mode where not indexable', () => {
    const policy = createPolicies(config).get('example.com', 'staging')
    expect(policy.modeFor('gptbot')).toBe('log')
    expect(policy.modeFor('*')).toBe('log')
  })
})

describe('createPolicies: failures', () => {
  it('throws ConfigError at creation for a config that is bad everywhere', () => {
    expect(() => createPolicies({ rules: { userAgent: 'MJ12bot' } })).toThrow(ConfigError)
    expect(() =>
      createPolicies(() => {
        throw new Error('broken')
      }),
    ).toThrow(/the config function threw for host "localhost", env "production": broken/)
  })

  // A function that fails for one host at run time: that host gets allow-all with the guard off, and the error is logged once.
  it('falls back to allow-all with the guard off and logs once', () => {
    const log = vi.fn()
    const policies = createPolicies(
      ({ host }) => {
        if (host === 'broken.example.com') throw new Error('no config for this site')
        return BASE
      },
      { log },
    )
    const first = policies.get('broken.example.com', 'production')
    const again = policies.get('broken.example.com', 'production')
    expect(again).toBe(first)
    expect(first.text).toBe('User-agent: *\nDisallow:\n')
    expect(first.matcher.check('gptbot', '/admin/')).toMatchObject({ allowed: true })
    expect(first.modeFor('*')).toBe('off')
    expect(first.modeFor(null)).toBe('off')
    expect(log).toHaveBeenCalledTimes(1)
    expect(log.mock.calls[0]![0]).toBe(
      'robots-edge: config failed for host "broken.example.com", env "production"; serving allow-all with the guard off.\n' +
        'Invalid robots config:\n  - (config): the config function threw for host "broken.example.com", env "production": no config for this site Make it return a config for every host and environment.',
    )
    // Other hosts are unaffected.
    expect(policies.get('example.com', 'production').text).toContain('User-agent: GPTBot')
    expect(log).toHaveBeenCalledTimes(1)
  })

  it('falls back the same way when a function returns an invalid config for one host', () => {
    const log = vi.fn()
    const policies = createPolicies(({ host }) => (host === 'odd.example.com' ? { rules: { userAgent: '*', disallow: 'admin' } } : BASE), { log })
    expect(policies.get('odd.example.com', 'production').text).toBe('User-agent: *\nDisallow:\n')
    expect(log).toHaveBeenCalledTimes(1)
    expect(log.mock.calls[0]![0]).toContain('rules.disallow: "admin" does not start with "/" or "*"')
  })
})
