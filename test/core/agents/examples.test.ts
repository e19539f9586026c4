import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { identifyAgent } from '../../../src/core/agents/index.ts'

interface Example {
  readonly ua: string
  readonly tokens: readonly string[]
  readonly kind: 'bot' | 'browser' | 'tool' | 'tricky'
  readonly operator: string
}

const examples: Example[] = readFileSync(new URL('../../fixtures/user-agent-examples.jsonl', import.meta.url), 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line) as Example)

// A tricky example labelled as a person (the Meta in-app browser) is a browser.
const isPerson = (example: Example): boolean => example.kind === 'browser' || example.operator.startsWith('human')

describe('the labelled examples (test/fixtures)', () => {
  it('are all read', () => {
    expect(examples.length).toBeGreaterThanOrEqual(30)
  })

  // A person's browser is not an agent.
  it.each(examples.filter(isPerson).map((e) => [e.operator, e.ua]))('%s is a person', (_operator, ua) => {
    expect(identifyAgent(ua)).toBeNull()
  })

  // An automated client obeys exactly the labelled tokens, most specific first.
  it.each(examples.filter((e) => !isPerson(e)).map((e) => [e.operator, e]))('%s obeys its labelled tokens', (_operator, example) => {
    const identity = identifyAgent(example.ua)
    expect(identity).not.toBeNull()
    expect(identity?.tokens).toEqual(example.tokens)
    expect(identity?.kind).toBe(example.kind === 'tool' ? 'tool' : 'bot')
  })
})
