import { createWorker } from 'robots-edge'
import config from '../../../robots.config.ts'

// The Durable Object behind `guard: { crawlDelay: 'enforce' }`, bound as CRAWL_DELAY in vitest.config.ts.
export { CrawlDelayGate } from 'robots-edge'

// The workers tests' Worker: the template's config in the in-process form,
// which serves the report under /_robots/ itself. The template deploys the
// same app code as two Workers (src/workers/edge-worker.ts forwards /_robots/ to
// src/workers/admin-worker.js); here the tests drive robots.txt, the guard and the
// report through one SELF.fetch, unchanged. test/workers/edge-worker.workerd.test.ts
// covers the forwarding; test/e2e serves the real two-Worker build.
export default createWorker(config)
