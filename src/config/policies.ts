import { buildPolicy, type Policy } from './policy.ts'
import { DEFAULTS, resolveConfig } from './resolve.ts'
import type { ConfigContext, ConfigInput } from './types.ts'
import { formatIssue, type ConfigIssue } from './validate.ts'

/** Policies per host and environment, built once per isolate. */
export interface Policies {
  /** The policy for this host and environment. Never throws. */
  get(host: string, env: string | undefined): Policy
}

/**
 * Contexts a config is checked against before it serves anything: at
 * start-up, in `npm test` and before `npm run deploy`. A config function is
 * also called for each new host at run time; see `createPolicies`.
 */
export const CHECK_CONTEXTS: readonly ConfigContext[] = [
  { host: 'localhost', env: 'production' },
  { host: 'example.com', env: 'production' },
  { host: 'robots-edge.example.workers.dev', env: 'production' },
  { host: 'example.com', env: 'staging' },
]

/** Resolves and builds the config for each context; throws ConfigError on the first invalid one. */
export function checkConfig(input: ConfigInput, contexts: readonly ConfigContext[] = CHECK_CONTEXTS): ConfigIssue[] {
  const warnings = new Map<string, ConfigIssue>()
  for (const context of contexts) {
    const { config, warnings: found } = resolveConfig(input, context)
    buildPolicy(config)
    for (const w of found) warnings.set(formatIssue(w), w)
  }
  return [...warnings.values()]
}

/** Hosts come from requests, so the cache is bounded. */
const CACHE_LIMIT = 256

/**
 * Creates the per-isolate policy store. The config is checked once, at
 * creation (for an object, that is every case; for a function, the
 * `CHECK_CONTEXTS`), and a bad config throws there: at start-up, which fails
 * the deploy, never on a live request.
 *
 * Should a config function still fail for some host at run time, that host
 * gets, with the guard off, a policy that allows everything in production
 * (a broken config must not de-index a site nor refuse visitors) and
 * disallows everything on staging and previews; the error is logged once.
 */
export function createPolicies(input: ConfigInput, options: { log?: (message: string) => void } = {}): Policies {
  const log = options.log ?? ((m: string) => console.error(m))
  checkConfig(input)
  const cache = new Map<string, Policy>()
  return {
    get(host, env) {
      // `example.com.` is `example.com`: a trailing dot must not dodge the preview rules.
      const context: ConfigContext = { host: (host ?? '').toLowerCase().replace(/\.+$/, ''), env: env || DEFAULTS.env }
      const key = `${context.env}\n${context.host}`
      let policy = cache.get(key)
      if (policy !== undefined) return policy
      try {
        policy = buildPolicy(resolveConfig(input, context).config)
      } catch (error) {
        // In production, allow everything (a broken config must not de-index
        // the site); anywhere else, disallow everything, as staging always does.
        const fallback = resolveConfig({ rules: { userAgent: '*', disallow: '' }, guard: { mode: 'off' } }, context).config
        log(`robots-edge: config failed for host "${context.host}", env "${context.env}"; serving ${fallback.indexable ? 'allow-all' : 'disallow-all'} with the guard off.\n${(error as Error).message}`)
        policy = buildPolicy(fallback)
      }
      if (cache.size >= CACHE_LIMIT) cache.clear()
      cache.set(key, policy)
      return policy
    },
  }
}
