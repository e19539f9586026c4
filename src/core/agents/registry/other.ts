import type { AgentEntry } from '../types.ts'
import { agent } from './define.ts'

/** Advertising verification, security scanners and webhook senders. */
export const otherAgents = [
  agent('CriteoBot', 'Criteo', 'Advertising & Marketing', 'analysis'),
  agent('proximic', 'Comscore', 'Advertising & Marketing', 'analysis'),
  agent('GrapeshotCrawler', 'Oracle (Grapeshot)', 'Advertising & Marketing', 'analysis'),
  agent('TTD-Content', 'The Trade Desk', 'Advertising & Marketing', 'analysis'),
  agent('AmazonAdBot', 'Amazon Ads', 'Advertising & Marketing', 'analysis'),
  agent('ZoominfoBot', 'ZoomInfo', 'Advertising & Marketing', 'analysis'),
  agent('CensysInspect', 'Censys', 'Security', 'analysis'),
  agent('InternetMeasurement', 'Driftnet', 'Security', 'analysis'),
  // Expanse's header is a sentence: "Expanse, a Palo Alto Networks company, searches across ...".
  agent('Expanse', 'Palo Alto Networks (Cortex Xpanse)', 'Security', 'analysis'),
  agent('GitHub-Hookshot', 'GitHub', 'Webhooks', 'service'),
  agent('Stripe', 'Stripe', 'Webhooks', 'service', { id: 'stripe-webhooks', verification: { ipRanges: [{ url: 'https://stripe.com/files/ips/ips_webhooks.txt', format: 'ip-lines' }] } }),
  agent('Shopify-Captain-Hook', 'Shopify', 'Webhooks', 'service'),
  agent('Bitbucket-Webhooks', 'Atlassian (Bitbucket)', 'Webhooks', 'service'),
] as const satisfies readonly AgentEntry[]
