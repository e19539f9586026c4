import { describe, expect, it } from 'vitest'
import { normalizeHost } from '../../src/cli/config.ts'
import { print } from '../../src/cli/print.ts'
import { createPolicies, type RobotsConfig } from '../../src/core/config/index.ts'
import { captureIo, jsonOf } from '../support/cli-io.ts'

// Unit tests of `print`: the file a host is served, from the same
// createPolicies the Worker uses.

const config: RobotsConfig = {
  header: 'hello',
  rules: [
    { userAgent: '*', disallow: '/admin/' },
    { userAgent: 'GPTBot', disallow: '/' },
  ],
  sitemap: 'https://example.com/sitemap.xml',
}

describe('print', () => {
  // Piped, the output is the served file line for line, so it can be redirected into a file.
  it('prints the served text exactly when stdout is not a terminal', () => {
    const io = captureIo()
    expect(print({ config }, io)).toBe(0)
    expect(io.text() + '\n').toBe(createPolicies(config).get('localhost', 'production').text)
    expect(io.stderr).toEqual([])
  })

  // Preview hosts and other environments get the not-indexable file, as the Worker serves them.
  it('honours --host and --env', () => {
    const preview = captureIo()
    print({ config, host: 'my-site.example.workers.dev' }, preview)
    expect(preview.text()).toContain('Not production (preview host my-site.example.workers.dev)')
    const staging = captureIo()
    print({ config, host: 'example.com', env: 'staging' }, staging)
    expect(staging.text()).toContain('environment staging')
    expect(staging.stdout.slice(-2)).toEqual(['User-agent: *', 'Disallow: /'])
  })

  // A host is read as the Worker reads it: case, scheme and port do not matter.
  it('normalises the host', () => {
    const io = captureIo()
    print({ config, host: 'HTTPS://Preview.Example.Workers.Dev:8787/x', json: true }, io)
    expect(jsonOf(io)).toMatchObject({ host: 'preview.example.workers.dev', indexable: false })
  })

  // On a terminal each line gets the number check and lint refer to.
  it('numbers the lines on a terminal, with colour unless NO_COLOR is set', () => {
    const tty = captureIo({ isTTY: true })
    print({ config }, tty)
    expect(tty.stdout.join('\n')).toContain('\x1b[')
    const noColor = captureIo({ isTTY: true, env: { NO_COLOR: '1' } })
    print({ config }, noColor)
    expect(noColor.stdout[0]).toMatch(/^robots\.txt for localhost \(production\) · \d+ bytes · version [0-9a-f]{16}$/)
    expect(noColor.stdout.slice(1, 4)).toEqual(['1 │ # hello', '2 │', '3 │ User-agent: GPTBot'])
    expect(noColor.text()).not.toContain('\x1b[')
  })

  it('prints one JSON document with --json', () => {
    const io = captureIo()
    expect(print({ config, json: true }, io)).toBe(0)
    const policy = createPolicies(config).get('localhost', 'production')
    expect(jsonOf(io)).toEqual({
      ok: true,
      host: 'localhost',
      env: 'production',
      indexable: true,
      version: policy.version,
      etag: policy.etag,
      cacheControl: 'public, max-age=300',
      bytes: new TextEncoder().encode(policy.text).length,
      text: policy.text,
      warnings: [],
    })
  })

  // Warnings go to stderr, so the file on stdout stays clean.
  it('reports config warnings on stderr', () => {
    const io = captureIo()
    print(
      {
        config: {
          rules: [
            { userAgent: 'GPTBot', disallow: '/a' },
            { userAgent: 'gptbot', disallow: '/b' },
          ],
        },
      },
      io,
    )
    expect(io.stderr).toEqual([expect.stringMatching(/^warning: rules\[1\]\.userAgent: "gptbot" is also named at rules\[0\]\.userAgent/)])
    expect(io.stdout).toEqual(['User-agent: GPTBot', 'Disallow: /a', 'Disallow: /b'])
  })

  // A config function that fails for this host: the Worker's allow-all fallback is shown, its log line on stderr, exit 1.
  it('shows the fallback and exits 1 when the config fails for this host', () => {
    const fn = ({ host }: { host: string }): RobotsConfig => {
      if (host === 'broken.example') throw new Error('no such site')
      return config
    }
    const io = captureIo()
    expect(print({ config: fn, host: 'broken.example' }, io)).toBe(1)
    expect(io.stdout).toEqual(['User-agent: *', 'Disallow:'])
    expect(io.stderr.join('\n')).toContain('config failed for host "broken.example"')
    expect(io.stderr.join('\n')).toContain('no such site')
  })
})

describe('print --host: the host as the Worker keys it', () => {
  it('reads Example.COM.:8443 as example.com, and a non-host as the one invalid-host key', () => {
    expect(normalizeHost('Example.COM.:8443')).toBe('example.com')
    expect(normalizeHost('https://www.example.com/x')).toBe('www.example.com')
    expect(normalizeHost('x'.repeat(300))).toBe('invalid-host.invalid')
  })
})
