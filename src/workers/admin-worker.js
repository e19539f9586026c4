import { createAdminWorker } from 'robots-edge'
import config from '../../robots.config.ts'

// The template's admin Worker (wrangler.admin.toml): the report and the
// dashboard under /_robots/, reached only through the edge Worker's
// ROBOTS_ADMIN service binding. See src/workers/edge-worker.ts for the edge.
// JavaScript, not TypeScript, on purpose: `wrangler dev` compares each
// TypeScript entry's bindings with the one types/worker-configuration.d.ts (the
// edge's), and would tell every `npm run dev` to re-run `wrangler types`.
// The config is read for its `alerts` only, which this Worker's cron posts.
export default createAdminWorker(config)
