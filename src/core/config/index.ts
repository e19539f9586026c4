import type { ConfigContext, ConfigInput, RobotsConfig } from './types.ts'

/** The element type of the array members of a union (a lone rule or a list of rules). */
type ElementOf<S> = S extends readonly (infer E)[] ? E : never
/**
 * Values with no keys to check. They map to `unknown`, not to themselves:
 * `R & Exactly<R, …>` would otherwise intersect a union of hundreds of
 * token literals with itself, which TypeScript refuses as too complex.
 */
type Primitive = string | number | boolean | bigint | symbol | null | undefined
/** The object members of a union, without `undefined`. */
type ObjectOf<S> = Exclude<NonNullable<S>, readonly unknown[]>

/**
 * `T` with every key the shape `S` lacks turned into `never`, all the way
 * down (records with string keys, such as `other` and `headers`, take any
 * key). TypeScript checks excess keys of an object literal only where it is
 * written against a known type; a config function's result is inferred
 * first, so this is how `sitemapp` inside one becomes an error too.
 */
export type Exactly<T, S> = [T] extends [Primitive]
  ? unknown
  : T extends readonly (infer E)[]
    ? readonly Exactly<E, ElementOf<S>>[]
    : T extends object
      ? string extends keyof ObjectOf<S>
        ? unknown
        : { [K in keyof T]: K extends keyof ObjectOf<S> ? Exactly<T[K], ObjectOf<S>[K]> : never }
      : unknown

/** A config function whose result may hold only the keys `RobotsConfig` knows. */
export type StrictConfigFunction<R extends RobotsConfig> = (context: ConfigContext) => R & Exactly<R, RobotsConfig>

/**
 * Declares the crawler policy. An identity function that exists for type
 * checking (as in Vite): a misspelled key (`disalow`, `sitemapp`) is a type
 * error, and `userAgent` autocompletes the known crawlers' tokens. It also
 * accepts a function of `{ host, env }` for per-host and per-environment
 * policies.
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
export function defineConfig<const R extends RobotsConfig>(config: RobotsConfig | StrictConfigFunction<R>): ConfigInput {
  return config as ConfigInput
}

export { agents } from '../agents/index.ts'
export { buildPolicy, toRobotsModel, type Policy } from './policy.ts'
export { noindexConflicts } from './noindex-conflicts.ts'
export { canonicalHost, INVALID_HOST, isBucketHost, MAX_HOST_LENGTH, OTHER_HOSTS } from './host.ts'
export { checkConfig, createPolicies, CHECK_CONTEXTS, POLICY_CACHE_CHARACTERS, POLICY_CACHE_LIMIT, type Policies } from './policies.ts'
export { DEFAULTS, matchesHost, resolveConfig } from './resolve.ts'
export { ConfigError, formatIssue, validateConfig, type ConfigIssue } from './validate.ts'
export type * from './types.ts'
