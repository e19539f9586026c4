import { identifyAgent, type AgentIdentity } from '../core/agents/index.ts'
import { DEFAULTS, type ConfigInput, type GuardMode, type Policy } from '../core/config/index.ts'
import { decide, declaredBot, selectTokens } from '../core/judge/judge.ts'
import { visible } from '../core/visible.ts'
import type { Verdict } from '../core/robots/index.ts'
import { normalizeHost, policyFor } from './config.ts'
import { UsageError } from './errors.ts'
import { columns, printJson } from './format.ts'
import { styleFor, type Io } from './io.ts'

export interface CheckOptions {
  readonly config: ConfigInput
  /** A product token (`GPTBot`) or a whole User-Agent header. */
  readonly agent: string
  /** An absolute URL, or a path starting with `/`. */
  readonly target: string
  /** Default: the URL's host, else `localhost`. */
  readonly host?: string | undefined
  /** Default: `production`. */
  readonly env?: string | undefined
  readonly json?: boolean | undefined
}

const BARE_TOKEN = /^[A-Za-z_-]+$/
const SCHEME = /^[a-z][a-z0-9+.-]*:/i

/** How the agent was recognised: by identifyAgent, as a bot the config declares (as the guard does), or as the bare token given. */
export type Recognition = 'identified' | 'declared' | 'token'

/**
 * Who the agent is, exactly as the guard decides (identifyAgent, then
 * declaredBot); then a bare token the registry does not know is taken for a
 * crawler of that name, since that is what the user asked about. Null is a
 * person's browser.
 */
export function identify(agent: string, policy: Policy): { identity: AgentIdentity; recognition: Recognition } | null {
  const identified = identifyAgent(agent)
  // An unidentified client (`AgentIdentity.unidentified`) that is a bare token is what the user asked about by name.
  if (identified !== null && (identified.unidentified !== true || !BARE_TOKEN.test(agent))) return { identity: identified, recognition: 'identified' }
  const declared = declaredBot(agent, policy)
  if (declared !== null) return { identity: declared, recognition: 'declared' }
  if (!BARE_TOKEN.test(agent)) return null
  const token = agent.toLowerCase()
  return { identity: { tokens: [token], kind: 'bot', obeysRobotsTxt: true, names: [token] }, recognition: 'token' }
}

/** The host and the path and query the Worker would see for this URL or path. */
export function requestOf(target: string, host: string | undefined): { host: string; path: string } {
  const isPath = target.startsWith('/') && !target.startsWith('//')
  if (!isPath && !SCHEME.test(target) && !target.startsWith('//')) {
    throw new UsageError(`"${target}" is neither a URL nor a path: write https://example.com/page or /page.`)
  }
  let url: URL
  try {
    // Parsed as the runtime parses a request URL, so dot segments and
    // unencoded characters reach the matcher as they would in the Worker.
    url = isPath ? new URL(target, 'http://localhost') : new URL(target.startsWith('//') ? `http:${target}` : target)
  } catch {
    throw new UsageError(`"${target}" is not a valid URL.`)
  }
  return { host: normalizeHost(host ?? (isPath ? 'localhost' : url.hostname)), path: url.pathname + url.search }
}

/** What botGuard would do with the request. */
function guardOutcome(mode: GuardMode, verdict: Verdict, policy: Policy, path: string, recognition: Recognition): string {
  if (path === '/robots.txt') return 'never judged: /robots.txt is served to every agent'
  let outcome: string
  if (mode === 'off') outcome = 'off: not enforced'
  else if (mode === 'log') outcome = `log: let through${verdict.allowed ? '' : ', recorded as disallowed'}`
  else outcome = verdict.allowed ? 'block: let through' : `block: refused with ${policy.config.guard.status}`
  // The guard judges headers it recognises; a bare unknown token is not one.
  return recognition === 'token' ? `${outcome} (once the guard recognises the crawler; a header of just this token passes unjudged)` : outcome
}

const RECOGNITION: Record<Recognition, string | undefined> = {
  identified: undefined,
  declared: 'not in the registry; a group in the config names it',
  token: 'not in the registry; judged by the token given',
}

function describe(identity: AgentIdentity, recognition: Recognition): string {
  const parts = [identity.operator, identity.category ?? (identity.kind === 'tool' ? 'tool' : undefined), identity.id ? `id ${identity.id}` : undefined]
  if (recognition === 'identified' && identity.operator === undefined) parts.push('an unknown bot')
  parts.push(RECOGNITION[recognition])
  parts.push(identity.obeysRobotsTxt ? 'reads robots.txt' : 'does not apply robots.txt')
  return parts.filter((p) => p !== undefined).join(' · ')
}

/**
 * `check`: the verdict for one agent and URL, decided by the guard's own
 * judge() on the policy the Worker would build, with the group and the line
 * of the served file that decided it.
 */
export function check(options: CheckOptions, io: Io): number {
  const style = styleFor(io)
  const { host, path } = requestOf(options.target, options.host)
  const env = options.env || DEFAULTS.env
  const { policy, fallback } = policyFor(options.config, host, env)
  if (fallback !== undefined && !options.json) io.err(fallback)
  const recognised = identify(options.agent, policy)
  if (recognised === null) {
    if (options.json) printJson(io, { ok: true, agent: options.agent, browser: true, identity: null, host, env, path, verdict: null })
    else
      for (const line of columns([
        [style.dim('Agent'), visible(options.agent)],
        [style.dim('Verdict'), `${style.bold("a person's browser")}: never judged`],
      ]))
        io.out(line)
    return 0
  }
  const { identity, recognition } = recognised
  const selection = selectTokens(identity, policy)
  // The guard's own decision: on staging and previews the mode is the config group's.
  const { verdict, mode } = decide(policy, identity, path)
  const lineText = verdict.rule === null ? undefined : policy.text.split('\n')[verdict.rule.line - 1]

  if (options.json) {
    printJson(io, {
      ok: true,
      agent: options.agent,
      browser: false,
      identity: {
        kind: identity.kind,
        id: identity.id ?? null,
        operator: identity.operator ?? null,
        category: identity.category ?? null,
        tokens: identity.tokens,
        obeysRobotsTxt: identity.obeysRobotsTxt,
        recognition,
      },
      judgedBy: { tokens: selection.tokens, wildcard: selection.wildcard },
      host,
      env,
      path,
      version: policy.version,
      verdict: { allowed: verdict.allowed, group: verdict.group, rule: verdict.rule === null ? null : { ...verdict.rule, text: lineText ?? null } },
      guard: { mode, outcome: guardOutcome(mode, verdict, policy, path, recognition) },
      ...(fallback === undefined ? {} : { fallback }),
    })
    return 0
  }

  const tokens = selection.tokens.length > 0 ? visible(selection.tokens.join(', ')) : 'none'
  const wildcard = selection.wildcard ? ', then the * group' : ' (never the * group)'
  const rows: string[][] = [
    // A header pasted from a log may carry invisible or bidi characters: shown as escapes.
    ['Agent', visible(options.agent)],
    ['Identity', describe(identity, recognition)],
    ['Judged by', tokens + wildcard],
    ['Host', `${host} · ${env}${policy.config.indexable ? '' : ' (not indexable: everything is disallowed)'}`],
    ['Path', path],
    ['Verdict', verdict.allowed ? style.bold(style.green('allowed')) : style.bold(style.red('disallowed'))],
    ['Group', verdict.group === null ? 'none: no group for this agent, so nothing is disallowed' : verdict.group],
    [
      'Rule',
      verdict.group === null ? '-' : verdict.rule === null ? 'no rule matched' : `${verdict.rule.type} ${verdict.rule.pattern === '' ? '(empty)' : verdict.rule.pattern} · line ${verdict.rule.line}`,
    ],
    ['Guard', guardOutcome(mode, verdict, policy, path, recognition)],
  ]
  for (const line of columns(rows.map(([label, value]) => [style.dim(label!), value!]))) io.out(line)
  if (verdict.rule !== null && lineText !== undefined) {
    io.out('')
    io.out(`  ${style.dim(`${verdict.rule.line} │`)} ${lineText}`)
  }
  return 0
}
