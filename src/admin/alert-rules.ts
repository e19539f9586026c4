/**
 * When the cron posts an alert, pure: what the ledger shows now, and what
 * the last run stored of each condition (`alert_state`), in; the messages
 * to post and the states to store, out. A condition is posted once, when
 * it starts to hold, and again only once it has changed. src/admin/alerts.ts
 * reads the ledger and posts.
 */
import type { ResolvedAlerts } from '../core/config/alerts.ts'
import { visible } from '../core/visible.ts'
import { REPORT_BASE } from '../core/report-base.ts'
import type { AgentReport, Report } from './types.ts'

/** The window the verdicts and new clients are judged over, as the dashboard's default. */
export const ALERT_WINDOW_MS = 7 * 86_400_000

/** What an alert is about, the message's `kind`. */
export type AlertKind = 'ignores-robots-txt' | 'ignores-crawl-delay' | 'new-client' | 'events-lost' | 'spoof-grows'

/** The JSON posted: `text` for Slack, `content` for Discord, and the same facts as fields. */
export interface AlertMessage {
  readonly text: string
  readonly content: string
  /** Discord: an agent's name is never a mention (`@everyone`), whatever it says. */
  readonly allowed_mentions: { readonly parse: readonly never[] }
  readonly robotsEdge: 'alert'
  readonly kind: AlertKind
  /** The agent key (registry id, else its own product token); null for lost events. */
  readonly agent: string | null
  readonly operator: string | null
  /** The host it concerns; null when over every host. */
  readonly host: string | null
  readonly counts: Readonly<Record<string, number>>
  /** The dashboard's path for what the alert is about (under /_robots/, behind the admin token). */
  readonly report: string
  /** When the cron found it, ms since the epoch. */
  readonly time: number
}

/** A condition's state, as `alert_state` keeps it. */
export interface StoredState {
  readonly state: string
  readonly checkedAt: number
}

/** What a run decides: the messages to queue, and the rows of `alert_state` to write (with the time they were last confirmed). */
export interface AlertPlan {
  readonly messages: { readonly key: string; readonly message: AlertMessage }[]
  readonly states: { readonly key: string; readonly state: string; readonly changed: boolean }[]
}

/** An unidentified client: no registry id, named by its own token; first seen at `firstSeen`. */
export interface NewClientRow {
  readonly agentKey: string
  readonly kind: string | null
  readonly firstSeen: number
}

/** One ledger_losses row: an isolate's count of events it could not store. */
export interface LossRow {
  readonly id: string
  readonly from: number
  readonly to: number
  readonly events: number
}

/** Spoofed requests claiming one agent in one hour (counts_hourly, verification 'spoofed'). */
export interface SpoofHour {
  readonly agentKey: string
  readonly operator: string | null
  readonly hour: number
  readonly requests: number
}

/** Everything the rules read. */
export interface AlertInput {
  readonly now: number
  readonly settings: ResolvedAlerts
  /** The report over the last ALERT_WINDOW_MS. */
  readonly report: Pick<Report, 'agents' | 'tools'>
  readonly newClients: readonly NewClientRow[]
  readonly losses: readonly LossRow[]
  readonly spoofHours: readonly SpoofHour[]
  readonly stored: ReadonlyMap<string, StoredState>
}

/** The agent's Crawl-delay verdict line ("ignores Crawl-delay (41% of requests early)") when it ignores its delay, else null. */
export function crawlDelayVerdict(agent: AgentReport): string | null {
  const evidence = agent.crawlDelay
  return evidence?.verdict === 'ignores Crawl-delay' ? evidence.reason : null
}

/**
 * Agent-controlled text (a self-named client's token, a path) as a message
 * may carry it: hidden characters shown as escapes (src/core/visible.ts),
 * and Slack's control characters (`<`, `>`, `&`: links and mentions such as
 * `<!channel>`) escaped as Slack asks.
 */
export function safeText(text: string): string {
  return visible(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}

const number = (n: number) => n.toLocaleString('en-US')
const utc = (ms: number) => `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`
const agentLink = (key: string) => `${REPORT_BASE}/?agent=${encodeURIComponent(key)}&since=7d`
/** Slack's and Discord's limits are 40,000 and 2,000 characters: one line never comes near, but a hostile name must not make it. */
const MAX_TEXT = 1_900

function message(now: number, fields: Omit<AlertMessage, 'text' | 'content' | 'allowed_mentions' | 'robotsEdge' | 'time'> & { line: string }): AlertMessage {
  const { line, ...rest } = fields
  const full = `robots-edge: ${line} (${rest.report})`
  const text = full.length > MAX_TEXT ? `${full.slice(0, MAX_TEXT - 1)}…` : full
  return { text, content: text, allowed_mentions: { parse: [] }, robotsEdge: 'alert', ...rest, time: now }
}

const who = (agent: { agentKey: string; operator: string | null }) => `${safeText(agent.agentKey)}${agent.operator ? ` (${safeText(agent.operator)})` : ''}`

/** How often a condition that still holds as stored is written again, so retention does not prune it: once a day. */
export const CONFIRM_EVERY_MS = 86_400_000

/**
 * The alerts of one run. Per condition:
 * - verdicts (`verdict:` and `crawlDelay:` keys): posted when an agent's
 *   verdict becomes "ignores …" from anything else, or from nothing stored;
 *   a later verdict is stored, so ignoring again posts again;
 * - a new unidentified client (`newClient:`): posted once, when first found
 *   over `newClientRequests` within its first ALERT_WINDOW_MS;
 * - lost events (`loss:<id>` per ledger_losses row): one message for all
 *   rows that are new or grew since the last run, with the events added;
 * - spoofed claims (`spoof:`): posted when the spoofed requests claiming an
 *   agent since the last message about it (or over the window) reach
 *   `spoofedRequests`; the state is the hour of that message and what it had counted in it.
 */
export function planAlerts(input: AlertInput): AlertPlan {
  const { now, settings, stored } = input
  const messages: { key: string; message: AlertMessage }[] = []
  const states: { key: string; state: string; changed: boolean }[] = []
  /** Stores `state` for `key`; true when it differs from what was stored. */
  const note = (key: string, state: string, writeIfAbsent: boolean): boolean => {
    const before = stored.get(key)
    if (before === undefined) {
      if (writeIfAbsent) states.push({ key, state, changed: true })
      return true
    }
    if (before.state !== state) states.push({ key, state, changed: true })
    else if (now - before.checkedAt >= CONFIRM_EVERY_MS) states.push({ key, state, changed: false })
    return before.state !== state
  }

  for (const agent of input.report.agents) {
    const ignoring = agent.verdict === 'ignores robots.txt'
    if (note(`verdict:${agent.agentKey}`, agent.verdict, ignoring) && ignoring) {
      messages.push({
        key: `verdict:${agent.agentKey}`,
        message: message(now, {
          kind: 'ignores-robots-txt',
          agent: agent.agentKey,
          operator: agent.operator,
          host: null,
          counts: { requests: agent.evidence.requests, violations: agent.evidence.violations.counted, robotsFetches: agent.evidence.robotsFetches },
          report: agentLink(agent.agentKey),
          line: `${who(agent)} now ignores robots.txt: ${safeText(agent.reason)}, in the last 7 days`,
        }),
      })
    }
    const delay = crawlDelayVerdict(agent)
    const key = `crawlDelay:${agent.agentKey}`
    const evidence = agent.crawlDelay
    if (note(key, delay === null ? 'keeps it' : 'ignores Crawl-delay', delay !== null) && delay !== null && evidence) {
      const counts = { seconds: evidence.seconds, requests: evidence.requests, early: evidence.early }
      messages.push({
        key,
        message: message(now, {
          kind: 'ignores-crawl-delay',
          agent: agent.agentKey,
          operator: agent.operator,
          host: null,
          counts,
          report: agentLink(agent.agentKey),
          line: `${who(agent)} ${safeText(delay)}`,
        }),
      })
    }
  }

  const judged = new Map([...input.report.agents, ...input.report.tools].map((a) => [a.agentKey, a]))
  for (const client of input.newClients) {
    const agent = judged.get(client.agentKey)
    const requests = agent?.evidence.requests ?? 0
    const key = `newClient:${client.agentKey}`
    if (requests < settings.newClientRequests || now - client.firstSeen > ALERT_WINDOW_MS || stored.has(key)) continue
    note(key, 'over', true)
    messages.push({
      key,
      message: message(now, {
        kind: 'new-client',
        agent: client.agentKey,
        operator: null,
        host: null,
        counts: { requests, threshold: settings.newClientRequests, violations: agent?.evidence.violations.counted ?? 0 },
        report: agentLink(client.agentKey),
        line: `a new automated client the registry does not know, "${safeText(client.agentKey)}" (${client.kind === 'tool' ? 'a tool' : 'a crawler'}), made ${number(requests)} requests since it was first seen at ${utc(client.firstSeen)}`,
      }),
    })
  }

  let lostEvents = 0
  let from = Infinity
  let to = -Infinity
  for (const loss of input.losses) {
    const before = Number(stored.get(`loss:${loss.id}`)?.state ?? 0)
    note(`loss:${loss.id}`, String(loss.events), true)
    if (loss.events <= before) continue
    lostEvents += loss.events - before
    from = Math.min(from, loss.from)
    to = Math.max(to, loss.to)
  }
  if (lostEvents > 0) {
    messages.push({
      key: 'losses',
      message: message(now, {
        kind: 'events-lost',
        agent: null,
        operator: null,
        host: null,
        counts: { events: lostEvents, from, to },
        report: `${REPORT_BASE}/?since=7d`,
        line: `${number(lostEvents)} events could not be stored between ${utc(from)} and ${utc(to)}; they are counted, not judged`,
      }),
    })
  }

  const byAgent = new Map<string, SpoofHour[]>()
  for (const row of input.spoofHours) byAgent.set(row.agentKey, [...(byAgent.get(row.agentKey) ?? []), row])
  const hourNow = Math.floor(now / 3_600_000) * 3_600_000
  for (const [agentKey, hours] of byAgent) {
    const key = `spoof:${agentKey}`
    const kept = stored.get(key)
    // A message older than the window: its hour is no longer read, so everything read has come since.
    const last = [parseSpoofState(kept?.state)].find((s) => s !== undefined && s.since >= now - ALERT_WINDOW_MS)
    const since = last?.since ?? now - ALERT_WINDOW_MS
    const total = hours.filter((h) => h.hour >= since).reduce((n, h) => n + h.requests, 0)
    const grown = total - (last?.base ?? 0)
    if (grown < settings.spoofedRequests) {
      if (kept !== undefined) note(key, kept.state, false)
      continue
    }
    const base = hours.filter((h) => h.hour >= hourNow).reduce((n, h) => n + h.requests, 0)
    note(key, JSON.stringify({ since: hourNow, base }), true)
    const operator = hours[0]?.operator ?? null
    messages.push({
      key,
      message: message(now, {
        kind: 'spoof-grows',
        agent: agentKey,
        operator,
        host: null,
        counts: { requests: grown, threshold: settings.spoofedRequests },
        report: `${REPORT_BASE}/?since=7d#spoofed`,
        line: `${number(grown)} more requests claimed to be ${who({ agentKey, operator })} and failed verification${last ? ` since ${utc(last.since)}` : ' in the last 7 days'}`,
      }),
    })
  }
  return { messages, states }
}

function parseSpoofState(state: string | undefined): { since: number; base: number } | undefined {
  if (state === undefined) return undefined
  try {
    const s = JSON.parse(state) as { since?: unknown; base?: unknown }
    return typeof s.since === 'number' && typeof s.base === 'number' ? { since: s.since, base: s.base } : undefined
  } catch {
    return undefined
  }
}
