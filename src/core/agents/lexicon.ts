import { foldCase } from './name-index.ts'

/**
 * The words that tell an automated client from a person's browser, as data
 * for the scanner (scanner.ts). Each test here is a few character comparisons
 * from the end of a word: no regular expression ever runs on a header.
 */

/** What a bot word says about the name that carries it. */
export const NOT_BOT_WORD = 0
/** The word names a crawler (`AhrefsBot`, `YisouSpider`, `niki-bot`), even among a device's details. */
export const BOT_NAME = 1
/** The word is only the bot word (`Bot` in `Kangaroo Bot`): the name is the words around it. */
export const BOT_FILLER = 2
/** The word names a generic HTTP client (`HTTP-Tiny`, `lua-resty-http`): a tool, not a crawler. */
export const TOOL_NAME = 3
/** The word names an automated client by what it does (`DNSScanner`, `LinkChecker`, `ips-agent`). */
export const BOT_ACTIVITY = 5

// Words that make a name a crawler's wherever they end it, glued or not:
// `Googlebot`, `YisouSpider`, `PHPCrawl`. (`Fetch` alone is not one: Firefox's `MozacFetch`.)
const CRAWLER_SUFFIXES = ['bot', 'bots', 'robot', 'robots', 'crawler', 'crawl', 'spider', 'spyder', 'fetcher', 'scraper', 'scrapper']
// Words that name an automated client by what it does: `LinkChecker`, `DNSScanner`, `Sucuri Integrity Monitor`.
const ACTIVITY_SUFFIXES = [
  'scanner',
  'scanning',
  'checker',
  'monitor',
  'monitoring',
  'validator',
  'favicon',
  'favicons',
  'diagnostics',
  'webhook',
  'daemon',
  'service',
  'services',
  'preview',
  'sitemap',
  'sitemaps',
  'uptime',
]
// Short words that say the same only as a whole part of a name (`SiteCheck`,
// `ips-agent`, `kube-probe`, `OnlyScans`, `QuiteRSS`), never glued to
// lower-case letters (`Regent`, `Vulcan`).
const PARTS = ['agent', 'check', 'probe', 'scan', 'scans', 'hook', 'rss', 'health']

const crawlerByLast = groupByLast(CRAWLER_SUFFIXES)
const activityByLast = groupByLast(ACTIVITY_SUFFIXES)
// The last two letters some bot word ends with: most words fail on those alone.
// Indexed by `((a & 31) << 5) | (b & 31)` of the two letters (`& 31` folds ASCII case).
export const ENDINGS = new Uint8Array(32 * 32)
for (const word of [...CRAWLER_SUFFIXES, ...ACTIVITY_SUFFIXES, ...PARTS]) {
  ENDINGS[((word.charCodeAt(word.length - 2) & 31) << 5) | (word.charCodeAt(word.length - 1) & 31)] = 1
}

/** Whether `s[start, end)` (two or more characters) ends in two letters that end some bot word. */
function mayEnd(s: string, start: number, end: number): boolean {
  if (end - start < 2) return false
  const a = s.charCodeAt(end - 2)
  const b = s.charCodeAt(end - 1)
  // `& 31` folds case for ASCII letters; anything else is not a letter of a bot word.
  return isAsciiLetter(a) && isAsciiLetter(b) && ENDINGS[((a & 31) << 5) | (b & 31)] === 1
}

function isAsciiLetter(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122)
}
const partsByLast = groupByLast(PARTS)

const NONE: readonly string[] = []

// By last letter, longest first, so `Robot` is the whole word `robot`, not a name ending in `bot`.
function groupByLast(words: readonly string[]): ReadonlyArray<readonly string[] | undefined> {
  const table: Array<string[] | undefined> = new Array<string[] | undefined>(128).fill(undefined)
  for (const word of [...words].sort((a, b) => b.length - a.length)) {
    const last = word.charCodeAt(word.length - 1)
    table[last] = [...(table[last] ?? []), word]
  }
  return table
}

/**
 * Does the word `s[start, end)` name a bot or a generic client? Each part
 * between `-`, `_` and `.` is read on its own: `rakutenusabot-image`,
 * `AdsBot-IAB`, `check_http`.
 */
export function classifyWord(s: string, start: number, end: number): number {
  let result = NOT_BOT_WORD
  let partStart = start
  for (let i = start; i <= end; i++) {
    const code = i < end ? s.charCodeAt(i) : 45
    if (code !== 45 && code !== 95 && code !== 46) continue
    if (i > partStart) {
      const kind = classifyPart(s, partStart, i, start, end)
      if (kind === BOT_NAME || kind === BOT_FILLER) return kind
      if (kind === BOT_ACTIVITY || (kind === TOOL_NAME && result === NOT_BOT_WORD)) result = kind
      // An API client names the language it is for (`php-requests`, `unirest-java`, `aws-sdk-java`).
      else if (result === NOT_BOT_WORD && (partStart !== start || i !== end) && isClientPart(s, partStart, i)) result = TOOL_NAME
    }
    partStart = i + 1
  }
  return result
}

/**
 * Whether the word `s[start, end)` says in one of its parts that it is a
 * crawler (`AcmeBot`, `Rakuten-crawler`, `bot`): the words a client uses to
 * name itself automated, as opposed to what it does (`Scanner`, `Service`),
 * which people's apps say too (`Music Player Daemon`, `Service Pack 2`).
 */
export function namesCrawler(s: string, start: number, end: number): boolean {
  let partStart = start
  for (let i = start; i <= end; i++) {
    const code = i < end ? s.charCodeAt(i) : 45
    if (code !== 45 && code !== 95 && code !== 46) continue
    let partEnd = i
    while (partEnd - partStart > 3 && isDigitCode(s.charCodeAt(partEnd - 1))) partEnd--
    if (partEnd - partStart >= 3 && !isDevicePart(s, partStart, partEnd)) {
      for (const suffix of crawlerByLast[foldCase(s.charCodeAt(partEnd - 1))] ?? NONE) {
        if (endsWith(s, partStart, partEnd, suffix)) return true
      }
    }
    partStart = i + 1
  }
  return false
}

// Parts of a library's name that say which language it serves.
const CLIENT_PARTS = ['java', 'python', 'php', 'ruby', 'perl', 'nodejs', 'golang', 'dotnet', 'rust']

function isClientPart(s: string, start: number, end: number): boolean {
  const n = end - start
  if (n < 3 || n > 6) return false
  for (const part of CLIENT_PARTS) if (part.length === n && sameFolded(s, start, part)) return true
  return false
}

/** A cheap first test for a word without `-`, `_` or `.`: can it end in a bot word at all? */
export function mayEndBotWord(s: string, start: number, end: number): boolean {
  const last = s.charCodeAt(end - 1)
  if (last >= 48 && last <= 57) return true // a version glued on: look closer
  return mayEnd(s, start, end) || foldCase(s.charCodeAt(start)) === 104 /* h */
}

/** `classifyWord` for one part, `s[start, end)` of the word `s[wordStart, wordEnd)`. */
export function classifyPart(s: string, start: number, end: number, wordStart: number, wordEnd: number): number {
  // A version glued on is not part of the name (`trendictionbot0`).
  while (end - start > 3 && isDigitCode(s.charCodeAt(end - 1))) end--
  if (!mayEnd(s, start, end) && foldCase(s.charCodeAt(start)) !== 104 /* h */) return NOT_BOT_WORD
  const last = foldCase(s.charCodeAt(end - 1))
  const whole = start === wordStart && (end === wordEnd || isDigitCode(s.charCodeAt(end)))
  for (const suffix of crawlerByLast[last] ?? NONE) {
    if (!endsWith(s, start, end, suffix)) continue
    if (isDevicePart(s, start, end)) return NOT_BOT_WORD
    return whole && end - start === suffix.length ? BOT_FILLER : BOT_NAME
  }
  for (const suffix of activityByLast[last] ?? NONE) {
    if (endsWith(s, start, end, suffix)) return whole && end - start === suffix.length ? BOT_FILLER : BOT_ACTIVITY
  }
  for (const part of partsByLast[last] ?? NONE) {
    if (!endsWith(s, start, end, part)) continue
    const at = end - part.length
    // A whole part, or one that starts with a capital after other letters (`SiteCheck`, `OnlyScans`).
    if (at === start || isUpper(s.charCodeAt(at))) return whole && at === start ? BOT_FILLER : BOT_ACTIVITY
  }
  // `HTTP-Tiny`, `http_get`, `HttpUrlConnection`, `lua-resty-http`: a library speaking HTTP
  // (but not a device's `libhttp`, glued to other letters).
  if (end - start >= 4 && startsWithHttp(s, start, end)) return TOOL_NAME
  return NOT_BOT_WORD
}

const PLATFORM_PREFIXES = ['iphone', 'ipad', 'ipod', 'android', 'windows', 'macos', 'linux', 'amiga']
const PLATFORM_PARTS = ['ios', 'ipados', 'tvos', 'watchos', 'mac', 'osx', 'win32', 'win64']

/**
 * Whether a lone word names a device or an app on one (`iPhone11Pro`,
 * `Gaana-iOS`) rather than a client of its own: one of its parts, between
 * `-`, `_`, `.` and digits, is a platform.
 */
export function hasPlatformPart(s: string, start: number, end: number): boolean {
  let partStart = start
  for (let i = start; i <= end; i++) {
    const code = i < end ? s.charCodeAt(i) : 45
    if (code !== 45 && code !== 95 && code !== 46 && (code < 48 || code > 57)) continue
    const n = i - partStart
    if (n >= 2) {
      for (const prefix of PLATFORM_PREFIXES) if (n >= prefix.length && sameFolded(s, partStart, prefix)) return true
      for (const part of PLATFORM_PARTS) if (n === part.length && sameFolded(s, partStart, part)) return true
    }
    partStart = i + 1
  }
  return false
}

// Top-level domains common in crawlers' self-descriptions (`(postrank.com)`).
const TLDS = new Set([
  'com',
  'net',
  'org',
  'io',
  'ai',
  'co',
  'de',
  'fr',
  'uk',
  'ru',
  'jp',
  'app',
  'dev',
  'info',
  'biz',
  'eu',
  'us',
  'cn',
  'nl',
  'it',
  'es',
  'pl',
  'cz',
  'ch',
  'se',
  'no',
  'fi',
  'dk',
  'be',
  'at',
  'me',
  'tv',
  'ly',
  'xyz',
  'tech',
  'cloud',
  'pt',
  'br',
])

/** A host name such as `postrank.com` (not `com.example.app`, not a version). */
export function isDomain(s: string, start: number, end: number): boolean {
  let dot = -1
  for (let i = end - 1; i > start; i--) {
    if (s.charCodeAt(i) === 46) {
      dot = i
      break
    }
  }
  if (dot < 0 || end - dot - 1 < 2 || end - dot - 1 > 5) return false
  let label = ''
  for (let i = dot + 1; i < end; i++) label += String.fromCharCode(foldCase(s.charCodeAt(i)))
  return TLDS.has(label)
}

/** A browser's own name (`IBrowse`, `Avant Browser`, `UCBrowser`): a person's client. */
export function isBrowserName(s: string, start: number, end: number): boolean {
  return endsWith(s, start, end, 'browser') || endsWith(s, start, end, 'browse')
}

/**
 * A name Google gives its fetchers: `Google-` before, or `-Google` after,
 * another part (`Google-Assess`, `DuplexWeb-Google`, `PlayStore-Google`).
 */
export function isGoogleName(s: string, start: number, end: number): boolean {
  if (end - start < 8) return false
  if (sameFolded(s, start, 'google') && s.charCodeAt(start + 6) === 45) return true
  return sameFolded(s, end - 6, 'google') && s.charCodeAt(end - 7) === 45
}

function startsWithHttp(s: string, start: number, end: number): boolean {
  if (!sameFolded(s, start, 'http')) return false
  if (end - start === 4) return true
  // `https` is a scheme, not a client; `Httpx`, `HttpClient`, `HTTP-Tiny` are clients.
  const next = foldCase(s.charCodeAt(start + 4))
  return next !== 115 || end - start > 5
}

function endsWith(s: string, start: number, end: number, word: string): boolean {
  return end - start >= word.length && sameFolded(s, end - word.length, word)
}

function sameFolded(s: string, at: number, word: string): boolean {
  for (let i = 0; i < word.length; i++) if (foldCase(s.charCodeAt(at + i)) !== word.charCodeAt(i)) return false
  return true
}

function isDigitCode(code: number): boolean {
  return code >= 48 && code <= 57
}

function isUpper(code: number): boolean {
  return code >= 65 && code <= 90
}

/** Vocabulary classes: words the scanner reads as part of a browser, never as a client's own name. */
export const VOCAB_BROWSER = 1
/** A platform word: the comment that holds it describes a device, and its other words are models. */
export const VOCAB_PLATFORM = 2
/** A word that joins or introduces names (`compatible`, `by`, `like`). */
export const VOCAB_FILLER = 3
/** A device brand that looks like a bot word (`CUBOT`). */
export const VOCAB_DEVICE = 4

/** Browser and engine words: passed over when an unknown client's own name is looked for. */
export const BROWSER_WORDS = [
  'mozilla',
  'applewebkit',
  'webkit',
  'khtml',
  'gecko',
  'chrome',
  'chromium',
  'safari',
  'version',
  'mobile',
  'firefox',
  'edg',
  'edga',
  'edgios',
  'edge',
  'opr',
  'samsungbrowser',
  'crios',
  'fxios',
  'yabrowser',
  'ucbrowser',
  'silk',
  'electron',
  'build',
  'wv',
  'gsa',
  'mobile-safari',
]

/**
 * Platform words, and browser names that stand where a platform does
 * (`compatible; MSIE 9.0`): a comment holding one describes the device, so a
 * bare word in it is a model (`Expanse`, `RUBY`, `Pixel 2`), not a client.
 */
export const PLATFORM_WORDS = [
  'windows',
  'linux',
  'android',
  'macintosh',
  'mac',
  'iphone',
  'ipad',
  'ipod',
  'x11',
  'cpu',
  'darwin',
  'ios',
  'symbianos',
  'symbian',
  'series60',
  'series40',
  'blackberry',
  'bb10',
  'java',
  'j2me',
  'j2me-midp',
  'midp-2.0',
  'tizen',
  'web0s',
  'webos',
  'smart-tv',
  'smarttv',
  'playstation',
  'nintendo',
  'xbox',
  'kaios',
  'cros',
  'freebsd',
  'openbsd',
  'netbsd',
  'sunos',
  'ubuntu',
  'fedora',
  'debian',
  'win64',
  'wow64',
  'win32',
  'win16',
  'win98',
  'win95',
  'winnt',
  'x64',
  'u',
  'unknown',
  'qtembedded',
  'msie',
  'konqueror',
  'opera',
  'teleca',
  'brew',
  'zunehd',
  'iemobile',
  'windows-phone',
  'textmode',
  'hp-ux',
  'aix',
  'os',
  'arm',
  'arm_64',
  'armv7l',
  'armv8l',
  'aarch64',
  'x86_64',
  'i686',
  'i386',
  'wap',
  'hbbtv',
  'ce-html',
  'opentv',
  'netcast',
  'maui',
  'amiga',
  'amigaos',
  'morphos',
  'beos',
  'haiku',
  'syllable',
  'inferno',
  'os2',
  'warp',
  'cygwin',
  'mac_powerpc',
]

/** Words that are never a name of their own. */
export const FILLER_WORDS = [
  'compatible',
  'like',
  'by',
  'for',
  'the',
  'of',
  'de',
  'and',
  'a',
  'an',
  'at',
  'to',
  'with',
  'from',
  'in',
  'on',
  'via',
  'is',
  'not',
  'web',
  'www',
  'see',
  'info',
  'rv',
  'user-agent',
  'useragent',
  'contact',
]

/** Device brands whose names end in a bot word (`CUBOT X19`, `Cubot_Note_20`). */
export const DEVICE_WORDS = ['cubot', 'xbot']

function isDevicePart(s: string, start: number, end: number): boolean {
  for (const word of DEVICE_WORDS) if (end - start === word.length && sameFolded(s, start, word)) return true
  return false
}
