import { normalizeEncoding } from './encoding.ts'
import { agentToken } from './parse.ts'
import type { Group, OtherRecord, RobotsTxtModel, Rule } from './types.ts'

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
  return { ...model, groups: [...ordered, ...wildcard].map((g) => ({ ...g, rules: orderRules(distinctRules(g.rules)), other: distinctRecords(g.other) })) }
}

/**
 * A rule written twice in one group (a config naming a token both itself and
 * through a preset, or two merged groups) is written once: RFC 9309 §2.2.2
 * decides by the matching pattern and its type, so the copy adds nothing for
 * any reader, and a file that repeats itself reads as a mistake.
 */
function distinctRules(rules: readonly Rule[]): readonly Rule[] {
  const seen = new Set<string>()
  const out = rules.filter((r) => {
    const id = `${r.type}\n${r.pattern}`
    if (seen.has(id)) return false
    seen.add(id)
    return true
  })
  return out.length === rules.length ? rules : out
}

/** The same for other records (`Crawl-delay: 2` twice): key compared as readers do, without case. */
function distinctRecords(records: readonly OtherRecord[]): readonly OtherRecord[] {
  const seen = new Set<string>()
  const out = records.filter((r) => {
    const id = `${r.key.toLowerCase()}\n${r.value}`
    if (seen.has(id)) return false
    seen.add(id)
    return true
  })
  return out.length === records.length ? records : out
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
    for (const t of new Set(g.userAgents.map(token))) {
      if (t === '') continue
      const list = where.get(t)
      if (list === undefined) where.set(t, [i])
      else list.push(i)
    }
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
  return [
    part(
      g,
      g.userAgents.filter((a) => !isStar(a)),
      true,
    ),
    part(g, star, false),
  ]
}

/** Longer values than this are not searched for contained values (no product token is this long). */
const MAX_CONTAINED = 64

/**
 * For each group, the groups it must precede: those naming a value that is
 * part of one of its values. Found by looking up each value's substrings,
 * so a file with thousands of groups costs thousands of short look-ups, not
 * every pair of groups.
 */
function successors(groups: readonly Group[]): number[][] {
  const byValue = new Map<string, number[]>()
  groups.forEach((g, i) => {
    for (const v of new Set(g.userAgents.map(key))) {
      const list = byValue.get(v)
      if (list === undefined) byValue.set(v, [i])
      else list.push(i)
    }
  })
  return groups.map((g, a) => {
    const out = new Set<number>()
    for (const value of new Set(g.userAgents.map(key))) {
      const length = Math.min(value.length, MAX_CONTAINED)
      for (let i = 0; i < length; i++) {
        for (let j = i; j <= length; j++) {
          const part = value.slice(i, j)
          if (part === value) continue
          for (const b of byValue.get(part) ?? []) if (b !== a) out.add(b)
        }
      }
    }
    return [...out]
  })
}

/** A binary min-heap of group indices: the earliest ready group first. */
class Ready {
  readonly #heap: number[] = []
  get size(): number {
    return this.#heap.length
  }
  push(x: number): void {
    const h = this.#heap
    h.push(x)
    for (let i = h.length - 1; i > 0; ) {
      const p = (i - 1) >> 1
      if (h[p]! <= h[i]!) break
      ;[h[p], h[i]] = [h[i]!, h[p]!]
      i = p
    }
  }
  pop(): number {
    const h = this.#heap
    const top = h[0]!
    const last = h.pop()!
    if (h.length > 0) {
      h[0] = last
      for (let i = 0; ; ) {
        const l = 2 * i + 1
        const r = l + 1
        let m = i
        if (l < h.length && h[l]! < h[m]!) m = l
        if (r < h.length && h[r]! < h[m]!) m = r
        if (m === i) break
        ;[h[m], h[i]] = [h[i]!, h[m]!]
        i = m
      }
    }
    return top
  }
}

/**
 * A topological order by containment (see successors), keeping the given
 * order wherever it is free (Kahn's algorithm, taking the earliest ready
 * group each time). Groups caught in a cycle are split into one group per
 * value and ordered again: single values can form no cycle, as containment
 * makes them strictly longer.
 */
function orderGroups(groups: readonly Group[]): Group[] {
  const n = groups.length
  const after = successors(groups)
  const waiting = new Array<number>(n).fill(0)
  for (const list of after) for (const b of list) waiting[b]!++
  const ready = new Ready()
  waiting.forEach((w, i) => w === 0 && ready.push(i))
  const done: Group[] = []
  const placed = new Array<boolean>(n).fill(false)
  while (ready.size > 0) {
    const next = ready.pop()
    placed[next] = true
    done.push(groups[next]!)
    for (const b of after[next]!) if (--waiting[b]! === 0) ready.push(b)
  }
  if (done.length === n) return done
  // Split the groups left in (or behind) a cycle and order everything again.
  const respread = groups.flatMap((g, i) => (placed[i] || g.userAgents.length === 1 ? [g] : g.userAgents.map((agent, k) => part(g, [agent], k === 0))))
  // Unreachable (single values form no cycle), but never loop forever.
  if (respread.length === n) return [...done, ...groups.filter((_, i) => !placed[i])]
  return orderGroups(respread)
}
