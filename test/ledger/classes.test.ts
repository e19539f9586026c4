// The request classes are listed once, in src/ledger/classes.ts. The
// dashboard is a static asset and cannot import it, so its text for each
// class is held to that list here: a new class without a text fails.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { COUNTED_CLASSES, REQUEST_CLASSES, VIOLATION_CLASSES } from '../../src/ledger/classes.ts'

/** The keys of the dashboard's CLASS_TEXT (public/_robots/static/views.js). */
function dashboardClasses(): string[] {
  const source = readFileSync('public/_robots/static/views.js', 'utf8')
  const body = /const CLASS_TEXT = \{([^}]*)\}/.exec(source)?.[1]
  if (body === undefined) throw new Error('views.js has no CLASS_TEXT')
  return [...body.matchAll(/(\w+):\s*'/g)].map((m) => m[1]!)
}

describe('the request classes', () => {
  it('are listed once, each class once', () => {
    expect(new Set(REQUEST_CLASSES).size).toBe(REQUEST_CLASSES.length)
  })

  it('count as violations only among the violation classes', () => {
    for (const cls of COUNTED_CLASSES) expect(VIOLATION_CLASSES).toContain(cls)
    for (const cls of VIOLATION_CLASSES) expect(REQUEST_CLASSES).toContain(cls)
  })

  it("each read in the dashboard's drill-down, but for allowed requests and robots.txt fetches (shown by their own badges)", () => {
    expect(dashboardClasses().sort()).toEqual(REQUEST_CLASSES.filter((c) => c !== 'allowed' && c !== 'robotsTxt').sort())
  })
})
