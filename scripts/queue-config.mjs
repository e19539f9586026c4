// The ledger queue's wrangler settings, added to the two Workers' configs
// when the template runs on the queue path (`npm run deploy -- --queue`,
// `npm run dev:queue`). The committed wrangler.toml and wrangler.admin.toml
// declare no queue, so a plain deploy, the Workers Free plan and `npm run
// dev` keep the direct path (the edge writes to D1 itself); this overlay is
// the one place the queue path's bindings are written.
//
//   edge:  [[queues.producers]] LEDGER_QUEUE -> <edge name>-ledger
//   admin: [[queues.consumers]] <edge name>-ledger, batches of up to 100
//          messages (or 5 s), 20 retries, then <edge name>-ledger-dlq;
//          [[queues.consumers]] <edge name>-ledger-dlq, counted as not stored.
//
// The consumer's retry delays double from 5 s up to 15 min
// (src/ledger/queue-consumer.ts): 20 retries outlast a D1 outage of about
// three and a half hours before a message reaches the dead-letter queue.
//
//   node scripts/queue-config.mjs [--env <name>]   writes .wrangler.queue.json and .wrangler.admin.queue.json (for `npm run dev:queue`)
import { writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { experimental_readRawConfig, unstable_readConfig } from 'wrangler'

export const EDGE_CONFIG = 'wrangler.toml'
export const ADMIN_CONFIG = 'wrangler.admin.toml'

/** The queue and its dead-letter queue, named after the edge Worker (so staging has its own). The admin Worker treats a queue whose name ends in `-dlq` as a dead-letter queue. */
export function queueNames(edgeName) {
  return { queue: `${edgeName}-ledger`, deadLetter: `${edgeName}-ledger-dlq` }
}

/** `target` (a raw config, or one of its [env.*] sections) with the queue's bindings for `role` ('edge' or 'admin') added. */
export function withLedgerQueue(target, role, names) {
  const queues = { ...(target.queues ?? {}) }
  if (role === 'edge') queues.producers = [...(queues.producers ?? []).filter((p) => p.binding !== 'LEDGER_QUEUE'), { binding: 'LEDGER_QUEUE', queue: names.queue }]
  else {
    const others = (queues.consumers ?? []).filter((c) => c.queue !== names.queue && c.queue !== names.deadLetter)
    queues.consumers = [
      ...others,
      { queue: names.queue, max_batch_size: 100, max_batch_timeout: 5, max_retries: 20, dead_letter_queue: names.deadLetter },
      { queue: names.deadLetter, max_batch_size: 100, max_batch_timeout: 5, max_retries: 20 },
    ]
  }
  return { ...target, queues }
}

/** Both raw configs with the queue added (to `env`'s section when given), and the queue names. */
export function queueConfigs(env) {
  const edgeName = unstable_readConfig({ config: EDGE_CONFIG, env }, { hideWarnings: true }).name
  const names = queueNames(edgeName)
  const overlay = (config, role) => {
    const { rawConfig } = experimental_readRawConfig({ config })
    if (env === undefined) return withLedgerQueue(rawConfig, role, names)
    if (!rawConfig.env?.[env]) throw new Error(`${config} has no [env.${env}]`)
    return { ...rawConfig, env: { ...rawConfig.env, [env]: withLedgerQueue(rawConfig.env[env], role, names) } }
  }
  return { edge: overlay(EDGE_CONFIG, 'edge'), admin: overlay(ADMIN_CONFIG, 'admin'), names }
}

// Run as a script: the dev configs, beside the originals so every relative path in them means the same.
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { env: { type: 'string', short: 'e' } } })
  const { edge, admin, names } = queueConfigs(values.env)
  writeFileSync('.wrangler.queue.json', `${JSON.stringify(edge, null, 2)}\n`)
  writeFileSync('.wrangler.admin.queue.json', `${JSON.stringify(admin, null, 2)}\n`)
  console.log(`robots-edge: the queue path's configs (.wrangler.queue.json, .wrangler.admin.queue.json): ${names.queue}, dead letters to ${names.deadLetter}.`)
}
