/**
 * The config half of the `robots-edge` entry point: what robots.config.ts
 * uses. Pure: no Worker APIs, so Node code (the CLI, scripts, tests) can
 * type-check a config that imports `robots-edge` (see tsconfig.node.json).
 */
export { defineConfig, ConfigError, type Exactly, type StrictConfigFunction } from '../core/config/index.ts'
export type {
  AlertsConfig,
  ConfigContext,
  ConfigFunction,
  ConfigInput,
  ContentSignal,
  ContentUsage,
  GuardConfig,
  GuardMode,
  IndexingDirective,
  NoindexRule,
  RobotsConfig,
  RuleConfig,
  SingleRuleConfig,
  UsagePreferences,
  UserAgent,
} from '../core/config/index.ts'
export { agents } from '../core/agents/index.ts'
