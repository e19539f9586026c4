/**
 * The dated snapshot of the operators' IP-range lists that the package ships
 * (data/ip-ranges-snapshot.json), for machines without internet. Read by the
 * CLI only: the Worker never bundles it. Each list's `entries` are the
 * addresses and CIDR blocks the operator published, one per element; its
 * `retrieved` date is what every place that shows the copy calls it by.
 */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { CliError } from './errors.ts'

export interface SnapshotList {
  /** The list's URL in the registry. */
  readonly url: string
  /** The URL the copy was fetched from, when the operator has since moved the list. */
  readonly fetchedFrom: string
  /** The day the copy was fetched, `YYYY-MM-DD`. */
  readonly retrieved: string
  readonly entries: readonly string[]
}

export interface IpRangesSnapshot {
  /** The snapshot's date, `YYYY-MM-DD`. */
  readonly snapshot: string
  /** Where the copies came from, for the output. */
  readonly source: { readonly repository: string; readonly commit: string; readonly license: string }
  readonly lists: readonly SnapshotList[]
  /** Published lists the snapshot has no copy of, and why. */
  readonly missing: readonly { readonly url: string; readonly reason: string }[]
}

/** In a checkout the CLI runs from scripts/cli; installed, from lib/cli.mjs: the data folder sits at the package's root. */
export function snapshotPath(): string {
  const up = import.meta.url.includes('/scripts/cli/') ? '../../' : '../'
  return fileURLToPath(new URL(`${up}data/ip-ranges-snapshot.json`, import.meta.url))
}

const DATE = /^\d{4}-\d{2}-\d{2}$/
const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string')

/** Checks a parsed snapshot's shape; a file edited by hand into another shape is an error that names the field. */
export function checkSnapshot(doc: unknown, where: string): IpRangesSnapshot {
  const bad = (field: string): never => {
    throw new CliError(`${where}: ${field} is not as robots-edge writes it; reinstall the package to restore the file`)
  }
  const d = (typeof doc === 'object' && doc !== null ? doc : {}) as Record<string, unknown>
  if (typeof d.snapshot !== 'string' || !DATE.test(d.snapshot)) bad('snapshot')
  const source = (typeof d.source === 'object' && d.source !== null ? d.source : {}) as Record<string, unknown>
  if (typeof source.repository !== 'string' || typeof source.commit !== 'string' || typeof source.license !== 'string') bad('source')
  if (!Array.isArray(d.lists)) bad('lists')
  const lists = (d.lists as unknown[]).map((item, i): SnapshotList => {
    const l = (typeof item === 'object' && item !== null ? item : {}) as Record<string, unknown>
    if (typeof l.url !== 'string' || typeof l.fetchedFrom !== 'string') bad(`lists[${i}].url`)
    if (typeof l.retrieved !== 'string' || !DATE.test(l.retrieved)) bad(`lists[${i}].retrieved`)
    if (!isStrings(l.entries)) bad(`lists[${i}].entries`)
    return { url: l.url as string, fetchedFrom: l.fetchedFrom as string, retrieved: l.retrieved as string, entries: l.entries as string[] }
  })
  const missing = Array.isArray(d.missing)
    ? d.missing.filter((m): m is { url: string; reason: string } => typeof m?.url === 'string' && typeof m?.reason === 'string')
    : []
  return { snapshot: d.snapshot as string, source: { repository: source.repository as string, commit: source.commit as string, license: source.license as string }, lists, missing }
}

/** Reads and checks the shipped snapshot. */
export function readSnapshot(path: string = snapshotPath()): IpRangesSnapshot {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    throw new CliError(`the IP-range snapshot could not be read (${path}): ${error instanceof Error ? error.message : String(error)}`)
  }
  let doc: unknown
  try {
    doc = JSON.parse(text)
  } catch {
    throw new CliError(`${path} is not JSON; reinstall the package to restore the file`)
  }
  return checkSnapshot(doc, path)
}
