/**
 * Events and agents for the ledger and report tests, shared by the plain
 * Node tests (test/report) and the Worker tests (test/worker).
 */
import type { EventAgent, JudgedRequest } from '../../src/core/events.ts'

/** Monday 5 January 2026, 10:00 UTC: a round hour, so hourly buckets are easy to read. */
export const T0 = Date.UTC(2026, 0, 5, 10)
export const MINUTE = 60_000
export const HOUR = 3_600_000
export const DAY = 86_400_000

export const googlebot: EventAgent = { id: 'googlebot', tokens: ['googlebot'], kind: 'bot', operator: 'Google', category: 'Search Engine Crawler', obeysRobotsTxt: true }
export const googlebotImage: EventAgent = { id: 'googlebot-image', tokens: ['googlebot-image', 'googlebot'], kind: 'bot', operator: 'Google', category: 'Search Engine Crawler', obeysRobotsTxt: true }
export const gptbot: EventAgent = { id: 'gptbot', tokens: ['gptbot'], kind: 'bot', operator: 'OpenAI', category: 'AI Crawler', obeysRobotsTxt: true }
export const ccbot: EventAgent = { id: 'ccbot', tokens: ['ccbot'], kind: 'bot', operator: 'Common Crawl', category: 'AI Crawler', obeysRobotsTxt: true }
/** Not in the registry: keyed by its first token. */
export const scraper: EventAgent = { tokens: ['bytescraper'], kind: 'bot', obeysRobotsTxt: false }

/** A judged request (or, with `type: 'robots-txt'`, a fetch of /robots.txt) with sensible defaults. */
export function judged(overrides: Partial<JudgedRequest> = {}): JudgedRequest {
  const type = overrides.type ?? 'request'
  const allowed = overrides.allowed ?? true
  return {
    type,
    time: T0,
    host: 'example.com',
    method: 'GET',
    path: type === 'robots-txt' ? '/robots.txt' : '/',
    userAgent: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
    agent: googlebot,
    verification: 'verified',
    group: '*',
    allowed,
    rule: allowed ? null : { type: 'disallow', pattern: '/admin/', line: 2 },
    mode: 'log',
    action: 'pass',
    status: 0,
    robotsVersion: 'v1',
    country: 'US',
    asn: 15169,
    ipHash: 'a1b2c3d4e5f60718',
    ...overrides,
  }
}

/** A fetch of /robots.txt. */
export function fetched(overrides: Partial<JudgedRequest> = {}): JudgedRequest {
  return judged({ type: 'robots-txt', ...overrides })
}
