import { CLOSE, SEPARATOR, classOf } from './char-classes.ts'
import { RANK_TOOL, hashStep, type Target } from './name-index.ts'
import { found, index, isLetter, noteBot, outranks } from './scan-state.ts'

/**
 * Known names the scanner (scanner.ts) finds away from a product-name
 * position: where a version goes (`CB/Nutch-1.7`), or alone in a comment
 * element among a platform's details. And the small tests it asks of them.
 */

/** Whether only spaces stand between `at` and the end of a comment element (`;`, `,`, `)`) or of the header. */
export function endsElement(s: string, at: number, length: number): boolean {
  while (at < length && s.charCodeAt(at) === 32) at++
  if (at >= length) return true
  const kind = classOf(s.charCodeAt(at))
  return kind === SEPARATOR || kind === CLOSE
}

/** A known crawler, or a tool other than a language runtime: a name that identifies a client wherever it stands. */
export function namesAlone(target: Target): boolean {
  return !target.weak && (target.kind === 'bot' || target.rank === RANK_TOOL)
}

/**
 * Looks up each part of a version token (`s[from, to)`) that starts with a
 * letter after a `/` or at its start, up to `-`, `_` or `/`; a crawler or
 * tool found there becomes a candidate for the header's identity.
 */
export function noteNameInVersion(s: string, from: number, to: number): void {
  let at = from
  while (at < to) {
    let end = at
    let hash = 0
    if (isLetter(s.charCodeAt(at))) {
      while (end < to) {
        const code = s.charCodeAt(end)
        if (code === 45 || code === 95 || code === 47) break
        hash = hashStep(hash, code)
        end++
      }
      const variant = end - at >= 3 ? index.find(s, at, end, hash)?.variants.find(isWhole) : undefined
      if (variant !== undefined && namesAlone(variant.target)) {
        if (found.best === undefined || outranks(variant.target, found.best)) found.best = variant.target
        if (variant.target.id !== undefined) noteBot(variant.target)
      }
    }
    while (end < to && s.charCodeAt(end) !== 47) end++
    at = end + 1
  }
}

export function isWhole(variant: { readonly prefix: boolean; readonly rest: string }): boolean {
  return !variant.prefix && variant.rest === ''
}

export function isPrefix(variant: { readonly prefix: boolean }): boolean {
  return variant.prefix
}
