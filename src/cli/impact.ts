import { resolveConfig, type ConfigInput } from '../core/config/index.ts'
import type { AgentImpact, EstimateFacts, ImpactDirection, ReplayResult, VerdictChange } from '../admin/impact.ts'
import { visible } from '../core/visible.ts'
import { CliError, UsageError } from './errors.ts'
import { count, printJson } from './format.ts'
import type { HistoryDocument } from './history.ts'
import { styleFor, type Io, type Style } from './io.ts'
import { readJson, withLedgerApi, type LedgerSourceOptions } from './ledger-api.ts'
import { policyFor } from './config.ts'

export type FailOn = 'protected' | 'none'

export interface ImpactCommandOptions extends LedgerSourceOptions {
  /** The candidate config (the working robots.config.ts, or --config). */
  readonly config: ConfigInput
  /** Where it came from, for the heading. */
  readonly configSource: string
  readonly since?: string | undefined
  readonly until?: string | undefined
  readonly host?: string | undefined
  readonly agent?: string | undefined
  readonly json?: boolean | undefined
  /** Default: `protected` when CI=true, else `none`. */
  readonly failOn?: string | undefined
}

/** POST /_robots/api/impact's answer (src/admin/impact-queries.ts's ImpactReport, restated: a Workers module). */
export type ImpactDocument = ReplayResult & {
  readonly days: { readonly since: number; readonly until: number }
  readonly hosts: readonly { readonly host: string; readonly before: string | null; readonly after: string | null }[]
  readonly estimate: EstimateFacts & { readonly exact: boolean }
  readonly rowsRead: number
  /** Agents beyond the most one answer lists (the summary counts them). */
  readonly omitted?: number
}

/** Hosts one request carries candidates for (src/admin/policy-routes.ts). */
const MAX_HOSTS = 200

const safe = (text: string | null | undefined) => (text === null || text === undefined || text === '' ? '-' : visible(text))
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10)
const num = (n: number) => n.toLocaleString('en-US')
const pct = (share: number) => `${(share * 100).toFixed(share > 0 && share < 0.001 ? 2 : 1)} %`

const percent = (part: number, whole: number) => `${((part / Math.max(1, whole)) * 100).toFixed(1)} %`

/** What the replay covers, in one sentence. */
export function describeEstimate(e: EstimateFacts, requests: number, daysSince: number): string {
  const parts: string[] = []
  if (e.beyondCap > 0)
    parts.push(`${num(e.beyondCap)} requests (${percent(e.beyondCap, requests)}) were recorded beyond ${num(e.shapeCap)} distinct paths per agent, host and day, before the ledger kept every path`)
  if (e.beyondRead > 0) parts.push(`${num(e.beyondRead)} requests (${percent(e.beyondRead, requests)}) were in the least requested shapes, beyond the ${num(e.maxShapes)} one replay reads`)
  const late = e.shapesSince > daysSince ? `request shapes are kept from ${new Date(e.shapesSince).toISOString().slice(0, 16).replace('T', ' ')} UTC on, so earlier requests are not in it` : ''
  const groups = (e.groups ?? 0) > 0 ? ` (${num(e.grouped ?? 0)} of them once per path group such as /articles/*, whose paths no rule of either file tells apart: ${num(e.groups ?? 0)} groups)` : ''
  if (parts.length === 0) return late === '' ? `exact: every request in the range was judged again${groups}` : `exact from then on${groups}: ${late}`
  return `an estimate: ${parts.join('; ')}, and were not judged again, so the counts of changed requests are lower bounds${late ? `; ${late}` : ''}`
}

function failOnOf(value: string | undefined, env: Readonly<Record<string, string | undefined>>): FailOn {
  const v = value ?? (env.CI === 'true' ? 'protected' : 'none')
  if (v !== 'protected' && v !== 'none') throw new UsageError(`--fail-on must be "protected" or "none", not ${JSON.stringify(v)}`)
  return v
}

/** The robots.txt the Worker would serve each recorded host from the candidate config; a config failing for a host is an error, never replayed as allow-all. */
function candidatesFor(o: ImpactCommandOptions, hosts: readonly string[]) {
  const env = o.env || 'production'
  const named = hosts.length > 0 ? hosts.slice(0, MAX_HOSTS) : ['localhost']
  const robotsTxt: Record<string, string> = {}
  for (const host of named) {
    const { policy, fallback } = policyFor(o.config, host, env)
    if (fallback !== undefined) throw new CliError(`${o.configSource} fails for ${host} (the Worker would serve allow-all): ${fallback}`)
    robotsTxt[host] = policy.text
  }
  // The lists are the config's own; the first host's resolution stands for all (they differ only in a config function that varies them per host).
  const { config } = resolveConfig(o.config, { host: named[0]!, env })
  return { robotsTxt, exempt: [...config.guard.exempt], protect: [...config.protect], left: hosts.length - named.length }
}

function ruleText(d: VerdictChange['before'], style: Style): string {
  if (d.group === null) return style.dim('no group applies (allowed)')
  const group = d.group === '*' ? 'group *' : `group ${safe(d.group)}`
  if (d.rule === null) return `${group}, no rule matches (allowed)`
  return `line ${d.rule.line} ${d.rule.type === 'allow' ? 'Allow' : 'Disallow'}: ${safe(d.rule.pattern)} (${group})`
}

function directionLines(label: string, dir: ImpactDirection, style: Style, paint: (s: string) => string): string[] {
  if (dir.requests === 0) return []
  const lines = [`  ${paint(label)}: ${count(dir.requests, 'request')} (${pct(dir.share)} of its traffic) to ${count(dir.paths, 'distinct path')}`]
  for (const c of dir.changes) {
    lines.push(`    ${safe(c.host)}: was ${ruleText(c.before, style)} [${c.before.version.slice(0, 8)}]`)
    lines.push(`    ${' '.repeat(visible(c.host).length)}  now ${ruleText(c.after, style)} [${c.after.version.slice(0, 8)}] · ${count(c.requests, 'request')}`)
    for (const p of c.paths) lines.push(`        ${safe(p.path)}  ${style.dim(`(${num(p.requests)})`)}`)
    if (c.pathCount > c.paths.length) lines.push(style.dim(`        … and ${num(c.pathCount - c.paths.length)} more paths`))
  }
  return lines
}

function agentLines(a: AgentImpact, style: Style): string[] {
  const who = [a.operator, a.category]
    .filter(Boolean)
    .map((s) => safe(s))
    .join(', ')
  const flag = a.protected && a.lost.requests > 0 ? ` ${style.red('PROTECTED, LOSES ACCESS')}` : a.protected ? ' · protected' : ''
  return [
    `${style.bold(safe(a.agentKey))}${who ? ` (${who})` : ''}${flag} · ${count(a.requests, 'request')}${a.replayed < a.requests ? `, ${num(a.replayed)} replayed` : ''}`,
    ...directionLines('newly disallowed', a.lost, style, style.red),
    ...directionLines('newly allowed', a.gained, style, style.yellow),
  ]
}

/** The replay as text: what was compared, the summary line, protected agents losing access, then each changed agent, worst first. */
export function printImpact(doc: ImpactDocument, source: string, configSource: string, io: Io): void {
  const style = styleFor(io)
  const s = doc.summary
  io.out(`${style.bold('Impact')} of ${safe(configSource)} · ${safe(source)} · ${day(doc.days.since)} to ${day(doc.days.until - 1)} UTC · compared with the robots.txt served now`)
  for (const h of doc.hosts)
    io.out(style.dim(`  ${safe(h.host)}: ${h.before?.slice(0, 8) ?? '(none stored)'} -> ${h.after?.slice(0, 8) ?? '(no candidate)'}${h.before !== null && h.before === h.after ? ' (unchanged)' : ''}`))
  io.out(
    `${s.changed} of ${count(s.agents, 'agent')} change · ${num(s.lost)} of ${num(s.requests)} requests newly disallowed, ${num(s.gained)} newly allowed · ${num(s.replayed)} requests replayed as ${count(s.shapes, 'distinct shape')}`,
  )
  io.out(style.dim(`Coverage: ${describeEstimate(doc.estimate, s.requests, doc.days.since)}.`))
  for (const skip of doc.skipped)
    io.out(
      style.yellow(
        `${num(skip.requests)} requests to ${safe(skip.host)} not replayed: ${skip.reason === 'no candidate' ? 'no candidate robots.txt for this host' : 'the robots.txt they were judged by is no longer stored'}.`,
      ),
    )
  if (s.protectedLosing.length > 0) io.out(style.red(`Protected agents would lose access to paths they crawled: ${s.protectedLosing.map(safe).join(', ')}.`))
  io.out('')
  const changed = doc.agents.filter((a) => a.lost.requests > 0 || a.gained.requests > 0)
  if (changed.length === 0) io.out('No recorded request changes verdict.')
  for (const a of changed) {
    for (const line of agentLines(a, style)) io.out(line)
    io.out('')
  }
  const unchanged = s.agents - changed.length
  if (unchanged > 0) io.out(style.dim(`${count(unchanged, 'other agent')} keep every verdict.`))
  if ((doc.omitted ?? 0) > 0) io.out(style.yellow(`${num(doc.omitted ?? 0)} agents not listed (the least affected; the summary counts them).`))
}

/**
 * `impact`: replays the recorded crawler traffic (local D1, or a Worker with
 * --remote) against the robots.txt the candidate config renders for each
 * recorded host, and says who gains or loses access to what, by which rule.
 * Exit 1 when `--fail-on protected` (the default when CI=true) and a
 * protected agent loses access to a path it crawled.
 */
export async function impact(o: ImpactCommandOptions, io: Io): Promise<number> {
  const failOn = failOnOf(o.failOn, io.env ?? process.env)
  const query = new URLSearchParams()
  for (const name of ['since', 'until', 'host', 'agent'] as const) if (o[name]) query.set(name, o[name]!)
  const { doc, source, left } = await withLedgerApi(o, '--remote', io, async (api) => {
    const history = await readJson<HistoryDocument>(await api.call(`/history${o.host ? `?host=${encodeURIComponent(o.host)}` : ''}`), api.source)
    const { left, ...body } = candidatesFor(
      o,
      history.hosts.map((h) => h.host),
    )
    const doc = await readJson<ImpactDocument>(await api.call(`/impact?${query}`, { method: 'POST', body: JSON.stringify(body) }), api.source)
    return { doc, source: api.source, left }
  })
  const failed = failOn === 'protected' && doc.summary.protectedLosing.length > 0
  if (o.json) printJson(io, { ...doc, failOn, exitCode: failed ? 1 : 0 })
  else {
    printImpact(doc, source, o.configSource, io)
    if (left > 0) io.out(styleFor(io).yellow(`${num(left)} more hosts are recorded than one replay takes (${MAX_HOSTS}): use --host for them.`))
    if (failed) io.err(`robots-edge: ${count(doc.summary.protectedLosing.length, 'protected agent')} would lose access (--fail-on protected).`)
  }
  return failed ? 1 : 0
}
