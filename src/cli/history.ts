import { diffHunks, diffLines } from '../core/line-diff.ts'
import { visible } from '../core/visible.ts'
import { CliError, UsageError } from './errors.ts'
import { columns, count, printJson } from './format.ts'
import { styleFor, type Io } from './io.ts'
import { readJson, withLedgerApi, type LedgerApi, type LedgerSourceOptions } from './ledger-api.ts'

/** GET /_robots/api/history's answer (src/admin/history.ts's History, restated: a Workers module). */
export interface HistoryDocument {
  readonly hosts: readonly {
    readonly host: string
    readonly versions: readonly {
      readonly hash: string
      readonly firstServed: number
      readonly lastUsed: number | null
      readonly deployment: { readonly id: string; readonly tag: string | null } | null
      readonly current: boolean
      readonly rulesChanged: boolean | null
      readonly lines: number
      readonly characters: number
    }[]
  }[]
  readonly truncated: boolean
}

/** GET /_robots/api/history/version's answer. */
interface VersionDocument {
  readonly host: string
  readonly text: string
  readonly previous: { readonly hash: string; readonly text: string } | null
}

export interface HistoryOptions extends LedgerSourceOptions {
  readonly host?: string | undefined
  readonly json?: boolean | undefined
}

/** Hash characters `history` shows, and the fewest a version may be named by. */
const SHOWN = 12
const MIN_PREFIX = 4

const when = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace('T', ' ')
const hostQuery = (host: string | undefined) => (host ? `?host=${encodeURIComponent(host)}` : '')

const readHistory = async (api: LedgerApi, host: string | undefined) => readJson<HistoryDocument>(await api.call(`/history${hostQuery(host)}`), api.source)

/** `history`: every stored version of each host's robots.txt, oldest first, with when and by which deployment it was first served. */
export async function history(o: HistoryOptions, io: Io): Promise<number> {
  const { doc, source } = await withLedgerApi(o, '--url', io, async (api) => ({ doc: await readHistory(api, o.host), source: api.source }))
  if (o.json) {
    printJson(io, doc)
    return 0
  }
  const style = styleFor(io)
  io.out(`${style.bold('robots.txt history')} · ${visible(source)}`)
  if (doc.hosts.length === 0) io.out('No robots.txt version is stored yet: the Worker stores each one the first time it serves it.')
  for (const h of doc.hosts) {
    io.out('')
    io.out(style.bold(visible(h.host)))
    // The oldest listed is the host's first, as the dashboard labels it (its rules changed from none).
    const rows = h.versions.map((v, index) => [
      v.hash.slice(0, SHOWN),
      when(v.firstServed),
      v.lastUsed === null ? '-' : new Date(v.lastUsed).toISOString().slice(0, 10),
      v.deployment === null ? '-' : visible(v.deployment.tag ?? v.deployment.id.slice(0, 8)),
      String(v.lines),
      v.rulesChanged === null ? '?' : v.rulesChanged ? (index === 0 ? 'first version' : 'rules changed') : 'same rules',
      v.current ? style.green('served now') : '',
    ])
    for (const line of columns([['Version', 'First served', 'Last used (day)', 'Deployment', 'Lines', 'Change', ''], ...rows], '  ')) io.out(line)
  }
  if (doc.truncated) io.out(style.yellow('Older versions are not listed (the most one answer lists); use --host for one host.'))
  return 0
}

/** The one stored version a prefix names, or a clear error: unknown, or ambiguous (with the candidates). */
function resolveVersion(doc: HistoryDocument, prefix: string, host: string | undefined): { host: string; hash: string } {
  if (!/^[0-9a-f]+$/i.test(prefix)) throw new UsageError(`"${visible(prefix)}" is not a version: a version is a hex hash prefix (0-9, a-f), as \`history\` lists them`)
  if (prefix.length < MIN_PREFIX) throw new UsageError(`"${visible(prefix)}" is too short: give at least ${MIN_PREFIX} characters of its hash, as \`history\` lists them`)
  const found = doc.hosts.flatMap((h) => h.versions.filter((v) => v.hash.startsWith(prefix.toLowerCase())).map((v) => ({ host: h.host, hash: v.hash })))
  if (found.length === 0) throw new CliError(`no stored version${host ? ` of ${visible(host)}'s robots.txt` : ''} starts with ${prefix}: run \`history\` for the list`)
  // The same file served on several hosts is one version.
  if (new Set(found.map((f) => f.hash)).size > 1) {
    const list = found
      .slice(0, 10)
      .map((f) => `${f.hash.slice(0, SHOWN)} (${visible(f.host)})`)
      .join(', ')
    throw new CliError(`${prefix} names ${found.length} versions: ${list}. Give more of the hash.`)
  }
  return found[0]!
}

export interface DiffOptions extends HistoryOptions {
  readonly from: string
  /** Default: compare `from` with the version before it. */
  readonly to?: string | undefined
}

/** `diff <from> [<to>]`: the line diff of two stored versions (by hash prefix), or of one version against the version before it. */
export async function diff(o: DiffOptions, io: Io): Promise<number> {
  const { before, after, names } = await withLedgerApi(o, '--url', io, async (api) => {
    const doc = await readHistory(api, o.host)
    const text = async (v: { host: string; hash: string }) => readJson<VersionDocument>(await api.call(`/history/version?host=${encodeURIComponent(v.host)}&version=${v.hash}`), api.source)
    const from = resolveVersion(doc, o.from, o.host)
    if (o.to === undefined) {
      const one = await text(from)
      if (one.previous === null) throw new CliError(`${from.hash.slice(0, SHOWN)} is the first version of ${visible(from.host)}'s robots.txt stored: nothing to compare it with`)
      return { before: one.previous.text, after: one.text, names: [`${one.previous.hash.slice(0, SHOWN)} (${from.host})`, `${from.hash.slice(0, SHOWN)} (${from.host})`] }
    }
    const to = resolveVersion(doc, o.to, o.host)
    const [a, b] = await Promise.all([text(from), text(to)])
    return { before: a.text, after: b.text, names: [`${from.hash.slice(0, SHOWN)} (${from.host})`, `${to.hash.slice(0, SHOWN)} (${to.host})`] }
  })
  const lines = diffLines(before, after)
  if (o.json) {
    printJson(io, { from: names[0], to: names[1], lines })
    return 0
  }
  const style = styleFor(io)
  io.out(style.bold(`--- ${visible(names[0]!)}`))
  io.out(style.bold(`+++ ${visible(names[1]!)}`))
  const hunks = diffHunks(lines)
  if (hunks.length === 0) io.out('The two versions have the same lines.')
  for (const hunk of hunks) {
    const at = (side: 'before' | 'after') => hunk.find((l) => l[side] !== null)?.[side] ?? '-'
    io.out(style.cyan(`@@ line ${at('before')} -> line ${at('after')} @@`))
    for (const line of hunk) {
      const text = visible(line.text)
      io.out(line.kind === 'same' ? `  ${text}` : line.kind === 'removed' ? style.red(`- ${text}`) : style.green(`+ ${text}`))
    }
  }
  const removed = lines.filter((l) => l.kind === 'removed').length
  const added = lines.filter((l) => l.kind === 'added').length
  if (hunks.length > 0) io.out(style.dim(`${count(removed, 'line')} removed, ${count(added, 'line')} added`))
  return 0
}
