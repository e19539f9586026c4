/**
 * An origin that echoes what it received, for the Worker's pass-through
 * tests (test/edge/origin.workerd.test.ts): vitest's global setup for the workers
 * project starts it on a free 127.0.0.1 port in Node, outside workerd, so the
 * headers it reports are the ones that crossed a real connection.
 */
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { TestProject } from 'vitest/node'

/** What the echo origin answers with (JSON). */
export interface Echo {
  readonly method: string
  readonly url: string
  /** Header names in lower case, as received; repeated ones joined by ", ". */
  readonly headers: Record<string, string>
  /** Each field line as received, in order: `[name in lower case, value]`. */
  readonly fields: [string, string][]
  readonly body: string
}

function headersOf(request: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of fieldsOf(request)) out[name] = name in out ? `${out[name]}, ${value}` : value
  return out
}

function fieldsOf(request: IncomingMessage): [string, string][] {
  const out: [string, string][] = []
  for (let i = 0; i < request.rawHeaders.length; i += 2) out.push([request.rawHeaders[i]!.toLowerCase(), request.rawHeaders[i + 1]!])
  return out
}

export default async function startEchoOrigin(project: TestProject): Promise<() => Promise<void>> {
  // Node answers `Expect: 100-continue` with an interim 100 itself, then
  // emits the request, so a forwarded Expect would still reach the echo.
  const server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const echo: Echo = { method: request.method ?? '', url: request.url ?? '', headers: headersOf(request), fields: fieldsOf(request), body: Buffer.concat(chunks).toString('utf8') }
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end(JSON.stringify(echo))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  project.provide('echoOrigin', `http://127.0.0.1:${(server.address() as AddressInfo).port}`)
  return () => new Promise<void>((resolve) => server.close(() => resolve()))
}

declare module 'vitest' {
  export interface ProvidedContext {
    echoOrigin: string
  }
}
