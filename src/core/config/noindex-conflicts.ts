import type { Policy } from './policy.ts'
import type { RobotsConfig } from './types.ts'
import { list, listPath, type ConfigIssue } from './validate-fields.ts'

/** The shortest URL path a pattern matches: each `*` matching nothing, a final `$` dropped. */
const shortestMatch = (pattern: string) => pattern.replace(/\$$/, '').replaceAll('*', '')

/**
 * Warnings for `noindex` paths that robots.txt also disallows: a crawler
 * never fetches such a page, so it never sees the `X-Robots-Tag`, and the
 * URL can still be indexed from links to it (Google documents this; RFC
 * 9309 §2.2.2 governs fetching only). Each path is tried as the shortest URL
 * it matches, for the crawlers the rule names, or for `*` and every named
 * group when it names none. Staging and previews serve disallow-all and
 * `noindex` everywhere by design: nothing to say there.
 *
 * For `robots-edge lint` and `checkConfig`, not the Worker: it compiles
 * nothing new, but it is no concern of a live request.
 *
 * @example
 * noindexConflicts(config, buildPolicy(resolveConfig(config, context).config))
 * // [{ path: 'noindex.path', message: '"/private/" is disallowed for * …' }]
 */
export function noindexConflicts(raw: RobotsConfig, policy: Policy): ConfigIssue[] {
  if (!policy.config.indexable) return []
  const named = [...new Set(policy.model.groups.flatMap((g) => g.userAgents.map((ua) => ua.toLowerCase())))]
  const out: ConfigIssue[] = []
  policy.config.noindex.forEach((rule, i) => {
    const written = list(raw.noindex)[i] as { path: unknown }
    const rulePath = listPath(raw.noindex, 'noindex', i)
    rule.paths.forEach((pattern, j) => {
      const path = shortestMatch(pattern)
      const blocked = (rule.userAgent.length > 0 ? rule.userAgent : named).map((agent) => ({ agent, verdict: policy.matcher.check(agent, path) })).filter(({ verdict }) => !verdict.allowed)
      if (blocked.length === 0) return
      const agents = blocked.map((b) => b.agent).join(', ')
      const rule0 = blocked[0]!.verdict.rule!
      out.push({
        path: listPath(written.path, `${rulePath}.path`, j),
        message:
          `"${pattern}" is disallowed for ${agents} (robots.txt line ${rule0.line}: Disallow: ${rule0.pattern}), so ${blocked.length === 1 ? 'that crawler never fetches it and never sees' : 'those crawlers never fetch it and never see'} ` +
          `its X-Robots-Tag: ${rule.directives.join(', ')}; a disallowed URL can still be indexed from links to it.`,
        fix: 'Let crawlers fetch it (remove or narrow the Disallow) so they can read the noindex, or remove the path from noindex.',
      })
    })
  })
  return out
}
