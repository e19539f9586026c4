import type { AgentEntry } from '../types.ts'

/** Uptime and performance monitors. */
export const monitors = [
  { id: 'uptimerobot', tokens: ['uptimerobot'], uaNames: ['UptimeRobot'], operator: 'UptimeRobot', category: 'Monitoring & Analytics', purpose: 'service', obeysRobotsTxt: true, verification: { ipRanges: [{ url: 'https://uptimerobot.com/inc/files/ips/IPv4andIPv6.txt', format: 'ip-lines' }] }, docs: 'https://uptimerobot.com/help/locations/' },
  // Pingdom glues its version onto the name: `Pingdom.com_bot_version_1.4_(http://www.pingdom.com/)`.
  { id: 'pingdom', tokens: ['pingdom.com_bot'], uaNames: ['PingdomPageSpeed', 'PingdomTMS'], uaNamePrefixes: ['Pingdom.com'], operator: 'Pingdom (SolarWinds)', category: 'Monitoring & Analytics', purpose: 'service', obeysRobotsTxt: true, verification: { ipRanges: [{ url: 'https://my.pingdom.com/probes/ipv4', format: 'ip-lines' }] }, docs: 'https://www.pingdom.com/' },
  { id: 'statuscake', tokens: ['statuscake'], uaNames: ['StatusCake'], uaNamePrefixes: ['StatusCake'], operator: 'StatusCake', category: 'Monitoring & Analytics', purpose: 'service', obeysRobotsTxt: true, docs: 'https://www.statuscake.com/' },
  { id: 'site24x7', tokens: ['site24x7'], uaNames: ['Site24x7'], operator: 'Site24x7 (Zoho)', category: 'Monitoring & Analytics', purpose: 'service', obeysRobotsTxt: true, docs: 'https://www.site24x7.com/' },
  // API tests send `Datadog/Synthetics`; browser tests append `DatadogSynthetics` to Chrome's string.
  { id: 'datadog-synthetics', tokens: ['datadogsynthetics'], uaNames: ['DatadogSynthetics', 'Datadog'], operator: 'Datadog', category: 'Monitoring & Analytics', purpose: 'service', obeysRobotsTxt: true, docs: 'https://docs.datadoghq.com/synthetics/guide/identify_synthetics_bots/' },
  // Token is the first word of the multi-word name; see the note on Sogou in search.ts.
  { id: 'better-uptime-bot', tokens: ['better'], uaNames: ['Better Uptime Bot', 'Better Stack Better Uptime Bot'], operator: 'Better Stack', category: 'Monitoring & Analytics', purpose: 'service', obeysRobotsTxt: true, docs: 'https://betterstack.com/uptime' },
  { id: 'newrelicpinger', tokens: ['newrelicpinger'], uaNames: ['NewRelicPinger'], operator: 'New Relic', category: 'Monitoring & Analytics', purpose: 'service', obeysRobotsTxt: true, docs: 'https://docs.newrelic.com/docs/synthetics/synthetic-monitoring/administration/identify-synthetic-monitoring-requests-your-app/' },
  { id: 'uptimebot', tokens: ['uptimebot'], uaNames: ['Uptimebot'], operator: 'Uptime.com', category: 'Monitoring & Analytics', purpose: 'service', obeysRobotsTxt: true, docs: 'http://www.uptime.com/uptimebot' },
  { id: 'uptime-kuma', tokens: ['uptime-kuma'], uaNames: ['Uptime-Kuma'], operator: 'Uptime Kuma (self-hosted)', category: 'Monitoring & Analytics', purpose: 'service', obeysRobotsTxt: true, docs: 'https://github.com/louislam/uptime-kuma' },
  { id: 'cloudflare-healthchecks', tokens: ['cloudflare-healthchecks'], uaNames: ['Cloudflare-Healthchecks'], operator: 'Cloudflare', category: 'Monitoring & Analytics', purpose: 'service', obeysRobotsTxt: true, docs: 'https://developers.cloudflare.com/health-checks/' },
  { id: 'cloudflare-traffic-manager', tokens: ['cloudflare-traffic-manager'], uaNames: ['Cloudflare-Traffic-Manager'], operator: 'Cloudflare', category: 'Monitoring & Analytics', purpose: 'service', obeysRobotsTxt: true, docs: 'https://developers.cloudflare.com/load-balancing/monitors/' },
] as const satisfies readonly AgentEntry[]

/**
 * Feed readers' fetchers. Feedly and BazQux say their fetchers act for the
 * subscribers and ignore robots.txt; the others say nothing, so they keep the default.
 */
export const feedFetchers = [
  { id: 'feedly', tokens: ['feedly'], uaNames: [], weakUaNames: ['Feedly'], operator: 'Feedly', category: 'Feed Fetcher', purpose: 'service', obeysRobotsTxt: false, docs: 'https://feedly.com/fetcher.html' },
  { id: 'bazqux', tokens: ['bazqux'], uaNames: ['BazQux'], operator: 'BazQux Reader', category: 'Feed Fetcher', purpose: 'service', obeysRobotsTxt: false, docs: 'https://bazqux.com/fetcher' },
  { id: 'feedbin', tokens: ['feedbin'], uaNames: ['Feedbin feed-id'], operator: 'Feedbin', category: 'Feed Fetcher', purpose: 'service', obeysRobotsTxt: true, docs: 'https://feedbin.com/' },
  { id: 'newsblur', tokens: ['newsblur'], uaNames: ['NewsBlur Feed Fetcher', 'NewsBlur Page Fetcher', 'NewsBlur Favicon Fetcher'], operator: 'NewsBlur', category: 'Feed Fetcher', purpose: 'service', obeysRobotsTxt: true, docs: 'https://www.newsblur.com/' },
  { id: 'inoreader', tokens: ['inoreader'], uaNames: [], weakUaNames: ['Inoreader', 'inoreader.com'], operator: 'Inoreader', category: 'Feed Fetcher', purpose: 'service', obeysRobotsTxt: true, docs: 'https://www.inoreader.com/feed-fetcher' },
  { id: 'theoldreader', tokens: ['theoldreader.com'], uaNames: ['theoldreader.com'], operator: 'The Old Reader', category: 'Feed Fetcher', purpose: 'service', obeysRobotsTxt: true, docs: 'https://theoldreader.com/' },
  { id: 'feedspot', tokens: ['feedspot'], uaNames: ['Feedspot'], operator: 'Feedspot', category: 'Feed Fetcher', purpose: 'service', obeysRobotsTxt: true, docs: 'https://www.feedspot.com/fs/fetcher' },
  { id: 'miniflux', tokens: ['miniflux'], uaNames: ['Miniflux'], operator: 'Miniflux (self-hosted)', category: 'Feed Fetcher', purpose: 'service', obeysRobotsTxt: true, docs: 'https://miniflux.app/' },
  { id: 'freshrss', tokens: ['freshrss'], uaNames: ['FreshRSS'], operator: 'FreshRSS (self-hosted)', category: 'Feed Fetcher', purpose: 'service', obeysRobotsTxt: true, docs: 'https://freshrss.org/' },
  { id: 'netnewswire', tokens: ['netnewswire'], uaNames: ['NetNewsWire'], operator: 'NetNewsWire', category: 'Feed Fetcher', purpose: 'service', obeysRobotsTxt: true, docs: 'https://netnewswire.com/' },
  { id: 'superfeedr', tokens: ['superfeedr'], uaNames: ['Superfeedr bot'], operator: 'Superfeedr', category: 'Feed Fetcher', purpose: 'service', obeysRobotsTxt: true, docs: 'https://superfeedr.com/' },
  { id: 'rssowl', tokens: ['rssowl'], uaNames: ['RSSOwl'], operator: 'RSSOwl', category: 'Feed Fetcher', purpose: 'service', obeysRobotsTxt: true, docs: 'https://www.rssowl.org/' },
  { id: 'feedburner', tokens: ['feedburner'], uaNames: ['FeedBurner'], operator: 'Google', category: 'Feed Fetcher', purpose: 'service', obeysRobotsTxt: true, docs: 'https://support.google.com/feedburner/' },
] as const satisfies readonly AgentEntry[]
