/**
 * Vitest global setup: keeps one line of workerd's teardown noise out of the
 * run's output, and nothing else.
 *
 * Where it comes from: @cloudflare/vitest-pool-workers 0.15.1 stops each
 * test file's runtime (CloudflarePoolWorker.stop, dist/pool/index.mjs) by
 * closing its WebSocket to the runner Durable Object and disposing Miniflare
 * at once, without waiting for the close to reach workerd. workerd then logs
 * `exception = workerd/api/web-socket.c++:NNN: disconnected: WebSocket peer
 * disconnected`, once per file, and the pool writes its structured logs
 * straight to process.stdout or stderr by level (handleStructuredLogs):
 * vitest's onConsoleLog never sees them. The pool already drops the same teardown as "WebSocket
 * was aborted"; this drops "peer disconnected" too, in the main process,
 * where the pool writes. Only a write that is exactly that line is dropped,
 * so every other line of workerd's (a real error, a stack) still shows.
 */

/** Exactly workerd's teardown line, as the pool writes it (one write, one line). */
const TEARDOWN = /^exception = workerd\/api\/web-socket\.c\+\+:\d+: disconnected: WebSocket peer disconnected\r?\n?$/

/** Whether a chunk written to stderr is that line and nothing more. */
export function isTeardownNoise(chunk: unknown): boolean {
  const text = typeof chunk === 'string' ? chunk : chunk instanceof Uint8Array ? Buffer.from(chunk).toString('utf8') : null
  return text !== null && TEARDOWN.test(text)
}

/** Wraps `stream.write` to drop that line. */
function filter(stream: NodeJS.WriteStream): void {
  const write = stream.write
  stream.write = function filtered(this: NodeJS.WriteStream, chunk: unknown, ...rest: unknown[]): boolean {
    if (isTeardownNoise(chunk)) {
      // The write's callback, if any, still runs: callers may wait on it.
      const done = rest.find((r) => typeof r === 'function') as ((error?: Error | null) => void) | undefined
      done?.()
      return true
    }
    return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest)
  } as typeof stream.write
}

/**
 * Installed for the rest of the process, with no teardown: the pool stops
 * the last runtime after vitest's global teardown, and that stop writes the
 * line too.
 */
export default function quietWorkerdTeardown(): void {
  // The pool writes workerd's logs by level: this one, an "info" line, reaches stdout.
  filter(process.stdout)
  filter(process.stderr)
}
