import { env } from 'cloudflare:test'

/** The error a locked D1 gives, as in an outage. */
export const BUSY = 'D1_ERROR: NOSENTRY database is locked: SQLITE_BUSY'

const db = env.DB

/**
 * env.DB behind a switch: while `down`, every call fails with `error` (a
 * locked database by default), as D1 does in an outage. Batch calls are
 * counted. Statements stay D1's own, so the real batch takes them.
 */
export function switchableDb() {
  const state = { down: false, error: BUSY, batches: 0, hang: false }
  const targets = new WeakMap<object, D1PreparedStatement>()
  const fail = () => Promise.reject(new Error(state.error))
  const guard = (statement: D1PreparedStatement): D1PreparedStatement => {
    const proxy = new Proxy(statement, {
      get(target, prop) {
        if (prop === 'bind') return (...values: unknown[]) => guard(target.bind(...values))
        if (prop === 'run' || prop === 'first' || prop === 'all' || prop === 'raw') {
          return (...args: unknown[]) => (state.down ? fail() : (target[prop] as (...a: unknown[]) => Promise<unknown>).apply(target, args))
        }
        const value = Reflect.get(target, prop) as unknown
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value
      },
    })
    targets.set(proxy, statement)
    return proxy
  }
  const wrapped = {
    prepare: (sql: string) => guard(db.prepare(sql)),
    batch: async (statements: D1PreparedStatement[]) => {
      state.batches++
      if (state.hang) await new Promise(() => {})
      return state.down ? fail() : db.batch(statements.map((s) => targets.get(s) ?? s))
    },
  } as unknown as D1Database
  return { db: wrapped, state }
}
