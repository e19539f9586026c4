/**
 * robots-edge: one typed robots.config.ts, served as /robots.txt and
 * enforced on every request, on Cloudflare Workers.
 *
 * - `defineConfig` and `agents`: write the policy (robots.config.ts).
 * - `withRobotsEdge(config, handler)`: put robots-edge in front of any
 *   module Worker (Astro, SvelteKit, React Router, OpenNext, your own).
 * - `createWorker(config, deps?)`: the whole standalone Worker, in front of
 *   a site's origin, the report included.
 * - `createEdgeWorker(config, deps?)` and `createAdminWorker()`: the same as
 *   two Workers joined by a service binding; the report and dashboard run in
 *   the admin Worker, so the one on every request's path stays small.
 *
 * For Hono apps, `robots-edge/hono`; the RFC 9309 engine alone,
 * `robots-edge/engine`; the crawler registry, `robots-edge/bots`.
 *
 * @example
 * // robots.config.ts
 * import { agents, defineConfig } from 'robots-edge'
 * export default defineConfig({
 *   rules: [
 *     { userAgent: '*', allow: '/', disallow: '/admin/' },
 *     { userAgent: agents.aiTraining, disallow: '/', guard: 'block' },
 *   ],
 *   guard: { mode: 'log' },
 * })
 */
export * from './config.ts'
export { createAdminWorker } from '../admin/admin.ts'
// For a webhook receiver: the check of the signature each alert carries.
export { SIGNATURE_HEADER, verifyWebhookSignature } from '../core/http/webhook-signature.ts'
export { createEdgeWorker, createWorker, withRobotsEdge, type AppDeps } from './app.ts'
export type { AppEnv, RecordFn, VerifyFn } from '../edge/edge.ts'
export type { RobotsEdgeEnv } from '../edge/env.ts'
/** The Durable Object behind `guard: { crawlDelay: 'enforce' }`: export it from your Worker and bind it as `CRAWL_DELAY`. */
export { CrawlDelayGate } from '../edge/crawl-delay-gate.ts'
export type { JudgedRequest, Verification } from '../core/events.ts'
