import type { ConfigInput, GuardMode, RobotsConfig } from '../../src/core/config/index.ts'

/** The same config with one guard mode everywhere (file-wide and per group). */
export function withGuardMode(config: ConfigInput, mode: GuardMode): ConfigInput {
  const apply = (c: RobotsConfig): RobotsConfig => ({
    ...c,
    rules: (Array.isArray(c.rules) ? c.rules : [c.rules]).map(({ guard: _ignored, ...rule }) => rule),
    guard: { ...c.guard, mode },
  })
  return typeof config === 'function' ? (context) => apply(config(context)) : apply(config)
}
