import { check } from './check.ts'
import { loadConfig } from './config.ts'
import { UsageError } from './errors.ts'
import { diff, history } from './history.ts'
import { impact } from './impact.ts'
import { init } from './init.ts'
import type { Io } from './io.ts'
import { lint } from './lint.ts'
import { print } from './print.ts'
import { ranges } from './ranges.ts'
import { report } from './report.ts'
import { validate } from './validate.ts'
import { verify } from './verify.ts'

/** Options every command may be given; each command lists those it reads. */
export type OptionName = 'host' | 'env' | 'config' | 'json' | 'since' | 'until' | 'agent' | 'category' | 'url' | 'remote' | 'fix' | 'fail-on' | 'snapshot' | 'snapshot-file' | 'yes' | 'dir'

export interface ParsedArgs {
  /** Arguments after the command name. */
  readonly positionals: readonly string[]
  readonly values: {
    readonly host?: string | undefined
    readonly env?: string | undefined
    readonly config?: string | undefined
    readonly json: boolean
    readonly since?: string | undefined
    readonly until?: string | undefined
    readonly agent?: string | undefined
    readonly category?: string | undefined
    /** '' when given bare (report's `--url URL --remote`). */
    readonly url?: string | undefined
    readonly remote?: string | undefined
    readonly fix?: boolean | undefined
    readonly snapshot?: boolean | undefined
    readonly snapshotFile?: string | undefined
    readonly failOn?: string | undefined
    readonly yes?: boolean | undefined
    readonly dir?: string | undefined
  }
}

export interface Command {
  /** What follows the command name, e.g. `<agent> <url-or-path> [--host H] [--env E]`. */
  readonly usage: string
  readonly summary: string
  /** How many arguments it takes: [min, max]. */
  readonly positionals: readonly [number, number]
  readonly options: readonly OptionName[]
  run(args: ParsedArgs, io: Io): number | Promise<number>
}

/** `--remote URL` or `--url URL`: the Worker to read; neither reads the local D1. */
function sourceUrl(values: ParsedArgs['values']): string | undefined {
  if (values.remote === '') throw new UsageError("--remote needs the Worker's URL: --remote https://robots-edge.<account>.workers.dev")
  if (values.remote !== undefined && values.url !== undefined && values.remote !== values.url) throw new UsageError("give the Worker's URL once: --remote URL or --url URL")
  return values.remote ?? values.url
}

/**
 * The commands, by name. A new command is a file in src/cli exporting
 * `(options, io) => exitCode` and one entry here; parsing, `--help`, usage
 * errors and failures are handled for it by main.ts.
 */
export const commands: Readonly<Record<string, Command>> = {
  init: {
    usage: '[--yes] [--dir D]',
    summary: 'make an existing Workers project ready: bindings, robots.config.ts, .dev.vars secrets, local migrations; prints each change',
    positionals: [0, 0],
    options: ['yes', 'dir'],
    run: ({ values }, io) => init({ yes: values.yes, dir: values.dir }, io),
  },
  print: {
    usage: '[--host H] [--env E]',
    summary: 'the robots.txt a host is served (default host localhost, env production)',
    positionals: [0, 0],
    options: ['host', 'env', 'config', 'json'],
    run: async ({ values }, io) => print({ config: (await loadConfig(values.config)).input, host: values.host, env: values.env, json: values.json }, io),
  },
  check: {
    usage: '<agent> <url-or-path> [--host H] [--env E]',
    summary: 'the verdict for an agent (product token or User-Agent header) and a URL, and the line that decided it',
    positionals: [2, 2],
    options: ['host', 'env', 'config', 'json'],
    run: async ({ positionals: [agent = '', target = ''], values }, io) =>
      check({ config: (await loadConfig(values.config)).input, agent, target, host: values.host, env: values.env, json: values.json }, io),
  },
  lint: {
    usage: '[file] [--fix]',
    summary: 'lint the config and every file it renders, or any robots.txt file, for every reader; exit 1 on an error',
    positionals: [0, 1],
    options: ['config', 'json', 'fix'],
    run: async ({ positionals: [file], values }, io) => {
      if (file !== undefined || values.fix) return lint({ file, json: values.json, fix: values.fix }, io)
      const { input, source } = await loadConfig(values.config)
      return lint({ config: input, source, json: values.json }, io)
    },
  },
  validate: {
    usage: '',
    summary: 'check the config in every start-up context; exit 1 if invalid (runs before npm run deploy)',
    positionals: [0, 0],
    options: ['config', 'json'],
    run: async ({ values }, io) => {
      const { input, source } = await loadConfig(values.config)
      return validate({ config: input, source, json: values.json }, io)
    },
  },
  report: {
    usage: '[--since 7d] [--until T] [--host H] [--agent A] [--category C] [--env E] [--url URL [--remote] | --remote URL]',
    summary: 'the compliance report per agent, from the local D1 (as npm run dev wrote it) or a running Worker',
    positionals: [0, 0],
    options: ['since', 'until', 'host', 'agent', 'category', 'env', 'url', 'remote', 'json'],
    run: ({ values }, io) => report({ ...values, remote: values.remote !== undefined, url: values.url ?? (values.remote || undefined) }, io),
  },
  impact: {
    usage: '[--since 7d] [--until T] [--host H] [--agent A] [--env E] [--remote URL] [--config FILE] [--fail-on protected|none]',
    summary: 'replay the recorded crawler traffic against the working config: who would gain or lose access, by which rule',
    positionals: [0, 0],
    options: ['since', 'until', 'host', 'agent', 'env', 'remote', 'url', 'config', 'json', 'fail-on'],
    run: async ({ values }, io) => {
      const { input, source } = await loadConfig(values.config)
      return impact({ ...values, url: sourceUrl(values), config: input, configSource: source }, io)
    },
  },
  history: {
    usage: '[--host H] [--remote URL]',
    summary: "every stored version of each host's robots.txt: when and by which deployment it was first served",
    positionals: [0, 0],
    options: ['host', 'env', 'remote', 'url', 'json'],
    run: ({ values }, io) => history({ ...values, url: sourceUrl(values) }, io),
  },
  diff: {
    usage: '<from> [<to>] [--host H] [--remote URL]',
    summary: 'the line diff of two stored robots.txt versions (hash prefixes, as history lists them); one: against the version before it',
    positionals: [1, 2],
    options: ['host', 'env', 'remote', 'url', 'json'],
    run: ({ positionals: [from = '', to], values }, io) => diff({ ...values, from, to, url: sourceUrl(values) }, io),
  },
  verify: {
    usage: '<url> [--host H] [--env E]',
    summary: "fetch the live /robots.txt and compare it with the config's, as RFC 9309 reads them; check the guard's answers; exit 1 on any difference",
    positionals: [1, 1],
    options: ['host', 'env', 'config', 'json'],
    run: async ({ positionals: [url = ''], values }, io) => verify({ config: (await loadConfig(values.config)).input, url, host: values.host, env: values.env, json: values.json }, io),
  },
  ranges: {
    usage: '[--snapshot] [--snapshot-file FILE] [--env E] [--remote URL]',
    summary: "load the operators' published IP-range lists into the local KV (or the deployed Worker's): live, or a dated snapshot",
    positionals: [0, 0],
    options: ['snapshot', 'snapshot-file', 'env', 'remote', 'url', 'json'],
    run: ({ values }, io) => ranges({ ...values, url: sourceUrl(values) }, io),
  },
}
