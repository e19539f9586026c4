import { createAdminWorker } from 'robots-edge'

// The template's admin Worker (wrangler.admin.toml): the report and the
// dashboard under /_robots/, reached only through the edge Worker's
// ROBOTS_ADMIN service binding. See src/index.ts for the edge.
export default createAdminWorker()
