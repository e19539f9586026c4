import { createWorker } from '../../src/package/app.ts'
import type { RobotsConfig } from '../../src/core/config/index.ts'

// bench/crawl-delay.ts: one Worker, three hosts. On `enforce.localhost` Bingbot's
// requests go through the CRAWL_DELAY Durable Object; on `measure.localhost`
// they are only measured. Claims are taken as verified: only verified agents are paced.
export { CrawlDelayGate } from '../../src/edge/crawl-delay-gate.ts'

// 1 ms: requests made one after another are on time, so each one makes the round trip and passes.
// `burst.localhost` (60 s) checks that the gate answers at all.
const rules = (host: string) => [
  { userAgent: '*', allow: '/' },
  { userAgent: 'Bingbot', crawlDelay: host === 'burst.localhost' ? 60 : 0.001, allow: '/' },
]
export default createWorker(({ host }): RobotsConfig => ({ rules: rules(host), guard: { mode: 'log', crawlDelay: host === 'measure.localhost' ? 'measure' : 'enforce' } }), {
  verify: () => 'verified',
})
