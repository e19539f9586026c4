/**
 * `npm run try:init`: a new user's first minutes with robots-edge, step by
 * step, in the two kinds of app the README's "Add robots-edge to an existing
 * app" names: a fresh Hono app and a plain module Worker. Each starts as its
 * template leaves it (wrangler.toml with only name, main and
 * compatibility_date; hono and wrangler installed), then does what the
 * README says, each step timed:
 *
 *   1. npm install <the packed tarball>
 *   2. npx robots-edge init --yes
 *   3. paste the README's block into src/index.ts (no command: not timed)
 *   4. npx wrangler dev, until it answers /robots.txt
 *   5. the first requests: robots.txt (200), GPTBot refused (403), and the
 *      report at /_robots/api/report with the token init wrote, until it names gptbot
 *
 * It prints the figures with the machine they were measured on; it is a
 * procedure to quote, not a test: it fails (exit 1) only when a step does.
 * Offline apart from npm's registry (installs prefer npm's cache).
 *
 *   npm run try:init -- [--tarball robots-edge-x.y.z.tgz] [--keep]
 */
import { execFile } from 'node:child_process'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { cpus, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs, promisify } from 'node:util'
import { personEnv, startWranglerDev } from '../dev/wrangler-dev.ts'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const USAGE = 'usage: npm run try:init -- [--tarball robots-edge-x.y.z.tgz] [--keep]'
const execFileAsync = promisify(execFile)

const { values } = parseArgs({ options: { tarball: { type: 'string' }, keep: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h' } } })
if (values.help) {
  console.log(USAGE)
  process.exit(0)
}

/** Runs a command in `cwd` as a person's shell would (CI=true: no prompt waits for a terminal). */
async function sh(cwd: string, file: string, args: readonly string[], timeout = 300_000): Promise<string> {
  try {
    const { stdout, stderr } = await execFileAsync(file, [...args], { cwd, env: personEnv({ CI: 'true' }), timeout, maxBuffer: 32 << 20 })
    return `${stdout}${stderr}`
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string }
    throw new Error(`\`${[file, ...args].join(' ')}\` failed in ${cwd}: ${e.message}\n${e.stdout ?? ''}${e.stderr ?? ''}`)
  }
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now()
  const value = await work()
  return { value, ms: performance.now() - started }
}

/** The README's ```ts block of "Add robots-edge to an existing app" that holds `holds`. */
function readmeBlock(readme: string, holds: string): string {
  const from = readme.indexOf('\n## Add robots-edge')
  const to = readme.indexOf('\n## ', from + 1)
  const block = [...readme.slice(from, to).matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!).find((b) => b.includes(holds))
  if (block === undefined) throw new Error(`README's "Add robots-edge to an existing app" has no ts block with ${holds}`)
  return block
}

interface App {
  readonly name: string
  readonly title: string
  /** What the app's template installs. */
  readonly dependencies: readonly string[]
  /** The app's own code before robots-edge. */
  readonly before: string
  /** The README's block, as pasted (and the file the app's own code moves to, if any). */
  paste(readme: string, dir: string): Promise<string>
}

const APPS: readonly App[] = [
  {
    name: 'hono-app',
    title: 'a fresh Hono app',
    dependencies: ['hono@4.13.19', 'wrangler@4.86.0'],
    before: "import { Hono } from 'hono'\n\nconst app = new Hono()\napp.get('/', (c) => c.text('Hello Hono!'))\nexport default app\n",
    async paste(readme, dir) {
      await writeFile(join(dir, 'src', 'index.ts'), readmeBlock(readme, "from 'robots-edge/hono'"))
      return "src/index.ts: the README's Hono block"
    },
  },
  {
    name: 'module-worker',
    title: 'a plain module Worker',
    dependencies: ['wrangler@4.86.0'],
    before: "export default {\n  async fetch(): Promise<Response> {\n    return new Response('Hello World!')\n  },\n}\n",
    async paste(readme, dir) {
      // The Worker's own handler moves beside its new entry, which the README's block wraps (its import pointed there).
      await writeFile(join(dir, 'src', 'app.ts'), this.before)
      const block = readmeBlock(readme, 'withRobotsEdge(').replace(/import handler from '[^']+'/, "import handler from './app'")
      await writeFile(join(dir, 'src', 'index.ts'), block)
      return "src/index.ts: the README's withRobotsEdge block (the handler moved to src/app.ts)"
    },
  },
]

const GPTBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)'

async function tryApp(app: App, base: string, tarball: string, readme: string): Promise<string[]> {
  const dir = join(base, app.name)
  await mkdir(join(dir, 'src'), { recursive: true })
  await writeFile(join(dir, 'package.json'), `${JSON.stringify({ name: app.name, private: true, type: 'module' }, null, 2)}\n`)
  await writeFile(join(dir, 'wrangler.toml'), `name = "${app.name}"\nmain = "src/index.ts"\ncompatibility_date = "2026-04-20"\n`)
  await writeFile(join(dir, 'src', 'index.ts'), app.before)
  process.stderr.write(`${app.title}: installing what its template installs (${app.dependencies.join(', ')}), not timed…\n`)
  await sh(dir, 'npm', ['install', ...app.dependencies, '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'])

  const rows: [string, string, string][] = []
  const install = await timed(() => sh(dir, 'npm', ['install', tarball, '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error']))
  rows.push(['1', 'npm install robots-edge (the packed tarball)', seconds(install.ms)])
  const init = await timed(() => sh(dir, process.execPath, [join(dir, 'node_modules', '.bin', 'robots-edge'), 'init', '--yes']))
  if (!init.value.includes('applied the local migrations')) throw new Error(`init did not apply the migrations:\n${init.value}`)
  rows.push(['2', 'npx robots-edge init --yes', seconds(init.ms)])
  rows.push(['3', `paste ${await app.paste(readme, dir)}`, '—'])
  const token = /^ROBOTS_ADMIN_TOKEN=(.+)$/m.exec(await readFile(join(dir, '.dev.vars'), 'utf8'))?.[1]
  if (!token) throw new Error('init wrote no ROBOTS_ADMIN_TOKEN in .dev.vars')

  const dev = await timed(() => startWranglerDev(dir, { persistTo: join(dir, '.wrangler', 'state'), timeout: 120_000 }))
  rows.push(['4', 'npx wrangler dev, until /robots.txt answers', seconds(dev.ms)])
  let firstMs = 0
  try {
    const origin = dev.value.origin
    const first = await timed(async () => {
      const robots = await fetch(`${origin}/robots.txt`)
      if (robots.status !== 200) throw new Error(`/robots.txt answered ${robots.status}`)
      await robots.arrayBuffer()
      const refused = await fetch(`${origin}/`, { headers: { 'User-Agent': GPTBOT } })
      if (refused.status !== 403) throw new Error(`GPTBot got ${refused.status}, not 403`)
      await refused.arrayBuffer()
      for (let i = 0; i < 200; i++) {
        const res = await fetch(`${origin}/_robots/api/report?since=1h`, { headers: { Authorization: `Bearer ${token}` } })
        if (res.status !== 200) throw new Error(`the report answered ${res.status} with init's token`)
        if ((await res.text()).includes('"gptbot"')) return
        await new Promise((r) => setTimeout(r, 100))
      }
      throw new Error('the report did not name gptbot within 20 s')
    })
    firstMs = first.ms
    rows.push(['5', "robots.txt 200, GPTBot 403, the report (init's token) names gptbot", seconds(first.ms)])
    const errors = dev.value
      .output()
      .split('\n')
      .filter((line) => /error|✘|no such table/i.test(line))
    if (errors.length > 0) throw new Error(`wrangler dev logged errors:\n${errors.join('\n')}`)
  } finally {
    await dev.value.stop()
  }
  const total = install.ms + init.ms + dev.ms + firstMs
  const width = Math.max(...rows.map((r) => r[1].length))
  return [
    `${app.title} (${app.name}):`,
    ...rows.map(([step, what, time]) => `  ${step}. ${what.padEnd(width)}  ${time.padStart(7)}`),
    `     ${'from install to the first report'.padEnd(width)}  ${seconds(total).padStart(7)}`,
    '',
  ]
}

async function main(): Promise<void> {
  const base = await mkdtemp(join(tmpdir(), 'robots-edge-try-init-'))
  try {
    let tarball = values.tarball ? resolve(values.tarball) : ''
    if (!tarball) {
      process.stderr.write('packing robots-edge from this checkout (npm pack, which builds lib/), not timed…\n')
      // stdout only: the JSON document (the build's own lines go to stderr).
      const { stdout } = await execFileAsync('npm', ['pack', '--pack-destination', base, '--json'], { cwd: ROOT, env: personEnv(), timeout: 300_000, maxBuffer: 32 << 20 })
      const [info] = JSON.parse(stdout.slice(stdout.indexOf('['))) as { filename: string }[]
      tarball = join(base, info!.filename)
    }
    const readme = await readFile(join(ROOT, 'README.md'), 'utf8')
    const lines = [
      `robots-edge: a new user's first minutes (npm run try:init), ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`,
      `Node ${process.version}, ${cpus().length} cores; wrangler dev local and offline; npm installs prefer its cache`,
      '',
    ]
    for (const app of APPS) lines.push(...(await tryApp(app, base, tarball, readme)))
    process.stdout.write(`${lines.join('\n')}\n`)
    if (values.keep) process.stdout.write(`The apps are kept in ${base}\n`)
  } finally {
    if (!values.keep) await rm(base, { recursive: true, force: true })
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`try:init: ${error instanceof Error ? error.message : String(error)}\n`)
  process.exit(1)
})
