import { parseArgs } from 'node:util'
import { commands as defaultCommands, type Command, type OptionName } from './commands.ts'
import { reportFailure, UsageError } from './errors.ts'
import { columns } from './format.ts'
import type { Io } from './io.ts'

const PROGRAM = 'robots-edge'

const OPTIONS = {
  host: { type: 'string' },
  env: { type: 'string' },
  config: { type: 'string' },
  json: { type: 'boolean', default: false },
  since: { type: 'string' },
  until: { type: 'string' },
  agent: { type: 'string' },
  category: { type: 'string' },
  url: { type: 'string' },
  // A string: `impact --remote URL`. A bare `--remote` (report's `--url URL --remote`) reads as '' (bareRemote).
  remote: { type: 'string' },
  'fail-on': { type: 'string' },
  fix: { type: 'boolean' },
  snapshot: { type: 'boolean' },
  'snapshot-file': { type: 'string' },
  yes: { type: 'boolean' },
  dir: { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
} as const

const OPTION_HELP: Record<OptionName | 'help', [string, string]> = {
  host: ['--host <host>', 'the request host'],
  env: ['--env <env>', 'the deployment environment, ROBOTS_ENV (default: production)'],
  config: ['--config <file>', 'the config module (default: ./robots.config.ts)'],
  json: ['--json', 'print one JSON document instead of text'],
  since: ['--since <time>', 'start of the range: 7d, 24h, an ISO date-time or ms (default: 7d)'],
  until: ['--until <time>', 'end of the range, in the same forms (default: now)'],
  agent: ['--agent <key>', 'one agent only (its registry id or product token, e.g. gptbot)'],
  category: ['--category <name>', 'one category only, e.g. "AI Crawler"'],
  url: ['--url <url>', 'read the report API of a running Worker (token in ROBOTS_ADMIN_TOKEN)'],
  remote: ['--remote <url>', 'read the deployed Worker at this URL (token in ROBOTS_ADMIN_TOKEN) instead of the local D1'],
  'fail-on': ['--fail-on <what>', 'protected: exit 1 when a protected agent loses access; none: never (default: protected when CI=true)'],
  fix: ['--fix', 'rewrite the file in the order every reader agrees on (same RFC 9309 meaning)'],
  snapshot: ['--snapshot', "load the dated snapshot, without trying the operators' URLs (for machines without internet)"],
  'snapshot-file': ['--snapshot-file <file>', 'the snapshot to use (default: the one the package ships, if any; write one with npm run ranges:snapshot)'],
  yes: ['--yes', 'make the changes without asking (the default without a terminal)'],
  dir: ['--dir <dir>', "the project's folder (default: the working directory)"],
  help: ['-h, --help', 'show this help'],
}

function usage(commands: Readonly<Record<string, Command>>): string[] {
  const names = Object.keys(commands)
  return [
    `Usage: ${PROGRAM} <command> [options]`,
    '',
    'Commands:',
    ...columns(
      names.map((name) => [name, commands[name]!.summary]),
      '  ',
    ),
    '',
    'Options:',
    ...columns(
      (['config', 'json', 'help'] as const).map((o) => OPTION_HELP[o]),
      '  ',
    ),
    '',
    `Run "${PROGRAM} <command> --help" for a command's arguments.`,
  ]
}

/** --host means the request's host for the commands that judge one request, and a filter for those that read the ledger. */
const HOST_HELP: Readonly<Record<string, string>> = {
  print: 'the request host (default: localhost)',
  check: "the request host (default: the URL's host, else localhost)",
  verify: "the host whose rules are expected (default: the URL's host)",
}

/** A command's options as its help lists them: --url is listed as an alias where --remote names the Worker. */
function optionHelp(name: string, command: Command): [string, string][] {
  const remoteFirst = command.options.includes('remote') && !command.usage.includes('--url')
  return [...command.options, 'help' as const].flatMap((o): [string, string][] => {
    if (o === 'host') return [[OPTION_HELP.host[0], HOST_HELP[name] ?? 'one host only (default: every recorded host)']]
    if (remoteFirst && o === 'url') return []
    if (remoteFirst && o === 'remote') return [[OPTION_HELP.remote[0], `${OPTION_HELP.remote[1]}; --url <url> is an alias`]]
    return [OPTION_HELP[o]]
  })
}

function commandUsage(name: string, command: Command): string[] {
  return [`Usage: ${PROGRAM} ${name}${command.usage ? ` ${command.usage}` : ''} [options]`, '', command.summary, '', 'Options:', ...columns(optionHelp(name, command), '  ')]
}

/** `--remote` followed by nothing or by another option is the flag report has always taken: given as `--remote=`. */
function bareRemote(argv: readonly string[]): string[] {
  return argv.map((arg, i) => (arg === '--remote' && (i === argv.length - 1 || argv[i + 1]!.startsWith('-')) ? '--remote=' : arg))
}

function usageError(message: string, lines: string[], io: Io): number {
  io.err(`${PROGRAM}: ${message}`)
  io.err('')
  for (const line of lines) io.err(line)
  return 2
}

/**
 * Parses argv and runs one command. Exit codes: 0 done, 1 the config or the
 * file has errors (or could not be loaded), 2 wrong arguments; `verify`
 * exits 1 when the live site differs and 2 when it cannot be reached.
 */
export async function run(argv: readonly string[], io: Io, commands: Readonly<Record<string, Command>> = defaultCommands): Promise<number> {
  let parsed: ReturnType<typeof parseArgs<{ args: string[]; options: typeof OPTIONS; allowPositionals: true; strict: true }>>
  try {
    parsed = parseArgs({ args: bareRemote(argv), options: OPTIONS, allowPositionals: true, strict: true })
  } catch (error) {
    return usageError((error as Error).message, usage(commands), io)
  }
  const { values } = parsed
  const [first, ...rest] = parsed.positionals
  const helpWanted = values.help || first === 'help'
  const name = first === 'help' ? rest[0] : first
  const command = name === undefined || !Object.hasOwn(commands, name) ? undefined : commands[name]
  if (helpWanted) {
    for (const line of command === undefined || name === undefined ? usage(commands) : commandUsage(name, command)) io.out(line)
    return 0
  }
  if (name === undefined) return usageError('no command given.', usage(commands), io)
  if (command === undefined) return usageError(`unknown command "${name}".`, usage(commands), io)

  const [min, max] = command.positionals
  if (rest.length < min) return usageError(`${name} needs ${command.usage.split(' [')[0]}.`, commandUsage(name, command), io)
  if (rest.length > max)
    return usageError(`${name} takes ${max === 0 ? 'no arguments' : `at most ${max} argument${max === 1 ? '' : 's'}`}; got "${rest.slice(max).join(' ')}".`, commandUsage(name, command), io)
  for (const option of ['host', 'env', 'config', 'since', 'until', 'agent', 'category', 'url', 'remote', 'fail-on', 'snapshot-file', 'dir'] as const) {
    if (values[option] !== undefined && !command.options.includes(option)) return usageError(`${name} takes no --${option}.`, commandUsage(name, command), io)
  }
  for (const flag of ['fix', 'snapshot', 'yes'] as const) {
    if (values[flag] && !command.options.includes(flag)) return usageError(`${name} takes no --${flag}.`, commandUsage(name, command), io)
  }

  try {
    const { host, env, config, json, since, until, agent, category, url, remote, fix, snapshot, 'snapshot-file': snapshotFile, 'fail-on': failOn, yes, dir } = values
    return await command.run({ positionals: rest, values: { host, env, config, json, since, until, agent, category, url, remote, fix, snapshot, snapshotFile, failOn, yes, dir } }, io)
  } catch (error) {
    if (error instanceof UsageError) return usageError(error.message, commandUsage(name, command), io)
    return reportFailure(error, io, values.json)
  }
}
