/**
 * Vitest global setup of the browser tests: finds a Chromium, or installs
 * one by the platform's usual route, and says which. Never skips: with no
 * browser to be had, the run fails and names what it tried.
 *   1. CHROMIUM_PATH, when set;
 *   2. the system's (Debian's chromium, Chrome);
 *   3. one Playwright installed before (~/.cache/ms-playwright);
 *   4. Playwright's installer, where the network reaches its download host;
 *   5. apt-get on Debian or Ubuntu, as root.
 * The tests read the path with `inject('chromium')`.
 */
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'
import { chromium } from 'playwright-core'
import type { TestProject } from 'vitest/node'

declare module 'vitest' {
  export interface ProvidedContext {
    /** The Chromium executable the browser tests launch. */
    chromium: string
  }
}

const run = promisify(execFile)
const SYSTEM = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome-stable',
  '/usr/bin/google-chrome',
  '/snap/bin/chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
]

const say = (line: string) => console.log(`e2e: ${line}`)
const reason = (error: unknown) => ((error as { stderr?: string }).stderr?.trim().split('\n').at(-1) ?? (error as Error).message ?? String(error)).slice(0, 300)

async function playwrightInstall(): Promise<string> {
  const cli = join(dirname(createRequire(import.meta.url).resolve('playwright-core/package.json')), 'cli.js')
  await run(process.execPath, [cli, 'install', 'chromium'], { timeout: 300_000 })
  const path = chromium.executablePath()
  if (!existsSync(path)) throw new Error(`the installer finished but ${path} is missing`)
  return path
}

async function aptInstall(): Promise<string> {
  if (!existsSync('/etc/debian_version')) throw new Error('not Debian or Ubuntu')
  if (process.getuid?.() !== 0) throw new Error('not root (run: sudo apt-get install -y chromium)')
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  await run('apt-get', ['update'], { env, timeout: 300_000 })
  await run('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], { env, timeout: 600_000 })
  const path = SYSTEM.find((p) => existsSync(p))
  if (!path) throw new Error('apt-get installed chromium, but no executable was found')
  return path
}

export async function findChromium(): Promise<string> {
  const explicit = process.env.CHROMIUM_PATH
  if (explicit) {
    if (!existsSync(explicit)) throw new Error(`CHROMIUM_PATH is ${explicit}, which does not exist.`)
    say(`Chromium from CHROMIUM_PATH: ${explicit}`)
    return explicit
  }
  const system = SYSTEM.find((p) => existsSync(p))
  if (system) {
    say(`the system's Chromium: ${system}`)
    return system
  }
  const cached = chromium.executablePath()
  if (existsSync(cached)) {
    say(`Playwright's Chromium, installed before: ${cached}`)
    return cached
  }
  const tried: string[] = []
  for (const [route, install] of [
    ["Playwright's installer", playwrightInstall],
    ['apt-get', aptInstall],
  ] as const) {
    say(`no Chromium found; installing one with ${route}...`)
    try {
      const path = await install()
      say(`installed Chromium with ${route}: ${path}`)
      return path
    } catch (error) {
      tried.push(`${route}: ${reason(error)}`)
      say(`${route} did not work: ${reason(error)}`)
    }
  }
  throw new Error(
    `No Chromium for the browser tests. Looked for CHROMIUM_PATH, ${SYSTEM.join(', ')} and Playwright's cache; tried ${tried.join('; ')}. Install one (Debian/Ubuntu: apt-get install chromium; elsewhere: npx playwright-core install chromium) or set CHROMIUM_PATH.`,
  )
}

export default async function provideChromium(project: TestProject): Promise<void> {
  project.provide('chromium', await findChromium())
}
