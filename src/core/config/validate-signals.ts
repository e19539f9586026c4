import { USAGE_CATEGORIES } from './content-usage.ts'
import type { IndexingDirective } from './types.ts'
import { checkLineSafe, checkPattern, checkToken, isObject, list, listPath, NOINDEX_KEYS, show, unknownKeys, type Issues } from './validate-fields.ts'

/**
 * Validation of the signals beyond RFC 9309 that the Worker also sends as
 * response headers: `contentUsage` (IETF aipref) and `noindex`
 * (X-Robots-Tag). Same rules as the rest of the validator: every error
 * names the field path and the fix.
 */

export const DIRECTIVES: readonly IndexingDirective[] = ['noindex', 'nofollow', 'noai', 'noimageai']
const PATH_STATEMENT_KEYS: readonly string[] = USAGE_CATEGORIES
const GROUP_STATEMENT_KEYS = [...USAGE_CATEGORIES, 'paths']

/**
 * One statement: the categories of the vocabulary (CONTENT_USAGE_VOCABULARY)
 * and nothing else, each true or false, at least one key.
 */
function checkPreferences(value: unknown, path: string, out: Issues, keys: readonly string[]): Record<string, unknown> | undefined {
  if (!isObject(value)) {
    out.push({ path, message: 'is not an object.', fix: 'Write { trainAi: false, search: true }.' })
    return undefined
  }
  unknownKeys(value, keys, path, out)
  if (Object.keys(value).length === 0) out.push({ path, message: 'states no preference.', fix: `Set one of: ${keys.join(', ')}; or remove it.` })
  for (const key of USAGE_CATEGORIES) {
    if (value[key] !== undefined && typeof value[key] !== 'boolean') out.push({ path: `${path}.${key}`, message: `${show(value[key])} is not true or false.`, fix: 'Write true (yes) or false (no).' })
  }
  return value
}

/**
 * A Content-Usage path (draft-ietf-aipref-attach-05 §3.2): it starts with
 * `/` and ends at the first space or tab, then the preferences follow on the
 * same line; `*` and a final `$` match as in allow and disallow (§3.1). `/`
 * alone is the group-wide statement, written beside `paths`.
 */
function checkUsagePath(value: string, path: string, out: Issues): void {
  if (!checkLineSafe(value, path, out, true)) return
  if (!/^\/[^ \t]+$/.test(value)) {
    out.push({
      path,
      message: `${show(value)} is not a Content-Usage path: one starting with "/", without white space (draft-ietf-aipref-attach-05 §3.2), and not "/" alone.`,
      fix: 'Write e.g. "/blog/", a space as "%20"; put the preferences for "/" beside paths.',
    })
  }
}

/** `rules[i].contentUsage`: `{ trainAi?, search?, paths?: { '/blog/': { ... } } }`. */
export function checkContentUsage(value: unknown, path: string, out: Issues): void {
  const paths = checkPreferences(value, path, out, GROUP_STATEMENT_KEYS)?.paths
  if (paths === undefined) return
  if (!isObject(paths)) {
    out.push({ path: `${path}.paths`, message: `${show(paths)} is not an object.`, fix: "Write paths: { '/blog/': { trainAi: true } }." })
    return
  }
  for (const [p, preferences] of Object.entries(paths)) {
    const at = `${path}.paths[${JSON.stringify(p)}]`
    checkUsagePath(p, at, out)
    checkPreferences(preferences, at, out, PATH_STATEMENT_KEYS)
  }
}

/** `noindex`: a rule or a list of rules `{ path, userAgent?, directives? }`; and `noindexMeta`. */
export function checkNoindex(config: Record<string, unknown>, out: Issues): void {
  if (config.noindexMeta !== undefined && typeof config.noindexMeta !== 'boolean') {
    out.push({ path: 'noindexMeta', message: `${show(config.noindexMeta)} is not true or false.`, fix: 'Write noindexMeta: true to add <meta name="robots"> to HTML responses too.' })
  }
  const value = config.noindex
  if (value === undefined) return
  list(value).forEach((rule, i) => {
    const path = listPath(value, 'noindex', i)
    if (!isObject(rule)) {
      out.push({ path, message: 'is not an object.', fix: "Write { path: '/search' }." })
      return
    }
    unknownKeys(rule, NOINDEX_KEYS, path, out)
    const paths = list(rule.path)
    // An empty pattern would match every path.
    if (rule.path === undefined || paths.length === 0 || paths.includes('')) {
      out.push({ path: `${path}.path`, message: 'is missing or empty.', fix: "Write the paths to keep out of the index, e.g. path: '/search'." })
    } else paths.forEach((p, j) => checkPattern(p, listPath(rule.path, `${path}.path`, j), out))
    if (rule.userAgent !== undefined) list(rule.userAgent).forEach((ua, j) => checkToken(ua, listPath(rule.userAgent, `${path}.userAgent`, j), out))
    const directives = rule.directives
    if (directives !== undefined && !(Array.isArray(directives) && directives.length > 0 && directives.every((d) => (DIRECTIVES as unknown[]).includes(d)))) {
      out.push({
        path: `${path}.directives`,
        message: `${show(directives)} is not a list of X-Robots-Tag directives robots-edge sends.`,
        fix: `Use some of: ${DIRECTIVES.join(', ')}; or leave it out (it means noindex).`,
      })
    }
  })
}
