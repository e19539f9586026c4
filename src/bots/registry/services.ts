import type { AgentEntry } from '../types.ts'

const CLOUDFLARE = 'https://developers.cloudflare.com/'
const APPLE_DOMAINS = 'https://developer.apple.com/documentation/xcode/supporting-associated-domains'
const LEAKIX = 'https://leakix.net'

/**
 * Services a site or its owner signed up for: synthetic monitors and health
 * checks, webhook senders, certificate and domain validation; plus security
 * scanners, audit tools and link previews that name themselves.
 */
export const serviceAgents = [
  // Synthetic monitors and health checks.
  { id: 'ruxitsynthetic', tokens: ['ruxitsynthetic'], uaNames: ['RuxitSynthetic'], operator: 'Dynatrace', category: 'Monitoring & Analytics', purpose: 'service', obeysRobotsTxt: true, docs: 'https://docs.dynatrace.com/docs/observe/digital-experience/synthetic-monitoring' },
  { id: 'newrelicsynthetics', tokens: ['newrelicsynthetics'], uaNames: ['NewRelicSynthetics'], operator: 'New Relic', category: 'Monitoring & Analytics', purpose: 'service', obeysRobotsTxt: true, docs: 'https://docs.newrelic.com/docs/synthetics/synthetic-monitoring/administration/identify-synthetic-monitoring-requests-your-app/' },
  { id: 'kube-probe', tokens: ['kube-probe'], uaNames: ['kube-probe'], operator: 'Kubernetes (the site\'s own cluster)', category: 'Monitoring & Analytics', purpose: 'service', obeysRobotsTxt: true, docs: 'https://kubernetes.io/docs/tasks/configure-pod-container/configure-liveness-readiness-startup-probes/' },
  { id: 'elb-healthchecker', tokens: ['elb-healthchecker'], uaNames: ['ELB-HealthChecker'], operator: 'Amazon (AWS)', category: 'Monitoring & Analytics', purpose: 'service', obeysRobotsTxt: true, docs: 'https://docs.aws.amazon.com/elasticloadbalancing/latest/application/target-group-health-checks.html' },
  { id: 'amazon-route53-health-check-service', tokens: ['amazon-route53-health-check-service'], uaNames: ['Amazon-Route53-Health-Check-Service'], operator: 'Amazon (AWS)', category: 'Monitoring & Analytics', purpose: 'service', obeysRobotsTxt: true, docs: 'https://docs.aws.amazon.com/Route53/latest/DeveloperGuide/dns-failover.html' },
  { id: 'cloudflareobservatory', tokens: ['cloudflareobservatory'], uaNames: ['CloudflareObservatory'], operator: 'Cloudflare', category: 'Monitoring & Analytics', purpose: 'service', obeysRobotsTxt: true, docs: `${CLOUDFLARE}speed/observatory/` },
  { id: 'cloudflarediagnostics', tokens: ['cloudflarediagnostics'], uaNames: ['CloudflareDiagnostics', 'Cloudflare-SSLDetector', 'Cloudflare-SpeedTest'], operator: 'Cloudflare', category: 'Monitoring & Analytics', purpose: 'service', obeysRobotsTxt: true, docs: CLOUDFLARE },
  // WebPageTest's agents append `PTST/<version>` to the browser they drive.
  { id: 'webpagetest', tokens: ['ptst'], uaNames: ['PTST'], operator: 'Catchpoint (WebPageTest)', category: 'Monitoring & Analytics', purpose: 'service', obeysRobotsTxt: true, docs: 'https://docs.webpagetest.org/' },
  { id: 'catchpoint', tokens: ['catchpoint'], uaNames: ['Catchpoint'], operator: 'Catchpoint', category: 'Monitoring & Analytics', purpose: 'service', obeysRobotsTxt: true, docs: 'https://www.catchpoint.com/' },
  { id: 'dotcom-monitor', tokens: ['dmbrowser'], uaNames: ['DMBrowser', 'DMBrowser-BV', 'DMBrowser-UV'], operator: 'Dotcom-Monitor', category: 'Monitoring & Analytics', purpose: 'service', obeysRobotsTxt: true, docs: 'https://www.dotcom-monitor.com/' },
  { id: 'alertsite', tokens: ['dejaclick'], uaNames: ['DejaClick'], operator: 'SmartBear (AlertSite)', category: 'Monitoring & Analytics', purpose: 'service', obeysRobotsTxt: true, docs: 'https://www.alertsite.com/' },
  { id: 'updown', tokens: ['updown.io'], uaNames: ['updown.io daemon', 'updown.io'], operator: 'updown.io', category: 'Monitoring & Analytics', purpose: 'service', obeysRobotsTxt: true, docs: 'https://updown.io/' },
  { id: 'gtmetrix', tokens: ['gtmetrix'], uaNames: ['GTmetrix'], operator: 'GTmetrix', category: 'Monitoring & Analytics', purpose: 'service', obeysRobotsTxt: true, docs: 'https://gtmetrix.com/' },
  { id: 'ghost-inspector', tokens: ['ghost'], uaNames: ['Ghost Inspector'], operator: 'Ghost Inspector', category: 'Monitoring & Analytics', purpose: 'service', obeysRobotsTxt: true, docs: 'https://ghostinspector.com/' },

  // Webhooks and validation requests on the site owner's behalf.
  { id: 'braze-sender', tokens: ['braze'], uaNames: ['Braze Sender'], operator: 'Braze', category: 'Webhooks', purpose: 'service', obeysRobotsTxt: true, docs: 'https://www.braze.com/docs/' },
  { id: 'sendgrid-event-api', tokens: ['sendgrid'], uaNames: ['SendGrid Event API', 'SendGrid'], operator: 'Twilio SendGrid', category: 'Webhooks', purpose: 'service', obeysRobotsTxt: true, docs: 'https://www.twilio.com/docs/sendgrid/for-developers/tracking-events/event' },
  { id: 'azure-logic-apps', tokens: ['azure-logic-apps'], uaNames: ['azure-logic-apps', 'microsoft-flow'], operator: 'Microsoft', category: 'Webhooks', purpose: 'service', obeysRobotsTxt: true, docs: 'https://learn.microsoft.com/azure/logic-apps/' },
  { id: 'cloudflare-stream-hook', tokens: ['cloudflare-stream-hook'], uaNames: ['Cloudflare-Stream-Hook'], operator: 'Cloudflare', category: 'Webhooks', purpose: 'service', obeysRobotsTxt: true, docs: `${CLOUDFLARE}stream/manage-video-library/using-webhooks/` },
  { id: 'sectigo-acme', tokens: ['acme.sectigo.com'], uaNames: ['acme.sectigo.com'], operator: 'Sectigo', category: 'Other', purpose: 'service', obeysRobotsTxt: true, docs: 'https://www.sectigo.com/' },
  { id: 'digicert-dcv', tokens: ['digicert'], uaNames: ['DigiCert DCV'], operator: 'DigiCert', category: 'Other', purpose: 'service', obeysRobotsTxt: true, docs: 'https://docs.digicert.com/' },
  // Apple devices fetch a site's apple-app-site-association file for its apps.
  { id: 'swcd', tokens: ['swcd'], uaNames: ['swcd', 'AppSiteAssociation'], operator: 'Apple', category: 'Other', purpose: 'service', obeysRobotsTxt: true, docs: APPLE_DOMAINS },

  // Security scanners and audits.
  { id: 'leakix', tokens: ['l9explore'], uaNames: ['l9explore', 'l9tcpid', 'l9scan'], operator: 'LeakIX', category: 'Security', purpose: 'analysis', obeysRobotsTxt: true, docs: LEAKIX },
  { id: 'netsystemsresearch', tokens: ['netsystemsresearch'], uaNames: ['NetSystemsResearch'], operator: 'NetSystemsResearch', category: 'Security', purpose: 'analysis', obeysRobotsTxt: true, docs: 'https://www.netsystemsresearch.com' },
  { id: 'securityheaders', tokens: ['securityheaders'], uaNames: ['SecurityHeaders'], operator: 'Snyk (securityheaders.com)', category: 'Security', purpose: 'analysis', obeysRobotsTxt: true, docs: 'https://securityheaders.com' },
  { id: 'hardenize', tokens: ['hardenize'], uaNames: ['Hardenize'], operator: 'Red Sift (Hardenize)', category: 'Security', purpose: 'analysis', obeysRobotsTxt: true, docs: 'https://www.hardenize.com' },
  { id: 'whatcms', tokens: ['whatcms'], uaNames: ['WhatCMS'], operator: 'WhatCMS', category: 'Other', purpose: 'analysis', obeysRobotsTxt: true, docs: 'https://whatcms.org' },
  { id: 'siteimprove', tokens: ['siteimprove'], uaNames: ['Siteimprove', 'Siteimprove.com'], operator: 'Siteimprove', category: 'Search Engine Optimization', purpose: 'analysis', obeysRobotsTxt: true, docs: 'https://siteimprove.com' },
  { id: 'silktide', tokens: ['silktide'], uaNames: ['Silktide'], operator: 'Silktide', category: 'Search Engine Optimization', purpose: 'analysis', obeysRobotsTxt: true, docs: 'https://silktide.com' },
  { id: 'dareboost', tokens: ['dareboost'], uaNames: ['DareBoost'], operator: 'Dareboost', category: 'Monitoring & Analytics', purpose: 'service', obeysRobotsTxt: true, docs: 'https://www.dareboost.com' },

  // Link previews, advertising and feeds.
  { id: 'meta-externalads', tokens: ['meta-externalads'], uaNames: ['meta-externalads'], operator: 'Meta', category: 'Advertising & Marketing', purpose: 'analysis', obeysRobotsTxt: true, docs: 'https://developers.facebook.com/docs/sharing/webmasters/web-crawlers/' },
  { id: 'bingadsbot', tokens: ['bingadsbot'], uaNames: ['bingadsbot'], operator: 'Microsoft', category: 'Advertising & Marketing', purpose: 'analysis', obeysRobotsTxt: true, docs: 'https://www.bing.com/webmasters/help/which-crawlers-does-bing-use-8c184ec0' },
  { id: 'github-camo', tokens: ['github-camo'], uaNames: ['github-camo'], operator: 'GitHub', category: 'Page Preview', purpose: 'user-fetch', obeysRobotsTxt: true, docs: 'https://docs.github.com/en/authentication/keeping-your-account-and-data-secure/about-anonymized-urls' },
  { id: 'discourse-onebox', tokens: ['discourse'], uaNames: ['Discourse Forum Onebox', 'Discourse'], operator: 'Discourse', category: 'Page Preview', purpose: 'user-fetch', obeysRobotsTxt: true, docs: 'https://meta.discourse.org' },
  { id: 'castopod', tokens: ['castopod'], uaNames: ['Castopod'], operator: 'Castopod (self-hosted)', category: 'Feed Fetcher', purpose: 'service', obeysRobotsTxt: true, docs: 'https://castopod.org' },
] as const satisfies readonly AgentEntry[]
