import { normalizeEncoding, parseRobotsTxt, type ParsedRobotsTxt } from '../core/robots/index.ts'

/**
 * How the live robots.txt differs from the configured one, as RFC 9309
 * reads them: groups by product token (compared case-insensitively,
 * §2.2.1), every group naming a token merged into one (§2.2.1), and the
 * rules of each token compared as a set (the longest match decides, not the
 * order, §2.2.2). Comments, blank lines, order and white space change
 * nothing, so they are not differences; the byte comparison is reported
 * beside.
 */
export type DifferenceKind = 'missing-group' | 'extra-group' | 'rule-added' | 'rule-removed' | 'record-added' | 'record-removed' | 'sitemap-added' | 'sitemap-removed'

export interface FileDifference {
  readonly kind: DifferenceKind
  /** The product token, lower case (`*` for the wildcard); null for sitemaps and records outside any group. */
  readonly token: string | null
  /** The line as written: `Disallow: /admin/`, `User-agent: GPTBot`, `Sitemap: https://…`. */
  readonly text: string
  /** Its line, in the live file for what the live file adds and in the configured file for what it lacks. */
  readonly line: number
  readonly file: 'live' | 'configured'
  /** Part of a block prepended to the Worker's file (see `Prepended`). */
  readonly prepended: boolean
  /** For a group: its own rules and records, as written. */
  readonly detail?: readonly string[]
}

/** Lines prepended to the Worker's file by something in front of it. */
export interface Prepended {
  readonly fromLine: number
  readonly toLine: number
  /** Recognised as Cloudflare's managed robots.txt, which the zone prepends to whatever the Worker serves. */
  readonly managed: boolean
  /** How it was recognised. */
  readonly evidence: string
  /** The product tokens of its groups, lower case, in file order. */
  readonly tokens: readonly string[]
}

export interface FileComparison {
  /** The same bytes. */
  readonly identical: boolean
  /** Empty when RFC 9309 readers read the same rules in both. */
  readonly differences: readonly FileDifference[]
  readonly prepended: Prepended | null
}

interface Entry {
  readonly text: string
  readonly line: number
  readonly detail?: readonly string[]
}

/** What RFC 9309 reads for one product token: its groups' lines, and the merged rules and records. */
interface TokenView {
  readonly groups: Entry[]
  readonly rules: Map<string, Entry>
  readonly records: Map<string, Entry>
}

interface FileView {
  readonly tokens: Map<string, TokenView>
  readonly sitemaps: Map<string, Entry>
  /** Records outside any group (`Host:`). */
  readonly records: Map<string, Entry>
}

/** ASCII case folding: a product token is ASCII letters, `-` and `_` (RFC 9309 §2.2.1). */
const fold = (s: string) => s.replace(/[A-Z]+/g, (c) => c.toLowerCase())

/** `search=yes, ai-train=no` and `search=yes,ai-train=no` say the same; a record's key is case-insensitive. */
const recordKey = (key: string, value: string) => `${fold(key)}:${value.replace(/\s*([,=])\s*/g, '$1')}`

const capitalised = (type: 'allow' | 'disallow') => (type === 'allow' ? 'Allow' : 'Disallow')

function viewOf(parsed: ParsedRobotsTxt): FileView {
  const tokens = new Map<string, TokenView>()
  parsed.groups.forEach((group, index) => {
    const line = group.line ?? 0
    const detail = [...group.rules.map((r) => `${capitalised(r.type)}: ${r.pattern}`), ...group.other.map((o) => `${o.key}: ${o.value}`)]
    const seen = new Set<string>()
    group.userAgents.forEach((value, i) => {
      const agent = fold(value)
      // A group naming one token twice is still one group for it.
      if (seen.has(agent)) return
      seen.add(agent)
      let view = tokens.get(agent)
      if (view === undefined) tokens.set(agent, (view = { groups: [], rules: new Map(), records: new Map() }))
      view.groups.push({ text: `User-agent: ${parsed.agentValues[index]?.[i] ?? agent}`, line, detail })
      for (const rule of group.rules) {
        // RFC 9309 §2.2.2: patterns compare after percent-encoding normalisation (`/caf%C3%A9` is `/café`).
        const key = `${rule.type} ${normalizeEncoding(rule.pattern)}`
        if (!view.rules.has(key)) view.rules.set(key, { text: `${capitalised(rule.type)}: ${rule.pattern}`, line: rule.line ?? line })
      }
      for (const record of group.other) {
        const key = recordKey(record.key, record.value)
        if (!view.records.has(key)) view.records.set(key, { text: `${record.key}: ${record.value}`, line: record.line ?? line })
      }
    })
  })
  const sitemaps = new Map<string, Entry>()
  parsed.sitemaps.forEach((url, i) => sitemaps.has(url) || sitemaps.set(url, { text: `Sitemap: ${url}`, line: parsed.sitemapLines[i] ?? 0 }))
  const records = new Map<string, Entry>()
  for (const record of parsed.other) records.set(recordKey(record.key, record.value), { text: `${record.key}: ${record.value}`, line: record.line ?? 0 })
  return { tokens, sitemaps, records }
}

/** Lines as the parser numbers them (RFC 9309 §2.2: CR, LF or CRLF end a line). */
const linesOf = (text: string) => text.split(/\r\n|\r|\n/)

const BEGIN = /^\s*#\s*BEGIN Cloudflare Managed content/i
const END = /^\s*#\s*END Cloudflare Managed content/i
/** The notice Cloudflare's managed robots.txt opens with. */
const NOTICE = /^\s*#.*As a condition of accessing this website/i
const CONTENT_SIGNAL = /^\s*content-signal\s*:/im

/** The product tokens of the groups that start within lines [from, to]. */
function tokensIn(parsed: ParsedRobotsTxt, from: number, to: number): string[] {
  return parsed.groups.filter((g) => (g.line ?? 0) >= from && (g.line ?? 0) <= to).flatMap((g) => g.userAgents.map(fold))
}

/** From line `from`, the first group's start and the line before the group after it (trailing blank and comment lines dropped). */
function firstGroupEnd(parsed: ParsedRobotsTxt, lines: readonly string[], from: number): number | null {
  const index = parsed.groups.findIndex((g) => (g.line ?? 0) > from)
  if (index < 0) return null
  let end = (parsed.groups[index + 1]?.line ?? lines.length + 1) - 1
  while (end > from && /^\s*(#.*)?$/.test(lines[end - 1] ?? '')) end--
  return end
}

/**
 * The block something in front of the Worker put before its file, if any:
 * Cloudflare's managed robots.txt (its `# BEGIN/END Cloudflare Managed
 * content` markers, or its "As a condition of accessing this website"
 * notice, or Content-Signal lines prepended to the configured file), or any
 * other text before an intact copy of the configured file.
 */
export function findPrepended(live: string, configured: string, parsed: ParsedRobotsTxt = parseRobotsTxt(live)): Prepended | null {
  const lines = linesOf(live)
  const begin = lines.findIndex((l) => BEGIN.test(l))
  const end = lines.findIndex((l, i) => i > begin && END.test(l))
  const notice = lines.findIndex((l) => NOTICE.test(l))
  const managed = (fromLine: number, toLine: number, evidence: string): Prepended => ({ fromLine, toLine, managed: true, evidence, tokens: tokensIn(parsed, fromLine, toLine) })
  if (begin >= 0 && end > begin) {
    const from = notice >= 0 && notice < begin ? notice + 1 : begin + 1
    return managed(from, end + 1, 'its "# BEGIN Cloudflare Managed content" and "# END Cloudflare Managed Content" lines')
  }
  const at = configured === '' ? -1 : live.indexOf(configured)
  if (at > 0) {
    const prefix = live.slice(0, at)
    const toLine = linesOf(prefix).length - (/[\r\n]$/.test(prefix) ? 1 : 0)
    if (begin >= 0 || notice >= 0) return managed(1, toLine, begin >= 0 ? 'its "# BEGIN Cloudflare Managed content" line' : 'its "As a condition of accessing this website" notice')
    if (CONTENT_SIGNAL.test(prefix)) return managed(1, toLine, 'its Content-Signal line, before an intact copy of the configured file')
    return { fromLine: 1, toLine, managed: false, evidence: 'text before an intact copy of the configured file', tokens: tokensIn(parsed, 1, toLine) }
  }
  const start = begin >= 0 ? begin : notice
  if (start >= 0) {
    const groupEnd = firstGroupEnd(parsed, lines, start + 1)
    if (groupEnd !== null) return managed(start + 1, groupEnd, begin >= 0 ? 'its "# BEGIN Cloudflare Managed content" line' : 'its "As a condition of accessing this website" notice')
  }
  return null
}

const ORDER: readonly DifferenceKind[] = ['missing-group', 'extra-group', 'rule-removed', 'rule-added', 'record-removed', 'record-added', 'sitemap-removed', 'sitemap-added']

/**
 * Compares the live robots.txt with the configured one, as RFC 9309 reads
 * them, naming each difference and the block prepended to the Worker's file
 * (Cloudflare's managed robots.txt among them).
 *
 * @example
 * compareRobotsTxt('User-agent: *\nDisallow: /admin/\n', 'User-agent: *\nDisallow: /\n').differences
 * // [{ kind: 'rule-removed', token: '*', text: 'Disallow: /', … }, { kind: 'rule-added', token: '*', text: 'Disallow: /admin/', … }]
 */
export function compareRobotsTxt(live: string, configured: string): FileComparison {
  const liveParsed = parseRobotsTxt(live)
  const prepended = findPrepended(live, configured, liveParsed)
  const inPrepended = (line: number) => prepended !== null && line >= prepended.fromLine && line <= prepended.toLine
  const [have, want] = [viewOf(liveParsed), viewOf(parseRobotsTxt(configured))]
  const differences: FileDifference[] = []
  const add = (kind: DifferenceKind, token: string | null, entry: Entry, file: 'live' | 'configured') =>
    differences.push({
      kind,
      token,
      text: entry.text,
      line: entry.line,
      file,
      prepended: file === 'live' && inPrepended(entry.line),
      ...(entry.detail === undefined ? {} : { detail: entry.detail }),
    })
  const sets = (token: string | null, ours: Map<string, Entry>, theirs: Map<string, Entry>, removed: DifferenceKind, added: DifferenceKind) => {
    for (const [key, entry] of ours) if (!theirs.has(key)) add(removed, token, entry, 'configured')
    for (const [key, entry] of theirs) if (!ours.has(key)) add(added, token, entry, 'live')
  }

  for (const [token, wanted] of want.tokens) {
    const found = have.tokens.get(token)
    if (found === undefined) {
      add('missing-group', token, wanted.groups[0]!, 'configured')
      continue
    }
    // More groups naming a token than configured: RFC 9309 merges them, but a
    // reader that takes the first group only (Python's urllib.robotparser)
    // reads the rules of one. The prepended ones are the extra ones.
    const surplus = found.groups.length - wanted.groups.length
    if (surplus > 0) {
      const extra = [...found.groups.filter((g) => inPrepended(g.line)), ...found.groups.filter((g) => !inPrepended(g.line)).reverse()].slice(0, surplus)
      for (const group of extra.sort((a, b) => a.line - b.line)) add('extra-group', token, group, 'live')
    } else if (surplus < 0) {
      for (const group of wanted.groups.slice(found.groups.length)) add('missing-group', token, group, 'configured')
    }
    sets(token, wanted.rules, found.rules, 'rule-removed', 'rule-added')
    sets(token, wanted.records, found.records, 'record-removed', 'record-added')
  }
  for (const [token, found] of have.tokens) {
    if (want.tokens.has(token)) continue
    for (const group of found.groups) add('extra-group', token, group, 'live')
  }
  sets(null, want.sitemaps, have.sitemaps, 'sitemap-removed', 'sitemap-added')
  sets(null, want.records, have.records, 'record-removed', 'record-added')
  differences.sort((a, b) => ORDER.indexOf(a.kind) - ORDER.indexOf(b.kind) || a.line - b.line)
  return { identical: live === configured, differences, prepended }
}
