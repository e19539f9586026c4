/**
 * The config half of the `robots-edge` entry point: what robots.config.ts
 * uses. Pure: no Worker APIs, so Node code (the CLI, scripts, tests) can
 * type-check a config that imports `robots-edge` (see tsconfig.node.json).
 */
export { defineConfig, ConfigError, type Exactly, type StrictConfigFunction } from '../config/index.ts'
export type {
  ConfigContext, ConfigFunction, ConfigInput, ContentSignal, GuardConfig, GuardMode, RobotsConfig, RuleConfig, SingleRuleConfig, UserAgent,
} from '../config/index.ts'
export { agents } from '../bots/index.ts'
