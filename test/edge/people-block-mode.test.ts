import { readFileSync } from 'node:fs'
import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import type { JudgedRequest } from '../../src/core/events.ts'
import { robotsEdge } from '../../src/package/hono.ts'
import { loadCorpus } from '../core/agents/corpora.ts'

// Block mode never refuses a person: every browser header of the public
// corpora sample and of the npm corpus (tuning and held-out parts alike) is
// sent through the real middleware, with `*` disallowing the path asked for.
// Apps (podcast clients, link previews) may be refused, but only those that
// name themselves automated, and each refusal is listed.

const SAMPLE = readFileSync(new URL('../fixtures/public-corpora-sample.jsonl', import.meta.url), 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line) as { ua: string; kind: string })
  // As the header reaches a Worker: its bytes, each read as one character (a UTF-8 name arrives as Latin-1 text).
  .map((h) => ({ ...h, ua: Buffer.from(h.ua, 'utf8').toString('latin1') }))

function guarded() {
  const events: JudgedRequest[] = []
  const edge = robotsEdge(
    { rules: [{ userAgent: '*', allow: '/', disallow: ['/private/'] }], guard: { mode: 'block' } },
    { record: (event) => void events.push(event), verify: () => 'unverified', report: false, log: () => {} },
  )
  const app = new Hono()
  app.use(edge)
  app.get('*', (c) => c.text('the page'))
  return { events, status: async (ua: string) => (await app.request('/private/page', { headers: { 'User-Agent': ua } })).status }
}

describe('block mode, `*` disallowing the path', () => {
  it("refuses none of the sample's 2,698 browsers", async () => {
    const { status } = guarded()
    const browsers = SAMPLE.filter((h) => h.kind === 'browser')
    expect(browsers.length).toBe(2698)
    const refused: string[] = []
    for (const { ua } of browsers) if ((await status(ua)) !== 200) refused.push(ua)
    expect(refused).toEqual([])
  }, 60_000)

  it("refuses none of the npm corpus's people, held-out part included", async () => {
    const { status } = guarded()
    const { tuning, heldOut } = loadCorpus()
    const people = [...tuning, ...heldOut].filter((h) => h.kind === 'person')
    expect(people.length).toBeGreaterThan(900)
    const refused: string[] = []
    for (const { ua } of people) if ((await status(ua)) !== 200) refused.push(ua)
    expect(refused).toEqual([])
  }, 60_000)

  it('refuses an app only when it names itself: a registry agent, a tool (an HTTP library), or a name or contact link of its own', async () => {
    const { status, events } = guarded()
    const apps = SAMPLE.filter((h) => h.kind === 'app')
    const refused: string[] = []
    for (const { ua } of apps) if ((await status(ua)) === 403) refused.push(ua)
    const judged = events.filter((e) => e.type === 'request' && e.action === 'block')
    expect(judged).toHaveLength(refused.length)
    for (const { agent, userAgent } of judged) {
      const self = agent.id !== undefined || agent.kind === 'tool' || agent.tokens.some((t) => /(bot|crawler|spider)$/i.test(t)) || /https?:\/\/|@/.test(userAgent)
      expect(self, `${userAgent} (${agent.tokens.join(', ')})`).toBe(true)
    }
    console.log(`apps in the sample refused in block mode: ${refused.length} of ${apps.length}, each naming itself`)
  }, 60_000)
})
