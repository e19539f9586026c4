import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { identifyAgent, type AgentIdentity } from '../../../src/core/agents/index.ts'

/**
 * The public-corpora sample (test/fixtures/public-corpora-sample.jsonl):
 * 3,357 real headers drawn at random from about 42,000 in public User-Agent
 * corpora. The project is judged on the rest with the same thresholds, so a
 * failure here lists the headers behind it.
 */
interface Line {
  readonly ua: string
  readonly kind: 'browser' | 'bot' | 'tool' | 'app'
  readonly source: string
  readonly anonymous?: true
  readonly expect_token?: string
}

const lines: Line[] = readFileSync(new URL('../../fixtures/public-corpora-sample.jsonl', import.meta.url), 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line) as Line)

const results = lines.map((line) => ({ line, identity: identifyAgent(line.ua) }))
const ofKind = (kind: Line['kind']) => results.filter((r) => r.line.kind === kind)
const report = (rs: typeof results): string => rs.map((r) => `  ${JSON.stringify(r.identity?.tokens ?? null)}  ${r.line.ua}`).join('\n')

// Labels whose token no header reader can return, and why.
const UNATTAINABLE = new Map<string, string>([
  // ai.robots.txt's agent "Code" matched to a header that is an HTML injection attempt naming no client.
  ['</code><hr><img src=x onerror=prompt`1`>', 'the header names no client'],
])

/** The token is the agent's own name: the label itself, or for a multi-word name its first word with the whole name in `names`. */
function hasToken(identity: AgentIdentity | null, expected: string): boolean {
  if (identity === null) return false
  const token = identity.tokens[0] ?? identity.names.at(-1)
  if (token === expected || identity.id === expected) return true
  const space = expected.indexOf(' ')
  return space > 0 && identity.names.includes(expected) && (token === expected.slice(0, space) || token === expected.replace(/ /g, ''))
}

describe('the public-corpora sample', () => {
  it('is all read', () => {
    expect(lines.length).toBe(3357)
    expect(ofKind('browser').length).toBeGreaterThan(2500)
  })

  // At most 0.05% of people are flagged as automated.
  it('flags at most 0.05% of browsers', () => {
    const browsers = ofKind('browser')
    const flagged = browsers.filter((r) => r.identity !== null)
    expect(flagged.length / browsers.length, `people flagged (${flagged.length} of ${browsers.length}):\n${report(flagged)}`).toBeLessThanOrEqual(0.0005)
  })

  // At least 97% of bots that name themselves are seen (anonymous ones name nothing to see).
  it('sees at least 97% of self-naming bots', () => {
    const bots = ofKind('bot').filter((r) => r.line.anonymous !== true)
    const missed = bots.filter((r) => r.identity === null)
    expect(1 - missed.length / bots.length, `bots missed (${missed.length} of ${bots.length}):\n${report(missed)}`).toBeGreaterThanOrEqual(0.97)
  })

  // Generic clients (libraries, CLIs, automation) are seen too.
  it('sees at least 97% of tools', () => {
    const tools = ofKind('tool')
    const missed = tools.filter((r) => r.identity === null)
    expect(1 - missed.length / tools.length, `tools missed (${missed.length} of ${tools.length}):\n${report(missed)}`).toBeGreaterThanOrEqual(0.97)
  })

  // The token is the bot's own name, never a filler word (`web`, `bot`, `crawler`, `compatible`).
  it('returns the labelled token', () => {
    const labelled = results.filter((r) => r.line.expect_token !== undefined && r.line.anonymous !== true && !UNATTAINABLE.has(r.line.ua))
    expect(labelled.length).toBeGreaterThan(30)
    const wrong = labelled.filter((r) => !hasToken(r.identity, r.line.expect_token ?? ''))
    expect(wrong, `wrong tokens:\n${wrong.map((r) => `  ${r.line.expect_token} <- ${JSON.stringify(r.identity?.tokens ?? null)} ${r.line.ua}`).join('\n')}`).toEqual([])
  })

  it('never returns a filler word as a token', () => {
    const filler = new Set(['web', 'bot', 'bots', 'crawler', 'spider', 'robot', 'compatible', 'mozilla', 'http', 'https', 'www', 'like', 'by'])
    const bad = results.filter((r) => r.identity?.tokens.some((t) => filler.has(t)) === true)
    expect(bad, `filler tokens:\n${report(bad)}`).toEqual([])
  })

  // `app` lines (podcast clients, chat apps' link previews) count neither way; they must still not throw.
  it('reads app lines without error', () => {
    for (const r of ofKind('app')) expect(r.identity === null || typeof r.identity.kind === 'string').toBe(true)
  })
})
