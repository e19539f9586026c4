import { cloudflareTest } from '@cloudflare/vitest-pool-workers'
import { defineConfig } from 'vitest/config'

// Two kinds of tests (see STYLE.md): pure modules in plain Node, where the
// property tests and the large conformance corpus run fastest, and the Worker
// through its real entry in workerd.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'node',
          include: ['test/**/*.test.ts'],
          exclude: ['test/worker/**'],
          environment: 'node',
        },
      },
      {
        plugins: [
          cloudflareTest({
            main: './src/index.ts',
            wrangler: { configPath: './wrangler.toml' },
          }),
        ],
        test: {
          name: 'workers',
          include: ['test/worker/**/*.test.ts'],
        },
      },
    ],
  },
})
