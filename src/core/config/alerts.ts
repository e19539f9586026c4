/**
 * The config's `alerts`: its check, its defaults and the check of the
 * webhook URL read from a secret. Pure, so the admin Worker (which posts),
 * the CLI and the tests share it.
 */
import type { AlertsConfig } from './types.ts'
import { ConfigError, isObject, show, unknownKeys, type Issues } from './validate-fields.ts'

const ALERT_KEYS = ['webhook', 'secret', 'newClientRequests', 'spoofedRequests'] as const satisfies readonly (keyof AlertsConfig)[]
type Exhaustive<Listed, All> = [Exclude<All, Listed>] extends [never] ? true : Exclude<All, Listed>
const exhaustive: Exhaustive<(typeof ALERT_KEYS)[number], keyof AlertsConfig> = true
void exhaustive

/** Every default of `alerts`, declared once. */
export const ALERT_DEFAULTS = {
  webhook: 'ROBOTS_ALERT_WEBHOOK',
  secret: 'ROBOTS_ALERT_SECRET',
  newClientRequests: 100,
  spoofedRequests: 100,
} as const

/** `alerts` with its defaults filled in. */
export type ResolvedAlerts = { readonly [K in keyof AlertsConfig]-?: Exclude<AlertsConfig[K], undefined> }

/** What a Worker binding's name may be (a JavaScript identifier, as `env.NAME` reads it). */
const BINDING_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/

function checkSecretName(value: unknown, path: string, fallback: string, out: Issues): void {
  if (typeof value === 'string' && /^[a-z][a-z0-9+.-]*:/i.test(value)) {
    out.push({
      path,
      message: 'is a URL: a webhook URL is a credential (whoever holds it can post), and robots.config.ts is committed.',
      fix: `Name the Worker secret that holds it, e.g. ${path.split('.').pop()}: '${fallback}', and run \`wrangler secret put ${fallback}\` (locally: a line in .dev.vars).`,
    })
  } else if (typeof value !== 'string' || !BINDING_NAME.test(value)) {
    out.push({ path, message: `${show(value)} is not the name of a Worker secret.`, fix: `Write a binding name such as '${fallback}' (letters, digits and "_").` })
  }
}

function checkCount(value: unknown, path: string, out: Issues): void {
  if (!(Number.isInteger(value) && (value as number) >= 1))
    out.push({ path, message: `${show(value)} is not a whole number of requests above 0.`, fix: 'Write e.g. 100, or remove it for the default.' })
}

/** Checks `alerts`: unknown keys, secret names (never URLs), thresholds. */
export function checkAlerts(value: unknown, out: Issues): void {
  if (!isObject(value)) {
    out.push({ path: 'alerts', message: 'is not an object.', fix: "Write alerts: { webhook: 'ROBOTS_ALERT_WEBHOOK' }, or remove it." })
    return
  }
  unknownKeys(value, ALERT_KEYS, 'alerts', out)
  if (value.webhook !== undefined) checkSecretName(value.webhook, 'alerts.webhook', ALERT_DEFAULTS.webhook, out)
  if (value.secret !== undefined) checkSecretName(value.secret, 'alerts.secret', ALERT_DEFAULTS.secret, out)
  if (value.newClientRequests !== undefined) checkCount(value.newClientRequests, 'alerts.newClientRequests', out)
  if (value.spoofedRequests !== undefined) checkCount(value.spoofedRequests, 'alerts.spoofedRequests', out)
}

/**
 * A config's `alerts` with its defaults, or null when it sets none. Throws
 * ConfigError, naming the field and the fix, when they are invalid.
 */
export function resolveAlerts(config: unknown): ResolvedAlerts | null {
  const alerts = isObject(config) ? config.alerts : undefined
  if (alerts === undefined) return null
  const errors: Issues = []
  checkAlerts(alerts, errors)
  if (errors.length > 0) throw new ConfigError(errors)
  // A key written as `undefined` takes its default, as one left out does.
  const set = Object.entries(alerts as AlertsConfig).filter(([, v]) => v !== undefined)
  return { ...ALERT_DEFAULTS, ...Object.fromEntries(set) }
}

/** Hosts a webhook may be reached over plain http: a receiver on this machine, for `wrangler dev` and tests. */
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]'])

/**
 * Why the webhook URL read from `secret` cannot be posted to, or null when
 * it can: https anywhere (the message and its signature must not travel in
 * clear), http only to this machine.
 */
export function webhookUrlProblem(url: string, secret: string): string | null {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return `the secret ${secret} is not a URL; set it to the webhook's https URL (wrangler secret put ${secret})`
  }
  if (parsed.protocol === 'https:') return null
  if (parsed.protocol === 'http:' && LOOPBACK.has(parsed.hostname)) return null
  return `the secret ${secret} is a ${parsed.protocol} URL to ${parsed.hostname}: webhooks are posted over https only (http only to localhost or 127.0.0.1, for local development)`
}
