/**
 * robots.txt versions: stored once per host, and known per isolate with the
 * matcher of the version served before, so a request's grace (RFC 9309 §2.4)
 * is decided when it is recorded, without re-reading any text.
 */
import { compileRobotsTxt, type RobotsMatcher } from '../core/robots/index.ts'
import { GRACE_MS } from './classes.ts'
import { dayOf } from './rollups.ts'

interface VersionContext {
  /** When this version was first served on its host, as D1 knew it. */
  readonly firstServed: number
  /** The version served on the host just before, compiled; null when there was none. */
  readonly previous: RobotsMatcher | null
}

/** Per isolate: a Worker serves a handful of (host, version) pairs, so this stays small. */
const contexts = new Map<string, VersionContext>()
const compiled = new Map<string, RobotsMatcher>()
const MAX_CONTEXTS = 1024
const MAX_COMPILED = 16

function matcherFor(hash: string, text: string): RobotsMatcher {
  let matcher = compiled.get(hash)
  if (!matcher) {
    matcher = compileRobotsTxt(text)
    if (compiled.size >= MAX_COMPILED) compiled.delete(compiled.keys().next().value as string)
    compiled.set(hash, matcher)
  }
  return matcher
}

/** The deployment that first served it is kept with its first-served time; `recorded_at` follows the latest isolate to serve it. */
const UPSERT_VERSION = `INSERT INTO robots_versions (host, hash, text, first_served, last_used, deployment_id, deployment_tag, recorded_at)
  VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?4)
  ON CONFLICT (host, hash) DO UPDATE SET
    deployment_id = CASE WHEN excluded.first_served < first_served THEN excluded.deployment_id ELSE coalesce(deployment_id, excluded.deployment_id) END,
    deployment_tag = CASE WHEN excluded.first_served < first_served THEN excluded.deployment_tag ELSE coalesce(deployment_tag, excluded.deployment_tag) END,
    first_served = min(first_served, excluded.first_served),
    last_used = max(coalesce(last_used, 0), excluded.last_used),
    recorded_at = max(coalesce(recorded_at, 0), excluded.recorded_at)`
const UPSERT_HOST = `INSERT INTO robots_hosts (host, first_served) VALUES (?1, ?2)
  ON CONFLICT (host) DO UPDATE SET first_served = min(first_served, excluded.first_served)`
const PREVIOUS = `SELECT v.first_served AS firstServed, p.hash AS previousHash, p.text AS previousText
  FROM robots_versions v LEFT JOIN robots_versions p ON p.host = v.host AND p.first_served = (
    SELECT max(first_served) FROM robots_versions WHERE host = v.host AND first_served < v.first_served)
  WHERE v.host = ?1 AND v.hash = ?2`

/** The deployment serving a version, from the Worker's version metadata binding (`CF_VERSION_METADATA`). */
export interface Deployment {
  /** The Worker version id, as `wrangler deployments list` and `wrangler versions list` show it. */
  readonly id: string
  /** Its tag (`wrangler versions upload --tag`), when it has one. */
  readonly tag?: string
}

/**
 * Stores a served robots.txt version and when robots-edge first served its
 * host. The first-served times are kept: a later call (another isolate
 * serving the same file) never moves them forward, and the deployment kept
 * is the one that served it first. `recorded_at` moves to the latest call,
 * so the version served now is known even after a revert to an older text.
 * Then this isolate learns the version served before it, compiled, for grace.
 */
export async function recordRobotsVersion(db: D1Database, version: { host: string; hash: string; text: string; time: number; deployment?: Deployment | undefined }): Promise<void> {
  const time = Math.trunc(version.time)
  const deployment = version.deployment
  const [, , row] = await db.batch([
    db.prepare(UPSERT_VERSION).bind(version.host, version.hash, version.text, time, dayOf(time), deployment?.id || null, deployment?.tag || null),
    db.prepare(UPSERT_HOST).bind(version.host, time),
    db.prepare(PREVIOUS).bind(version.host, version.hash),
  ])
  const found = (row?.results as { firstServed: number; previousHash: string | null; previousText: string | null }[] | undefined)?.[0]
  if (!found) return
  const previous = found.previousHash !== null && found.previousText !== null ? matcherFor(found.previousHash, found.previousText) : null
  if (contexts.size >= MAX_CONTEXTS) contexts.delete(contexts.keys().next().value as string)
  contexts.set(`${version.host}\n${version.hash}`, { firstServed: found.firstServed, previous })
}

/**
 * Whether the version served before the one in force allowed this request,
 * as far as this isolate knows: null when it has no previous version at
 * hand, or when the request came too late for grace anyway.
 */
export function previousAllowed(e: { host: string; robotsVersion: string; time: number; path: string; agent: { tokens: readonly string[] } }): boolean | null {
  const context = contexts.get(`${e.host}\n${e.robotsVersion}`)
  if (!context?.previous || e.time >= context.firstServed + GRACE_MS) return null
  return context.previous.check(e.agent.tokens, e.path).allowed
}

/**
 * Learns, for versions this isolate did not record itself, when each was
 * first served and the version served before it (for previousAllowed): the
 * queue consumer writes events that edge isolates judged, and its own
 * isolate may never have seen their versions' messages. One read, for the
 * pairs not known yet; a version D1 does not hold stays unknown (no grace).
 */
export async function learnVersions(db: D1Database, pairs: Iterable<{ host: string; robotsVersion: string }>): Promise<void> {
  const missing = new Map<string, [string, string]>()
  for (const p of pairs) {
    const key = `${p.host}\n${p.robotsVersion}`
    if (!contexts.has(key) && missing.size < MAX_CONTEXTS) missing.set(key, [p.host, p.robotsVersion])
  }
  if (missing.size === 0) return
  const results = await db.batch([...missing.values()].map(([host, hash]) => db.prepare(PREVIOUS).bind(host, hash)))
  ;[...missing.keys()].forEach((key, i) => {
    const found = (results[i]?.results as { firstServed: number; previousHash: string | null; previousText: string | null }[] | undefined)?.[0]
    if (!found) return
    const previous = found.previousHash !== null && found.previousText !== null ? matcherFor(found.previousHash, found.previousText) : null
    if (contexts.size >= MAX_CONTEXTS) contexts.delete(contexts.keys().next().value as string)
    contexts.set(key, { firstServed: found.firstServed, previous })
  })
}
