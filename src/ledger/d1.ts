/** The ledger's D1 binding, checked by shape: a consumer's `env` may hold anything under that name. */
export function d1Of(env: unknown): D1Database | undefined {
  const db = (env as { DB?: D1Database } | undefined)?.DB
  return typeof db?.prepare === 'function' && typeof db.batch === 'function' ? db : undefined
}
