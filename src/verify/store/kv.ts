/** A KV binding, checked by shape: a consumer's `env` may hold anything under that name. */
export function kvOf(env: unknown): KVNamespace | undefined {
  const kv = (env as { ROBOTS_KV?: KVNamespace } | undefined)?.ROBOTS_KV
  return typeof kv?.get === 'function' && typeof kv.put === 'function' ? kv : undefined
}
