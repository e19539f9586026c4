/**
 * What every part of a config's validation shares: the issue type, and the
 * checks of one field (a token, a path pattern, a value written into
 * robots.txt). validate.ts checks the config's shape with them;
 * validate-signals.ts, the signals' fields.
 */
import { agentToken, describeCodePoint, findUnsafeCharacter, percentEncode, showValue, type UnsafeCharacter } from '../robots/index.ts'
import type { NoindexRule } from './types.ts'

/** One problem in a config: where it is, what is wrong, and how to fix it. */
export interface ConfigIssue {
  readonly path: string
  readonly message: string
  readonly fix?: string
}

export function formatIssue(issue: ConfigIssue): string {
  return `${issue.path}: ${issue.message}${issue.fix ? ` ${issue.fix}` : ''}`
}

/** Thrown when a config is invalid; the message lists every error, one per line. */
export class ConfigError extends Error {
  readonly issues: readonly ConfigIssue[]
  constructor(issues: readonly ConfigIssue[]) {
    super(`Invalid robots config:\n${issues.map((i) => `  - ${formatIssue(i)}`).join('\n')}`)
    this.name = 'ConfigError'
    this.issues = issues
  }
}

export const NOINDEX_KEYS = ['path', 'userAgent', 'directives'] as const satisfies readonly (keyof NoindexRule)[]

const TOKEN = /^[A-Za-z_-]+$/

export type Issues = ConfigIssue[]

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
/** A value in a message: quoted, with invisible, bidi and control characters escaped. */
export const show = (v: unknown): string => (typeof v === 'string' ? showValue(v) : String(v))

export function unknownKeys(value: Record<string, unknown>, allowed: readonly string[], path: string, out: Issues): void {
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) {
      out.push({ path: path ? `${path}.${key}` : key, message: 'is not a known option.', fix: `Remove it, or use one of: ${allowed.join(', ')}.` })
    }
  }
}

/** A list field may be one value or an array of them. */
export function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [value]
}
export function listPath(value: unknown, path: string, i: number): string {
  return Array.isArray(value) ? `${path}[${i}]` : path
}

/** What each kind of unsafe character would do in robots.txt (see src/core/robots/characters.ts). */
function effect(found: UnsafeCharacter): string {
  switch (found.kind) {
    case 'line-break':
      return found.codePoint === 10 || found.codePoint === 13
        ? 'which ends a line in robots.txt: every crawler would read what follows as a line of its own.'
        : "which Python's urllib.robotparser (and every reader that splits lines as it does) takes for a line break: it would read what follows as a line of its own, where Google and robots-edge read one line."
    case 'control':
      return 'a control character, which robots.txt readers handle inconsistently (some keep it, some end the line there, terminals run it as an escape).'
    case 'bidi':
      return 'a bidirectional control: the line would display in a different order from the one crawlers read.'
    case 'invisible':
      return 'an invisible character: the value would look like one thing on screen and match another for crawlers.'
    case 'surrogate':
      return 'an unpaired surrogate, which has no UTF-8 form: the served file would hold U+FFFD in its place.'
  }
}

/**
 * RFC 9309 §2.2 (lines end at CR or LF) and every other reader's line
 * breaks, controls, bidi and invisible characters: none may reach
 * robots.txt. `allow` lists the characters this field may hold; `encodable`
 * is for path patterns, where a URL may really hold the character and can
 * say so percent-encoded.
 */
function checkCharacters(value: string, path: string, out: Issues, allow = '', encodable = false): boolean {
  const found = findUnsafeCharacter(value, allow)
  if (found === undefined) return true
  const fix = encodable ? `Remove it, or write it percent-encoded ("${percentEncode(String.fromCodePoint(found.codePoint))}") if the URL really holds it.` : 'Remove it.'
  out.push({ path, message: `${show(value)} holds ${describeCodePoint(found.codePoint)} at character ${found.position}, ${effect(found)}`, fix })
  return false
}

/** A value written into robots.txt must not start a new line or a comment there. */
export function checkLineSafe(value: string, path: string, out: Issues, encodable = false): boolean {
  if (!checkCharacters(value, path, out, '', encodable)) return false
  if (value.includes('#')) {
    out.push({ path, message: `${show(value)} holds "#", which starts a comment in robots.txt: everything after it would be ignored.`, fix: 'Remove it (URL fragments are never sent to the server).' })
    return false
  }
  return true
}

/** A comment becomes `#` lines; tabs stay, and each line break starts a new `#` line. */
export function checkComment(value: unknown, path: string, out: Issues): void {
  if (typeof value !== 'string') out.push({ path, message: 'is not plain text.', fix: 'Write a string without control characters.' })
  else checkCharacters(value, path, out, '\t\n\r')
}

export function checkToken(value: unknown, path: string, out: Issues): void {
  if (typeof value !== 'string') {
    out.push({ path, message: `${show(value)} is not a string.`, fix: 'Write a product token such as "Googlebot", or "*".' })
    return
  }
  if (!checkLineSafe(value, path, out)) return
  if (value === '*' || TOKEN.test(value)) return
  // What RFC 9309 parsers (Google's reference among them) read from the value.
  const read = agentToken(value)
  if (read === '') {
    out.push({
      path,
      message: `${show(value)} is not a product token (letters, "-" and "_" only, RFC 9309 §2.2.1): crawlers read no token from it, so the group would apply to no crawler.`,
      fix: 'Use the product token the crawler documents, e.g. "Googlebot".',
    })
  } else if (/^[A-Za-z_-]+[0-9.]/.test(value) && !/\s|\//.test(value)) {
    out.push({
      path,
      message: `${show(value)} is not a product token (letters, "-" and "_" only, RFC 9309 §2.2.1): crawlers that follow the RFC, Google's among them, read it as "${read}", so the group would apply to a crawler named "${read}", not the one you mean.`,
      fix: 'Name a crawler by a token of letters, "-" and "_" only; a crawler whose documented name has digits cannot be named reliably in robots.txt.',
    })
  } else {
    out.push({
      path,
      message: `${show(value)} is not a product token (letters, "-" and "_" only, RFC 9309 §2.2.1): crawlers read only "${read}", the part before the first other character.`,
      fix: `Use "${read}".`,
    })
  }
}

export function checkPattern(value: unknown, path: string, out: Issues): void {
  if (typeof value !== 'string') {
    out.push({ path, message: `${show(value)} is not a string.`, fix: 'Write a path pattern such as "/admin/".' })
    return
  }
  if (!checkLineSafe(value, path, out, true)) return
  if (value !== value.trim()) {
    out.push({
      path,
      message: `${show(value)} starts or ends with white space, which crawlers drop: the served rule would not be the one written.`,
      fix: `Write ${show(value.trim())}, or encode a space in a path as "%20".`,
    })
    return
  }
  if (value !== '' && !value.startsWith('/') && !value.startsWith('*')) {
    out.push({ path, message: `${show(value)} does not start with "/" or "*", so it never matches a path (RFC 9309 §2.2.2).`, fix: `Write "/${value}".` })
  }
}
