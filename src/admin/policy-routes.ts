/**
 * The policy's own routes under /_robots/api: the history of each
 * host's robots.txt, one version's text, and the replay of recorded crawler
 * traffic against a candidate robots.txt. Mounted by reportRoutes, behind
 * the same admin token and headers; bounds and errors as the report's.
 */
import type { Context, Hono } from 'hono'
import type { AdminEnv } from './env.ts'
import { agents } from '../core/agents/index.ts'
import { readBoundedText } from '../core/http/bounded-body.ts'
import { DEFAULTS } from '../core/config/index.ts'
import { MAX_FILE_BYTES } from '../core/robots/index.ts'
import { getHistory, getVersionText } from './history.ts'
import { getImpact, type ImpactFilter } from './impact-queries.ts'
import { BadParam, failure, filterOf, HOST, hostParam, ledgerOf, readQuery, text } from './params.ts'

/** The largest request body the impact route reads: a few candidate files. */
export const MAX_IMPACT_BODY = 4 * 1024 * 1024
const MAX_HOSTS = 200
/** Agents listed in one answer, worst first (the summary counts them all). */
const MAX_AGENTS = 500
const MAX_TOKENS = 2000
const TOKEN = /^(\*|[a-z_-]{1,64})$/i
const VERSION = /^[0-9a-z_-]{1,64}$/i

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** The body as text, refused beyond `max` bytes whether or not it says its length. */
async function readBody(request: Request, max: number): Promise<string> {
  const text = await readBoundedText(request, max)
  if (text === null) throw new BadParam('body', `is over ${max} bytes, the most this route reads`)
  return text
}

function robotsTxt(name: string, value: unknown): string {
  if (typeof value !== 'string') throw new BadParam(name, 'is not a robots.txt text (a string)')
  if (new TextEncoder().encode(value).length > MAX_FILE_BYTES) throw new BadParam(name, `is over ${MAX_FILE_BYTES / 1024} KiB, more than crawlers read (RFC 9309 §2.5)`)
  return value
}

/** The candidate per host (`*`: every host not named). */
function candidatesOf(value: unknown): Map<string, string> {
  if (typeof value === 'string') return new Map([['*', robotsTxt('robotsTxt', value)]])
  if (!isObject(value)) throw new BadParam('robotsTxt', 'is missing: send the candidate robots.txt, or an object of them by host ("*" for every other host)')
  const entries = Object.entries(value)
  if (entries.length === 0 || entries.length > MAX_HOSTS) throw new BadParam('robotsTxt', `must name from 1 to ${MAX_HOSTS} hosts`)
  return new Map(
    entries.map(([host, text]) => {
      if (host !== '*' && (!HOST.test(host) || host !== host.toLowerCase())) throw new BadParam(`robotsTxt.${host.slice(0, 80)}`, 'is not a host name as the ledger keys it (lower case)')
      return [host, robotsTxt(`robotsTxt.${host}`, text)]
    }),
  )
}

function tokensOf(name: string, value: unknown, fallback: readonly string[]): Set<string> {
  if (value === undefined) return new Set(fallback.map((t) => t.toLowerCase()))
  if (!Array.isArray(value) || value.length > MAX_TOKENS) throw new BadParam(name, `must be a list of at most ${MAX_TOKENS} product tokens`)
  return new Set(
    value.map((t, i) => {
      if (typeof t !== 'string' || !TOKEN.test(t)) throw new BadParam(`${name}[${i}]`, 'is not a product token (letters, "-" and "_")')
      return t.toLowerCase()
    }),
  )
}

const BODY_KEYS = ['robotsTxt', 'exempt', 'protect']

/** The impact request: the range from the query, the candidate and the lists from the JSON body. Throws BadParam. */
async function impactRequestOf(c: Context<AdminEnv>, now: number) {
  const filter: ImpactFilter = filterOf(new URL(c.req.url), now, ['since', 'until', 'host', 'agent'])
  let body: unknown
  try {
    body = JSON.parse(await readBody(c.req.raw, MAX_IMPACT_BODY))
  } catch (error) {
    if (error instanceof BadParam) throw error
    throw new BadParam('body', 'is not JSON: send {"robotsTxt": "User-agent: *\\nDisallow: /x/\\n"}')
  }
  if (!isObject(body)) throw new BadParam('body', 'is not a JSON object')
  for (const key of Object.keys(body)) if (!BODY_KEYS.includes(key)) throw new BadParam(key.slice(0, 80), `unknown field; the body takes ${BODY_KEYS.join(', ')}`)
  return {
    filter,
    candidates: candidatesOf(body.robotsTxt),
    exempt: tokensOf('exempt', body.exempt, DEFAULTS.guard.exempt),
    protect: tokensOf('protect', body.protect, agents.searchEngines),
  }
}

/** Mounts the history routes and the impact route under `api` (e.g. /_robots/api). Auth and headers are the caller's. */
export function policyRoutes(app: Hono<AdminEnv>, api: string, now: () => number): void {
  app.get(`${api}/history`, async (c) => {
    try {
      const host = hostParam(readQuery(new URL(c.req.url), ['host']).get('host'))
      return c.json(await getHistory(ledgerOf(c), host === undefined ? {} : { host }))
    } catch (error) {
      return failure(c, error)
    }
  })
  app.get(`${api}/history/version`, async (c) => {
    try {
      const q = readQuery(new URL(c.req.url), ['host', 'version'])
      const host = hostParam(q.get('host'))
      const version = text('version', q.get('version'), 64, VERSION, 'a version (its hash, as /api/history lists it)')
      if (host === undefined || version === undefined) throw new BadParam(host === undefined ? 'host' : 'version', 'is missing')
      const found = await getVersionText(ledgerOf(c), host, version)
      return found ? c.json(found) : c.json({ error: `no version ${version} of ${host}'s robots.txt is stored` }, 404)
    } catch (error) {
      return failure(c, error)
    }
  })
  app.post(`${api}/impact`, async (c) => {
    try {
      const { filter, ...options } = await impactRequestOf(c, now())
      const impact = await getImpact(ledgerOf(c), filter, options)
      // Agents are keyed by their own tokens, so a client inventing names could grow the document: the worst MAX_AGENTS are listed.
      return c.json({ ...impact, agents: impact.agents.slice(0, MAX_AGENTS), omitted: Math.max(0, impact.agents.length - MAX_AGENTS) })
    } catch (error) {
      return failure(c, error)
    }
  })
}
