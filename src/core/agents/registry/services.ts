import type { AgentEntry } from '../types.ts'
import { agent } from './define.ts'

/**
 * Services a site or its owner signed up for: synthetic monitors and health
 * checks, webhook senders, certificate and domain validation; plus security
 * scanners, audit tools and link previews that name themselves.
 */
export const serviceAgents = [
  // Synthetic monitors and health checks.
  agent('RuxitSynthetic', 'Dynatrace', 'Monitoring & Analytics', 'service'),
  agent('NewRelicSynthetics', 'New Relic', 'Monitoring & Analytics', 'service'),
  agent('kube-probe', "Kubernetes (the site's own cluster)", 'Monitoring & Analytics', 'service'),
  agent('ELB-HealthChecker', 'Amazon (AWS)', 'Monitoring & Analytics', 'service'),
  agent('Amazon-Route53-Health-Check-Service', 'Amazon (AWS)', 'Monitoring & Analytics', 'service'),
  agent('CloudflareObservatory', 'Cloudflare', 'Monitoring & Analytics', 'service'),
  agent(['CloudflareDiagnostics', 'Cloudflare-SSLDetector', 'Cloudflare-SpeedTest'], 'Cloudflare', 'Monitoring & Analytics', 'service'),
  // WebPageTest's agents append `PTST/<version>` to the browser they drive.
  agent('PTST', 'Catchpoint (WebPageTest)', 'Monitoring & Analytics', 'service', { id: 'webpagetest' }),
  agent('Catchpoint', 'Catchpoint', 'Monitoring & Analytics', 'service'),
  agent(['DMBrowser', 'DMBrowser-BV', 'DMBrowser-UV'], 'Dotcom-Monitor', 'Monitoring & Analytics', 'service', { id: 'dotcom-monitor' }),
  agent('DejaClick', 'SmartBear (AlertSite)', 'Monitoring & Analytics', 'service', { id: 'alertsite' }),
  agent(['updown.io daemon', 'updown.io'], 'updown.io', 'Monitoring & Analytics', 'service', { id: 'updown', tokens: ['updown.io'] }),
  agent('GTmetrix', 'GTmetrix', 'Monitoring & Analytics', 'service'),
  agent('Ghost Inspector', 'Ghost Inspector', 'Monitoring & Analytics', 'service', { id: 'ghost-inspector', tokens: ['ghost'] }),

  // Webhooks and validation requests on the site owner's behalf.
  agent('Braze Sender', 'Braze', 'Webhooks', 'service', { id: 'braze-sender', tokens: ['braze'] }),
  agent(['SendGrid Event API', 'SendGrid'], 'Twilio SendGrid', 'Webhooks', 'service', { id: 'sendgrid-event-api', tokens: ['sendgrid'] }),
  agent(['azure-logic-apps', 'microsoft-flow'], 'Microsoft', 'Webhooks', 'service'),
  agent('Cloudflare-Stream-Hook', 'Cloudflare', 'Webhooks', 'service'),
  agent('acme.sectigo.com', 'Sectigo', 'Other', 'service', { id: 'sectigo-acme' }),
  agent('DigiCert DCV', 'DigiCert', 'Other', 'service', { id: 'digicert-dcv', tokens: ['digicert'] }),
  // Apple devices fetch a site's apple-app-site-association file for its apps.
  agent(['swcd', 'AppSiteAssociation'], 'Apple', 'Other', 'service'),

  // Security scanners and audits.
  agent(['l9explore', 'l9tcpid', 'l9scan'], 'LeakIX', 'Security', 'analysis', { id: 'leakix' }),
  agent('NetSystemsResearch', 'NetSystemsResearch', 'Security', 'analysis'),
  agent('SecurityHeaders', 'Snyk (securityheaders.com)', 'Security', 'analysis'),
  agent('Hardenize', 'Red Sift (Hardenize)', 'Security', 'analysis'),
  agent('WhatCMS', 'WhatCMS', 'Other', 'analysis'),
  agent(['Siteimprove', 'Siteimprove.com'], 'Siteimprove', 'Search Engine Optimization', 'analysis'),
  agent('Silktide', 'Silktide', 'Search Engine Optimization', 'analysis'),
  agent('DareBoost', 'Dareboost', 'Monitoring & Analytics', 'service'),

  // Link previews, advertising and feeds.
  agent('meta-externalads', 'Meta', 'Advertising & Marketing', 'analysis'),
  agent('bingadsbot', 'Microsoft', 'Advertising & Marketing', 'analysis'),
  agent('github-camo', 'GitHub', 'Page Preview', 'user-fetch'),
  agent(['Discourse Forum Onebox', 'Discourse'], 'Discourse', 'Page Preview', 'user-fetch', { id: 'discourse-onebox', tokens: ['discourse'] }),
  agent('Castopod', 'Castopod (self-hosted)', 'Feed Fetcher', 'service'),
] as const satisfies readonly AgentEntry[]
