/**
 * A copy of this template in a temporary folder, as a new user has it after
 * `npm install`: its own wrangler.toml, robots.config.ts and local state,
 * the rest linked to this checkout. Commands run there exactly as a person
 * runs them (`npm run dev`, `npm run build`, `npm test`), so a bad config
 * can be tried without touching the real one or a running `npm run dev`.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { copyFile, mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ROOT } from './consumer.ts'

const LINKED = ['bin', 'scripts', 'dev', 'test', 'node_modules', 'migrations', 'public', 'package.json', 'tsconfig.json', 'tsconfig.node.json', 'vitest.config.ts', '.npmrc']
const COPIED = ['wrangler.toml', 'wrangler.admin.toml', '.dev.vars.example', 'types/worker-configuration.d.ts', 'robots.config.ts']

/** A config that type-checks but is invalid: crawlers read only "Brightbot". */
export const BAD_CONFIG = "import { defineConfig } from 'robots-edge'\n\nexport default defineConfig({ rules: [{ userAgent: 'Brightbot 1.0', disallow: '/admin/' }] })\n"
export const GOOD_CONFIG = "import { defineConfig } from 'robots-edge'\n\nexport default defineConfig({ rules: [{ userAgent: 'Brightbot', disallow: '/admin/' }] })\n"

export interface Project {
  readonly dir: string
  writeConfig(text: string): Promise<void>
  /** Runs a command there; `tty` runs it under a pseudo-terminal (util-linux `script`), as in a person's terminal. */
  run(command: string, options?: { tty?: boolean; timeout?: number }): Promise<{ code: number | null; output: string }>
  remove(): Promise<void>
}

/** The environment of a person's shell: none of the variables the outer `npm test` sets (vitest sets NODE_ENV=test, which wrangler dev would bundle). */
function shellEnv(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(npm_|VITEST)/i.test(name) && name !== 'NODE_OPTIONS' && name !== 'NODE_ENV'))
  return { ...env, NO_COLOR: '1', FORCE_COLOR: '0', WRANGLER_SEND_METRICS: 'false', WRANGLER_SEND_ERROR_REPORTS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false' }
}

export async function createProject(): Promise<Project> {
  const dir = await mkdtemp(join(tmpdir(), 'robots-edge-project-'))
  await mkdir(join(dir, 'src'))
  // Copied, not linked: `npm run types` in the project must not rewrite this repository's file.
  await mkdir(join(dir, 'types'))
  await Promise.all([
    ...LINKED.map((name) => symlink(join(ROOT, name), join(dir, name))),
    ...COPIED.map((name) => copyFile(join(ROOT, name), join(dir, name))),
    // The Worker's entry is copied: bundlers follow links to where they point,
    // and its `../robots.config.ts` must be this project's.
    ...(await readdir(join(ROOT, 'src'))).map((name) => (name === 'workers' ? mkdir(join(dir, 'src', name)) : symlink(join(ROOT, 'src', name), join(dir, 'src', name)))),
  ])
  await Promise.all((await readdir(join(ROOT, 'src', 'workers'))).map((name) => copyFile(join(ROOT, 'src', 'workers', name), join(dir, 'src', 'workers', name))))
  return {
    dir,
    writeConfig: (text) => writeFile(join(dir, 'robots.config.ts'), text),
    run(command, options = {}) {
      const argv = options.tty ? (['script', ['-qfec', command, '/dev/null']] as const) : (['sh', ['-c', command]] as const)
      return new Promise((resolve, reject) => {
        const child = spawn(argv[0], [...argv[1]], { cwd: dir, env: shellEnv(), stdio: ['ignore', 'pipe', 'pipe'] })
        let output = ''
        child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
        child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
        const timer = setTimeout(() => {
          child.kill('SIGKILL')
          reject(new Error(`\`${command}\` did not finish in ${options.timeout ?? 120_000} ms (waiting at a prompt?):\n${output}`))
        }, options.timeout ?? 120_000)
        child.on('error', reject)
        child.on('close', (code) => {
          clearTimeout(timer)
          resolve({ code, output: output.replace(/\r\n/g, '\n') })
        })
      })
    },
    remove: () => rm(dir, { recursive: true, force: true }),
  }
}

/** A port nobody listens on now, on 127.0.0.1. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

/** `wrangler dev` in the project with both Workers, as `npm run dev` runs it, on its own ports and state; output collected. */
export async function startDev(project: Project): Promise<{ origin: string; output: () => string; stop(): Promise<void> }> {
  const [port, inspector] = [await freePort(), await freePort()]
  const child: ChildProcess = spawn(
    join(ROOT, 'node_modules', '.bin', 'wrangler'),
    [
      'dev',
      '-c',
      'wrangler.toml',
      '-c',
      'wrangler.admin.toml',
      '--ip',
      '127.0.0.1',
      '--port',
      String(port),
      '--inspector-port',
      String(inspector),
      '--persist-to',
      join(project.dir, '.wrangler', 'state'),
    ],
    {
      cwd: project.dir,
      env: shellEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    },
  )
  let output = ''
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()))
  return {
    origin: `http://127.0.0.1:${port}`,
    output: () => output,
    async stop() {
      // wrangler starts workerd and esbuild: end the whole group this test started.
      try {
        process.kill(-child.pid!, 'SIGTERM')
      } catch {
        return
      }
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))])
      try {
        process.kill(-child.pid!, 'SIGKILL')
      } catch {
        // Already gone.
      }
    },
  }
}

/** Polls `check` until it holds or `ms` pass; returns whether it held. */
export async function until(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return true
    await new Promise((r) => setTimeout(r, 250))
  }
  return false
}
