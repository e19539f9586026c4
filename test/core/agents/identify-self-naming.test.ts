import { describe, expect, it } from 'vitest'
import { identifyAgent } from '../../../src/core/agents/index.ts'

// Only a client that names itself is an agent the guard may judge by `*`: a
// registry agent or tool, a name of its own that ends in bot, crawler or
// spider, or a contact link. Words among a device's details never make a
// person a bot, and a lone app name is at most `unidentified`.

describe('a device, a console, a player: people', () => {
  it.each([
    ['Mozilla/5.0 (Linux; Android 7.0; M bot 54) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/78.0.3904.96 Mobile Safari/537.36'],
    ['Mozilla/5.0 (Linux; Android 6.0; POWER BOT Build/MRA58K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/54.0.2840.85 Mobile Safari/537.36'],
    ['Mozilla/5.0 (Linux; Android 7.0; ID bot 53+ Build/NRD90M) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/55.0.2883.91 Mobile Safari/537.36'],
    ['Mozilla/5.0 (Linux; Android 7.0; C Bot Tab 70) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/78.0.3904.108 Safari/537.36'],
    ['Mozilla/5.0 (Linux; Android 6.0; IDbot553 Build/MRA58K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/59.0.3071.125 Mobile Safari/537.36'],
    ['Mozilla/5.0 (Linux; Android 7.1.1; M_bot_tab_1150 Build/N9F27F) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/67.0.3396.87 Safari/537.36'],
    // A registry agent's name that is also a phone's model.
    ['Mozilla/5.0 (Linux; Android 8.0.0; Expanse) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/86.0.4240.99 Mobile Safari/537.36'],
    ['Mozilla/5.0 (PlayStation 4 Pro 5.0)'],
    // `Service Pack` is the platform's, a URL among a device's details is the player's home page.
    ['iTunes/10.2.1 (Windows; Microsoft Windows 7 Enterprise Edition Service Pack 1 (Build 7601)) AppleWebKit/533.20.25'],
    ['XBMC/9.04-beta1 r19639 (Windows; Windows XP Professional Service Pack 2 build 2600; http://www.xbmc.org)'],
    // A versioned product in a comment is no web address (`WEB.DE/1.5`).
    ['Mozilla/5.0 (Windows; U; Windows NT 6.0; de; rv:1.9.1.6) Gecko/20091201 (WEB.DE/1.5) Firefox/3.5.6 (.NET CLR 3.5.30729)'],
  ])('%s is a person', (ua) => {
    expect(identifyAgent(ua)).toBeNull()
  })
})

describe('unidentified: seen, never judged by *', () => {
  it.each([
    ['Magician', 'magician'],
    ['PodTrapper', 'podtrapper'],
    ['Music Player Daemon 0.19.21', 'music'],
    // A runtime behind an app's or a phone's own name is not the client.
    ['newsbeuter/2.4 (Linux 3.2.0-23-generic; i686; http://www.newsbeuter.org/) libcurl/7.22.0 GnuTLS/2.12.14', 'libcurl'],
    ['Mozilla/5.0 (Linux; U; Android 1.6; fr-fr; LG-GT540 ; Build/Donut) AppleWebKit/528.5+ (KHTML, like Gecko) Version/3.1.2 Mobile Safari/525.20.1 Java/Jbed/7.0 Profile/MIDP-2.1', 'java'],
    // A bot word among a device's details names no client of its own.
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7; TSMbot)', 'tsmbot'],
  ])('%s is unidentified, token %s', (ua, token) => {
    const identity = identifyAgent(ua)
    expect(identity?.tokens).toEqual([token])
    expect(identity?.unidentified).toBe(true)
  })
})

describe('clients that name themselves', () => {
  it.each([
    ['AcmeBot/1.0', 'acmebot'],
    ['Kangaroo Bot (compatible)', 'kangaroo'],
    ['Mozilla/5.0 (compatible; AcmeFetcher/3.1; +https://acme.example/fetcher)', 'acmefetcher'],
    ['Acme-Preview/2 (ops@acme.example)', 'acme-preview'],
    ['curl/8.5.0', 'curl'],
    ['HTTP-Tiny/0.076', 'http-tiny'],
    // A runtime that opens the header is the client.
    ['Java/17.0.2', 'java'],
    ['Mozilla/5.0 (compatible; GPTBot/1.1; +https://openai.com/gptbot)', 'gptbot'],
    // Google's fetchers' naming, a library's name, a runtime beside a contact link.
    ['PlayStore-Google', 'playstore-google'],
    ['http_get', 'http_get'],
    ['Mechanize/2.9.1 Ruby/3.1.2 (http://github.com/sparklemotion/mechanize/)', 'ruby'],
  ])('%s is judged as %s', (ua, token) => {
    const identity = identifyAgent(ua)
    expect(identity?.tokens[0] ?? identity?.names.at(-1)).toBe(token)
    expect(identity?.unidentified).toBeUndefined()
  })

  // Where crawlers hide their name in real headers.
  it.each([
    // A crawler framework where the version goes.
    ['CB/Nutch-1.7', 'nutch'],
    ['Mozilla/5.0 (compatible; summers;)/Nutch-1.7', 'nutch'],
    ['MyAgent/1.0/Nutch-1.7', 'nutch'],
    // A monitoring service or scanner alone in a desktop's platform comment.
    ['Mozilla/5.0 (X11; Linux x86_64; Catchpoint) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/75.0.3770.90 Safari/537.36', 'catchpoint'],
    ['Mozilla/5.0 (Windows NT 6.3; WOW64; Trident/7.0; rv:11.0; Catchpoint) like Gecko', 'catchpoint'],
    ['Mozilla/5.0 [en] (X11, U; OpenVAS)', 'openvas'],
    // An API client library named for its language.
    ['php-requests/1.8.1', 'php-requests'],
    ['unirest-java/1.3.11', 'unirest-java'],
  ])('%s is %s', (ua, token) => {
    const identity = identifyAgent(ua)
    expect(identity?.tokens).toEqual([token])
    expect(identity?.unidentified).toBeUndefined()
  })
})
