/**
 * Vitest global setup: checks robots.config.ts once, before any test runs.
 * A bad config then fails `npm test` with the config's own message, once,
 * instead of every Worker test failing to start the runtime.
 */
import { run } from '../../src/cli/main.ts'

export default async function validateConfigFirst(): Promise<void> {
  const lines: string[] = []
  const io = { out: () => {}, err: (line: string) => void lines.push(line), isTTY: false, env: { NO_COLOR: '1' } }
  if ((await run(['validate'], io)) === 0) return
  const error = new Error(`robots.config.ts is invalid, so no test ran. Fix it and run npm test again.\n${lines.join('\n')}`)
  // The message is the whole story: a stack into the test runner would only hide it.
  error.stack = error.message
  throw error
}
