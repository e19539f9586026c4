import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-pool-workers'
import { defaultServerConditions } from 'vite'
import { defineConfig } from 'vitest/config'
import { buildLineDiff } from './scripts/build-line-diff.mjs'

// Each test file names the runtime it needs (*.workerd, *.staging, *.e2e,
// *.pack); the rest are pure modules in plain Node, where the
// property tests and the large conformance corpus run fastest, and the Worker
// through its real entry in workerd.
// The ledger's schema, applied to each test's D1 by test/support/workerd/setup.ts.
const migrations = await readD1Migrations('./migrations')
// The dashboard's line diff (public/_robots/static/line-diff.js) is written
// from src/core/line-diff.ts; the e2e tests serve it and a unit test loads it.
buildLineDiff()

/**
 * Stands in for the admin Worker behind wrangler.toml's ROBOTS_ADMIN service
 * binding: answers with the request it was given, so a test of the edge
 * entry (src/workers/edge-worker.ts) sees exactly what the edge forwarded.
 */
async function adminEcho(request: Request): Promise<Response> {
  return Response.json({
    admin: 'echo',
    method: request.method,
    url: request.url,
    authorization: request.headers.get('authorization'),
    body: await request.text(),
  })
}

// `robots-edge` (robots.config.ts imports it by name, as a consumer's does)
// resolves to the package's TypeScript source here: package.json `exports`
// maps this condition to src/; consumers get the built JavaScript.
const SOURCE = 'robots-edge-source'
const fromSource = { conditions: [SOURCE, ...defaultServerConditions] }
const workersFromSource = { resolve: { conditions: [SOURCE] }, ssr: { resolve: { conditions: [SOURCE] } } }

export default defineConfig({
  test: {
    // robots.config.ts first: a bad config fails the run once, with its own message.
    // workerd's teardown line ("WebSocket peer disconnected", once per Worker test file) out of the output: test/support/workerd-noise.ts says why.
    globalSetup: ['./test/support/validate-config.ts', './test/support/workerd-noise.ts'],
    // The Worker logs one JSON line per judged request and per cron run, as on
    // Cloudflare (Workers Logs), and says what it cannot do ("robots-edge:
    // origin unreachable"). Tests that check them spy on the console; the
    // run's output stays readable without them.
    onConsoleLog: (log) => !(log.startsWith('{"robotsEdge":') || log.startsWith('robots-edge: ')),
    // Two test files at a time (vitest's default on two cores is one). Most of
    // the slow files wait on a runtime they started (workerd, wrangler,
    // Chromium, npm), so a second file fills the wait.
    maxWorkers: 2,
    projects: [
      {
        resolve: fromSource,
        ssr: { resolve: fromSource },
        test: {
          name: 'node',
          include: ['test/**/*.test.ts'],
          // Each runtime's files are named for it: *.workerd, *.staging, *.e2e, *.pack.
          exclude: ['test/**/*.{workerd,staging,e2e,pack}.test.ts', 'test/package/fixtures/**'],
          environment: 'node',
          // The files of a worker share one module graph instead of each
          // loading the registry, the engine and vitest afresh: a third of
          // this project's time on two cores. What a file changes globally
          // (console spies, timers, env) it restores itself; the suite passes
          // with its files shuffled (--sequence.shuffle.files).
          isolate: false,
          // Pure work only, but some of it heavy (property runs, policies of
          // thousands of groups): on two cores shared with runtimes it may
          // take several times its quiet time. Speed is the benchmarks' to
          // judge (npm run bench), not a test's.
          testTimeout: 30_000,
        },
      },
      {
        // The package as consumers get it: `npm pack`, installed into fresh
        // apps in temporary folders, run in the Workers runtime. Packing,
        // installing and bundling take a while, hence the long timeouts.
        test: {
          name: 'package',
          include: ['test/**/*.pack.test.ts'],
          environment: 'node',
          // Beside the other projects' files: these wait on npm, wrangler
          // and workerd most of the time, and no test anywhere asserts on
          // wall-clock time (benchmarks are `npm run bench`).
          testTimeout: 120_000,
          hookTimeout: 600_000,
        },
      },
      {
        resolve: fromSource,
        ssr: { resolve: fromSource },
        // The built Worker (wrangler's dry-run bundle) served by Miniflare with
        // its static assets, driven in headless Chromium. Building and starting
        // take seconds, hence the long timeouts.
        test: {
          name: 'e2e',
          include: ['test/**/*.e2e.test.ts'],
          // Finds or installs Chromium, and says which: the browser tests never skip.
          globalSetup: ['./test/support/chromium.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 180_000,
        },
      },
      {
        ...workersFromSource,
        plugins: [
          cloudflareTest({
            // createWorker, the in-process form: the report is served by the
            // same Worker, so the tests of /_robots/api/* call SELF.fetch as
            // before. The template's split into two Workers is covered by
            // test/workers/edge-worker.workerd.test.ts and the e2e project.
            main: './test/support/workerd/entry.ts',
            wrangler: { configPath: './wrangler.toml' },
            miniflare: {
              bindings: { TEST_MIGRATIONS: migrations, ROBOTS_ADMIN_TOKEN: 'test-admin-token', IP_HASH_SALT: 'test-salt' },
              serviceBindings: { ROBOTS_ADMIN: adminEcho },
              // Crawl-delay enforcement's gates (the entry exports the class), for test/edge/crawl-delay-enforce.workerd.test.ts.
              durableObjects: { CRAWL_DELAY: { className: 'CrawlDelayGate', useSQLite: true } },
            },
          }),
        ],
        test: {
          name: 'workers',
          include: ['test/**/*.workerd.test.ts'],
          setupFiles: ['./test/support/workerd/setup.ts'],
          // An origin that echoes what it receives, for the pass-through tests.
          globalSetup: ['./test/support/echo-origin.ts'],
        },
      },
      {
        // The same Worker deployed as staging (`[env.staging]` sets ROBOTS_ENV).
        ...workersFromSource,
        plugins: [
          cloudflareTest({
            main: './src/workers/edge-worker.ts',
            wrangler: { configPath: './wrangler.toml' },
            miniflare: {
              bindings: { TEST_MIGRATIONS: migrations, ROBOTS_ENV: 'staging' },
              serviceBindings: { ROBOTS_ADMIN: adminEcho },
              // Pages pass through to the zone's origin (no ORIGIN here): a
              // stand-in answers instead of a DNS lookup that fails offline
              // and prints workerd's internal errors into the run's output.
              outboundService: () => new Response('the zone origin (stand-in)\n'),
            },
          }),
        ],
        test: {
          name: 'workers-staging',
          include: ['test/**/*.staging.test.ts'],
          setupFiles: ['./test/support/workerd/setup.ts'],
        },
      },
    ],
  },
})
