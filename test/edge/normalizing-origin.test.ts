/**
 * The guard in front of an origin that normalizes paths: Python's
 * http.server (Debian's /usr/bin/python3), which decodes a path whole
 * (`%2F` included), then merges slashes and resolves dot segments before it
 * opens a file. Each request here first goes to the origin directly, to show
 * it really serves the disallowed file for that spelling, then through the
 * Worker's app (createApp, ORIGIN set), where `guard: 'block'` must refuse it.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../../src/package/app.ts'
import type { ConfigInput } from '../../src/core/config/index.ts'
import type { JudgedRequest } from '../../src/core/events.ts'

const PYTHON = '/usr/bin/python3'
const BINGBOT = 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)'
const SECRET = 'the secret file'
const CONFIG: ConfigInput = {
  rules: [
    { userAgent: '*', allow: '/' },
    { userAgent: 'Bingbot', disallow: '/private/' },
  ],
  guard: { mode: 'block' },
}

let dir: string
let python: ChildProcess
let origin: string
/** What the origin logged (one line per request, with the path as it received it). */
let originLog = ''

/** Starts http.server on a free port of 127.0.0.1 and reads the port from its first line. */
function startOrigin(root: string): Promise<string> {
  python = spawn(PYTHON, ['-u', '-m', 'http.server', '--bind', '127.0.0.1', '--directory', root, '0'], { stdio: ['ignore', 'pipe', 'pipe'] })
  python.stderr!.on('data', (chunk: Buffer) => void (originLog += chunk.toString('utf8')))
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('http.server did not start within 10 s')), 10_000)
    let out = ''
    python.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8')
      const port = /port (\d+)/.exec(out)?.[1]
      if (port !== undefined) {
        clearTimeout(timer)
        resolve(`http://127.0.0.1:${port}`)
      }
    })
    python.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`http.server exited with ${code}: ${originLog}`))
    })
  })
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'robots-edge-normalizing-'))
  await mkdir(join(dir, 'private'))
  await mkdir(join(dir, 'public'))
  await writeFile(join(dir, 'private', 'secret.txt'), SECRET)
  await writeFile(join(dir, 'public', 'page.txt'), 'a public page')
  origin = await startOrigin(dir)
}, 15_000)

afterAll(async () => {
  if (python !== undefined && python.exitCode === null) {
    const exited = new Promise<void>((resolve) => python.once('exit', () => resolve()))
    python.kill('SIGTERM')
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))])
  }
  await rm(dir, { recursive: true, force: true })
}, 10_000)

function app() {
  const events: JudgedRequest[] = []
  const edge = createApp(CONFIG, { record: (event) => void events.push(event) })
  const send = (path: string) => edge.fetch(new Request(`https://example.com${path}`, { headers: { 'User-Agent': BINGBOT } }), { ORIGIN: origin })
  return { events, send }
}

const direct = (path: string) => fetch(`${origin}${path}`, { signal: AbortSignal.timeout(5000) })

describe('spellings of a disallowed file that a normalizing origin serves', () => {
  it('the plain path is refused (the baseline)', async () => {
    expect((await app().send('/private/secret.txt')).status).toBe(403)
  }, 10_000)

  it.each([
    '//private/secret.txt',
    '///private//secret.txt',
    '/private%2Fsecret.txt',
    '/private%2fsecret.txt',
    '/%2Fprivate/secret.txt',
    '/x/..%2Fprivate/secret.txt',
    '/public/..%2F..%2Fprivate/secret.txt',
    '/public/%2E%2E%2Fprivate/secret.txt',
    '/public/.%2e%2fprivate/secret.txt',
    // Under the guard's own excluded prefix, but not to the origin.
    '/_robots/..%2Fprivate/secret.txt',
  ])(
    '%s: served by the origin directly, refused through the guard with the rule and its line',
    async (path) => {
      const plain = await direct(path)
      expect(plain.status, `the origin serves ${path}`).toBe(200)
      expect(await plain.text()).toBe(SECRET)
      const { send, events } = app()
      const served = (await (await send('/robots.txt')).text()).split('\n')
      const line = served.indexOf('Disallow: /private/') + 1
      expect(line).toBeGreaterThan(0)
      const res = await send(path)
      expect(res.status, path).toBe(403)
      expect(await res.text()).not.toContain(SECRET)
      const judged = events.filter((event) => event.type === 'request')
      expect(judged).toHaveLength(1)
      expect(judged[0]).toMatchObject({ allowed: false, action: 'block', group: 'bingbot', rule: { type: 'disallow', pattern: '/private/', line } })
    },
    10_000,
  )
})

describe('allowed requests', () => {
  it.each(['/public/page.txt', '/public//page.txt', '/x/..%2Fpublic/page.txt'])(
    '%s passes, and reaches the origin as the client sent it',
    async (path) => {
      const res = await app().send(path)
      expect(res.status, path).toBe(200)
      expect(await res.text()).toBe('a public page')
      // The origin logs each request line; the guard never rewrote the path.
      await expect.poll(() => originLog.includes(`"GET ${path} HTTP/1.1" 200`), { timeout: 2000 }).toBe(true)
    },
    10_000,
  )
})
