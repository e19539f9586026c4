import { resolveAlerts } from './alerts.ts'
import { canonicalHost, INVALID_HOST, OTHER_HOSTS } from './host.ts'
import { noindexConflicts } from './noindex-conflicts.ts'
import { buildPolicy, type Policy } from './policy.ts'
import { configFor, DEFAULTS, indexableFor, resolveConfig, resolveValid } from './resolve.ts'
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
 * Characters of robots.txt whose compiled policies the cache may hold, each
 * distinct compiled policy counted once (hosts sharing one cost nothing
 * more). A compiled policy takes about 27 bytes per character of its file,
 * so this is about 27 MB of an isolate's 128 MB. Beyond it, the least
 * recently used hosts are evicted, however few.
 */
export const POLICY_CACHE_CHARACTERS = 1_000_000

/**
 * Set by the template's build and deploy (dev/checked-config.ts), and
 * only for a config object that they have just validated in Node, with
 * `--define ROBOTS_EDGE_CONFIG_CHECKED:true`: the edge Worker's bundle then
 * leaves the validator out (validate*.ts, about 5 KiB of its 64 KiB gzip
 * budget), since an object resolves the same for every host. Nothing else
 * defines it: a consumer's Worker, `npm run dev`, the tests and the CLI
 * validate at start-up as before, and a config function, whose result for a
 * new host is only known at run time, is always validated there (a checked
 * build refuses one at start-up). Each use is written as a `typeof` test so
 * that esbuild folds it to a constant and drops the branch it rules out.
 */
declare const ROBOTS_EDGE_CONFIG_CHECKED: boolean | undefined
/** The warnings createPolicies would log at start-up, as the checked build computed them (whole `robots-edge: warning: …` lines). */
declare const ROBOTS_EDGE_CONFIG_WARNINGS: readonly string[] | undefined

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
  const shared = new WeakMap<object, Map<string, { config: ResolvedConfig; warnings: ConfigIssue[]; indexable?: Policy }>>()
  const resolve: typeof resolveConfig =
    typeof ROBOTS_EDGE_CONFIG_CHECKED !== 'undefined' && ROBOTS_EDGE_CONFIG_CHECKED === true
      ? (checked, context) => ({ config: resolveValid(checked as RobotsConfig, context), warnings: [] })
      : resolveConfig
  return (context: ConfigContext): { policy: Policy; warnings: readonly ConfigIssue[] } => {
    const raw = configFor(input, context)
    if (typeof raw !== 'object' || raw === null) {
      const resolved = resolve(input, context)
      return { policy: buildPolicy(resolved.config), warnings: resolved.warnings }
    }
    let byEnv = shared.get(raw)
    if (byEnv === undefined) shared.set(raw, (byEnv = new Map()))
    let entry = byEnv.get(context.env)
    if (entry === undefined) {
      // Validates too: only a valid object is ever shared.
      entry = resolve(raw as RobotsConfig, context)
      byEnv.set(context.env, entry)
    }
    const indexable = indexableFor(raw as RobotsConfig, context)
    if (!indexable) return { policy: buildPolicy({ ...entry.config, host: context.host, indexable }), warnings: entry.warnings }
    entry.indexable ??= buildPolicy({ ...entry.config, host: context.host, indexable })
    const policy = entry.indexable
    return { policy: policy.config.host === context.host ? policy : { ...policy, config: { ...policy.config, host: context.host } }, warnings: entry.warnings }
  }
}

type Builder = ReturnType<typeof createBuilder>

/**
 * Resolves and builds every context, plus the hosts the config lists and the
 * shared host key (see `hosts`), whose policies are then known before any
 * request. Throws ConfigError on the first invalid one.
 */
function checkContexts(contexts: readonly ConfigContext[], build: Builder) {
  const warnings = new Map<string, ConfigIssue>()
  let hosts: readonly string[] | undefined
  let hostsFrom: ConfigContext | undefined
  const built = new Map<string, Policy>()
  const check = (context: ConfigContext) => {
    const { policy, warnings: found } = build(context)
    for (const w of found) warnings.set(formatIssue(w), w)
    if (hostsFrom === undefined) [hosts, hostsFrom] = [policy.config.hosts, context]
    else if (JSON.stringify(policy.config.hosts) !== JSON.stringify(hosts)) {
      throw new ConfigError([
        {
          path: 'hosts',
          message: `differs between host "${hostsFrom.host}" (${hostsFrom.env}) and host "${context.host}" (${context.env}): the Worker must know which hosts it serves before it sees a request.`,
          fix: 'Return the same hosts list for every host and environment.',
        },
      ])
    }
    built.set(keyOf(context), policy)
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
  const { warnings, built } = checkContexts(contexts, createBuilder(input))
  // `alerts` is read by the cron in the admin Worker, which checks it at
  // start-up; here too (deploys, tests, the CLI), but not in createPolicies:
  // the edge never reads it, and its bundle stays small.
  for (const context of contexts) resolveAlerts(configFor(input, context))
  const unique = new Map(warnings.map((w) => [formatIssue(w), w]))
  // A noindex path robots.txt disallows is never seen (noindex-conflicts.ts); said once per distinct warning.
  for (const context of contexts) {
    const policy = built.get(keyOf(context))
    if (policy !== undefined) for (const w of noindexConflicts(configFor(input, context) as RobotsConfig, policy)) unique.set(formatIssue(w), w)
  }
  return [...unique.values()]
}

/**
 * The cache: least recently used first (a Map iterates in insertion order,
 * and a hit is inserted again), bounded in entries and in the size of the
 * distinct compiled policies it keeps alive (their matcher identifies them).
 */
function createCache() {
  const entries = new Map<string, Policy>()
  const compiled = new Map<object, { uses: number; size: number }>()
  let size = 0
  const release = (policy: Policy) => {
    const c = compiled.get(policy.matcher)!
    if (--c.uses > 0) return
    compiled.delete(policy.matcher)
    size -= c.size
  }
  return {
    get(key: string): Policy | undefined {
      const policy = entries.get(key)
      if (policy !== undefined) {
        entries.delete(key)
        entries.set(key, policy)
      }
      return policy
    },
    set(key: string, policy: Policy): void {
      const c = compiled.get(policy.matcher)
      if (c !== undefined) c.uses++
      else {
        compiled.set(policy.matcher, { uses: 1, size: policy.text.length })
        size += policy.text.length
      }
      entries.set(key, policy)
      while (entries.size > 1 && (entries.size > POLICY_CACHE_LIMIT || size > POLICY_CACHE_CHARACTERS)) {
        const [oldest, evicted] = entries.entries().next().value!
        entries.delete(oldest)
        release(evicted)
      }
    },
  }
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
export function createPolicies(input: ConfigInput, options: { log?: (message: string) => void; warn?: (message: string) => void } = {}): Policies {
  const log = options.log ?? ((m: string) => console.error(m))
  if (typeof ROBOTS_EDGE_CONFIG_CHECKED !== 'undefined' && ROBOTS_EDGE_CONFIG_CHECKED === true && typeof input === 'function') {
    throw new ConfigError([
      {
        path: '(config)',
        message: 'is a function, which a Worker built with ROBOTS_EDGE_CONFIG_CHECKED cannot validate for each new host.',
        fix: 'Use npm run build and npm run deploy: they define it for a config object only.',
      },
    ])
  }
  const build = createBuilder(input)
  const checked = checkContexts(CHECK_CONTEXTS, build)
  // Once per isolate: a consumer's `wrangler dev` shows what the template's `npm run dev` prints (a token merged from two groups, …).
  const warn = options.warn ?? ((m: string) => console.warn(m))
  for (const w of checked.warnings) warn(`robots-edge: warning: ${formatIssue(w)}`)
  for (const line of typeof ROBOTS_EDGE_CONFIG_WARNINGS === 'undefined' ? [] : ROBOTS_EDGE_CONFIG_WARNINGS) warn(line)
  const listed = checked.hosts === undefined ? undefined : new Set(checked.hosts)
  const cache = createCache()
  for (const [key, policy] of checked.built) if (listed === undefined || listed.has(policy.config.host) || policy.config.host === OTHER_HOSTS) cache.set(key, policy)
  return {
    get(host, env) {
      const e = env || DEFAULTS.env
      // Most requests name a host already served, as the runtime spells it: one lookup, no parsing.
      const hit = listed === undefined || listed.has(host) ? cache.get(`${e}\n${host}`) : undefined
      if (hit !== undefined) return hit
      let canonical = canonicalHost(host)
      if (listed !== undefined && !listed.has(canonical)) canonical = OTHER_HOSTS
      const context: ConfigContext = { host: canonical, env: e }
      const key = keyOf(context)
      let policy = cache.get(key)
      if (policy !== undefined) return policy
      try {
        policy = build(context).policy
      } catch (error) {
        // In production, allow everything (a broken config must not de-index
        // the site); anywhere else, disallow everything, as staging always does.
        const fallback = resolveValid({ rules: { userAgent: '*', disallow: '' }, guard: { mode: 'off' } }, context)
        log(
          `robots-edge: config failed for host "${context.host}", env "${context.env}"; serving ${fallback.indexable ? 'allow-all' : 'disallow-all'} with the guard off.\n${(error as Error).message}`,
        )
        policy = buildPolicy(fallback)
      }
      cache.set(key, policy)
      return policy
    },
  }
}
