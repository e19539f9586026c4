import { registry, tools } from '../agents/index.ts'
import { canonicalHost, isBucketHost } from './host.ts'
import type { ContentSignal, GuardConfig, NoindexRule, RobotsConfig, RuleConfig } from './types.ts'
import { checkContentUsage, checkNoindex } from './validate-signals.ts'
import { checkComment, checkLineSafe, checkPattern, checkToken, isObject, list, listPath, NOINDEX_KEYS, show, unknownKeys, type ConfigIssue, type Issues } from './validate-fields.ts'

export { ConfigError, formatIssue, type ConfigIssue } from './validate-fields.ts'

// The keys each object may hold. `satisfies` plus the checks below keep the
// lists and the hand-written types from drifting apart at compile time.
const ROOT_KEYS = [
  'rules',
  'sitemap',
  'host',
  'header',
  'guard',
  'cacheControl',
  'indexable',
  'previewHosts',
  'forwardedHeaders',
  'hosts',
  'noindex',
  'noindexMeta',
  'protect',
  'alerts',
] as const satisfies readonly (keyof RobotsConfig)[]
const RULE_KEYS = ['userAgent', 'allow', 'disallow', 'crawlDelay', 'contentSignal', 'contentUsage', 'comment', 'other', 'guard'] as const satisfies readonly (keyof RuleConfig)[]
const GUARD_KEYS = ['mode', 'status', 'body', 'headers', 'spoofed', 'exempt', 'crawlDelay'] as const satisfies readonly (keyof GuardConfig)[]
const SIGNAL_KEYS = ['search', 'aiInput', 'aiTrain'] as const satisfies readonly (keyof ContentSignal)[]
type Exhaustive<Listed, All> = [Exclude<All, Listed>] extends [never] ? true : Exclude<All, Listed>
const exhaustive: [
  Exhaustive<(typeof ROOT_KEYS)[number], keyof RobotsConfig>,
  Exhaustive<(typeof RULE_KEYS)[number], keyof RuleConfig>,
  Exhaustive<(typeof GUARD_KEYS)[number], keyof GuardConfig>,
  Exhaustive<(typeof SIGNAL_KEYS)[number], keyof ContentSignal>,
  Exhaustive<(typeof NOINDEX_KEYS)[number], keyof NoindexRule>,
] = [true, true, true, true, true]
void exhaustive

const MODES = ['off', 'log', 'block']
/** Keys a parser reads as structure (RFC 9309 §2.2 and Google's accepted typos). */
const STRUCTURAL_KEY = /^(user[- ]?agent|allow|dis+al+[oa]w|diasllow|site-?map)/i
const RECORD_KEY = /^[A-Za-z][A-Za-z0-9_-]*$/
/** An HTTP field value this Worker can send: visible ASCII, space and tab (RFC 9110 §5.5). */
const HEADER_VALUE = /^[\t\x20-\x7e]*$/

function checkRule(rule: unknown, path: string, out: Issues, single: boolean): void {
  if (!isObject(rule)) {
    out.push({ path, message: 'is not an object.', fix: "Write { userAgent: '*', disallow: '/private/' }." })
    return
  }
  unknownKeys(rule, RULE_KEYS, path, out)
  // As in Next.js, a single rule object may leave userAgent out: it means `*`.
  const missing = rule.userAgent === undefined || (Array.isArray(rule.userAgent) && rule.userAgent.length === 0)
  if (missing && !(single && rule.userAgent === undefined)) {
    out.push({ path: `${path}.userAgent`, message: 'is missing: a group must name at least one crawler.', fix: "Add userAgent: '*' for every crawler, or a product token." })
  } else if (!missing) {
    list(rule.userAgent).forEach((ua, i) => checkToken(ua, listPath(rule.userAgent, `${path}.userAgent`, i), out))
  }
  for (const key of ['allow', 'disallow'] as const) {
    if (rule[key] !== undefined) list(rule[key]).forEach((p, i) => checkPattern(p, listPath(rule[key], `${path}.${key}`, i), out))
  }
  if (rule.crawlDelay !== undefined && !(typeof rule.crawlDelay === 'number' && Number.isFinite(rule.crawlDelay) && rule.crawlDelay > 0)) {
    out.push({ path: `${path}.crawlDelay`, message: `${show(rule.crawlDelay)} is not a positive number of seconds.`, fix: 'Write a number above 0, e.g. crawlDelay: 5, or remove it.' })
  }
  if (rule.contentSignal !== undefined) {
    if (!isObject(rule.contentSignal)) {
      out.push({ path: `${path}.contentSignal`, message: 'is not an object.', fix: 'Write { search: true, aiTrain: false }.' })
    } else if (Object.keys(rule.contentSignal).length === 0) {
      out.push({ path: `${path}.contentSignal`, message: 'names no signal, so it would write an empty Content-Signal line.', fix: `Set at least one of: ${SIGNAL_KEYS.join(', ')}; or remove it.` })
    } else {
      for (const [key, v] of Object.entries(rule.contentSignal)) {
        if (!(SIGNAL_KEYS as readonly string[]).includes(key)) {
          out.push({ path: `${path}.contentSignal.${key}`, message: 'is not a Content-Signal key.', fix: `Use one of: ${SIGNAL_KEYS.join(', ')}.` })
        } else if (typeof v !== 'boolean') {
          out.push({ path: `${path}.contentSignal.${key}`, message: `${show(v)} is not true or false.`, fix: 'Write true (yes) or false (no).' })
        }
      }
    }
  }
  if (rule.contentUsage !== undefined) checkContentUsage(rule.contentUsage, `${path}.contentUsage`, out)
  if (rule.comment !== undefined) checkComment(rule.comment, `${path}.comment`, out)
  if (rule.other !== undefined) {
    if (!isObject(rule.other)) {
      out.push({ path: `${path}.other`, message: 'is not an object.', fix: "Write { 'Clean-param': 'ref /articles/' }." })
    } else {
      for (const [key, v] of Object.entries(rule.other)) {
        const p = `${path}.other.${key}`
        if (!RECORD_KEY.test(key)) out.push({ path: p, message: `${show(key)} is not a record key.`, fix: 'Use letters, digits, "-" and "_", starting with a letter.' })
        else if (STRUCTURAL_KEY.test(key))
          out.push({
            path: p,
            message: `${show(key)} would be read as a ${key.toLowerCase().startsWith('s') ? 'sitemap' : 'group'} line, not an extra record.`,
            fix: 'Use userAgent, allow, disallow or sitemap instead.',
          })
        list(v).forEach((item, i) => {
          const ip = listPath(v, p, i)
          if (typeof item === 'number' && Number.isFinite(item)) return
          if (typeof item !== 'string') out.push({ path: ip, message: `${show(item)} is not a string or a number.`, fix: 'Write a string.' })
          else checkLineSafe(item, ip, out)
        })
      }
    }
  }
  if (rule.guard !== undefined && !MODES.includes(rule.guard as string)) {
    out.push({ path: `${path}.guard`, message: `${show(rule.guard)} is not a guard mode.`, fix: "Use 'off', 'log' or 'block'." })
  }
}

/** Every token the registry and the tools list know, lower case: a token outside it in `guard.exempt` is likely a typo. */
const KNOWN_TOKENS = new Set<string>([...registry.flatMap((e) => [...e.tokens]), ...tools.map((t) => t.token)])

/** `guard.exempt`: a list of product tokens, never `*`. */
function checkExempt(value: unknown, out: Issues, warnings: Issues): void {
  if (!Array.isArray(value)) {
    out.push({
      path: 'guard.exempt',
      message: `${show(value)} is not a list of product tokens.`,
      fix: "Write exempt: ['ChatGPT-User', 'Perplexity-User'], or exempt: [] to judge every automated client by the \"*\" group.",
    })
    return
  }
  value.forEach((token, i) => {
    const path = `guard.exempt[${i}]`
    if (token === '*') {
      out.push({
        path,
        message: '"*" would exempt every client from the "*" group, so only groups naming a client would judge it.',
        fix: "List the fetchers to exempt by their tokens, or set guard.mode: 'off' to judge nothing.",
      })
      return
    }
    const before = out.length
    checkToken(token, path, out)
    if (out.length === before && typeof token === 'string' && !KNOWN_TOKENS.has(token.toLowerCase())) {
      warnings.push({
        path,
        message: `${show(token)} is not the token of any agent or tool robots-edge knows, so it exempts only a client identified by exactly that token.`,
        fix: 'Check the spelling against the operator\'s documentation (e.g. "ChatGPT-User").',
      })
    }
  })
}

/** `protect`: a list of product tokens, or `*` for every agent. */
function checkProtect(value: unknown, out: Issues, warnings: Issues): void {
  if (!Array.isArray(value)) {
    out.push({ path: 'protect', message: `${show(value)} is not a list of product tokens.`, fix: "Write protect: [...agents.searchEngines, 'Applebot'], or protect: [] to protect none." })
    return
  }
  value.forEach((token, i) => {
    const path = `protect[${i}]`
    const before = out.length
    checkToken(token, path, out)
    if (out.length === before && token !== '*' && typeof token === 'string' && !KNOWN_TOKENS.has(token.toLowerCase())) {
      warnings.push({
        path,
        message: `${show(token)} is not the token of any agent or tool robots-edge knows, so it protects only an agent recorded under exactly that token.`,
        fix: 'Check the spelling against the operator\'s documentation (e.g. "Googlebot").',
      })
    }
  })
}

function checkGuard(guard: unknown, out: Issues, warnings: Issues): void {
  if (!isObject(guard)) {
    out.push({ path: 'guard', message: 'is not an object.', fix: "Write guard: { mode: 'log' }." })
    return
  }
  unknownKeys(guard, GUARD_KEYS, 'guard', out)
  if (guard.mode !== undefined && !MODES.includes(guard.mode as string)) {
    out.push({ path: 'guard.mode', message: `${show(guard.mode)} is not a guard mode.`, fix: "Use 'off', 'log' or 'block'." })
  }
  if (guard.status !== undefined && !(Number.isInteger(guard.status) && (guard.status as number) >= 400 && (guard.status as number) <= 599)) {
    out.push({ path: 'guard.status', message: `${show(guard.status)} is not a refusal status.`, fix: 'Use an HTTP status from 400 to 599, e.g. 403, 402 or 404.' })
  }
  if (guard.body !== undefined && typeof guard.body !== 'string') {
    out.push({ path: 'guard.body', message: 'is not a string.', fix: 'Write the text of the refusal.' })
  }
  if (guard.headers !== undefined) {
    if (!isObject(guard.headers)) out.push({ path: 'guard.headers', message: 'is not an object.', fix: "Write { 'Retry-After': '3600' }." })
    else {
      for (const [name, v] of Object.entries(guard.headers)) {
        if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) out.push({ path: `guard.headers.${name}`, message: 'is not a header name.', fix: 'Use letters, digits and "-".' })
        else if (typeof v !== 'string' || !HEADER_VALUE.test(v))
          out.push({ path: `guard.headers.${name}`, message: `${show(v)} is not a header value this Worker can send.`, fix: 'Use visible ASCII characters, spaces and tabs only.' })
      }
    }
  }
  // Options of two values each, checked alike.
  for (const [key, a, b] of [
    ['spoofed', 'judge', 'block'],
    ['crawlDelay', 'measure', 'enforce'],
  ] as const) {
    if (guard[key] !== undefined && guard[key] !== a && guard[key] !== b) out.push({ path: `guard.${key}`, message: `${show(guard[key])} is not an option.`, fix: `Use '${a}' or '${b}'.` })
  }
  if (guard.exempt !== undefined) checkExempt(guard.exempt, out, warnings)
}

function checkSitemap(value: unknown, path: string, out: Issues): void {
  if (typeof value !== 'string') {
    out.push({ path, message: `${show(value)} is not a string.`, fix: 'Write an absolute URL.' })
    return
  }
  if (!checkLineSafe(value, path, out, true)) return
  let url: URL | undefined
  try {
    url = new URL(value)
  } catch {
    url = undefined
  }
  // `new URL` also accepts `https:example.com/x`; crawlers (and the linter) need `scheme://host`.
  if (url === undefined || !/^https?:\/\/[^/\s]+/i.test(value) || /\s/.test(value)) {
    out.push({
      path,
      message: `${show(value)} is not an absolute http(s) URL, which is what crawlers read in a Sitemap line (RFC 9309 §2.3.5).`,
      fix: 'Write the full URL, e.g. "https://example.com/sitemap.xml".',
    })
  }
}

/**
 * Checks a config strictly: unknown keys are errors, and each error names the
 * field path and the fix. Warnings are for configs that work but not as
 * written (the same token in two groups, which crawlers merge).
 */
export function validateConfig(config: unknown): { errors: ConfigIssue[]; warnings: ConfigIssue[] } {
  const errors: Issues = []
  const warnings: Issues = []
  if (!isObject(config)) {
    errors.push({ path: '(config)', message: 'is not an object.', fix: 'export default defineConfig({ rules: [...] }).' })
    return { errors, warnings }
  }
  unknownKeys(config, ROOT_KEYS, '', errors)
  if (config.rules === undefined) {
    errors.push({ path: 'rules', message: 'is missing.', fix: "Add rules: [{ userAgent: '*', allow: '/' }]." })
  } else {
    list(config.rules).forEach((rule, i) => checkRule(rule, listPath(config.rules, 'rules', i), errors, !Array.isArray(config.rules)))
    if (Array.isArray(config.rules) && config.rules.length === 0) {
      warnings.push({ path: 'rules', message: 'is empty: the served robots.txt allows everything to every crawler.', fix: "Add a group, e.g. { userAgent: '*', disallow: '/admin/' }." })
    }
    // RFC 9309 §2.2.1: crawlers merge every group naming their token.
    const seen = new Map<string, string>()
    list(config.rules).forEach((rule, i) => {
      if (!isObject(rule) || rule.userAgent === undefined) return
      list(rule.userAgent).forEach((ua, j) => {
        if (typeof ua !== 'string') return
        const key = ua.toLowerCase()
        const here = listPath(rule.userAgent, `${listPath(config.rules, 'rules', i)}.userAgent`, j)
        const first = seen.get(key)
        if (first === undefined) seen.set(key, here)
        else if (first.startsWith(`${listPath(config.rules, 'rules', i)}.`))
          warnings.push({ path: here, message: `${show(ua)} is named twice in this group; it is written once.`, fix: 'Remove the repetition.' })
        else
          warnings.push({
            path: here,
            message: `${show(ua)} is also named at ${first}; crawlers merge the two groups, so robots-edge writes one group for it with the rules of both.`,
            fix: 'Name each token in one group.',
          })
      })
    })
  }
  if (config.sitemap !== undefined) list(config.sitemap).forEach((s, i) => checkSitemap(s, listPath(config.sitemap, 'sitemap', i), errors))
  if (config.host !== undefined) {
    if (typeof config.host !== 'string' || config.host === '' || /\s/.test(config.host)) {
      errors.push({ path: 'host', message: `${show(config.host)} is not a host name.`, fix: 'Write e.g. "example.com".' })
    } else checkLineSafe(config.host, 'host', errors)
  }
  if (config.header !== undefined) checkComment(config.header, 'header', errors)
  if (config.guard !== undefined) checkGuard(config.guard, errors, warnings)
  if (config.cacheControl !== undefined && (typeof config.cacheControl !== 'string' || !HEADER_VALUE.test(config.cacheControl))) {
    errors.push({ path: 'cacheControl', message: `${show(config.cacheControl)} is not a header value this Worker can send.`, fix: "Use visible ASCII only, e.g. 'public, max-age=300'." })
  }
  if (config.indexable !== undefined && typeof config.indexable !== 'boolean') {
    errors.push({ path: 'indexable', message: `${show(config.indexable)} is not true or false.`, fix: 'Write indexable: true to serve the rules outside production.' })
  }
  if (config.previewHosts !== undefined) {
    list(config.previewHosts).forEach((h, i) => {
      if (typeof h !== 'string' || !/^(\*\.)?[a-z0-9.-]+$/i.test(h))
        errors.push({ path: listPath(config.previewHosts, 'previewHosts', i), message: `${show(h)} is not a host or *.suffix.`, fix: 'Write e.g. "*.workers.dev" or "staging.example.com".' })
    })
  }
  if (config.forwardedHeaders !== undefined && config.forwardedHeaders !== 'overwrite' && config.forwardedHeaders !== 'pass') {
    errors.push({
      path: 'forwardedHeaders',
      message: `${show(config.forwardedHeaders)} is not an option.`,
      fix: "Use 'overwrite' (the default: the client's X-Forwarded-*, Forwarded, X-Real-IP, X-Original-URL and X-Rewrite-URL are replaced by what the Worker knows) or 'pass' (forwarded as sent: only for an origin behind a proxy of yours that sets them).",
    })
  }
  if (config.hosts !== undefined) checkHosts(config.hosts, errors)
  checkNoindex(config, errors)
  if (config.protect !== undefined) checkProtect(config.protect, errors, warnings)
  return { errors, warnings }
}

/** `hosts`: exact names, each written as the Worker keys it, so a listed host is matched as written. */
function checkHosts(hosts: unknown, out: Issues): void {
  if (!Array.isArray(hosts) || hosts.length === 0) {
    out.push({ path: 'hosts', message: `${show(hosts)} is not a list of host names.`, fix: "Write hosts: ['example.com', 'www.example.com'], or remove it." })
    return
  }
  hosts.forEach((h, i) => {
    const path = `hosts[${i}]`
    const canonical = typeof h === 'string' ? canonicalHost(h) : undefined
    if (typeof h !== 'string' || canonical === undefined || isBucketHost(canonical) || h.startsWith('*')) {
      out.push({ path, message: `${show(h)} is not a host name.`, fix: 'Write an exact name such as "example.com" (no scheme, port, path or wildcard).' })
    } else if (canonical !== h) {
      out.push({ path, message: `${show(h)} is not written as requests are keyed (lower case, no port, no trailing dot, IDNs as xn--).`, fix: `Write "${canonical}".` })
    }
  })
}
