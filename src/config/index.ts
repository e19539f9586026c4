import type { ConfigFunction, RobotsConfig } from './types.ts'

/**
 * Declares the crawler policy. An identity function that exists for type
 * inference (as in Vite); it also accepts a function of `{ host, env }` for
 * per-host and per-environment policies.
 *
 * @example
 * export default defineConfig({
 *   rules: [
 *     { userAgent: '*', allow: '/', disallow: ['/admin/', '/*.pdf$'] },
 *     { userAgent: agents.aiTraining, disallow: '/' },
 *   ],
 *   sitemap: 'https://example.com/sitemap.xml',
 *   guard: { mode: 'log' },
 * })
 */
export function defineConfig<const T extends RobotsConfig | ConfigFunction>(config: T): T {
  return config
}

export { agents } from '../bots/index.ts'
export { buildPolicy, toRobotsModel, type Policy } from './policy.ts'
export { canonicalHost, INVALID_HOST, isBucketHost, MAX_HOST_LENGTH, OTHER_HOSTS } from './host.ts'
export { checkConfig, createPolicies, CHECK_CONTEXTS, POLICY_CACHE_CHARACTERS, POLICY_CACHE_LIMIT, type Policies } from './policies.ts'
export { DEFAULTS, matchesHost, resolveConfig } from './resolve.ts'
export { ConfigError, formatIssue, validateConfig, type ConfigIssue } from './validate.ts'
export type * from './types.ts'
