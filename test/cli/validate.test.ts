import { describe, expect, it } from 'vitest'
import { validate } from '../../src/cli/validate.ts'
import type { RobotsConfig } from '../../src/core/config/index.ts'
import { captureIo, jsonOf } from '../support/cli-io.ts'

// Unit tests of `validate`, the predeploy gate: checkConfig in every start-up context.

describe('validate', () => {
  it('passes a valid config and names the contexts it checked', () => {
    const io = captureIo()
    expect(validate({ config: { rules: { userAgent: '*', disallow: '/admin/' } } }, io)).toBe(0)
    expect(io.stdout).toEqual(['✔ robots.config.ts is valid for localhost, example.com, robots-edge.example.workers.dev (production); example.com (staging)'])
    expect(io.stderr).toEqual([])
  })

  // Warnings are printed but do not stop a deploy.
  it('prints warnings and still exits 0', () => {
    const io = captureIo()
    expect(
      validate(
        {
          config: {
            rules: [
              { userAgent: 'GPTBot', disallow: '/a' },
              { userAgent: 'GPTBot', allow: '/b' },
            ],
          },
        },
        io,
      ),
    ).toBe(0)
    expect(io.stdout[1]).toMatch(/^ {2}warning {2}rules\[1\]\.userAgent {2}"GPTBot" is also named at rules\[0\]\.userAgent/)
  })

  // Errors go to stderr with their field path and fix; exit 1 stops `npm run deploy`.
  it('lists errors on stderr and exits 1', () => {
    const io = captureIo()
    const config = { rules: { userAgent: 'MJ12bot', disallow: '/' }, sitemap: 'ftp://example.com/s.xml' } as RobotsConfig
    expect(validate({ config, source: 'site/robots.config.ts' }, io)).toBe(1)
    expect(io.stdout).toEqual([])
    expect(io.stderr[0]).toBe('✖ site/robots.config.ts is invalid for localhost, example.com, robots-edge.example.workers.dev (production); example.com (staging):')
    expect(io.stderr.slice(1).join('\n')).toMatch(/error {2}rules\.userAgent {2}"MJ12bot" is not a product token .* read it as "MJ"/)
    expect(io.stderr.slice(1).join('\n')).toMatch(/error {2}sitemap {10}"ftp:\/\/example\.com\/s\.xml" is not an absolute http\(s\) URL/)
  })

  // A config function checked context by context: the message says which ones failed.
  it('names only the contexts that fail', () => {
    const io = captureIo()
    const config = ({ host }: { host: string }): RobotsConfig => {
      if (host.endsWith('.workers.dev')) throw new Error('no preview config')
      return { rules: { userAgent: '*', disallow: '' } }
    }
    expect(validate({ config, json: true }, io)).toBe(1)
    expect(jsonOf(io)).toMatchObject({
      ok: false,
      failedIn: [{ host: 'robots-edge.example.workers.dev', env: 'production' }],
      errors: [{ path: '(config)', message: expect.stringContaining('no preview config') }],
      warnings: [],
    })
  })
})
