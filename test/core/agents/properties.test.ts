import fc from 'fast-check'
import { describe, it } from 'vitest'
import { identifyAgent, type AgentIdentity } from '../../../src/core/agents/index.ts'
import { botHeaders, browserHeaders } from '../../../dev/user-agents.ts'

function wellFormed(identity: AgentIdentity | null): boolean {
  if (identity === null) return true
  return (
    Array.isArray(identity.tokens) &&
    identity.tokens.every((t) => typeof t === 'string' && t.length > 0 && t === t.toLowerCase()) &&
    (identity.kind === 'bot' || identity.kind === 'tool') &&
    typeof identity.obeysRobotsTxt === 'boolean' &&
    Array.isArray(identity.names) &&
    identity.names.every((n) => typeof n === 'string' && n === n.toLowerCase()) &&
    new Set(identity.names).size === identity.names.length &&
    // Tokens are stored space-separated: a token never holds a space.
    identity.tokens.every((t) => !t.includes(' ')) &&
    (identity.others === undefined || identity.others.every((o) => o.kind === 'bot' && o.others === undefined))
  )
}

const anyCodeUnit = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code))

// Thousands of generated headers per property: on a loaded 2-core machine that
// takes seconds, so each property gets a timeout that fits it.
const PROPERTY_TIMEOUT = 60_000

describe('identifyAgent on arbitrary input', { timeout: PROPERTY_TIMEOUT }, () => {
  // Bad request input is never an exception, and the result always has the documented shape.
  it('never throws on ASCII strings', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), (ua) => wellFormed(identifyAgent(ua))),
      { numRuns: 2000 },
    )
  })

  it('never throws on any Unicode, including lone surrogates and NUL', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (ua) => wellFormed(identifyAgent(ua))),
      { numRuns: 1000 },
    )
    fc.assert(
      fc.property(fc.string({ unit: anyCodeUnit, maxLength: 300 }), (ua) => wellFormed(identifyAgent(ua))),
      { numRuns: 1000 },
    )
  })

  it('never throws on strings made of the characters that steer the scanner', () => {
    const steering = fc.constantFrom('(', ')', '[', ']', ';', ',', '/', '+', '@', ':', ' ', '_', 'http', 'bot', 'Googlebot', 'Yahoo!', 'Slurp', 'Sogou', ' web', ' spider')
    fc.assert(
      fc.property(fc.string({ unit: steering, maxLength: 200 }), (ua) => wellFormed(identifyAgent(ua))),
      { numRuns: 2000 },
    )
  })

  it('never throws on 64 KiB headers', () => {
    const huge = fc.string({ unit: anyCodeUnit, minLength: 1, maxLength: 16 }).map((chunk) => chunk.repeat(Math.ceil(65536 / chunk.length)))
    fc.assert(
      fc.property(huge, (ua) => wellFormed(identifyAgent(ua))),
      { numRuns: 50 },
    )
  })
})

// Fragments real browsers and in-app browsers add to their headers.
const browserNoise = fc.constantFrom(
  'Mobile',
  'Safari/537.36',
  '(KHTML, like Gecko)',
  'Version/4.0',
  'Chrome/131.0.0.0',
  '(Linux; Android 14; Pixel 8 Build/AP2A.240905.003; wv)',
  '[FBAN/FBIOS;FBAV/477.0.0.44.109;FBDV/iPhone14,2]',
  'Instagram 352.1.0.31.93 (iPhone15,3; iOS 17_6_1; en_US)',
  'NetType/WIFI',
  'Language/zh_CN',
  'BytedanceWebview/d8a21c6',
  'musical_ly_35.1.0',
  'MicroMessenger/8.0.49(0x18003137)',
  '[Pinterest/iOS]',
  'Edg/131.0.2903.70',
  'OPR/115.0.0.0',
  'SamsungBrowser/26.0',
  '(iPhone; CPU iPhone OS 17_7 like Mac OS X)',
  'MetaIAB Facebook',
  '(Linux; Android 9; CUBOT X19 Build/PPR1.180610.011)',
  'Line/14.3.0',
  'Snapchat/13.1.0.38 (like Safari/8617.2.4.10.8, panda)',
)
const noise = fc.array(browserNoise, { maxLength: 6 }).map((parts) => parts.join(' '))

describe('browser noise', { timeout: PROPERTY_TIMEOUT }, () => {
  // Surrounding a browser header with more browser fragments keeps it a person.
  it('does not turn a browser into an agent', () => {
    fc.assert(
      fc.property(fc.constantFrom(...browserHeaders), noise, noise, (ua, before, after) => identifyAgent(`${before} ${ua} ${after}`.trim()) === null),
      { numRuns: 3000 },
    )
  })

  // Appending browser fragments to a crawler's header does not change who it is.
  it('does not change a crawler', () => {
    const named = botHeaders.filter((c) => c.id !== undefined)
    fc.assert(
      fc.property(fc.constantFrom(...named), noise, (c, after) => identifyAgent(`${c.ua} ${after}`)?.id === c.id),
      { numRuns: 1000 },
    )
  })
})
