import { buildPolicy, CHECK_CONTEXTS, createPolicies, resolveConfig, type ConfigContext, type RobotsConfig } from '../src/core/config/index.ts'
import { formatNs, measure, table } from '../dev/harness.ts'

/**
 * What a very large config costs: 5,000 groups (two rules each, about 300
 * KiB of robots.txt). Start-up, a host the isolate has not served yet, and
 * one it has, against the way each was built before policies were shared
 * across hosts (every context resolved, validated and compiled on its own),
 * measured in the same run. Returns false when a goal is missed.
 */
export function runPoliciesBench(): boolean {
  console.log('\n## per-host policies, 5,000-group config (same run: shared build vs one build per host)\n')
  const letters = (i: number) => {
    let s = ''
    do {
      s += String.fromCharCode(97 + (i % 26))
      i = Math.floor(i / 26)
    } while (i > 0)
    return s
  }
  const large: RobotsConfig = {
    rules: [{ userAgent: '*', disallow: '/admin/' }, ...Array.from({ length: 5000 }, (_, i) => ({ userAgent: `bot-${letters(i)}`, disallow: [`/private-${i}/`, '/tmp/'] }))],
  }
  const small: RobotsConfig = {
    rules: [
      { userAgent: '*', disallow: '/admin/' },
      { userAgent: 'GPTBot', disallow: '/' },
    ],
  }
  const perHost = (input: RobotsConfig | ((c: ConfigContext) => RobotsConfig), context: ConfigContext) => buildPolicy(resolveConfig(input, context).config)
  const rows: string[][] = [['case', 'robots-edge', 'one build per host', 'goal']]
  let ok = true
  const goal = (ns: number, limitNs: number) => {
    const met = ns <= limitNs
    ok &&= met
    return `${met ? '' : 'MISSED '}<= ${formatNs(limitNs)}`
  }

  for (const [name, config] of [
    ['5,000 groups', large],
    ['2 groups', small],
  ] as const) {
    const startup = measure(() => createPolicies(config), 3000)
    const before = measure(() => CHECK_CONTEXTS.map((c) => perHost(config, c)), 3000)
    rows.push([`start-up (createPolicies), ${name}`, formatNs(startup.ns), formatNs(before.ns), ''])
  }

  const policies = createPolicies(large)
  const fresh = measure((i) => policies.get(`new-${i}.example`, 'production'), 2000)
  const rebuilt = measure((i) => perHost(large, { host: `new-${i}.example`, env: 'production' }), 2000)
  rows.push(['new host, config object', formatNs(fresh.ns), formatNs(rebuilt.ns), goal(fresh.ns, 1e6)])

  // A function returning a new object per host cannot be shared: each new host pays the whole build.
  const fn = (c: ConfigContext): RobotsConfig => ({ ...large, header: `robots.txt for ${c.host}` })
  const fnPolicies = createPolicies(fn)
  const fnFresh = measure((i) => fnPolicies.get(`fn-${i}.example`, 'production'), 2000)
  const fnRebuilt = measure((i) => perHost(fn, { host: `fn-${i}.example`, env: 'production' }), 2000)
  rows.push(['new host, config function (new object each time)', formatNs(fnFresh.ns), formatNs(fnRebuilt.ns), ''])

  const hosts = Array.from({ length: 64 }, (_, i) => `known-${i}.example`)
  for (const host of hosts) policies.get(host, 'production')
  const known = measure((i) => policies.get(hosts[i & 63]!, 'production'))
  const map = new Map(hosts.map((h) => [`production\n${h}`, 1]))
  const plain = measure((i) => map.get(`production\n${hosts[i & 63]!.toLowerCase().replace(/\.+$/, '')}`))
  rows.push(['known host (canonical name, LRU hit)', formatNs(known.ns), `${formatNs(plain.ns)} (lower-case + Map.get)`, goal(known.ns, 2000)])
  table(rows)
  return ok
}
