/**
 * A copy of this template in a temporary folder, as a new user has it after
 * `npm install`: its own wrangler.toml, robots.config.ts and local state,
 * the rest linked to this checkout. Commands run there exactly as a person
 * runs them (`npm run dev`, `npm run build`, `npm test`), so a bad config
 * can be tried without touching the real one or a running `npm run dev`.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { copyFile, mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort, personEnv, stopGroup } from '../../dev/wrangler-dev.ts'
import { ROOT } from './consumer.ts'

export { freePort }

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
        const child = spawn(argv[0], [...argv[1]], { cwd: dir, env: personEnv(), stdio: ['ignore', 'pipe', 'pipe'] })
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
      env: personEnv(),
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
    // wrangler starts workerd and esbuild: end the whole group this test started.
    stop: () => stopGroup(child, exited),
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
