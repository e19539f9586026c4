import { describe, expect, it } from 'vitest'
import { compileRobotsTxt, lintRobotsTxt, parseRobotsTxt } from '../../../src/core/robots/index.ts'

describe('bad input: a NUL far from the start', () => {
  // Each line once searched the whole rest of the body for a NUL: quadratic.
  it('parses a 2 MB body of short lines ending in NUL in linear time', () => {
    const body = 'User-agent: *\n' + 'Disallow: /a\n'.repeat(160_000) + '\0'
    const start = performance.now()
    const parsed = parseRobotsTxt(body)
    lintRobotsTxt(body)
    const ms = performance.now() - start
    expect(parsed.groups[0]!.rules).toHaveLength(160_000)
    expect(parsed.diagnostics.filter((d) => d.code === 'nul-byte')).toHaveLength(1)
    // A hang guard, not a benchmark: the quadratic form took minutes.
    expect(ms).toBeLessThan(5_000)
  })
})

describe('Google extensions: a missing colon', () => {
  // Google separates key and value by spaces and tabs only (strspn " \t"): a
  // vertical tab after them starts a third run, and the line is not read.
  it('does not read "Disallow\\t\\v\\t/x"', () => {
    const robots = compileRobotsTxt('User-agent: *\nDisallow\t\u000b\t/x\n')
    expect(robots.check('bot', '/x')).toEqual({ allowed: true, group: '*', rule: null })
  })

  it('still reads "Disallow\\t/x"', () => {
    expect(compileRobotsTxt('User-agent: *\nDisallow\t/x\n').check('bot', '/x').allowed).toBe(false)
  })
})
