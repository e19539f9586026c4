import { beforeAll, describe, expect, it } from 'vitest'
import { buildPolicy } from '../../../src/core/config/index.ts'
import { compileReader, compileRobotsTxt, parseRobotsTxt, type RobotsTxtModel } from '../../../src/core/robots/index.ts'
import { readWithPython, requirePythonReaders, type PythonVerdicts } from '../robots/python.ts'
import { CONFIGS, namedTokens, pathsFor, resolved, servedAsWritten } from '../../support/reader-configs.ts'

// Integration tests of the served files against real readers: Python's
// urllib.robotparser (first match in file order, groups by substring, no
// wildcards) and Protego (Scrapy's parser, close to Google's reading). They
// must agree with Google's reading, robots-edge's own matcher, wherever
// agreement is possible: everywhere for Protego; for urllib.robotparser,
// everywhere a wildcard rule does not decide.

const ORIGIN = 'https://example.com'
/** A crawler no config names, and whose name holds no named token. */
const UNNAMED = 'examplebot'

interface Reading {
  readonly config: string
  readonly token: string
  readonly path: string
  readonly google: boolean
  /** Whether a rule with `*` or `$` in the group Google applies matches the path. */
  readonly wildcard: boolean
}

/** Every (token, path) reading of one served file by Google's reading. */
function readings(name: string, text: string, tokens: readonly string[], paths: readonly string[]): Reading[] {
  const google = compileRobotsTxt(text)
  const model: RobotsTxtModel = parseRobotsTxt(text)
  return tokens.flatMap((token) =>
    paths.map((path) => {
      const verdict = google.check(token, path)
      const groups = model.groups.filter((g) => g.userAgents.some((a) => a.toLowerCase() === verdict.group))
      const wildcard = groups.some((g) =>
        g.rules.some((r) => /[*$]/.test(r.pattern) && compileRobotsTxt({ groups: [{ userAgents: ['*'], rules: [r], other: [] }], sitemaps: [], other: [] }).check('x', path).rule !== null),
      )
      return { config: name, token, path, google: verdict.allowed, wildcard }
    }),
  )
}

interface Served {
  readonly name: string
  readonly before: string
  readonly after: string
  readonly tokens: string[]
  readonly paths: string[]
}

const SERVED: Served[] = Object.entries(CONFIGS).map(([name, config]) => {
  const c = resolved(config)
  return { name, before: servedAsWritten(c), after: buildPolicy(c).text, tokens: [...namedTokens(c), UNNAMED], paths: pathsFor(c) }
})

/** Disagreements with Google, per reader, over the readings where agreement is possible. */
function disagreements(all: Reading[], verdicts: PythonVerdicts): { urllib: Reading[]; protego: Reading[]; readings: number } {
  const possible = all.map((r, i) => ({ r, v: verdicts[i]! })).filter(({ r }) => !r.wildcard)
  return {
    urllib: possible.filter(({ r, v }) => v[0] !== r.google).map(({ r }) => r),
    protego: all.filter((r, i) => verdicts[i]![1] !== r.google),
    readings: possible.length,
  }
}

/** Google's readings of every served file, and Python's verdicts for them in the same order. */
function readAll(which: 'before' | 'after'): { all: Reading[]; verdicts: PythonVerdicts } {
  const perFile = SERVED.map((s) => readings(s.name, s[which], s.tokens, s.paths))
  const python = readWithPython(SERVED.map((s, i) => ({ text: s[which], queries: perFile[i]!.map((r) => [r.token, ORIGIN + r.path] as const) })))
  return { all: perFile.flat(), verdicts: python.flat() }
}

describe('served files read by real readers', { timeout: 60_000 }, () => {
  let before: ReturnType<typeof disagreements>
  let after: ReturnType<typeof disagreements>

  beforeAll(() => {
    requirePythonReaders()
    const b = readAll('before')
    const a = readAll('after')
    before = disagreements(b.all, b.verdicts)
    after = disagreements(a.all, a.verdicts)
  }, 60_000)

  // A regression fixture: written in config
  // order, the files read differently for urllib.robotparser.
  it('disagreed before (config order)', () => {
    expect(before.readings).toBeGreaterThan(500)
    expect(new Set(before.urllib.map((r) => r.config))).toEqual(new Set(['robots.config.ts', 'nested', 'images', 'cycle', 'mixed']))
    expect(before.protego).toEqual([])
  })

  // RFC 9309 meaning kept, urllib.robotparser now reads Google's verdict everywhere wildcards do not decide.
  it('agrees with urllib.robotparser wherever no wildcard decides', () => {
    expect(after.readings).toBe(before.readings)
    expect(after.urllib).toEqual([])
  })

  // Protego follows Google's reading, wildcards included.
  it('agrees with Protego everywhere', () => {
    expect(after.protego).toEqual([])
  })

  // The first-match reader robots-edge lints with reads the served files as urllib.robotparser does.
  it('the first-match reader agrees with urllib.robotparser on every reading', () => {
    const { all, verdicts } = readAll('after')
    const ours = SERVED.flatMap((s) => {
      const reader = compileReader(parseRobotsTxt(s.after), 'first-match')
      return s.tokens.flatMap((t) => s.paths.map((p) => reader.check(t, p).allowed))
    })
    expect(ours.length).toBe(all.length)
    expect(ours.filter((allowed, i) => allowed !== verdicts[i]![0]).length).toBe(0)
  })
})
