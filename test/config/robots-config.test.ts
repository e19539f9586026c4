import { describe, expect, it } from 'vitest'
import config from '../../robots.config.ts'
import { CHECK_CONTEXTS, checkConfig } from '../../src/config/index.ts'

// The project's own robots.config.ts: a bad edit fails `npm test` here,
// with every issue's field path in the message, before it can be deployed.

describe('robots.config.ts', () => {
  it('passes checkConfig in every start-up context', () => {
    expect(() => checkConfig(config, CHECK_CONTEXTS)).not.toThrow()
  })
})
