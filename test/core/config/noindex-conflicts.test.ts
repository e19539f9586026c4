import { describe, expect, it } from 'vitest'
import { lint } from '../../../src/cli/lint.ts'
import { buildPolicy, checkConfig, noindexConflicts, resolveConfig, type RobotsConfig } from '../../../src/core/config/index.ts'
import { captureIo, jsonOf } from '../../support/cli-io.ts'

// Unit tests of the noindex/disallow warning: a page robots.txt disallows is
// never fetched, so its X-Robots-Tag is never seen.

const conflictsOf = (config: RobotsConfig, env = 'production') => noindexConflicts(config, buildPolicy(resolveConfig(config, { host: 'example.com', env }).config))

const CONFIG: RobotsConfig = {
  rules: [
    { userAgent: '*', disallow: ['/private/', '/*.pdf$'] },
    { userAgent: 'Googlebot', disallow: '/drafts/' },
  ],
  noindex: [{ path: ['/private/x', '/public/', '/files/*.pdf$'] }, { path: '/drafts/', userAgent: 'Googlebot', directives: ['noindex', 'nofollow'] }, { path: '/drafts/', userAgent: 'Bingbot' }],
}

describe('noindex paths robots.txt disallows', () => {
  it('warns for each such path, naming the crawlers, the deciding line and the fix', () => {
    const fix = 'Let crawlers fetch it (remove or narrow the Disallow) so they can read the noindex, or remove the path from noindex.'
    expect(conflictsOf(CONFIG)).toEqual([
      {
        path: 'noindex[0].path[0]',
        message:
          '"/private/x" is disallowed for * (robots.txt line 5: Disallow: /private/), so that crawler never fetches it and never sees its X-Robots-Tag: noindex; a disallowed URL can still be indexed from links to it.',
        fix,
      },
      {
        path: 'noindex[0].path[2]',
        message:
          '"/files/*.pdf$" is disallowed for * (robots.txt line 6: Disallow: /*.pdf$), so that crawler never fetches it and never sees its X-Robots-Tag: noindex; a disallowed URL can still be indexed from links to it.',
        fix,
      },
      {
        path: 'noindex[1].path',
        message:
          '"/drafts/" is disallowed for googlebot (robots.txt line 2: Disallow: /drafts/), so that crawler never fetches it and never sees its X-Robots-Tag: noindex, nofollow; a disallowed URL can still be indexed from links to it.',
        fix,
      },
    ])
  })

  // A rule for every crawler is checked against every group, since each crawler obeys its own.
  it('checks a rule for every crawler against every named group', () => {
    const warnings = conflictsOf({
      rules: [
        { userAgent: '*', disallow: '/a/' },
        { userAgent: ['GPTBot', 'CCBot'], disallow: '/' },
      ],
      noindex: { path: '/b/' },
    })
    expect(warnings.map((w) => [w.path, w.message.slice(0, w.message.indexOf(' ('))])).toEqual([['noindex.path', '"/b/" is disallowed for gptbot, ccbot']])
  })

  it('says nothing where the paths are allowed, nor on staging, where disallow-all and noindex are the design', () => {
    expect(conflictsOf({ rules: [{ userAgent: '*', disallow: '/admin/' }], noindex: { path: '/search' } })).toEqual([])
    expect(conflictsOf(CONFIG, 'staging')).toEqual([])
  })

  it('is among the warnings of checkConfig (validate, deploy, tests), once each', () => {
    const warnings = checkConfig(CONFIG)
    expect(warnings.filter((w) => w.path.startsWith('noindex'))).toHaveLength(3)
  })

  it('is in `robots-edge lint`, as a warning, and the exit code stays 0', () => {
    const io = captureIo()
    expect(lint({ config: CONFIG, json: true }, io)).toBe(0)
    const issues = jsonOf(io).issues as { severity: string; path: string }[]
    expect(issues.filter((i) => i.path.startsWith('noindex')).map((i) => [i.severity, i.path])).toEqual([
      ['warning', 'noindex[0].path[0]'],
      ['warning', 'noindex[0].path[2]'],
      ['warning', 'noindex[1].path'],
    ])
  })
})
