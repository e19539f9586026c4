import { serializeRobotsTxt, type Group, type RobotsTxtModel, type Rule } from '../robots/index.ts'

/** One group of the policy, in the shape of Next.js's `MetadataRoute.Robots` rules. */
export interface RuleConfig {
  userAgent: string | string[]
  allow?: string | string[]
  disallow?: string | string[]
}

/** The policy a site owner writes in `robots.config.ts`. */
export interface RobotsConfig {
  rules: RuleConfig | RuleConfig[]
  sitemap?: string | string[]
}

/** Identity function that exists for type inference, as in Vite. */
export function defineConfig(config: RobotsConfig): RobotsConfig {
  return config
}

const list = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v])

/** The robots.txt model the config describes. */
export function toRobotsModel(config: RobotsConfig): RobotsTxtModel {
  const groups: Group[] = list(config.rules).map((r) => ({
    userAgents: list(r.userAgent),
    rules: [
      ...list(r.allow).map((pattern): Rule => ({ type: 'allow', pattern })),
      ...list(r.disallow).map((pattern): Rule => ({ type: 'disallow', pattern })),
    ],
    other: [],
  }))
  return { groups, sitemaps: list(config.sitemap), other: [] }
}

export function renderRobotsTxt(config: RobotsConfig): string {
  return serializeRobotsTxt(toRobotsModel(config))
}
