import { CONTENT_USAGE_VOCABULARY, USAGE_CATEGORIES } from './content-usage.ts'
import type { IndexingDirective } from './types.ts'
import { checkLineSafe, checkPattern, checkToken, isObject, list, listPath, NOINDEX_KEYS, show, unknownKeys, type Issues } from './validate.ts'

/**
 * Validation of the signals beyond RFC 9309 that the Worker also sends as
 * response headers: `contentUsage` (IETF aipref) and `noindex`
 * (X-Robots-Tag). Same rules as the rest of the validator: every error
 * names the field path and the fix.
 */

const CATEGORY_LIST = USAGE_CATEGORIES.map((key) => `${key} (${CONTENT_USAGE_VOCABULARY[key]})`).join(', ')
const VOCABULARY_NAME = 'the AI preferences vocabulary (draft-ietf-aipref-vocab-07)'
export const DIRECTIVES: readonly IndexingDirective[] = ['noindex', 'nofollow', 'noai', 'noimageai']

/** One statement: categories of the vocabulary only, each true or false, at least one. `paths` is allowed where `nested`. */
function checkPreferences(value: unknown, path: string, out: Issues, nested: boolean): Record<string, unknown> | undefined {
  if (!isObject(value)) {
    out.push({ path, message: `${show(value)} is not an object.`, fix: 'Write { trainAi: false, search: true }.' })
    return undefined
  }
  let stated = 0
  for (const [key, v] of Object.entries(value)) {
    if (nested && key === 'paths') continue
    const p = `${path}.${key}`
    if (!(USAGE_CATEGORIES as string[]).includes(key)) {
      const label = USAGE_CATEGORIES.find((k) => CONTENT_USAGE_VOCABULARY[k] === key.toLowerCase())
      out.push({ path: p, message: `is not a category of use in ${VOCABULARY_NAME}.`, fix: label ? `Write ${label}.` : `Use one of: ${CATEGORY_LIST}${nested ? '; or paths' : ''}.` })
    } else if (typeof v !== 'boolean') {
      out.push({ path: p, message: `${show(v)} is not true or false.`, fix: 'Write true (y: this use is allowed) or false (n: it is not).' })
    } else stated++
  }
  if (stated === 0 && !(nested && value.paths !== undefined) && !out.some((i) => i.path.startsWith(`${path}.`))) {
    out.push({ path, message: 'states no preference, so it would write nothing.', fix: `Set at least one of: ${CATEGORY_LIST}; or remove it.` })
  }
  return value
}

/**
 * A Content-Usage path (draft-ietf-aipref-attach-05 §3.2): it starts with
 * `/` and ends at the first space or tab, then the preferences follow on the
 * same line; `*` and a final `$` match as in allow and disallow (§3.1).
 */
function checkUsagePath(value: string, path: string, out: Issues): void {
  if (!checkLineSafe(value, path, out, true)) return
  if (/[ \t]/.test(value)) {
    out.push({ path, message: `${show(value)} holds white space, which ends the path of a Content-Usage line (draft-ietf-aipref-attach-05 §3.2): crawlers would read the rest as the preferences.`, fix: 'Write a space in a path as "%20", a tab as "%09".' })
  } else if (!value.startsWith('/')) {
    out.push({ path, message: `${show(value)} does not start with "/", which a Content-Usage path must (draft-ietf-aipref-attach-05 §3.2).`, fix: `Write "/${value}".` })
  } else if (value === '/') {
    out.push({ path, message: '"/" is every path: its preferences are the group-wide ones.', fix: 'Write them beside `paths`, e.g. contentUsage: { trainAi: false, paths: { ... } }.' })
  }
}

/** `rules[i].contentUsage`: `{ trainAi?, search?, paths?: { '/blog/': { ... } } }`. */
export function checkContentUsage(value: unknown, path: string, out: Issues): void {
  const usage = checkPreferences(value, path, out, true)
  if (usage === undefined || usage.paths === undefined) return
  if (!isObject(usage.paths)) {
    out.push({ path: `${path}.paths`, message: `${show(usage.paths)} is not an object.`, fix: "Write paths: { '/blog/': { trainAi: true } }." })
    return
  }
  for (const [p, preferences] of Object.entries(usage.paths)) {
    const at = `${path}.paths[${JSON.stringify(p)}]`
    checkUsagePath(p, at, out)
    checkPreferences(preferences, at, out, false)
  }
}

/** `noindex`: a rule or a list of rules `{ path, userAgent?, directives? }`. */
export function checkNoindex(value: unknown, out: Issues): void {
  list(value).forEach((rule, i) => {
    const path = listPath(value, 'noindex', i)
    if (!isObject(rule)) {
      out.push({ path, message: 'is not an object.', fix: "Write { path: '/search' }." })
      return
    }
    unknownKeys(rule, NOINDEX_KEYS, path, out)
    if (rule.path === undefined || (Array.isArray(rule.path) && rule.path.length === 0)) {
      out.push({ path: `${path}.path`, message: 'is missing: a noindex rule needs the paths it keeps out of the index.', fix: "Add path: '/search', or a list of patterns." })
    } else {
      list(rule.path).forEach((p, j) => {
        const at = listPath(rule.path, `${path}.path`, j)
        if (p === '') out.push({ path: at, message: 'is empty, so it matches no path.', fix: "Write a pattern such as '/search'." })
        else checkPattern(p, at, out)
      })
    }
    if (rule.userAgent !== undefined) list(rule.userAgent).forEach((ua, j) => checkToken(ua, listPath(rule.userAgent, `${path}.userAgent`, j), out))
    if (rule.directives !== undefined) {
      if (!Array.isArray(rule.directives) || rule.directives.length === 0) {
        out.push({ path: `${path}.directives`, message: `${show(rule.directives)} is not a list of directives.`, fix: "Write directives: ['noindex'], or leave it out (it means ['noindex'])." })
      } else {
        rule.directives.forEach((d, j) => {
          if (!(DIRECTIVES as unknown[]).includes(d)) {
            out.push({ path: `${path}.directives[${j}]`, message: `${show(d)} is not an X-Robots-Tag directive robots-edge sends.`, fix: `Use one of: ${DIRECTIVES.join(', ')}.` })
          }
        })
      }
    }
  })
}
