import { canonicalHost, INVALID_HOST, OTHER_HOSTS } from './host.ts'
import { buildPolicy, type Policy } from './policy.ts'
import { configFor, DEFAULTS, indexableFor, resolveConfig } from './resolve.ts'
import type { ConfigContext, ConfigInput, ResolvedConfig, RobotsConfig } from './types.ts'
import { ConfigError, formatIssue, type ConfigIssue } from './validate.ts'

/** Policies per host and environment, built once per isolate. */
export interface Policies {
  /** The policy for this host (as the request names it; canonicalised here) and environment. Never throws. */
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

/** Policies kept per isolate. Hosts come from requests, so beyond this the least recently used is evicted. */
export const POLICY_CACHE_LIMIT = 256

/**
 * Builds policies, sharing the work between hosts: a config object (or a
 * config function returning the same object again) resolves the same for
 * every host but for the host itself and whether it is indexable
 * (resolveConfig), so it is validated, resolved and compiled once per
 * environment, and a new host costs a shallow copy. A host that is not
 * indexable gets the small disallow-all file, built for it alone since its
 * comment names the host. Only a function returning a new object per host
 * pays for the whole build on each new host.
 */
function createBuilder(input: ConfigInput) {
  const shared = new WeakMap<object, Map<string, { config: ResolvedConfig; indexable?: Policy }>>()
  return (context: ConfigContext): Policy => {
    const raw = configFor(input, context)
    if (typeof raw !== 'object' || raw === null) return buildPolicy(resolveConfig(input, context).config)
    let byEnv = shared.get(raw)
    if (byEnv === undefined) shared.set(raw, (byEnv = new Map()))
    let entry = byEnv.get(context.env)
    if (entry === undefined) {
      // Validates too: only a valid object is ever shared.
      entry = { config: resolveConfig(raw as RobotsConfig, context).config }
      byEnv.set(context.env, entry)
    }
    const indexable = indexableFor(raw as RobotsConfig, context)
    if (!indexable) return buildPolicy({ ...entry.config, host: context.host, indexable })
    entry.indexable ??= buildPolicy({ ...entry.config, host: context.host, indexable })
    const policy = entry.indexable
    return policy.config.host === context.host ? policy : { ...policy, config: { ...policy.config, host: context.host } }
  }
}

type Builder = ReturnType<typeof createBuilder>

/**
 * Resolves and builds every context, plus the hosts the config lists and the
 * shared host key (see `hosts`), whose policies are then known before any
 * request. Throws ConfigError on the first invalid one.
 */
function checkContexts(input: ConfigInput, contexts: readonly ConfigContext[], build: Builder) {
  const warnings = new Map<string, ConfigIssue>()
  let hosts: readonly string[] | undefined
  let hostsFrom: ConfigContext | undefined
  const built = new Map<string, Policy>()
  const check = (context: ConfigContext) => {
    const { config, warnings: found } = resolveConfig(input, context)
    for (const w of found) warnings.set(formatIssue(w), w)
    if (hostsFrom === undefined) [hosts, hostsFrom] = [config.hosts, context]
    else if (JSON.stringify(config.hosts) !== JSON.stringify(hosts)) {
      throw new ConfigError([{ path: 'hosts', message: `differs between host "${hostsFrom.host}" (${hostsFrom.env}) and host "${context.host}" (${context.env}): the Worker must know which hosts it serves before it sees a request.`, fix: 'Return the same hosts list for every host and environment.' }])
    }
    built.set(keyOf(context), build(context))
  }
  contexts.forEach(check)
  // The listed hosts and the key every other host shares; without a list, the key of invalid Host headers.
  const extra = hosts === undefined ? [INVALID_HOST] : [...hosts, OTHER_HOSTS]
  for (const host of extra) if (!built.has(keyOf({ host, env: 'production' }))) check({ host, env: 'production' })
  return { warnings: [...warnings.values()], hosts, built }
}

const keyOf = (context: ConfigContext) => `${context.env}\n${context.host}`

/** Resolves and builds the config for each context; throws ConfigError on the first invalid one. */
export function checkConfig(input: ConfigInput, contexts: readonly ConfigContext[] = CHECK_CONTEXTS): ConfigIssue[] {
  return checkContexts(input, contexts, createBuilder(input)).warnings
}

/**
 * Creates the per-isolate policy store. The config is checked once, at
 * creation (for an object, that is every case; for a function, the
 * `CHECK_CONTEXTS` and every host it lists in `hosts`), and a bad config
 * throws there: at start-up, which fails the deploy, never on a live request.
 *
 * Hosts are canonicalised first (canonicalHost): `Example.com.:443` is
 * `example.com`. With `hosts` set, every other host is served the policy of
 * `other-hosts.invalid`. At most POLICY_CACHE_LIMIT policies are kept; the
 * least recently used goes first.
 *
 * Should a config function still fail for some host at run time, that host
 * gets, with the guard off, a policy that allows everything in production
 * (a broken config must not de-index a site nor refuse visitors) and
 * disallows everything on staging and previews; the error is logged once.
 */
export function createPolicies(input: ConfigInput, options: { log?: (message: string) => void } = {}): Policies {
  const log = options.log ?? ((m: string) => console.error(m))
  const build = createBuilder(input)
  const checked = checkContexts(input, CHECK_CONTEXTS, build)
  const listed = checked.hosts === undefined ? undefined : new Set(checked.hosts)
  // A Map iterates in insertion order: re-inserting on each hit keeps the least recently used first.
  const cache = new Map<string, Policy>()
  for (const [key, policy] of checked.built) if (cache.size < POLICY_CACHE_LIMIT) cache.set(key, policy)
  return {
    get(host, env) {
      let canonical = canonicalHost(host)
      if (listed !== undefined && !listed.has(canonical)) canonical = OTHER_HOSTS
      const context: ConfigContext = { host: canonical, env: env || DEFAULTS.env }
      const key = keyOf(context)
      let policy = cache.get(key)
      if (policy !== undefined) {
        cache.delete(key)
        cache.set(key, policy)
        return policy
      }
      try {
        policy = build(context)
      } catch (error) {
        // In production, allow everything (a broken config must not de-index
        // the site); anywhere else, disallow everything, as staging always does.
        const fallback = resolveConfig({ rules: { userAgent: '*', disallow: '' }, guard: { mode: 'off' } }, context).config
        log(`robots-edge: config failed for host "${context.host}", env "${context.env}"; serving ${fallback.indexable ? 'allow-all' : 'disallow-all'} with the guard off.\n${(error as Error).message}`)
        policy = buildPolicy(fallback)
      }
      if (cache.size >= POLICY_CACHE_LIMIT) cache.delete(cache.keys().next().value!)
      cache.set(key, policy)
      return policy
    },
  }
}
