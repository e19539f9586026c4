import { describe, expect, it } from 'vitest'
import { identifyAgent } from '../../src/core/agents/index.ts'
import { check, identify, requestOf } from '../../src/cli/check.ts'
import { UsageError } from '../../src/cli/errors.ts'
import { createPolicies, type RobotsConfig } from '../../src/core/config/index.ts'
import { judge } from '../../src/core/judge/judge.ts'
import { captureIo, jsonOf } from '../support/cli-io.ts'

// Unit tests of `check`: the verdict comes from the guard's own judge() on
// the policy the Worker builds, and names the line of the served file.

const config: RobotsConfig = {
  rules: [
    { userAgent: '*', allow: '/', disallow: ['/admin/', '/*.pdf$'] },
    { userAgent: ['GPTBot', 'CCBot'], disallow: '/', guard: 'block' },
    { userAgent: 'Googlebot', allow: '/private/press/', disallow: '/private/' },
    { userAgent: 'AcmeSync', disallow: '/api/' },
  ],
  guard: { mode: 'log', status: 402 },
}
const served = createPolicies(config).get('example.com', 'production').text.split('\n')
const lineOf = (text: string) => served.indexOf(text) + 1
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'
const BROWSER = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36'

function run(agent: string, target: string, extra: { host?: string; env?: string } = {}) {
  const io = captureIo()
  const code = check({ config, agent, target, json: true, ...extra }, io)
  return { code, doc: jsonOf(io) }
}

describe('check: the verdict and its provenance', () => {
  // The deciding rule carries its line in the served file, and the text of that line.
  it('names the group, the rule and its line for a product token', () => {
    const { code, doc } = run('GPTBot', 'https://example.com/blog/post')
    expect(code).toBe(0)
    expect(doc).toMatchObject({
      host: 'example.com',
      path: '/blog/post',
      identity: { id: 'gptbot', operator: 'OpenAI', tokens: ['gptbot'], recognition: 'identified' },
      verdict: { allowed: false, group: 'gptbot', rule: { type: 'disallow', pattern: '/', line: lineOf('User-agent: CCBot') + 1, text: 'Disallow: /' } },
      guard: { mode: 'block', outcome: 'block: refused with 402' },
    })
  })

  // A whole User-Agent header is identified as the guard identifies it.
  it('identifies a whole User-Agent header', () => {
    const { doc } = run(GOOGLEBOT, '/private/press/release.pdf')
    expect(doc).toMatchObject({
      host: 'localhost',
      identity: { id: 'googlebot', operator: 'Google', tokens: ['googlebot'] },
      verdict: { allowed: true, group: 'googlebot', rule: { type: 'allow', pattern: '/private/press/', line: lineOf('Allow: /private/press/') } },
      guard: { mode: 'log', outcome: 'log: let through' },
    })
  })

  it('says when no rule matched and when no group applies', () => {
    expect(run(GOOGLEBOT, '/x.pdf').doc).toMatchObject({ verdict: { allowed: true, group: 'googlebot', rule: null } })
    // ChatGPT-User acts for one person (guard.exempt by default): only a group naming it applies.
    expect(run('ChatGPT-User/1.0', '/admin/').doc).toMatchObject({ judgedBy: { wildcard: false }, verdict: { allowed: true, group: null, rule: null } })
    // curl answers to the * group like every other automated client.
    expect(run('curl/8.5.0', '/admin/').doc).toMatchObject({ judgedBy: { tokens: ['curl'], wildcard: true }, verdict: { allowed: false, group: '*' } })
  })

  // The CLI verdict is judge()'s verdict, for the same identity and path.
  it('agrees with judge() on the same policy', () => {
    const policy = createPolicies(config).get('localhost', 'production')
    for (const [agent, path] of [
      [GOOGLEBOT, '/private/x'],
      ['GPTBot', '/'],
      ['curl/8.5.0', '/admin/'],
      ['Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)', '/a.pdf'],
    ] as const) {
      const expected = judge(policy, identifyAgent(agent)!, path)
      expect(run(agent, path).doc.verdict, agent).toEqual({ ...expected, rule: expected.rule && { ...expected.rule, text: expect.any(String) } })
    }
  })

  // A bare token the registry does not know is a crawler of that name; the * group applies.
  // A header of one bare word is no browser: identifyAgent itself takes it for a bot.
  it('takes an unknown bare token for a crawler', () => {
    const { doc } = run('Brightbotx', '/admin/page')
    expect(doc).toMatchObject({ identity: { kind: 'bot', id: null, tokens: ['brightbotx'], obeysRobotsTxt: true, recognition: 'token' }, verdict: { allowed: false, group: '*' } })
  })

  // A custom bot the config names is recognised as the guard recognises it (declaredBot).
  it('recognises a bot the config declares', () => {
    const { doc } = run('AcmeSync/2.0 (+ops@acme.test)', '/api/v1')
    expect(doc).toMatchObject({ identity: { tokens: ['acmesync'] }, verdict: { allowed: false, group: 'acmesync' } })
    const policy = createPolicies(config).get('localhost', 'production')
    expect(identify('AcmeSync/2.0', policy)?.recognition).toBe('declared')
  })

  it("says a person's browser is never judged", () => {
    const { code, doc } = run(BROWSER, '/admin/')
    expect(code).toBe(0)
    expect(doc).toMatchObject({ browser: true, identity: null, verdict: null })
    const io = captureIo()
    check({ config, agent: BROWSER, target: '/admin/' }, io)
    expect(io.stdout[1]).toBe("Verdict  a person's browser: never judged")
  })

  // Outside production every crawler is disallowed, and the output says why.
  it('uses --host and --env over the URL host', () => {
    expect(run('GPTBot', 'https://example.com/', { env: 'staging' }).doc).toMatchObject({ env: 'staging', verdict: { allowed: false, group: '*' } })
    expect(run(GOOGLEBOT, 'https://example.com/x', { host: 'x.example.workers.dev' }).doc).toMatchObject({ host: 'x.example.workers.dev', verdict: { allowed: false, group: '*' } })
  })

  it('never judges /robots.txt itself', () => {
    expect(run('GPTBot', '/robots.txt').doc).toMatchObject({ guard: { outcome: 'never judged: /robots.txt is served to every agent' } })
  })
})

describe('check: reading the URL or path', () => {
  // The path and query the Worker would see: dot segments resolved, raw characters encoded, fragment dropped.
  it('reads the path and query as the runtime parses a request URL', () => {
    expect(requestOf('https://Example.COM:8443/a/../admin/?q=1#frag', undefined)).toEqual({ host: 'example.com', path: '/admin/?q=1' })
    expect(requestOf('/café?x=é', undefined)).toEqual({ host: 'localhost', path: '/caf%C3%A9?x=%C3%A9' })
    expect(requestOf('//cdn.example/x', 'Example.org')).toEqual({ host: 'example.org', path: '/x' })
  })

  it('refuses a target that is neither a URL nor a path', () => {
    expect(() => requestOf('admin/page', undefined)).toThrow(UsageError)
    expect(() => requestOf('http://', undefined)).toThrow(UsageError)
  })
})

describe('check: terminal output', () => {
  // Labels aligned in one column; the deciding line of the served file quoted under them.
  it('prints aligned fields and the deciding line', () => {
    const io = captureIo()
    check({ config, agent: 'GPTBot', target: 'https://example.com/blog' }, io)
    const line = lineOf('User-agent: CCBot') + 1
    expect(io.stdout).toEqual([
      'Agent      GPTBot',
      'Identity   OpenAI · AI Crawler · id gptbot · reads robots.txt',
      'Judged by  gptbot, then the * group',
      'Host       example.com · production',
      'Path       /blog',
      'Verdict    disallowed',
      'Group      gptbot',
      `Rule       disallow / · line ${line}`,
      'Guard      block: refused with 402',
      '',
      `  ${line} │ Disallow: /`,
    ])
  })

  it('colours the verdict on a terminal', () => {
    const io = captureIo({ isTTY: true })
    check({ config, agent: 'GPTBot', target: '/' }, io)
    expect(io.text()).toContain('\x1b[31mdisallowed\x1b[39m')
  })
})

describe('check: agent-controlled text', () => {
  it('shows invisible and bidi characters in the header given as escapes', () => {
    const io = captureIo()
    check({ config, agent: 'g\u200bptbot/1.0 (\u202eevil)', target: '/' }, io)
    expect(io.text()).toContain('g\\u{200B}ptbot/1.0 (\\u{202E}evil)')
    expect(io.text()).not.toMatch(/[\u200b\u202e]/)
  })
})
