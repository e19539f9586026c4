import { DEFAULTS, type ConfigInput } from '../core/config/index.ts'
import { visible } from '../core/visible.ts'
import { normalizeHost, policyFor } from './config.ts'
import { UsageError } from './errors.ts'
import { columns, count, printJson } from './format.ts'
import { styleFor, type Io, type Style } from './io.ts'
import { compareRobotsTxt, type FileComparison, type FileDifference } from './verify-compare.ts'
import { fetchRobotsTxt, Unreachable, type FetchedRobotsTxt, type HttpOptions } from './verify-fetch.ts'
import { planProbes, sendProbes, type Probe } from './verify-probes.ts'

export interface VerifyOptions extends HttpOptions {
  readonly config: ConfigInput
  /** The site: `https://example.com` (any path is ignored). */
  readonly url: string
  /** The host whose rules are expected. Default: the URL's. */
  readonly host?: string | undefined
  /** Default: `production`. */
  readonly env?: string | undefined
  readonly json?: boolean | undefined
}

/** Who fetches the file: named, so it can be found in the site's logs; no crawler, so never judged. */
const FETCHER_UA = 'robots-edge-verify/1.0'

/** Exit codes: everything matches, something differs, the site could not be checked. */
export const VERIFY_EXIT = { same: 0, different: 1, unchecked: 2 } as const

function originOf(target: string): URL {
  let url: URL
  try {
    url = new URL(target)
  } catch {
    throw new UsageError(`"${target}" is not a URL: write the site's address, e.g. https://example.com.`)
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new UsageError(`"${target}" is not an http(s) URL: write e.g. https://example.com.`)
  return new URL(url.origin)
}

/** What a status other than success means to a crawler (RFC 9309 §2.3.1), as a difference from the configured file. */
function statusMeaning(fetched: FetchedRobotsTxt): string | null {
  const s = fetched.status
  if (fetched.tooManyRedirects) return `more than ${fetched.redirects.length} redirects: crawlers may treat robots.txt as unavailable and crawl everything (RFC 9309 §2.3.1.2)`
  if (s >= 200 && s <= 299) return null
  if (s >= 400 && s <= 499) return `status ${s}: robots.txt is "unavailable", and crawlers may access everything (RFC 9309 §2.3.1.3); the configured rules are not in force`
  if (s >= 500 && s <= 599) return `status ${s}: robots.txt is "unreachable", and crawlers must assume everything is disallowed (RFC 9309 §2.3.1.4)`
  return `status ${s}: no robots.txt was served`
}

const KIND_LABEL: Record<FileDifference['kind'], string> = {
  'missing-group': 'missing group',
  'extra-group': 'extra group',
  'rule-added': 'rule added',
  'rule-removed': 'rule removed',
  'record-added': 'line added',
  'record-removed': 'line removed',
  'sitemap-added': 'sitemap added',
  'sitemap-removed': 'sitemap removed',
}

function where(d: FileDifference, managed: boolean): string {
  const origin = d.prepended ? (managed ? " · from Cloudflare's managed robots.txt" : ' · from the prepended text') : ''
  return `${d.file === 'live' ? 'live' : 'configured'} line ${d.line}${origin}`
}

function differenceRows(comparison: FileComparison, style: Style): string[][] {
  const managed = comparison.prepended?.managed === true
  return comparison.differences.map((d) => {
    let text = visible(d.text)
    if (d.kind === 'extra-group' || d.kind === 'missing-group') text += d.detail && d.detail.length > 0 ? ` (${visible(d.detail.join('; '))})` : ' (no rules)'
    return [style.yellow(KIND_LABEL[d.kind]), d.token === null ? '' : visible(d.token), text, style.dim(where(d, managed))]
  })
}

function probeRow(p: Probe, style: Style): string[] {
  const expected = p.expectRefused ? 'refused' : 'not refused'
  const got = p.status === null ? visible(p.error ?? 'no answer') : `${p.status}${p.refused ? ' (refused by the guard)' : ''}`
  const mode = p.mode === null ? 'people are never judged' : `${p.mode} mode, group ${p.group}`
  return [p.ok ? style.green('ok') : style.red('DIFFERS'), visible(p.agent), p.path, `${got}; expected ${expected}`, style.dim(mode)]
}

/** Why the crawler requests are honest, and what the guard does with them. */
const PROBE_NOTE = [
  "The crawler requests come from this machine, not from the crawlers' published addresses, and their",
  'User-Agent says robots-edge-verify: the guard judges each as a spoofed claim (unchecked while the',
  "operators' IP ranges are not loaded), which the report lists apart, never against the crawler. It",
  'refuses one on a disallowed path in block mode exactly as it refuses the real crawler.',
]

/**
 * `verify`: is the live site serving and enforcing what the config says?
 * Fetches `<origin>/robots.txt`, compares it with what the config renders
 * for the host and environment, as RFC 9309 reads both (naming each
 * difference, and Cloudflare's managed robots.txt when the zone prepends
 * it), then sends a few requests as the crawlers the config disallows
 * somewhere, and as a browser, and checks the guard's answers. Exit 0 when
 * all match, 1 on any difference, 2 when the site cannot be reached.
 */
export async function verify(options: VerifyOptions, io: Io): Promise<number> {
  const style = styleFor(io)
  const origin = originOf(options.url)
  const host = normalizeHost(options.host ?? origin.hostname)
  const env = options.env || DEFAULTS.env
  const { policy, fallback } = policyFor(options.config, host, env)
  if (fallback !== undefined && !options.json) io.err(fallback)

  let fetched: FetchedRobotsTxt
  try {
    fetched = await fetchRobotsTxt(origin.href, FETCHER_UA, options)
  } catch (error) {
    if (!(error instanceof Unreachable)) throw error
    if (options.json) printJson(io, { ok: false, error: error.message, url: origin.href, host, env })
    // The message may quote a Location header: shown with its hidden characters as escapes.
    else io.err(`robots-edge: ${visible(error.message)}. Nothing was compared.`)
    return VERIFY_EXIT.unchecked
  }

  const meaning = statusMeaning(fetched)
  const comparison = fetched.text === null ? null : compareRobotsTxt(fetched.text, policy.text)
  // The guard is checked where the file was served (after an http → https redirect, say).
  const base = new URL(new URL(fetched.finalUrl).origin)
  const { probes: planned, skipped } = planProbes(policy, base)
  const probes = await sendProbes(planned, base, policy.config.guard, options)
  const fileDifferences = (comparison?.differences.length ?? 0) + (meaning === null ? 0 : 1) + (fetched.truncated ? 1 : 0)
  const probeDifferences = probes.filter((p) => !p.ok).length
  const same = fileDifferences === 0 && probeDifferences === 0
  const servedVersion = fetched.etag?.match(/^(?:W\/)?"([0-9a-z]+)"$/)?.[1] ?? null

  if (options.json) {
    printJson(io, {
      ok: same,
      url: origin.href,
      host,
      env,
      robotsTxt: {
        url: fetched.url,
        finalUrl: fetched.finalUrl,
        redirects: fetched.redirects,
        status: fetched.status,
        problem: meaning,
        truncated: fetched.truncated,
        identical: comparison?.identical ?? false,
        version: policy.version,
        servedVersion,
      },
      prepended: comparison?.prepended ?? null,
      differences: comparison?.differences ?? [],
      probes,
      skipped,
      ...(fallback === undefined ? {} : { fallback }),
    })
    return same ? VERIFY_EXIT.same : VERIFY_EXIT.different
  }

  io.out(style.bold(`robots-edge verify ${origin.origin}`) + style.dim(` · rules of ${host} · ${env}`))
  io.out('')
  const hops = fetched.redirects.map((r) => ` → ${r.status} ${visible(r.location)}`).join('')
  io.out(`${style.bold('robots.txt')}  ${fetched.url}${hops} · ${fetched.status}`)
  if (meaning !== null) io.out(`  ${style.red('DIFFERS')}  ${meaning}`)
  if (fetched.truncated) io.out(`  ${style.red('DIFFERS')}  longer than 500 KiB: crawlers may ignore the rest (RFC 9309 §2.5); the first 500 KiB were compared`)
  if (comparison !== null) {
    const version =
      servedVersion === null
        ? ''
        : servedVersion === policy.version
          ? ` (ETag: this config's version ${policy.version})`
          : ` (ETag "${visible(servedVersion)}", the config renders version ${policy.version})`
    io.out(`  ${comparison.identical ? 'byte for byte the configured file' : 'not byte for byte the configured file'}${version}`)
    const p = comparison.prepended
    if (p !== null) {
      const what = p.managed ? "Cloudflare's managed robots.txt" : 'Text'
      const groups = p.tokens.length === 0 ? 'no groups' : `groups for ${visible(p.tokens.join(', '))}`
      io.out(`  ${style.yellow(what)} is prepended to the Worker's file: lines ${p.fromLine}-${p.toLine} (${groups}), recognised by ${p.evidence}.`)
      if (p.managed) io.out(`  ${style.dim("Turn off the zone's managed robots.txt in the Cloudflare dashboard to serve the configured file alone.")}`)
    }
    if (comparison.differences.length === 0) io.out(`  ${style.green('same rules')} as RFC 9309 reads them (groups by product token, merged; rules as sets)`)
    else {
      io.out(`  ${count(comparison.differences.length, 'difference')} as RFC 9309 reads them (groups by product token, merged; rules as sets):`)
      for (const line of columns(differenceRows(comparison, style), '    ')) io.out(line)
      if (comparison.differences.some((d) => d.kind === 'extra-group' && d.token === '*'))
        io.out(`  ${style.dim('RFC 9309 §2.2.1 merges the * groups; readers that take the first * group only (Python urllib.robotparser) read the first one alone.')}`)
    }
  }
  io.out('')
  io.out(`${style.bold('Guard')}  ${base.origin}`)
  for (const line of columns(
    probes.map((p) => probeRow(p, style)),
    '  ',
  ))
    io.out(line)
  for (const s of skipped) io.out(`  ${style.dim(`not sent for ${visible(s.tokens.slice(0, 4).join(', '))}${s.tokens.length > 4 ? ` and ${s.tokens.length - 4} more` : ''}: ${s.reason}`)}`)
  if (probes.length > 1) for (const line of PROBE_NOTE) io.out(`  ${style.dim(line)}`)
  io.out('')
  const total = fileDifferences + probeDifferences
  io.out(same ? style.green('The live site serves and enforces the configured rules.') : style.red(`${count(total, 'difference')}: the live site is not what the config says.`))
  return same ? VERIFY_EXIT.same : VERIFY_EXIT.different
}
