import type { AgentEntry } from '../types.ts'

/** Advertising verification, security scanners and webhook senders. */
export const otherAgents = [
  { id: 'criteobot', tokens: ['criteobot'], uaNames: ['CriteoBot'], operator: 'Criteo', category: 'Advertising & Marketing', purpose: 'analysis', obeysRobotsTxt: true, docs: 'https://www.criteo.com/criteo-crawler/' },
  { id: 'proximic', tokens: ['proximic'], uaNames: ['proximic'], operator: 'Comscore', category: 'Advertising & Marketing', purpose: 'analysis', obeysRobotsTxt: true, docs: 'https://www.comscore.com/Web-Crawler' },
  { id: 'grapeshotcrawler', tokens: ['grapeshotcrawler'], uaNames: ['GrapeshotCrawler'], operator: 'Oracle (Grapeshot)', category: 'Advertising & Marketing', purpose: 'analysis', obeysRobotsTxt: true, docs: 'http://www.grapeshot.co.uk/crawler.php' },
  { id: 'ttd-content', tokens: ['ttd-content'], uaNames: ['TTD-Content'], operator: 'The Trade Desk', category: 'Advertising & Marketing', purpose: 'analysis', obeysRobotsTxt: true, docs: 'https://www.thetradedesk.com/general/ttd-content' },
  { id: 'amazonadbot', tokens: ['amazonadbot'], uaNames: ['AmazonAdBot'], operator: 'Amazon Ads', category: 'Advertising & Marketing', purpose: 'analysis', obeysRobotsTxt: true, docs: 'https://adbot.amazon.com/' },
  { id: 'zoominfobot', tokens: ['zoominfobot'], uaNames: ['ZoominfoBot'], operator: 'ZoomInfo', category: 'Advertising & Marketing', purpose: 'analysis', obeysRobotsTxt: true, docs: 'https://www.zoominfo.com/' },
  { id: 'censysinspect', tokens: ['censysinspect'], uaNames: ['CensysInspect'], operator: 'Censys', category: 'Security', purpose: 'analysis', obeysRobotsTxt: true, docs: 'https://about.censys.io/' },
  { id: 'internetmeasurement', tokens: ['internetmeasurement'], uaNames: ['InternetMeasurement'], operator: 'Driftnet', category: 'Security', purpose: 'analysis', obeysRobotsTxt: true, docs: 'https://internet-measurement.com/' },
  // Expanse's header is a sentence: "Expanse, a Palo Alto Networks company, searches across ...".
  { id: 'expanse', tokens: ['expanse'], uaNames: ['Expanse'], operator: 'Palo Alto Networks (Cortex Xpanse)', category: 'Security', purpose: 'analysis', obeysRobotsTxt: true, docs: 'https://www.paloaltonetworks.com/cortex/cortex-xpanse' },
  { id: 'github-hookshot', tokens: ['github-hookshot'], uaNames: ['GitHub-Hookshot'], operator: 'GitHub', category: 'Webhooks', purpose: 'service', obeysRobotsTxt: true, docs: 'https://docs.github.com/en/webhooks/webhook-events-and-payloads#delivery-headers' },
  { id: 'stripe-webhooks', tokens: ['stripe'], uaNames: ['Stripe'], operator: 'Stripe', category: 'Webhooks', purpose: 'service', obeysRobotsTxt: true, verification: { ipRanges: [{ url: 'https://stripe.com/files/ips/ips_webhooks.txt', format: 'ip-lines' }] }, docs: 'https://docs.stripe.com/ips' },
  { id: 'shopify-captain-hook', tokens: ['shopify-captain-hook'], uaNames: ['Shopify-Captain-Hook'], operator: 'Shopify', category: 'Webhooks', purpose: 'service', obeysRobotsTxt: true, docs: 'https://shopify.dev/docs/apps/build/webhooks' },
  { id: 'bitbucket-webhooks', tokens: ['bitbucket-webhooks'], uaNames: ['Bitbucket-Webhooks'], operator: 'Atlassian (Bitbucket)', category: 'Webhooks', purpose: 'service', obeysRobotsTxt: true, docs: 'https://support.atlassian.com/bitbucket-cloud/docs/manage-webhooks/' },
] as const satisfies readonly AgentEntry[]
