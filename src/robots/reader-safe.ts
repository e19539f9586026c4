import { normalizeEncoding } from './encoding.ts'
import { agentToken } from './parse.ts'
import type { Group, RobotsTxtModel, Rule } from './types.ts'

/**
 * robots-edge deviation: robots.txt is written in the order every reader
 * agrees on, not in the order the config lists it. The RFC 9309 meaning does
 * not change (§2.2.2: the longest match wins wherever the rule stands; §2.2.1:
 * a crawler obeys the groups naming its token wherever they stand), but
 * readers that take the first matching rule in file order and choose their
 * group by substring (the 1996 draft, Python's `urllib.robotparser`; see
 * readers.ts) then read what Google reads wherever patterns have no wildcards:
 *
 * - Rule order: the longest pattern first (RFC 9309 priority: octets after
 *   percent-encoding normalisation), and `allow` before `disallow` at equal
 *   length. The first prefix that matches is then the longest.
 * - Group order: a group naming a token that contains another group's token
 *   comes first (`googlebot-image` before `googlebot`), so a reader that
 *   takes the first group whose value is part of its name finds its own.
 *   Groups whose tokens would have to precede each other (a cycle) are split
 *   into one group per token, with the same rules.
 * - A token named in several groups gets one group with all their rules, as
 *   RFC 9309 crawlers merge them and first-match readers read only the first.
 * - The `*` group stands alone (a token named beside `*` gets its own copy
 *   of the rules) and comes last, where the 1996 draft looks for it and
 *   where a reader that treats `*` as just another name finds it last too.
 *
 * A group with no rules keeps meaning "allow everything": the serializer
 * writes `Disallow:`, which every reader reads so.
 *
 * @example
 * serializeRobotsTxt(readerSafeModel(parseRobotsTxt('User-agent: *\nAllow: /\nDisallow: /admin/\n')))
 * // 'User-agent: *\nDisallow: /admin/\nAllow: /\n'
 */
export function readerSafeModel(model: RobotsTxtModel): RobotsTxtModel {
  // A value named twice in one group is written once.
  const once = model.groups.map((g) => ({ ...g, userAgents: g.userAgents.filter((a, i, all) => all.findIndex((b) => key(b) === key(a)) === i) }))
  const merged = mergeRepeatedTokens(once)
  const split = merged.flatMap(splitWildcard)
  const ordered = orderGroups(split.filter((g) => !isWildcard(g)))
  const wildcard = split.filter(isWildcard)
  return { ...model, groups: [...ordered, ...wildcard].map((g) => ({ ...g, rules: orderRules(g.rules) })) }
}

/** The key a reader compares: the value itself, lower-cased (a substring test needs the whole value). */
const key = (agent: string): string => agent.toLowerCase()
/** The token RFC 9309 readers merge groups by; '' when the value names none. */
const token = (agent: string): string => agentToken(agent).toLowerCase()
const isStar = (agent: string): boolean => token(agent) === '*'
const isWildcard = (g: Group): boolean => g.userAgents.length === 1 && isStar(g.userAgents[0]!)

/** RFC 9309 §2.2.2 priority, then `allow` first (it wins a tie); stable otherwise. */
export function orderRules(rules: readonly Rule[]): Rule[] {
  const priority = rules.map((r) => normalizeEncoding(r.pattern).length)
  return rules
    .map((rule, i) => ({ rule, i }))
    .sort((a, b) => priority[b.i]! - priority[a.i]! || (a.rule.type === b.rule.type ? 0 : a.rule.type === 'allow' ? -1 : 1) || a.i - b.i)
    .map(({ rule }) => rule)
}

/**
 * RFC 9309 §2.2.1: "If there is more than one group matching the
 * user-agent, the matching groups' rules MUST be combined into one group."
 * Each token named in several groups gets that combined group, in place of
 * its first mention; the other tokens keep their groups.
 */
function mergeRepeatedTokens(groups: readonly Group[]): Group[] {
  const where = new Map<string, number[]>()
  groups.forEach((g, i) => {
    for (const t of new Set(g.userAgents.map(token))) if (t !== '') where.set(t, [...(where.get(t) ?? []), i])
  })
  const repeated = new Set([...where].filter(([, at]) => at.length > 1).map(([t]) => t))
  if (repeated.size === 0) return [...groups]
  const out: Group[] = []
  groups.forEach((g, i) => {
    for (const t of repeated) {
      const at = where.get(t)!
      if (at[0] !== i) continue
      const all = at.map((j) => groups[j]!)
      out.push({
        userAgents: [g.userAgents.find((a) => token(a) === t)!],
        rules: all.flatMap((x) => x.rules),
        other: all.flatMap((x) => x.other),
        ...(g.comment ? { comment: g.comment } : {}),
      })
    }
    const rest = g.userAgents.filter((a) => !repeated.has(token(a)))
    if (rest.length > 0) out.push({ ...g, userAgents: rest })
  })
  return out
}

/** The same group for other user-agent values; the comment stays with the first part. */
function part(g: Group, userAgents: string[], first: boolean): Group {
  return { userAgents, rules: g.rules, other: g.other, ...(g.line !== undefined ? { line: g.line } : {}), ...(first && g.comment ? { comment: g.comment } : {}) }
}

/** A group naming `*` beside other tokens becomes one group per side, with the same rules. */
function splitWildcard(g: Group): Group[] {
  const star = g.userAgents.filter(isStar)
  if (star.length === 0 || star.length === g.userAgents.length) return [g]
  return [part(g, g.userAgents.filter((a) => !isStar(a)), true), part(g, star, false)]
}

/** Must `a` come before `b`: does a value of `a` contain a different value of `b`? */
function precedes(a: Group, b: Group): boolean {
  return a.userAgents.some((x) => b.userAgents.some((y) => key(x) !== key(y) && key(x).includes(key(y))))
}

/**
 * A topological order by `precedes`, keeping the given order wherever it is
 * free (Kahn's algorithm, taking the earliest ready group each time). Groups
 * caught in a cycle are split into one group per value and ordered again:
 * single values can form no cycle, as containment makes them strictly longer.
 */
function orderGroups(groups: readonly Group[]): Group[] {
  const n = groups.length
  const after: number[][] = groups.map(() => [])
  const waiting = new Array<number>(n).fill(0)
  for (let a = 0; a < n; a++) {
    for (let b = 0; b < n; b++) {
      if (a !== b && precedes(groups[a]!, groups[b]!)) {
        after[a]!.push(b)
        waiting[b]!++
      }
    }
  }
  const done: Group[] = []
  const placed = new Array<boolean>(n).fill(false)
  for (;;) {
    let next = -1
    for (let i = 0; i < n && next < 0; i++) if (!placed[i] && waiting[i] === 0) next = i
    if (next < 0) break
    placed[next] = true
    done.push(groups[next]!)
    for (const b of after[next]!) waiting[b]!--
  }
  if (done.length === n) return done
  // Split the groups left in (or behind) a cycle and order everything again.
  const respread = groups.flatMap((g, i) => (placed[i] || g.userAgents.length === 1 ? [g] : g.userAgents.map((agent, k) => part(g, [agent], k === 0))))
  // Unreachable (single values form no cycle), but never loop forever.
  if (respread.length === n) return [...done, ...groups.filter((_, i) => !placed[i])]
  return orderGroups(respread)
}
