import type { AgentEntry } from '../types.ts'
import { agent } from './define.ts'

/** Uptime and performance monitors. */
export const monitors = [
  agent('UptimeRobot', 'UptimeRobot', 'Monitoring & Analytics', 'service', { verification: { ipRanges: [{ url: 'https://uptimerobot.com/inc/files/ips/IPv4andIPv6.txt', format: 'ip-lines' }] } }),
  // Pingdom glues its version onto the name: `Pingdom.com_bot_version_1.4_(http://www.pingdom.com/)`.
  agent(['PingdomPageSpeed', 'PingdomTMS'], 'Pingdom (SolarWinds)', 'Monitoring & Analytics', 'service', {
    id: 'pingdom',
    tokens: ['pingdom.com_bot'],
    uaNamePrefixes: ['Pingdom.com'],
    verification: { ipRanges: [{ url: 'https://my.pingdom.com/probes/ipv4', format: 'ip-lines' }] },
  }),
  agent('StatusCake', 'StatusCake', 'Monitoring & Analytics', 'service', { uaNamePrefixes: ['StatusCake'] }),
  agent('Site24x7', 'Site24x7 (Zoho)', 'Monitoring & Analytics', 'service'),
  // API tests send `Datadog/Synthetics`; browser tests append `DatadogSynthetics` to Chrome's string.
  agent(['DatadogSynthetics', 'Datadog'], 'Datadog', 'Monitoring & Analytics', 'service', { id: 'datadog-synthetics' }),
  // Token is the first word of the multi-word name; see the note on Sogou in search.ts.
  agent(['Better Uptime Bot', 'Better Stack Better Uptime Bot'], 'Better Stack', 'Monitoring & Analytics', 'service', { id: 'better-uptime-bot', tokens: ['better'] }),
  agent('NewRelicPinger', 'New Relic', 'Monitoring & Analytics', 'service'),
  agent('Uptimebot', 'Uptime.com', 'Monitoring & Analytics', 'service'),
  agent('Uptime-Kuma', 'Uptime Kuma (self-hosted)', 'Monitoring & Analytics', 'service'),
  agent('Cloudflare-Healthchecks', 'Cloudflare', 'Monitoring & Analytics', 'service'),
  agent('Cloudflare-Traffic-Manager', 'Cloudflare', 'Monitoring & Analytics', 'service'),
] as const satisfies readonly AgentEntry[]

/**
 * Feed readers' fetchers. Feedly and BazQux say their fetchers act for the
 * subscribers and ignore robots.txt; the others say nothing, so they keep the default.
 */
export const feedFetchers = [
  agent('feedly', 'Feedly', 'Feed Fetcher', 'service', { uaNames: [], weakUaNames: ['Feedly'], obeysRobotsTxt: false }),
  agent('BazQux', 'BazQux Reader', 'Feed Fetcher', 'service', { obeysRobotsTxt: false }),
  agent('Feedbin feed-id', 'Feedbin', 'Feed Fetcher', 'service', { id: 'feedbin', tokens: ['feedbin'] }),
  agent(['NewsBlur Feed Fetcher', 'NewsBlur Page Fetcher', 'NewsBlur Favicon Fetcher'], 'NewsBlur', 'Feed Fetcher', 'service', { id: 'newsblur', tokens: ['newsblur'] }),
  agent('inoreader', 'Inoreader', 'Feed Fetcher', 'service', { uaNames: [], weakUaNames: ['Inoreader', 'inoreader.com'] }),
  agent('theoldreader.com', 'The Old Reader', 'Feed Fetcher', 'service', { id: 'theoldreader' }),
  agent('Feedspot', 'Feedspot', 'Feed Fetcher', 'service'),
  agent('Miniflux', 'Miniflux (self-hosted)', 'Feed Fetcher', 'service'),
  agent('FreshRSS', 'FreshRSS (self-hosted)', 'Feed Fetcher', 'service'),
  agent('NetNewsWire', 'NetNewsWire', 'Feed Fetcher', 'service'),
  agent('Superfeedr bot', 'Superfeedr', 'Feed Fetcher', 'service', { id: 'superfeedr', tokens: ['superfeedr'] }),
  agent('RSSOwl', 'RSSOwl', 'Feed Fetcher', 'service'),
  agent('FeedBurner', 'Google', 'Feed Fetcher', 'service'),
] as const satisfies readonly AgentEntry[]
