import { spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { basename, dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { CliError } from './errors.ts'
import { addVars, appendToml, describe, jsonPatch, needs, configComplete, unifiedDiff, type Needs, type RawWranglerConfig } from './init-config.ts'
import type { Io } from './io.ts'

export interface InitOptions {
  /** The project's folder. Default: the working directory. */
  readonly dir?: string | undefined
  /** Make the changes without asking. Without a terminal, init behaves as if given. */
  readonly yes?: boolean | undefined
  /** Environment of the migrations' wrangler run. Default: process.env. */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined
  /** Longest wait for `wrangler d1 migrations apply`, in ms. Default 120 000. */
  readonly timeoutMs?: number | undefined
}

export const MIGRATE_LOCAL = 'npx wrangler d1 migrations apply DB --local'

const CONFIG_NAMES = ['wrangler.jsonc', 'wrangler.json', 'wrangler.toml'] as const

export const STARTER_CONFIG = `import { agents, defineConfig } from 'robots-edge'

// The crawler policy: served as /robots.txt and enforced on every request by
// the same rules. \`npx robots-edge lint\` checks it for every reader, and
// \`npx robots-edge check GPTBot /\` shows a verdict. See the README for every option.
export default defineConfig({
  rules: [
    { userAgent: '*', allow: '/' },
    {
      comment: 'AI training crawlers (robots-edge preset agents.aiTraining)',
      userAgent: agents.aiTraining,
      disallow: '/',
      guard: 'block',
    },
  ],
  // Every other group: record what crawlers fetch, refuse nothing.
  guard: { mode: 'log' },
})
`

interface Wrangler {
  readRaw(configPath: string): RawWranglerConfig
  patch(configPath: string, patch: Record<string, unknown>): void
  bin: string
}

/** The project's own wrangler, else the one installed beside this package. */
function loadWrangler(dir: string): Wrangler | undefined {
  for (const from of [join(dir, 'package.json'), fileURLToPath(import.meta.url)]) {
    try {
      const require = createRequire(from)
      const main = require.resolve('wrangler')
      const w = require(main) as {
        experimental_readRawConfig(args: { config: string }): { rawConfig: RawWranglerConfig }
        experimental_patchConfig(path: string, patch: Record<string, unknown>): unknown
      }
      return {
        readRaw: (config) => w.experimental_readRawConfig({ config }).rawConfig,
        patch: (path, p) => void w.experimental_patchConfig(path, p),
        bin: join(dirname(require.resolve('wrangler/package.json')), 'bin', 'wrangler.js'),
      }
    } catch {
      // not installed there
    }
  }
  return undefined
}

/** This package's own folder (the one holding public/ and migrations/). */
function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url))
  while (!existsSync(join(dir, 'package.json')) || !existsSync(join(dir, 'migrations'))) {
    const up = dirname(dir)
    if (up === dir) throw new CliError("robots-edge's own files were not found beside the CLI")
    dir = up
  }
  return dir
}

interface Change {
  readonly path: string
  readonly before: string | undefined
  readonly after: string
  readonly note?: string
  /** A file of secrets: its diff shows each line's name, never its value (terminals and CI logs keep what they print). */
  readonly secret?: boolean
}

/** `NAME=value` lines with the value hidden, its length kept so a reader sees something was written. */
const hideValues = (text: string | undefined): string | undefined =>
  text?.replace(/^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/gm, (_, name: string, value: string) => `${name}=<${value.length} characters, not shown>`)

/** A change as printed: the unified diff, with a secrets file's values hidden. */
const shownDiff = (c: Change): string[] => (c.secret ? unifiedDiff(c.path, hideValues(c.before), hideValues(c.after) ?? '') : unifiedDiff(c.path, c.before, c.after))

/** The config edited in a private copy, re-read by wrangler: written only if it parses and now has everything. */
function editConfig(wrangler: Wrangler, configPath: string, n: Needs, fallbackName: string): { after?: string; problem?: string } {
  const before = readFileSync(configPath, 'utf8')
  const scratch = mkdtempSync(join(tmpdir(), 'robots-edge-init-'))
  try {
    const copy = join(scratch, basename(configPath))
    if (configPath.endsWith('.toml')) writeFileSync(copy, appendToml(before, n))
    else {
      writeFileSync(copy, before)
      wrangler.patch(copy, jsonPatch(n))
    }
    const after = readFileSync(copy, 'utf8')
    if (!configComplete(needs(wrangler.readRaw(copy), fallbackName))) return { problem: 'the edited file still lacks some of it' }
    return { after }
  } catch (error) {
    return { problem: error instanceof Error ? error.message.split('\n')[0]! : String(error) }
  } finally {
    rmSync(scratch, { recursive: true, force: true })
  }
}

function listFiles(dir: string, base = dir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? listFiles(join(dir, e.name), base) : [relative(base, join(dir, e.name))]))
}

/**
 * Makes an existing Workers project ready for robots-edge: the wrangler
 * config's bindings, a starter robots.config.ts, the secrets in .dev.vars,
 * the local migrations. Prints each change as a diff; run twice, the second
 * run changes nothing. Exit 1 when something could not be done (it says what to do instead).
 */
export function init(options: InitOptions, io: Io): number {
  const dir = resolve(options.dir ?? '.')
  const configName = CONFIG_NAMES.find((name) => existsSync(join(dir, name)))
  if (configName === undefined) throw new CliError(`no wrangler.toml, wrangler.json or wrangler.jsonc in ${dir}: run init in the Workers project's folder (or give --dir)`)
  const wrangler = loadWrangler(dir)
  if (wrangler === undefined) throw new CliError('wrangler is not installed: run `npm install --save-dev wrangler`, then `npx robots-edge init` again')
  const configPath = join(dir, configName)
  const fallbackName = basename(dir)
  let raw: RawWranglerConfig
  try {
    raw = wrangler.readRaw(configPath)
  } catch (error) {
    throw new CliError(`${configName} could not be read: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`)
  }
  const n = needs(raw, fallbackName)
  const changes: Change[] = []
  const notes: string[] = []
  let failed = false

  if (!configComplete(n)) {
    const edited = editConfig(wrangler, configPath, n, fallbackName)
    if (edited.after !== undefined) {
      const note = configName.endsWith('.toml') ? undefined : `${configName} was rewritten by wrangler's config patcher: its comments are kept, its layout reformatted.`
      changes.push({ path: configName, before: readFileSync(configPath, 'utf8'), after: edited.after, ...(note ? { note } : {}) })
    } else {
      failed = true
      notes.push(`${configName} was left alone (${edited.problem}). Add to it by hand:`, ...describe({ ...n, assets: n.assets === 'add' ? 'add' : 'none' }).map((l) => `  ${l}`))
    }
  }

  const root = packageRoot()
  const copies: { from: string; to: string; replaces: boolean }[] = []
  if (typeof n.assets === 'object') {
    const source = join(root, 'public', '_robots')
    const target = join(resolve(dir, n.assets.copyTo), '_robots')
    for (const file of listFiles(source)) {
      const to = join(target, file)
      const from = join(source, file)
      if (existsSync(to) && readFileSync(to).equals(readFileSync(from))) continue
      copies.push({ from, to, replaces: existsSync(to) })
    }
  }

  const robotsConfig = join(dir, 'robots.config.ts')
  if (existsSync(robotsConfig)) notes.push('robots.config.ts exists: left alone.')
  else changes.push({ path: 'robots.config.ts', before: undefined, after: STARTER_CONFIG })

  // With a .env and no .dev.vars, wrangler reads .env; a new .dev.vars would hide it.
  const varsName = !existsSync(join(dir, '.dev.vars')) && existsSync(join(dir, '.env')) ? '.env' : '.dev.vars'
  const varsPath = join(dir, varsName)
  const varsBefore = existsSync(varsPath) ? readFileSync(varsPath, 'utf8') : undefined
  const secret = () => randomBytes(32).toString('base64url')
  const varsAfter = addVars(varsBefore ?? '', { ROBOTS_ADMIN_TOKEN: secret(), IP_HASH_SALT: secret() })
  if (varsAfter !== (varsBefore ?? '')) changes.push({ path: varsName, before: varsBefore, after: varsAfter, note: `${varsName} holds secrets: keep it out of git.`, secret: true })

  if (changes.length === 0 && copies.length === 0) io.out('robots-edge init: nothing to change, the project is set up.')
  const confirmed = options.yes === true || !io.isTTY
  if (!confirmed) {
    if (changes.length > 0 || copies.length > 0) io.out(`robots-edge init would make these changes in ${dir}:`)
    for (const c of changes) for (const line of shownDiff(c)) io.out(line)
    for (const c of copies) io.out(`${c.replaces ? 'replace' : 'copy'} ${relative(dir, c.to)}`)
    io.out(`Run \`npx robots-edge init --yes\` to make them and apply the local migrations (${MIGRATE_LOCAL}).`)
    return 0
  }

  for (const c of changes) {
    writeFileSync(join(dir, c.path), c.after)
    io.out(`${c.before === undefined ? 'created' : 'edited'} ${c.path}:`)
    for (const line of shownDiff(c)) io.out(line)
    if (c.note) io.out(c.note)
  }
  for (const c of copies) {
    mkdirSync(dirname(c.to), { recursive: true })
    copyFileSync(c.from, c.to)
  }
  if (copies.length > 0 && typeof n.assets === 'object') {
    const replaced = copies.filter((c) => c.replaces).length
    io.out(
      `copied the dashboard's ${copies.length} static files into your assets directory, ${relative(dir, join(resolve(dir, n.assets.copyTo), '_robots'))}/${replaced > 0 ? ` (${replaced} older copies replaced)` : ''}: run init again after updating robots-edge.`,
    )
  }
  for (const note of notes) io.out(note)
  return migrate(wrangler, dir, options, io) && !failed ? 0 : 1
}

/** `wrangler d1 migrations apply DB --local`, without prompts (no terminal), bounded in time. */
function migrate(wrangler: Wrangler, dir: string, options: InitOptions, io: Io): boolean {
  const env = { ...(options.env ?? process.env), CI: 'true', WRANGLER_SEND_METRICS: 'false', WRANGLER_SEND_ERROR_REPORTS: 'false' }
  const result = spawnSync(process.execPath, [wrangler.bin, 'd1', 'migrations', 'apply', 'DB', '--local'], {
    cwd: dir,
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: options.timeoutMs ?? 120_000,
  })
  if (result.status === 0) {
    io.out(`applied the local migrations (${MIGRATE_LOCAL}). Before the first deploy: npx wrangler d1 migrations apply DB --remote`)
    return true
  }
  const why = result.error ? result.error.message : `${result.stderr ?? ''}${result.stdout ?? ''}`.trim().split('\n').slice(-3).join(' ')
  io.err(`robots-edge init: the local migrations were not applied (${why}). Run: ${MIGRATE_LOCAL}`)
  return false
}
