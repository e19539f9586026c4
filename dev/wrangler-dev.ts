/**
 * `wrangler dev` in an app folder, as a person runs it there, but offline,
 * on free 127.0.0.1 ports, with its state where the caller says, and its
 * output collected instead of printed. Shared by the package tests
 * (test/package/init.pack.test.ts) and `npm run try:init`
 * (scripts/try-init.ts).
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { createServer } from 'node:net'
import { join } from 'node:path'

/** A shell's environment without what an outer `npm test` or `npm run` sets, and wrangler offline. */
export function personEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(npm_|VITEST)/i.test(name) && name !== 'NODE_OPTIONS' && name !== 'NODE_ENV'))
  return { ...env, NO_COLOR: '1', FORCE_COLOR: '0', WRANGLER_SEND_METRICS: 'false', WRANGLER_SEND_ERROR_REPORTS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false', ...extra }
}

/**
 * Ends a process group started `detached` (wrangler starts workerd and
 * esbuild): SIGTERM, then SIGKILL after 10 s if `exited` has not settled.
 */
export async function stopGroup(child: ChildProcess, exited: Promise<void>): Promise<void> {
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
}

/** A port nobody listens on now, on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

export interface WranglerDev {
  readonly origin: string
  /** Everything wrangler and the Worker printed so far. */
  output(): string
  stop(): Promise<void>
}

export interface WranglerDevOptions {
  /** The persistence folder (`--persist-to`): the caller's own, e.g. the state `init` migrated. */
  readonly persistTo: string
  /** Most time to wait for the first answer, ms. Default 90 s: two busy cores. */
  readonly timeout?: number
}

/**
 * Starts the app's own wrangler (`node_modules/.bin/wrangler dev`) and
 * resolves once the Worker answers; rejects with wrangler's output if it
 * exits first or does not answer in time.
 */
export async function startWranglerDev(app: string, options: WranglerDevOptions): Promise<WranglerDev> {
  const [port, inspector] = [await freePort(), await freePort()]
  const child: ChildProcess = spawn(
    join(app, 'node_modules', '.bin', 'wrangler'),
    ['dev', '--local', '--ip', '127.0.0.1', '--port', String(port), '--inspector-port', String(inspector), '--persist-to', options.persistTo, '--show-interactive-dev-session=false'],
    // Its own process group: wrangler starts workerd and esbuild, and stop() ends them all.
    { cwd: app, env: personEnv(), stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  )
  let output = ''
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()))
  let exited = false
  const exit = new Promise<void>((resolve) =>
    child.on('exit', () => {
      exited = true
      resolve()
    }),
  )
  const origin = `http://127.0.0.1:${port}`
  const stop = async () => {
    if (!exited) await stopGroup(child, exit)
  }
  const deadline = Date.now() + (options.timeout ?? 90_000)
  while (!exited && Date.now() < deadline) {
    const answered = await fetch(`${origin}/robots.txt`, { signal: AbortSignal.timeout(5_000) }).then(
      async (res) => (await res.arrayBuffer(), true),
      () => false,
    )
    if (answered) return { origin, output: () => output, stop }
    await new Promise((r) => setTimeout(r, 200))
  }
  await stop()
  throw new Error(`wrangler dev ${exited ? 'exited' : `did not answer within ${options.timeout ?? 90_000} ms`} in ${app}:\n${output}`)
}
