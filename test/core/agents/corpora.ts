import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { registry, tools } from '../../../src/core/agents/index.ts'

/**
 * Real User-Agent headers from two npm packages, labelled without asking the
 * identifier, and split once into a tuning part and a held-out part.
 *
 * - People: `user-agents` (browser headers from real traffic, by weight),
 *   each distinct header once.
 * - Bots: the `instances` of every pattern in `crawler-user-agents`.
 *
 * A bot counts toward "bots seen" only when it names itself, the only kind
 * a header reader can be asked to see: a registry agent or tool named as a
 * whole word, a product name of its own that ends in bot, crawler or spider
 * (outside a comment that describes a device), or a contact URL or address.
 * The others (a bare browser header a crawler hides behind, a lone name that
 * says nothing) count neither way.
 *
 * The split is by a hash of the header, so it never changes between runs or
 * machines, and a header in both packages lands on the same side in both.
 */

export interface CorpusHeader {
  readonly ua: string
  readonly kind: 'person' | 'bot'
  /** For bots: whether the header names itself (see above). */
  readonly selfNaming: boolean
}

export interface Corpus {
  readonly tuning: readonly CorpusHeader[]
  readonly heldOut: readonly CorpusHeader[]
}

const require = createRequire(import.meta.url)

interface BrowserRecord {
  readonly userAgent: string
}

interface CrawlerPattern {
  readonly pattern: string
  readonly instances?: readonly string[]
}

/** A JSON file beside an installed package's main entry (neither package exports its data file by name). */
function readJson<T>(pkg: string, file: string): T {
  return JSON.parse(readFileSync(join(dirname(require.resolve(pkg)), file), 'utf8')) as T
}

/** FNV-1a over UTF-16 code units: stable, and spreads near-identical headers. */
export function headerHash(ua: string): number {
  let hash = 0x811c9dc5
  for (let i = 0; i < ua.length; i++) hash = Math.imul(hash ^ ua.charCodeAt(i), 0x01000193) >>> 0
  return hash
}

/** Odd hashes are held out: about half of each kind. */
export function isHeldOut(ua: string): boolean {
  return (headerHash(ua) & 1) === 1
}

const KNOWN_NAMES: readonly string[] = [...registry.flatMap((entry) => [...entry.uaNames, ...(entry.uaNamePrefixes ?? [])]), ...tools.flatMap((entry) => [...entry.uaNames])].map((name) =>
  name.toLowerCase(),
)

function namesKnown(lower: string): boolean {
  return KNOWN_NAMES.some((name) => {
    let at = lower.indexOf(name)
    while (at >= 0) {
      const before = at === 0 ? ' ' : lower[at - 1]!
      const after = lower[at + name.length] ?? ' '
      if (!/[a-z0-9]/.test(before) && !/[a-z0-9]/.test(after)) return true
      at = lower.indexOf(name, at + 1)
    }
    return false
  })
}

// Words that make a comment describe a device: its other elements are models and builds.
const PLATFORM = /^(linux|android|windows|macintosh|iphone|ipad|ipod|x11|cpu|blackberry|symbian|series\d+|playstation|nintendo|xbox|tizen|webos|smart-?tv|kaios|cros|u)\b/i
const OWN_NAME = /(bot|crawler|spider)$/i
const CONTACT = /\+?https?:\/\/|\+www\.|[a-z0-9._%+-]+@[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}/i

/** Whether a header names itself as automated, read with plain regular expressions. */
export function namesItself(ua: string): boolean {
  if (CONTACT.test(ua) || namesKnown(ua.toLowerCase())) return true
  // Top-level products, then each comment element: a product name is the text before `/` or the element itself.
  const comments = [...ua.matchAll(/\(([^()]*)\)/g)].map((m) => m[1] ?? '')
  const top = ua.replace(/\([^()]*\)/g, ' ')
  const products = top.split(/\s+/).map((word) => word.split('/')[0] ?? '')
  for (const comment of comments) {
    const elements = comment.split(/[;,]/).map((e) => e.trim())
    if (elements.some((e) => PLATFORM.test(e))) continue
    for (const element of elements) products.push(...element.split('/')[0]!.split(/\s+/))
  }
  return products.some((name) => OWN_NAME.test(name.replace(/[\d._-]+$/, '').replace(/[^A-Za-z]/g, '')))
}

let cached: Corpus | undefined

/** The corpus, built once per process. */
export function loadCorpus(): Corpus {
  if (cached !== undefined) return cached
  const people = new Set(readJson<BrowserRecord[]>('user-agents', 'user-agents.json').map((r) => r.userAgent))
  const bots = new Set(readJson<CrawlerPattern[]>('crawler-user-agents', 'crawler-user-agents.json').flatMap((p) => p.instances ?? []))
  const all: CorpusHeader[] = []
  for (const ua of people) if (!bots.has(ua) && ua.trim() !== '') all.push({ ua, kind: 'person', selfNaming: false })
  for (const ua of bots) if (ua.trim() !== '') all.push({ ua, kind: 'bot', selfNaming: namesItself(ua) })
  cached = { tuning: all.filter((h) => !isHeldOut(h.ua)), heldOut: all.filter((h) => isHeldOut(h.ua)) }
  return cached
}
