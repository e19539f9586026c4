// The referrer hosts: the registry's list (each host with its operator and
// source) and the edge's one pattern (referrerHost) must say the same thing.
import { describe, expect, it } from 'vitest'
import { referrerHost } from '../../../src/core/agents/referrer-host.ts'
import { referrerHosts, referrerOf } from '../../../src/core/agents/registry/referrers.ts'
import { registry } from '../../../src/core/agents/index.ts'

/** Hosts each entry stands for: itself, or a few of its country domains. */
const examples = (host: string) =>
  host === 'www.google.*' ? ['www.google.com', 'www.google.de', 'www.google.co.uk', 'www.google.com.au'] : host === 'yandex.*' ? ['yandex.ru', 'yandex.com', 'yandex.com.tr', 'yandex.kz'] : [host]

describe('referrer hosts', () => {
  it('every registry host is matched by the edge pattern, and maps back to its operator', () => {
    for (const entry of referrerHosts) {
      for (const host of examples(entry.host)) {
        expect(referrerHost(`https://${host}/some/page?q=1`), host).toBe(host)
        expect(referrerOf(host)?.operator, host).toBe(entry.operator)
      }
    }
  })

  it("names operators as the registry's agents do, and gives each host an https source", () => {
    const operators = new Set(registry.map((a) => a.operator))
    for (const entry of referrerHosts) {
      expect(operators.has(entry.operator), entry.operator).toBe(true)
      expect(entry.source).toMatch(/^https:\/\//)
    }
  })

  it('matches the host only, in any case, with or without a path or port', () => {
    expect(referrerHost('https://chatgpt.com')).toBe('chatgpt.com')
    expect(referrerHost('HTTPS://ChatGPT.com/c/1')).toBe('chatgpt.com')
    expect(referrerHost('http://claude.ai:443/x')).toBe('claude.ai')
    expect(referrerHost('https://perplexity.ai#x')).toBe('perplexity.ai')
  })

  it('matches nothing else: look-alikes, userinfo, other schemes, relative or empty values', () => {
    for (const referer of [
      undefined,
      null,
      '',
      'chatgpt.com',
      '//chatgpt.com/',
      'ftp://chatgpt.com/',
      'https://chatgpt.com.evil.example/',
      'https://evil-chatgpt.com/',
      'https://chatgpt.com@evil.example/',
      'https://user@chatgpt.com/',
      'https://google.com/',
      'https://www.google.evil.example/',
      'https://yandex.evil/',
      'https://mail.yandex.ru/',
      'https://example.com/',
    ]) {
      expect(referrerHost(referer), String(referer)).toBeUndefined()
    }
  })
})
