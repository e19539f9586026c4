// The dashboard's "what crawlers took, and what came back" lines
// (public/_robots/static/taken.js): bytes and the crawl-to-refer ratio read
// as the CLI prints them (src/cli/report.ts).
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { bytesText, ratioText } from '../../src/cli/report.ts'

const taken = (await import(pathToFileURL(resolve('public/_robots/static/taken.js')).href)) as {
  formatBytes: (n: number) => string
  formatRatio: (r: number | null) => string
}

describe('taken.js', () => {
  it('writes bytes in decimal units, as the CLI does', () => {
    for (const [n, text] of [
      [0, '0 B'],
      [830, '830 B'],
      [48_000, '48 kB'],
      [950_000, '950 kB'],
      [3_100_000_000, '3.1 GB'],
      [1_234_000_000_000, '1.2 TB'],
    ] as const) {
      expect(taken.formatBytes(n)).toBe(text)
      expect(bytesText(n)).toBe(text)
    }
  })

  it('writes the crawl-to-refer ratio as Radar shows it, and no ratio without a referral', () => {
    for (const [r, text] of [
      [38_000 / 12, '3,166:1'],
      [2.5, '2.5:1'],
      [0, '0.0:1'],
      [null, 'no referral'],
    ] as const) {
      expect(taken.formatRatio(r)).toBe(text)
      expect(ratioText({ crawlToRefer: r })).toBe(text)
    }
  })
})
