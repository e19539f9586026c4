import type { Policy } from '../config/index.ts'
import { compileRobotsTxt, pathOf, type DecidingRule, type Group, type RobotsMatcher, type Verdict } from '../robots/index.ts'
import { mayNormalize, normalizedReadings } from './path-readings.ts'

/**
 * The readings of a request path the guard enforces.
 *
 * RFC 9309 §2.2.2 asks that percent-encoded unreserved octets (RFC 3986
 * §2.3: letters, digits, `-`, `.`, `_`, `~`) be decoded before a path is
 * compared with a rule, since `/%70rivate` and `/private` name the same
 * resource (RFC 3986 §6.2.2.2). Google's matcher, which the engine follows
 * and the served file is written for, compares them as written: harmless
 * for a crawler that requests canonical URLs, but the guard faces clients
 * that do not. So the guard refuses a request when any reading is
 * disallowed: the path as requested; with those octets decoded (against
 * the rules as written, and, where a rule itself encodes such an octet,
 * against the rules decoded the same way); and, when the path has a `//`,
 * a dot segment, a `%2F`, a `%5C` or a `\`, each way a normalizing origin
 * may read it (guard/path-readings.ts). The verdict still names the rule as
 * written in the served file, and its line. `check` and the served file
 * are unchanged.
 *
 * robots-edge deviation: a path is decoded once; `%2570` stays `%70`, as an
 * origin server that decodes once would read it.
 *
 * An allowed request goes on with its path as the client sent it: the
 * readings only decide whether to refuse. Rewriting the path would change
 * what the origin's own routing sees (a route with `//` or `%2F` in it, a
 * signed URL), which is the site's to decide, not the guard's.
 */

const UNRESERVED_ESCAPE = /%(?:[46][1-9A-Fa-f]|[57][0-9Aa]|3[0-9]|2[DdEe]|5[Ff]|7[Ee])/g

/** Decodes `%XX` escapes of unreserved octets only; everything else is kept as written. Linear in the length of `s`. */
export function decodeUnreserved(s: string): string {
  if (!s.includes('%')) return s
  return s.replace(UNRESERVED_ESCAPE, (octet) => String.fromCharCode(parseInt(octet.slice(1), 16)))
}

interface DecodedRules {
  readonly matcher: RobotsMatcher
  /** The rule as written in the served file, by line. */
  readonly written: ReadonlyMap<number, DecidingRule>
}

const decodedRules = new WeakMap<RobotsMatcher, DecodedRules | null>()

/** A matcher over the served rules with unreserved escapes decoded; null (the common case) when no rule has one. */
function decodedRulesOf(served: RobotsMatcher): DecodedRules | null {
  let cached = decodedRules.get(served)
  if (cached !== undefined) return cached
  cached = null
  const model = served.model
  const encoded = model.groups.some((g) => g.rules.some((r) => decodeUnreserved(r.pattern) !== r.pattern))
  if (encoded) {
    const written = new Map<number, DecidingRule>()
    const groups: Group[] = model.groups.map((group) => ({
      ...group,
      rules: group.rules.map((rule) => {
        if (rule.line !== undefined) written.set(rule.line, { type: rule.type, pattern: rule.pattern, line: rule.line })
        return { ...rule, pattern: decodeUnreserved(rule.pattern) }
      }),
    }))
    cached = { matcher: compileRobotsTxt({ ...model, groups }), written }
  }
  decodedRules.set(served, cached)
  return cached
}

/**
 * The served rules' verdict for `tokens` on `url` (a URL or a path, as
 * `RobotsMatcher#check` takes it), read every way above: the first reading
 * that disallows decides (as requested first), else the verdict as requested.
 *
 * @example
 * checkEitherWay(policy, ['gptbot'], 'https://example.com/%70rivate/x')
 * // { allowed: false, group: 'gptbot', rule: { type: 'disallow', pattern: '/private/', line: 5 } }
 */
export function checkEitherWay(policy: Pick<Policy, 'matcher'>, tokens: readonly string[], url: string): Verdict {
  const asRequested = policy.matcher.check(tokens, url)
  if (!asRequested.allowed) return asRequested
  const path = pathOf(url)
  const decoded = decodeUnreserved(path)
  const rules = decodedRulesOf(policy.matcher)
  const verdict = checkReading(policy.matcher, rules, tokens, decoded, decoded !== path)
  if (verdict !== null) return verdict
  if (mayNormalize(decoded)) {
    for (const reading of normalizedReadings(decoded)) {
      const normalized = checkReading(policy.matcher, rules, tokens, reading, true)
      if (normalized !== null) return normalized
    }
  }
  return asRequested
}

/** The refusal one reading gets, or null when it is allowed. */
function checkReading(served: RobotsMatcher, rules: DecodedRules | null, tokens: readonly string[], reading: string, differs: boolean): Verdict | null {
  // Behind a placeholder origin: a path such as `//docs/x` alone would read as a host.
  const url = `http://robots-edge.invalid${reading}`
  if (differs) {
    const verdict = served.check(tokens, url)
    if (!verdict.allowed) return verdict
  }
  if (rules !== null) {
    const verdict = rules.matcher.check(tokens, url)
    if (!verdict.allowed) return { ...verdict, rule: verdict.rule === null ? null : (rules.written.get(verdict.rule.line) ?? verdict.rule) }
  }
  return null
}
