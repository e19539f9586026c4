// The config's `alerts`: names of secrets only (a URL is refused, with the
// fix), whole-number thresholds, defaults; and the webhook URL's own check.
import { describe, expect, it } from 'vitest'
import { ALERT_DEFAULTS, resolveAlerts, webhookUrlProblem } from '../../../src/core/config/alerts.ts'
import { checkConfig, ConfigError, defineConfig } from '../../../src/core/config/index.ts'

const rules = { userAgent: '*', disallow: '/admin/' }

function errorsOf(alerts: unknown) {
  try {
    resolveAlerts({ rules, alerts })
    return []
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error
    return error.issues.map((i) => ({ path: i.path, message: i.message, fix: i.fix }))
  }
}

describe('alerts in the config', () => {
  it('is off when absent, and fills in every default when set', () => {
    expect(resolveAlerts({ rules })).toBeNull()
    expect(resolveAlerts({ rules, alerts: {} })).toEqual(ALERT_DEFAULTS)
    expect(resolveAlerts({ rules, alerts: { webhook: undefined, newClientRequests: undefined } })).toEqual(ALERT_DEFAULTS)
    expect(resolveAlerts({ rules, alerts: { webhook: 'SLACK_HOOK', spoofedRequests: 5 } })).toEqual({ ...ALERT_DEFAULTS, webhook: 'SLACK_HOOK', spoofedRequests: 5 })
  })

  it('refuses a URL in place of a secret name, and says how to keep it secret', () => {
    expect(errorsOf({ webhook: 'https://hooks.slack.com/services/T0/B0/XYZ' })).toEqual([
      {
        path: 'alerts.webhook',
        message: 'is a URL: a webhook URL is a credential (whoever holds it can post), and robots.config.ts is committed.',
        fix: "Name the Worker secret that holds it, e.g. webhook: 'ROBOTS_ALERT_WEBHOOK', and run `wrangler secret put ROBOTS_ALERT_WEBHOOK` (locally: a line in .dev.vars).",
      },
    ])
  })

  it('names each wrong field and its fix', () => {
    expect(errorsOf({ secret: 'my key', newClientRequests: 0, spoofedRequests: 2.5, url: 'x' }).map((e) => [e.path, e.message])).toEqual([
      ['alerts.url', 'is not a known option.'],
      ['alerts.secret', '"my key" is not the name of a Worker secret.'],
      ['alerts.newClientRequests', '0 is not a whole number of requests above 0.'],
      ['alerts.spoofedRequests', '2.5 is not a whole number of requests above 0.'],
    ])
    expect(errorsOf('on')).toEqual([{ path: 'alerts', message: 'is not an object.', fix: "Write alerts: { webhook: 'ROBOTS_ALERT_WEBHOOK' }, or remove it." }])
  })

  it('fails checkConfig (npm test, robots-edge validate, deploys) on a bad one, in every context', () => {
    const bad = defineConfig(({ env }) => ({ rules, alerts: env === 'staging' ? { webhook: 'http://x.example/hook' } : {} }))
    expect(() => checkConfig(bad)).toThrow(/alerts\.webhook: is a URL/)
    expect(() => checkConfig(defineConfig({ rules, alerts: { webhook: 'HOOK' } }))).not.toThrow()
  })
})

describe('the webhook URL read from the secret', () => {
  it('is https, or http to this machine only', () => {
    expect(webhookUrlProblem('https://hooks.slack.com/services/T0/B0/XYZ', 'H')).toBeNull()
    expect(webhookUrlProblem('http://localhost:8787/hook', 'H')).toBeNull()
    expect(webhookUrlProblem('http://127.0.0.1/hook', 'H')).toBeNull()
    expect(webhookUrlProblem('http://[::1]:9/hook', 'H')).toBeNull()
    expect(webhookUrlProblem('http://hooks.example.com/secret-path', 'H')).toBe(
      'the secret H is a http: URL to hooks.example.com: webhooks are posted over https only (http only to localhost or 127.0.0.1, for local development)',
    )
    expect(webhookUrlProblem('not a url', 'H')).toBe("the secret H is not a URL; set it to the webhook's https URL (wrangler secret put H)")
    // The path, which is the credential, is never repeated.
    expect(webhookUrlProblem('ftp://hooks.example.com/secret-path', 'H')).not.toContain('secret-path')
  })
})
