import { describe, expect, it } from 'vitest'
import { buildPolicy, resolveConfig, validateConfig } from '../../../src/core/config/index.ts'

const ctx = { host: 'example.com', env: 'production' }

describe('config edge cases', () => {
  // Next.js allows a lone rule object without userAgent; it means every crawler.
  it('reads a lone rule without userAgent as `*`, as Next.js does', () => {
    const { config } = resolveConfig({ rules: { disallow: '/private/' } }, ctx)
    expect(buildPolicy(config).text).toBe('User-agent: *\nDisallow: /private/\n')
  })

  it('still requires userAgent in each rule of a list', () => {
    expect(validateConfig({ rules: [{ disallow: '/x' }] }).errors.map((e) => e.path)).toEqual(['rules[0].userAgent'])
  })

  it('refuses an empty contentSignal, which would write an empty line', () => {
    expect(validateConfig({ rules: { userAgent: '*', contentSignal: {} } }).errors).toEqual([
      { path: 'rules.contentSignal', message: 'names no signal, so it would write an empty Content-Signal line.', fix: 'Set at least one of: search, aiInput, aiTrain; or remove it.' },
    ])
  })

  it('writes a token named twice in one group once, and says so without talking of merging', () => {
    const input = { rules: [{ userAgent: ['GPTBot', 'gptbot'], disallow: '/' }] }
    expect(validateConfig(input).warnings).toEqual([{ path: 'rules[0].userAgent[1]', message: '"gptbot" is named twice in this group; it is written once.', fix: 'Remove the repetition.' }])
    expect(buildPolicy(resolveConfig(input, ctx).config).text).toBe('User-agent: GPTBot\nDisallow: /\n')
  })

  it('warns that an empty rule list allows everything', () => {
    const { errors, warnings } = validateConfig({ rules: [] })
    expect(errors).toEqual([])
    expect(warnings.map((w) => w.path)).toEqual(['rules'])
  })

  it('keeps tabs in comments, which are harmless there', () => {
    expect(validateConfig({ rules: { userAgent: '*', comment: 'a\tb' }, header: 'x\ty' }).errors).toEqual([])
  })
})

describe('a config function that fails at run time', () => {
  const input = ({ host }: { host: string }) => {
    if (host.startsWith('pr-')) throw new Error('no config for previews')
    return { rules: { userAgent: '*', allow: '/' } }
  }

  it('serves allow-all in production and disallow-all on staging, each logged once', async () => {
    const { createPolicies } = await import('../../../src/core/config/index.ts')
    const logged: string[] = []
    const policies = createPolicies(input, { log: (m) => logged.push(m) })
    expect(policies.get('pr-1.example.com', 'production').text).toBe('User-agent: *\nDisallow:\n')
    expect(policies.get('pr-1.example.com', 'staging').text).toContain('User-agent: *\nDisallow: /\n')
    policies.get('pr-1.example.com', 'staging')
    expect(logged).toHaveLength(2)
    expect(policies.get('pr-1.example.com', 'staging').config.guard.mode).toBe('off')
  })
})
