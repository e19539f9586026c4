import type { Group, ParsedRobotsTxt, RobotsTxtModel } from './types.ts'

/**
 * One change `lint --fix` makes to a line, so that nothing it rewrites goes
 * unsaid. `changesMeaning` is set where some reader will now read the file
 * differently: RFC 9309 readers (Google) never do, since the fix keeps their
 * reading, but readers that skipped the line as written may apply it now.
 */
export interface FixRewrite {
  /** 1-based line of the input file. */
  readonly line: number
  readonly kind: 'key-spelling' | 'user-agent-value' | 'repeated' | 'rule-moved' | 'group-moved' | 'group-merged'
  readonly message: string
  readonly changesMeaning: boolean
}

/** How the serializer spells each key a rule line can carry. */
const KEY_OF = { allow: 'Allow', disallow: 'Disallow' } as const

/** The line numbers of `items` in output order, each once. */
function sequence(items: readonly (number | undefined)[]): number[] {
  const seen = new Set<number>()
  const out: number[] = []
  for (const line of items) {
    if (line === undefined || seen.has(line)) continue
    seen.add(line)
    out.push(line)
  }
  return out
}

/**
 * The entries of `lines` outside one longest increasing run: the fewest lines
 * that must have moved for the output order to arise from the input order.
 * O(n log n) (patience sorting), so a file with thousands of rules stays fast.
 */
function moved(lines: readonly number[]): number[] {
  const tails: number[] = []
  const previous = new Array<number>(lines.length).fill(-1)
  const tailAt: number[] = []
  lines.forEach((line, i) => {
    let lo = 0
    let hi = tails.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (tails[mid]! < line) lo = mid + 1
      else hi = mid
    }
    tails[lo] = line
    tailAt[lo] = i
    previous[i] = lo > 0 ? tailAt[lo - 1]! : -1
  })
  const kept = new Set<number>()
  for (let i = tails.length > 0 ? tailAt[tails.length - 1]! : -1; i >= 0; i = previous[i]!) kept.add(i)
  return lines.filter((_, i) => !kept.has(i)).sort((a, b) => a - b)
}

const groupLabel = (g: Group): string => g.userAgents.join(', ')

/**
 * Every rewrite between a parsed file and the reader-safe model written for
 * it, by input line: keys spelled out, user-agent values cut to their token,
 * repeated rules written once, rules and groups moved, groups merged.
 * `dropped` lines (left out and reported apart) are not listed again.
 */
export function listRewrites(parsed: ParsedRobotsTxt, written: RobotsTxtModel, dropped: ReadonlySet<number>): FixRewrite[] {
  const out: FixRewrite[] = []
  const ruleAt = new Map<number, string>()
  for (const g of parsed.groups) for (const r of g.rules) if (r.line !== undefined) ruleAt.set(r.line, KEY_OF[r.type])
  const sitemapAt = new Set(parsed.sitemapLines)
  const otherAt = new Map<number, string>()
  for (const r of [...parsed.other, ...parsed.groups.flatMap((g) => g.other)]) if (r.line !== undefined) otherAt.set(r.line, r.key)

  for (const d of parsed.diagnostics) {
    if (dropped.has(d.line) || otherAt.has(d.line)) continue
    if (d.code === 'typo-accepted' || d.code === 'missing-colon') {
      const key = ruleAt.get(d.line) ?? (sitemapAt.has(d.line) ? 'Sitemap' : 'User-agent')
      const what = d.code === 'missing-colon' ? `"${d.detail ?? ''}" without a colon` : `"${d.detail ?? ''}"`
      out.push({
        line: d.line,
        kind: 'key-spelling',
        changesMeaning: true,
        message: `${what} written as "${key}:". Google and other RFC 9309 readers already read it so; readers that skip a key they do not know (Python's urllib.robotparser among them) ignored this line and will now apply it.`,
      })
    } else if (d.code === 'agent-value-truncated' && d.detail?.includes('/')) {
      out.push({
        line: d.line,
        kind: 'user-agent-value',
        changesMeaning: true,
        message: `"User-agent: ${d.detail}" written with its product token alone. RFC 9309 readers already read only the token; readers that compare the whole value (Python's urllib.robotparser) never matched it and will now apply this group.`,
      })
    }
  }

  const inputRules = parsed.groups.flatMap((g) => g.rules.map((r) => r.line)).filter((l): l is number => l !== undefined)
  const outputRules = sequence(written.groups.flatMap((g) => g.rules.map((r) => r.line)))
  const present = new Set(outputRules)
  for (const line of inputRules) {
    if (present.has(line) || dropped.has(line)) continue
    out.push({ line, kind: 'repeated', changesMeaning: false, message: 'repeats a rule of the same group: written once (no reader decides differently).' })
  }
  // Within each written group: a group that moved as a whole is said once, below, not once per rule.
  for (const line of written.groups.flatMap((g) => moved(sequence(g.rules.map((r) => r.line))))) {
    out.push({ line, kind: 'rule-moved', changesMeaning: false, message: 'rule moved: longest pattern first, Allow before Disallow at equal length.' })
  }

  const outputGroups = sequence(written.groups.map((g) => g.line))
  for (const line of moved(outputGroups)) {
    const group = written.groups.find((g) => g.line === line)
    out.push({ line, kind: 'group-moved', changesMeaning: false, message: `group "${group ? groupLabel(group) : ''}" moved: groups whose token contains another's first, * last.` })
  }
  const kept = new Set(outputGroups)
  for (const g of parsed.groups) {
    if (g.line === undefined || kept.has(g.line)) continue
    out.push({
      line: g.line,
      kind: 'group-merged',
      changesMeaning: true,
      message: `group "${groupLabel(g)}" merged with the other groups naming the same token, as RFC 9309 readers combine them (§2.2.1); first-match readers (Python's urllib.robotparser) read only the first of them and will now apply all their rules.`,
    })
  }
  return out.sort((a, b) => a.line - b.line)
}
