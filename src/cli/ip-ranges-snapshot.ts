/**
 * The dated snapshot of the operators' IP-range lists (by default
 * data/ip-ranges-snapshot.json at the package's root), for machines without
 * internet. `npm run ranges:snapshot` writes it at release time from the
 * operators' own URLs (ip-ranges-snapshot-writer.ts); a checkout or a package
 * built without that step has none, and says so. Read by the CLI only: the
 * Worker never bundles it. Each list's `entries` are the addresses and CIDR
 * blocks the operator published, one per element; its `retrieved` time is
 * what every place that shows the copy dates it by.
 */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { CliError } from './errors.ts'

export interface SnapshotList {
  /** The list's URL in the registry, which is also where the copy was fetched. */
  readonly url: string
  /** When the copy was fetched, as an ISO 8601 time. */
  readonly retrieved: string
  readonly entries: readonly string[]
}

export interface IpRangesSnapshot {
  /** The day the snapshot was written, `YYYY-MM-DD` (UTC). */
  readonly snapshot: string
  /** Published lists the snapshot has no copy of, and why (the fetch's error). */
  readonly missing: readonly { readonly url: string; readonly reason: string }[]
  readonly lists: readonly SnapshotList[]
}

/** What `ranges` says, in one line, when the package has no snapshot to fall back to. */
export const NO_SNAPSHOT =
  "this copy of robots-edge ships no IP-range snapshot: run `npm run ranges:snapshot` on a machine with internet, or `robots-edge ranges` where the operators' URLs are reachable"

/** In a checkout the CLI runs from scripts/cli; installed, from lib/cli.mjs: the data folder sits at the package's root. */
export function snapshotPath(): string {
  const up = import.meta.url.includes('/scripts/cli/') ? '../../' : '../'
  return fileURLToPath(new URL(`${up}data/ip-ranges-snapshot.json`, import.meta.url))
}

const DATE = /^\d{4}-\d{2}-\d{2}$/
const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string')
const recordOf = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null ? v : {}) as Record<string, unknown>

/** Checks a parsed snapshot's shape; a file edited by hand into another shape is an error that names the field. */
export function checkSnapshot(doc: unknown, where: string): IpRangesSnapshot {
  const bad = (field: string): never => {
    throw new CliError(`${where}: ${field} is not as robots-edge writes it; write the file again with \`npm run ranges:snapshot\``)
  }
  const d = recordOf(doc)
  if (typeof d.snapshot !== 'string' || !DATE.test(d.snapshot)) bad('snapshot')
  if (!Array.isArray(d.lists)) bad('lists')
  const lists = (d.lists as unknown[]).map((item, i): SnapshotList => {
    const l = recordOf(item)
    if (typeof l.url !== 'string') bad(`lists[${i}].url`)
    if (typeof l.retrieved !== 'string' || Number.isNaN(Date.parse(l.retrieved))) bad(`lists[${i}].retrieved`)
    if (!isStrings(l.entries)) bad(`lists[${i}].entries`)
    return { url: l.url as string, retrieved: l.retrieved as string, entries: l.entries as string[] }
  })
  if (!Array.isArray(d.missing)) bad('missing')
  const missing = (d.missing as unknown[]).map((item, i) => {
    const m = recordOf(item)
    if (typeof m.url !== 'string' || typeof m.reason !== 'string') bad(`missing[${i}]`)
    return { url: m.url as string, reason: m.reason as string }
  })
  return { snapshot: d.snapshot as string, lists, missing }
}

const isMissingFile = (error: unknown): boolean => error instanceof Error && (error as NodeJS.ErrnoException).code === 'ENOENT'

/**
 * Reads and checks a snapshot. With no `path`, the package's own (`shipped`):
 * null when the package ships none. A `path` given by the user that does not
 * exist is an error, since they meant a file.
 */
export function readSnapshot(path?: string, shipped: string = snapshotPath()): IpRangesSnapshot | null {
  const file = path ?? shipped
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    if (path === undefined && isMissingFile(error)) return null
    throw new CliError(`the IP-range snapshot could not be read (${file}): ${error instanceof Error ? error.message : String(error)}`)
  }
  let doc: unknown
  try {
    doc = JSON.parse(text)
  } catch {
    throw new CliError(`${file} is not JSON; write it again with \`npm run ranges:snapshot\``)
  }
  return checkSnapshot(doc, file)
}
