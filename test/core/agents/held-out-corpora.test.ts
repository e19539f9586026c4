import { describe, expect, it } from 'vitest'
import { identifyAgent } from '../../../src/core/agents/index.ts'
import { loadCorpus, namesItself, type CorpusHeader } from './corpora.ts'

/**
 * identifyAgent on real headers from npm packages (test/bots/corpora.ts),
 * both parts of the split: the held-out part was never looked at while
 * tuning, the tuning part was. The rates are in the test names, so
 * `npx vitest run test/bots/held-out-corpora.test.ts --reporter=verbose`
 * prints them.
 */
const corpus = loadCorpus()

interface Rates {
  readonly people: number
  readonly flagged: readonly CorpusHeader[]
  /** People the guard could refuse: identified, and not `unidentified`. */
  readonly judged: readonly CorpusHeader[]
  readonly bots: number
  readonly missed: readonly CorpusHeader[]
}

function rates(part: readonly CorpusHeader[]): Rates {
  const people = part.filter((h) => h.kind === 'person')
  const bots = part.filter((h) => h.kind === 'bot' && h.selfNaming)
  const flagged = people.filter((h) => identifyAgent(h.ua) !== null)
  const judged = flagged.filter((h) => identifyAgent(h.ua)?.unidentified !== true)
  return { people: people.length, flagged, judged, bots: bots.length, missed: bots.filter((h) => identifyAgent(h.ua) === null) }
}

const percent = (n: number, of: number) => `${((100 * n) / of).toFixed(2)}% (${n} of ${of})`

describe('the corpus', () => {
  it('holds both kinds on both sides of the split', () => {
    for (const part of [corpus.tuning, corpus.heldOut]) {
      expect(part.filter((h) => h.kind === 'person').length).toBeGreaterThan(400)
      expect(part.filter((h) => h.kind === 'bot' && h.selfNaming).length).toBeGreaterThan(800)
    }
  })

  // The labels come from plain regular expressions, not from the identifier under test.
  it.each([
    ['Mozilla/5.0 (compatible; AcmeBot/1.0)', true],
    ['your spider name/Nutch-1.7', true],
    ['Mozilla/5.0 (compatible; Foo/1.0; +https://foo.example/)', true],
    ['Mozilla/5.0 (Linux; Android 7.0; M bot 54) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/78.0 Mobile Safari/537.36', false],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36', false],
  ])('labels %s as self-naming: %s', (ua, expected) => {
    expect(namesItself(ua)).toBe(expected)
  })
})

describe.each([
  ['held-out', corpus.heldOut],
  ['tuning', corpus.tuning],
])('the %s part', (name, part) => {
  const r = rates(part)
  const list = (hs: readonly CorpusHeader[]) => hs.map((h) => `  ${h.ua}`).join('\n')

  // At most 0.05% of people are flagged as automated at all.
  it(`flags ${percent(r.flagged.length, r.people)} of people (goal <= 0.05%)`, () => {
    expect(r.flagged.length / r.people, `${name}: people flagged:\n${list(r.flagged)}`).toBeLessThanOrEqual(0.0005)
  })

  // None could be refused: whatever is flagged is at most unidentified.
  it(`would judge ${percent(r.judged.length, r.people)} of people by *`, () => {
    expect(r.judged, `${name}: people the guard would judge`).toEqual([])
  })

  // At least 97% of bots that name themselves are seen.
  it(`sees ${percent(r.bots - r.missed.length, r.bots)} of self-naming bots (goal >= 97%)`, () => {
    expect(1 - r.missed.length / r.bots, `${name}: bots missed:\n${list(r.missed)}`).toBeGreaterThanOrEqual(0.97)
  })
})
