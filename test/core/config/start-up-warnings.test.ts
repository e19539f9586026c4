import { describe, expect, it } from 'vitest'
import { createPolicies } from '../../../src/core/config/index.ts'

describe('createPolicies: the config warnings at start-up', () => {
  it('logs a token named in two groups once, when the store is made, and not per request', () => {
    const warned: string[] = []
    const policies = createPolicies(
      {
        rules: [
          { userAgent: ['GPTBot', 'CCBot'], disallow: '/' },
          { userAgent: 'GPTBot', disallow: '/private/' },
          { userAgent: '*', allow: '/' },
        ],
      },
      { warn: (m) => warned.push(m) },
    )
    policies.get('example.com', 'production')
    policies.get('other.test', 'production')
    expect(warned).toHaveLength(1)
    expect(warned[0]).toMatch(/^robots-edge: warning: .*GPTBot.* is also named at .*crawlers merge the two groups/)
  })

  it('logs nothing for a config without warnings', () => {
    const warned: string[] = []
    createPolicies({ rules: [{ userAgent: '*', allow: '/' }] }, { warn: (m) => warned.push(m) })
    expect(warned).toEqual([])
  })
})
