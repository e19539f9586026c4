import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import { queueConfigs } from '../../scripts/queue-config.mjs'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const out = mkdtempSync(join(tmpdir(), 'robots-edge-deploy-'))
afterAll(() => rmSync(out, { recursive: true, force: true }))

const dryRun = async (...extra: string[]) => {
  const env = { ...process.env, WRANGLER_SEND_METRICS: 'false', WRANGLER_SEND_ERROR_REPORTS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false' }
  const { stdout, stderr } = await promisify(execFile)('node', ['scripts/deploy.mjs', '--dry-run', '--outdir', out, ...extra], { cwd: ROOT, env })
  return stdout + stderr
}

describe('npm run deploy -- --dry-run', () => {
  // Two wrangler deploys, each of a config with [env.staging]: wrangler's own warning would print once per Worker.
  it('says once, not once per Worker, that no environment was named', { timeout: 120_000 }, async () => {
    const log = await dryRun()
    expect(log).not.toContain('Multiple environments are defined')
    expect(log.match(/no --env given/g)).toHaveLength(1)
    expect(log.match(/Total Upload/g)).toHaveLength(2)
    // The edge as `npm run build` measures it: the template's config object was checked first, so no validator (dev/checked-config.ts).
    const edge = readFileSync(join(out, 'edge-worker.js'), 'utf8')
    expect(edge).toContain('robots.txt')
    expect(edge).not.toContain('is not a product token')
  })
})

describe('npm run deploy -- --queue --dry-run', () => {
  // The queue path's configs (scripts/queue-config.mjs) parse, and both Workers bundle with their queue bindings.
  it('bundles the edge with the LEDGER_QUEUE producer and the admin Worker as its consumer', { timeout: 120_000 }, async () => {
    const log = await dryRun('--queue')
    expect(log.match(/Total Upload/g)).toHaveLength(2)
    expect(log).toMatch(/env\.LEDGER_QUEUE \(robots-edge-ledger\)\s+Queue/)
    const { admin } = queueConfigs()
    expect(admin.queues?.consumers?.map((c) => [c.queue, c.dead_letter_queue, c.max_batch_size])).toEqual([
      ['robots-edge-ledger', 'robots-edge-ledger-dlq', 100],
      ['robots-edge-ledger-dlq', undefined, 100],
    ])
    // Staging gets queues of its own.
    expect(JSON.stringify(queueConfigs('staging').edge)).toContain('robots-edge-staging-ledger')
  })
})
