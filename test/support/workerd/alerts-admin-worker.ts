import { createAdminWorker, defineConfig } from '../../../src/package/index.ts'

// The admin Worker as a site with alerts deploys it: bundled and served by
// Miniflare in test/admin/alerts-webhook.e2e.test.ts.
export default createAdminWorker(defineConfig({ rules: [{ userAgent: '*', disallow: '/admin/' }], alerts: { newClientRequests: 100 } }))
