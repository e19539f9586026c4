import { showValue } from './characters.ts'
import { compileRobotsTxt } from './compile.ts'
import { normalizeEncoding } from './encoding.ts'
import { agentToken } from './parse.ts'
import { compileReader, type ReaderName, type ReaderVerdict } from './readers.ts'
import type { LintDiagnostic, ParsedRobotsTxt, ReaderReading, Rule, Verdict } from './types.ts'

/**
 * Reads a file three ways and reports where the readings differ:
 * RFC 9309 as Google reads it (longest match, wildcards); the first match in
 * file order with groups chosen by substring (the 1996 draft, Python's
 * `urllib.robotparser`); and prefixes only, without `Allow` or wildcards
 * (the 1994 document). See readers.ts.
 *
 * The URLs tried are the patterns of the groups each crawler reads, and a
 * path just below each: where two rules overlap, or a wildcard or an Allow
 * decides, one of them shows it. A difference is a warning when the order
 * `robots-edge lint --fix` writes removes it, information when no order can
 * (wildcards, Allow for 1994 readers).
 */

const SHORT_NAMES: Readonly<Record<ReaderName, string>> = { 'first-match': 'first-match readers', 'prefix-1994': '1994 readers' }
const READER_NAMES: Readonly<Record<ReaderName, string>> = {
  'first-match': "first-match readers (the 1996 draft, e.g. Python's urllib.robotparser)",
  'prefix-1994': 'readers of the 1994 document',
}
const FIX_ORDER = 'robots-edge lint --fix writes this order'
/** Bounds the work on huge files; a few thousand URLs find every kind of difference. */
const MAX_PATHS_PER_CRAWLER = 2048
const MAX_CRAWLERS = 128

type Kind = 'order' | 'group' | 'wildcard' | 'extension' | 'allow'

interface Difference {
  readonly kind: Kind
  readonly readers: ReaderName[]
  /** Each reader's verdict, in the order of `readers`. */
  readonly others: ReaderVerdict[]
  readonly crawler: Crawler
  readonly path: string
  readonly google: Verdict
  readonly other: ReaderVerdict
}

const quote = (rule: Rule | null): string => (rule === null ? 'no rule matches' : `line ${rule.line ?? 0}, ${showValue(`${rule.type === 'allow' ? 'Allow' : 'Disallow'}: ${rule.pattern}`)}`)
const verb = (allowed: boolean): string => (allowed ? 'allow' : 'disallow')
const hasWildcard = (pattern: string): boolean => pattern.includes('*') || pattern.endsWith('$')

/** A path each pattern matches, and one just below it (wildcards filled in, `$` dropped). */
function samples(rules: readonly Rule[], out: Set<string>): void {
  for (const rule of rules) {
    if (out.size >= MAX_PATHS_PER_CRAWLER) return
    const literal = rule.pattern.replace(/\*/g, 'x').replace(/\$$/, '')
    if (!literal.startsWith('/')) continue
    out.add(literal)
    out.add(literal.endsWith('/') ? `${literal}x` : `${literal}/x`)
  }
}

interface Crawler {
  /** The name a substring reader compares (a value as written, up to any `/`). */
  readonly name: string
  /** The product token RFC 9309 readers compare (Google reads the crawler's own name so too). */
  readonly token: string
}

/** A crawler for every user-agent value the file names. */
function namedCrawlers(parsed: ParsedRobotsTxt): Crawler[] {
  const byName = new Map<string, Crawler>()
  for (const value of parsed.agentValues.flat()) {
    const name = value.split('/')[0]!.trim()
    const token = agentToken(name).toLowerCase()
    if (token === '' || token === '*' || byName.has(name.toLowerCase())) continue
    byName.set(name.toLowerCase(), { name, token })
  }
  return [...byName.values()]
}

/** A crawler the file does not name and whose name holds no value it names: one that reads the `*` group. */
function unnamedCrawler(parsed: ParsedRobotsTxt): Crawler | undefined {
  const values = new Set(parsed.agentValues.flat().map((v) => v.toLowerCase()))
  values.delete('*')
  const name = ['examplebot', 'robots-edge-lint', 'zz'].find((n) => ![...values].some((v) => n.includes(v)))
  return name === undefined ? undefined : { name, token: name }
}

/** What caused a reader to differ from Google, given its verdict. */
function kindOf(reader: ReaderName, google: Verdict, other: ReaderVerdict, path: string, sameGroup: boolean): Kind {
  if ((google.rule !== null && hasWildcard(google.rule.pattern)) || (other.rule !== null && hasWildcard(other.rule.pattern))) return 'wildcard'
  // Google extension: `Allow: /dir/index.html` also allows `/dir/`.
  if (google.rule !== null && !normalizeEncoding(path).startsWith(normalizeEncoding(google.rule.pattern))) return 'extension'
  if (!sameGroup) return 'group'
  if (reader === 'prefix-1994' && google.rule?.type === 'allow') return 'allow'
  return 'order'
}

/** Every (crawler, path) the readers read differently. */
function differences(parsed: ParsedRobotsTxt, unnamed: Crawler | undefined): Difference[] {
  const google = compileRobotsTxt(parsed)
  const readers = (['first-match', 'prefix-1994'] as const).map((name) => compileReader(parsed, name))
  const seen = new Set<string>()
  const out: Difference[] = []
  for (const crawler of unnamed === undefined ? namedCrawlers(parsed) : [...namedCrawlers(parsed), unnamed]) {
    const token = google.groupFor(crawler.token)
    const googleGroups = parsed.groups.flatMap((g, i) => (g.userAgents.some((a) => (token === '*' ? a === '*' : agentToken(a).toLowerCase() === token)) ? [i] : []))
    const readerGroups = readers.map((r) => r.groupFor(crawler.name))
    const signature = `${googleGroups.join(',')}|${readerGroups.join(',')}`
    if (seen.has(signature) || seen.size >= MAX_CRAWLERS) continue
    seen.add(signature)
    const paths = new Set(['/'])
    for (const i of new Set([...googleGroups, ...readerGroups])) if (i >= 0) samples(parsed.groups[i]!.rules, paths)
    for (const path of paths) {
      const verdict = google.check(crawler.token, path)
      const differing = readers.map((r) => ({ name: r.name, v: r.check(crawler.name, path) })).filter(({ v }) => v.allowed !== verdict.allowed)
      for (const { name, v } of differing) {
        // RFC 9309 merges every group naming the token; a first-match reader
        // reads one of them, so a rule from another one is a group difference.
        const decidingGroup = verdict.rule === null ? -1 : parsed.groups.findIndex((g) => g.rules.includes(verdict.rule as Rule))
        const sameGroup = v.group >= 0 && googleGroups.includes(v.group) && (googleGroups.length === 1 || decidingGroup < 0 || decidingGroup === v.group)
        const kind = kindOf(name, verdict, v, path, sameGroup || (v.group < 0 && googleGroups.length === 0))
        // Readers that differ for the same reason are named together; for
        // what an order fixes, only when the same rule decides for them.
        const twin = out.find((d) => d.crawler === crawler && d.path === path && d.kind === kind && (d.other.rule === v.rule || (kind !== 'order' && kind !== 'group')))
        if (twin !== undefined) {
          twin.readers.push(name)
          twin.others.push(v)
        } else {
          out.push({ kind, readers: [name], others: [v], crawler, path, google: verdict, other: v })
        }
      }
    }
  }
  return out
}

function readings(d: Difference): ReaderReading[] {
  return [
    { reader: 'rfc9309', allowed: d.google.allowed, line: d.google.rule?.line ?? 0 },
    ...d.readers.map((reader, i) => ({ reader, allowed: d.others[i]!.allowed, line: d.others[i]!.rule?.line ?? 0 })),
  ]
}

/** The line that shows a difference best: the rule with the wildcard, or Google's deciding rule. */
function lineOf(d: Difference): number {
  if (d.kind === 'wildcard' && d.other.rule !== null && hasWildcard(d.other.rule.pattern) && !(d.google.rule && hasWildcard(d.google.rule.pattern))) return d.other.rule.line ?? 0
  return d.google.rule?.line ?? d.other.rule?.line ?? 0
}

/** `The same holds at lines 54, 55 and 57 (9 URLs in all).`, or `2 more URLs differ the same way.` */
function alike(all: readonly Difference[]): string {
  if (all.length === 1) return ''
  const lines = [...new Set(all.map(lineOf))].filter((l) => l !== lineOf(all[0]!)).sort((a, b) => a - b)
  if (lines.length === 0) return ` ${all.length - 1} more URL${all.length === 2 ? ' differs' : 's differ'} the same way.`
  const shown = lines.length > 12 ? [...lines.slice(0, 12).map(String), '…'] : lines.map(String)
  const list = shown.length === 1 ? shown[0]! : `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)!}`
  return ` The same holds for the rule${lines.length === 1 ? '' : 's'} at line${lines.length === 1 ? '' : 's'} ${list} (${all.length} URLs in all).`
}

/** The other readers' deciding rules: one, or each reader's. */
function theirRules(d: Difference): string {
  if (d.others.every((v) => v.rule === d.other.rule)) return quote(d.other.rule)
  return d.readers.map((r, i) => `${SHORT_NAMES[r]}: ${quote(d.others[i]!.rule)}`).join('; ')
}

function describe(all: readonly Difference[], parsed: ParsedRobotsTxt, unnamed: Crawler | undefined): Omit<LintDiagnostic, 'code' | 'severity' | 'line'> {
  const d = all[0]!
  const who = d.readers.map((r) => READER_NAMES[r]).join(' and ')
  const crawler = d.crawler === unnamed ? 'crawlers without a group of their own' : d.crawler.name
  const google = `Readers disagree on ${showValue(d.path)} for ${crawler}: Google and other RFC 9309 readers ${verb(d.google.allowed)} it (${quote(d.google.rule)})`
  const also = alike(all)
  const example = { crawler: d.crawler.name, url: d.path, readings: readings(d) }
  switch (d.kind) {
    case 'order':
      return {
        message: `${google}, the longest match; ${who} ${verb(d.other.allowed)} it (${quote(d.other.rule)}), the first match in file order.${also}`,
        fix: `Write longer patterns first, and Allow before Disallow at equal length (${FIX_ORDER}).`,
        example,
      }
    case 'group': {
      const group = d.other.group >= 0 ? parsed.groups[d.other.group]! : undefined
      const values = d.other.group >= 0 ? (parsed.agentValues[d.other.group] ?? []) : []
      const reads =
        group === undefined
          ? 'find no group for it'
          : group.userAgents.includes('*')
            ? `read only the first "*" group, at line ${group.line ?? 0},`
            : `take the first group whose value is part of ${showValue(d.crawler.name)}, the one at line ${group.line ?? 0} (${values.map((a) => showValue(a)).join(', ')}),`
      return {
        message: `${google}; ${who} ${reads} and ${verb(d.other.allowed)} it (${quote(d.other.rule)}).${also}`,
        fix: `Name each crawler by its bare product token, in one group only, above groups naming a part of its name (${FIX_ORDER}).`,
        example,
      }
    }
    case 'wildcard':
      return {
        message: `${google}; ${who} read "*" and "$" as plain characters and ${verb(d.other.allowed)} it (${theirRules(d)}). No order can make them agree: crawlers built on those readers read this rule differently.${also}`,
        fix: 'Where a prefix says the same, write the prefix ("/downloads/" rather than "/downloads/*"); otherwise this is only information.',
        example,
      }
    case 'extension':
      return {
        message: `${google}, a Google extension that reads "Allow: /dir/index.html" as allowing "/dir/" too; ${who} ${verb(d.other.allowed)} it (${theirRules(d)}). They fetch less, never more, and no order changes that.${also}`,
        example,
      }
    case 'allow':
      return {
        message: `${google}; ${who} know no Allow lines and ${verb(d.other.allowed)} it (${quote(d.other.rule)}). They fetch less, never more (the guard never refuses them for it), and no order changes that.${also}`,
        example,
      }
  }
}

const SEVERITY: Readonly<Record<Kind, LintDiagnostic['severity']>> = { order: 'warning', group: 'warning', wildcard: 'info', extension: 'info', allow: 'info' }
const CODE: Readonly<Record<Kind, LintDiagnostic['code']>> = { order: 'reader-order', group: 'reader-group', wildcard: 'reader-wildcard', extension: 'reader-extension', allow: 'reader-allow' }

/**
 * The differences between the three readings, one diagnostic per cause:
 * the same kind, the same readers and the same deciding lines. Each names
 * an example crawler and URL and each reader's deciding line.
 */
export function lintReaders(parsed: ParsedRobotsTxt): LintDiagnostic[] {
  if (parsed.groups.length === 0) return []
  const unnamed = unnamedCrawler(parsed)
  const byCause = new Map<string, Difference[]>()
  for (const d of differences(parsed, unnamed)) {
    // A rule order is one cause per pair of deciding lines; what no order
    // fixes is one note per kind and group read.
    // A group chosen wrongly is one cause per crawler, whatever the URLs.
    const lines = d.kind === 'order' ? `${d.google.rule?.line ?? 0}|${d.other.rule?.line ?? 0}|${d.other.group}` : d.kind === 'group' ? `${d.crawler.token}|${d.other.group}` : String(d.google.group)
    const key = `${d.kind}|${d.readers.join(',')}|${lines}`
    byCause.set(key, [...(byCause.get(key) ?? []), d])
  }
  return [...byCause.values()].map((all) => {
    const d = all[0]!
    const line = d.kind === 'group' ? (parsed.groups[d.other.group]?.line ?? lineOf(d)) : lineOf(d)
    return { code: CODE[d.kind], severity: SEVERITY[d.kind], line, ...describe(all, parsed, unnamed) }
  })
}
