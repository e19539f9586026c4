/**
 * What `robots-edge init` adds to a wrangler config, as pure functions: what
 * is missing (from the config as wrangler reads it), the TOML text appended
 * for it, the JSON patch for wrangler.json(c), and the diff printed.
 */

/** The parts of a wrangler config init reads (wrangler's raw reading of the file, top level only). */
export interface RawWranglerConfig {
  readonly name?: unknown
  readonly assets?: { readonly directory?: unknown } | undefined
  readonly d1_databases?: readonly { readonly binding?: unknown }[] | undefined
  readonly kv_namespaces?: readonly { readonly binding?: unknown }[] | undefined
  readonly triggers?: { readonly crons?: readonly unknown[] | undefined } | undefined
}

export const CRON = '17 * * * *'
export const MIGRATIONS_DIR = 'node_modules/robots-edge/migrations'
export const PUBLIC_DIR = 'node_modules/robots-edge/public'

export interface Needs {
  /** The D1 binding to add, or none. */
  readonly d1?: { readonly binding: 'DB'; readonly database_name: string; readonly migrations_dir: string } | undefined
  readonly kv: boolean
  /** Add the cron trigger: only when the app has none, since robots-edge's upkeep runs on any cron event. */
  readonly cron: boolean
  /** Add `[assets]`, or copy the dashboard's files into the app's own assets directory. */
  readonly assets: 'add' | { readonly copyTo: string } | 'none'
}

const hasBinding = (list: RawWranglerConfig['d1_databases'], name: string) => Array.isArray(list) && list.some((b) => b?.binding === name)

/** A D1 database name from the app's name: lower-case letters, digits and dashes. */
export function databaseName(appName: string): string {
  const base = appName
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '')
  return `${base || 'app'}-robots`
}

export function needs(raw: RawWranglerConfig, fallbackName: string): Needs {
  const name = typeof raw.name === 'string' && raw.name !== '' ? raw.name : fallbackName
  const crons = raw.triggers?.crons
  const assetsDir = raw.assets?.directory
  return {
    d1: hasBinding(raw.d1_databases, 'DB') ? undefined : { binding: 'DB', database_name: databaseName(name), migrations_dir: MIGRATIONS_DIR },
    kv: !hasBinding(raw.kv_namespaces, 'ROBOTS_KV'),
    cron: !Array.isArray(crons) || crons.length === 0,
    assets: typeof assetsDir !== 'string' ? 'add' : assetsDir.replace(/\/+$/, '').endsWith(PUBLIC_DIR) ? 'none' : { copyTo: assetsDir },
  }
}

/** Whether the config has every binding (an app's own assets directory counts: init copies the files into it). */
export function configComplete(n: Needs): boolean {
  return n.d1 === undefined && !n.kv && !n.cron && n.assets !== 'add'
}

/** The sections a TOML config lacks, appended as text: the user's comments and layout stay as they are. */
export function appendToml(text: string, n: Needs): string {
  const parts: string[] = []
  if (n.assets === 'add') parts.push(`# robots-edge: the dashboard's static files (served before the Worker runs).\n[assets]\ndirectory = "${PUBLIC_DIR}"`)
  if (n.d1)
    parts.push(
      `# robots-edge: the compliance ledger, with the package's migrations.\n[[d1_databases]]\nbinding = "DB"\ndatabase_name = ${JSON.stringify(n.d1.database_name)}\nmigrations_dir = "${MIGRATIONS_DIR}"`,
    )
  if (n.kv) parts.push(`# robots-edge: operators' published IP ranges.\n[[kv_namespaces]]\nbinding = "ROBOTS_KV"`)
  if (n.cron) parts.push(`# robots-edge: refreshes the IP ranges and prunes the ledger.\n[triggers]\ncrons = ["${CRON}"]`)
  if (parts.length === 0) return text
  const body = text === '' || text.endsWith('\n') ? text : `${text}\n`
  return `${body}\n${parts.join('\n\n')}\n`
}

/** The same additions as a patch for wrangler's JSON(C) patcher (arrays are appended to). */
export function jsonPatch(n: Needs): Record<string, unknown> {
  const patch: Record<string, unknown> = {}
  if (n.assets === 'add') patch.assets = { directory: PUBLIC_DIR }
  if (n.d1) patch.d1_databases = [n.d1]
  if (n.kv) patch.kv_namespaces = [{ binding: 'ROBOTS_KV' }]
  if (n.cron) patch.triggers = { crons: [CRON] }
  return patch
}

/** Each addition, in words, for the summary and for the manual steps when a file cannot be edited. */
export function describe(n: Needs): string[] {
  const lines: string[] = []
  if (n.assets === 'add') lines.push(`[assets] directory = "${PUBLIC_DIR}" (the dashboard's scripts)`)
  if (n.d1) lines.push(`[[d1_databases]] binding = "DB", database_name = "${n.d1.database_name}", migrations_dir = "${MIGRATIONS_DIR}"`)
  if (n.kv) lines.push('[[kv_namespaces]] binding = "ROBOTS_KV"')
  if (n.cron) lines.push(`[triggers] crons = ["${CRON}"]`)
  return lines
}

/** `KEY=value` lines to add to a .dev.vars (or .env) text for the keys it lacks; existing lines are kept. */
export function addVars(text: string, values: Readonly<Record<string, string>>): string {
  const present = new Set(text.split(/\r?\n/).map((line) => /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=/.exec(line)?.[1]))
  const added = Object.entries(values).filter(([key]) => !present.has(key))
  if (added.length === 0) return text
  const body = text === '' || text.endsWith('\n') ? text : `${text}\n`
  return body + added.map(([key, value]) => `${key}=${value}\n`).join('')
}

/**
 * A unified-style diff of one file: its unchanged start and end, and one
 * hunk between them (enough for what init does: append, insert, create).
 */
export function unifiedDiff(path: string, before: string | undefined, after: string): string[] {
  const lines = (text: string) => (text === '' ? [] : text.replace(/\n$/, '').split('\n'))
  const a = before === undefined ? [] : lines(before)
  const b = lines(after)
  let start = 0
  while (start < a.length && start < b.length && a[start] === b[start]) start++
  let end = 0
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end++
  const context = 2
  const from = Math.max(0, start - context)
  const removed = a.slice(start, a.length - end)
  const added = b.slice(start, b.length - end)
  const tail = a.slice(a.length - end, Math.min(a.length, a.length - end + context))
  const oldCount = start - from + removed.length + tail.length
  const newCount = start - from + added.length + tail.length
  const out = [`--- ${before === undefined ? '/dev/null' : `a/${path}`}`, `+++ b/${path}`]
  out.push(`@@ -${oldCount === 0 ? 0 : from + 1},${oldCount} +${newCount === 0 ? 0 : from + 1},${newCount} @@`)
  for (const line of a.slice(from, start)) out.push(` ${line}`)
  for (const line of removed) out.push(`-${line}`)
  for (const line of added) out.push(`+${line}`)
  for (const line of tail) out.push(` ${line}`)
  return out
}
