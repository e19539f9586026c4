/**
 * `npm run registry:check`: what the agent registry lacks, compared with the
 * names in the `crawler-user-agents` package (a well-kept public list,
 * updated weekly; a dev dependency only).
 *
 * It is a report: it exits 0 whatever it finds, and 1 only when the list
 * cannot be read. The registry stays typed, reviewed data in the repo; this
 * only says where to look next.
 */
import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'
import { identifyAgent, registry, tools } from '../src/core/agents/index.ts'
import { selfNamedBots } from '../src/core/agents/registry/names.ts'

/** One entry of crawler-user-agents.json. */
export interface CrawlerListEntry {
  readonly pattern: string
  readonly instances?: readonly string[]
  readonly tags?: readonly string[]
  readonly url?: string
}

export interface Lacking {
  readonly name: string
  readonly tags: readonly string[]
  /** Example headers the list gives, and how many of them `identifyAgent` sees anyway. */
  readonly instances: number
  readonly seen: number
}

export interface Comparison {
  readonly listed: number
  /** Patterns that are regular expressions rather than a name, so cannot be compared. */
  readonly notNames: readonly string[]
  readonly known: number
  /** Names the registry and the tools lack that `identifyAgent` still sees in every example. */
  readonly seenAnyway: readonly Lacking[]
  /** Names the registry and the tools lack, with examples `identifyAgent` misses. */
  readonly missing: readonly Lacking[]
}

/**
 * The plain name a pattern matches, or undefined when it is a real regular
 * expression: `Googlebot\/` → `googlebot`, `^Apache-HttpClient` →
 * `apache-httpclient`, `[pP]ingdom` → `pingdom`, `Y!J|YahooSeeker` → undefined.
 */
export function nameOfPattern(pattern: string): string | undefined {
  let p = pattern.replace(/^\^/, '').replace(/\$$/, '').replace(/\\\/$/, '').replace(/\/$/, '')
  // A character class of one letter in both cases (`[pP]`) is that letter.
  p = p.replace(/\[([A-Za-z])([A-Za-z])\]/g, (whole, a: string, b: string) => (a.toLowerCase() === b.toLowerCase() ? a : whole))
  p = p.replace(/\\([.\-/ ])/g, '$1')
  if (/[\\()[\]|*+?{}^$]/.test(p) || p.includes('/') || p.trim() === '') return undefined
  return p.trim().toLowerCase()
}

/** Every name and token the registry, the tools and the self-named list answer to, lower case. */
export function knownNames(): ReadonlySet<string> {
  const names = new Set<string>()
  for (const entry of registry) {
    for (const name of [...entry.tokens, ...entry.uaNames, ...(entry.weakUaNames ?? []), ...(entry.uaNamePrefixes ?? [])]) {
      names.add(name.toLowerCase())
    }
  }
  for (const tool of tools) for (const name of [tool.token, ...tool.uaNames]) names.add(name.toLowerCase())
  return names
}

/** Compares the list with the known names; `identify` says whether a header is seen at all. */
export function compare(list: readonly CrawlerListEntry[], known: ReadonlySet<string>, identify: (ua: string) => boolean, selfNamed: ReadonlySet<string> = new Set()): Comparison {
  const notNames: string[] = []
  const seenAnyway: Lacking[] = []
  const missing: Lacking[] = []
  let knownCount = 0
  for (const entry of list) {
    const name = nameOfPattern(entry.pattern)
    if (name === undefined) {
      notNames.push(entry.pattern)
      continue
    }
    if (known.has(name)) {
      knownCount++
      continue
    }
    // Without an example, the name alone stands for one (`niki-bot` → `niki-bot/1.0`).
    const instances = entry.instances !== undefined && entry.instances.length > 0 ? entry.instances : [`${name}/1.0`]
    const seen = instances.filter(identify).length
    const lacking = { name, tags: entry.tags ?? [], instances: entry.instances?.length ?? 0, seen }
    if (seen === instances.length || selfNamed.has(name)) seenAnyway.push(lacking)
    else missing.push(lacking)
  }
  return { listed: list.length, notNames, known: knownCount, seenAnyway, missing }
}

/** The report, grouped by the list's tags so related names read together. */
export function formatComparison(c: Comparison): string {
  const out: string[] = [
    `crawler-user-agents: ${c.listed} patterns; ${c.known} known to the registry, ${c.notNames.length} are regular expressions rather than names.`,
    '',
    `Not in the registry and missed by identifyAgent (${c.missing.length}): add them to a registry file, or to registry/names.ts when no operator documents them.`,
    ...grouped(c.missing, (l) => (l.instances === 0 ? `${l.name} (no example)` : `${l.name} (${l.seen}/${l.instances} seen)`)),
    '',
    `Not in the registry but seen anyway, by the rules or registry/names.ts (${c.seenAnyway.length}): registry candidates where an operator documents them.`,
    ...grouped(c.seenAnyway, (l) => l.name),
  ]
  return out.join('\n')
}

function grouped(items: readonly Lacking[], label: (l: Lacking) => string): string[] {
  const byTag = new Map<string, string[]>()
  for (const item of items) {
    const tag = item.tags[0] ?? 'untagged'
    byTag.set(tag, [...(byTag.get(tag) ?? []), label(item)])
  }
  const lines: string[] = []
  for (const [tag, names] of [...byTag].sort((a, b) => b[1].length - a[1].length)) {
    lines.push(`  ${tag} (${names.length}):`)
    lines.push(...wrap(names.sort(), 100).map((line) => `    ${line}`))
  }
  return lines.length > 0 ? lines : ['  none']
}

function wrap(words: readonly string[], width: number): string[] {
  const lines: string[] = []
  let line = ''
  for (const word of words) {
    if (line !== '' && line.length + word.length + 2 > width) {
      lines.push(line)
      line = ''
    }
    line = line === '' ? word : `${line}, ${word}`
  }
  if (line !== '') lines.push(line)
  return lines
}

function readList(): readonly CrawlerListEntry[] {
  const list: unknown = createRequire(import.meta.url)('crawler-user-agents')
  if (!Array.isArray(list) || !list.every((e) => typeof (e as CrawlerListEntry | null)?.pattern === 'string')) {
    throw new Error('crawler-user-agents did not hold a list of { pattern } entries')
  }
  return list as CrawlerListEntry[]
}

function main(): void {
  let list: readonly CrawlerListEntry[]
  try {
    list = readList()
  } catch (error) {
    console.error(`registry:check: cannot read the crawler-user-agents package (${(error as Error).message}). Run \`npm ci\`.`)
    process.exit(1)
  }
  const selfNamed = new Set(selfNamedBots.map((name) => name.toLowerCase()))
  console.log(formatComparison(compare(list, knownNames(), (ua) => identifyAgent(ua) !== null, selfNamed)))
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) main()
