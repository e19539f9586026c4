/**
 * The AI usage preference vocabulary (IETF aipref), in one place: the next
 * draft is a change to CONTENT_USAGE_VOCABULARY, and the config type, the
 * validator, robots.txt and the `Content-Usage` header follow it.
 *
 * draft-ietf-aipref-vocab-07: two categories of use, `train-ai` and
 * `search`; a statement of preference is a Structured Field Dictionary
 * (RFC 9651 §3.2) mapping a category's label to `y` or `n` ("Exemplary
 * Serialization Format"); a category a statement leaves out is "unknown".
 */
import { isInnerList, parseDictionary, serializeInnerList, serializeItem, Token, type Dictionary } from '../http/structured-fields.ts'

/** The config's name for each category of use, and the label the draft writes. */
export const CONTENT_USAGE_VOCABULARY = {
  /**
   * AI Training (vocab-07 "AI Training"): using the content to change the
   * learned parameters of a generative AI model. Written `train-ai`.
   */
  trainAi: 'train-ai',
  /**
   * Search (vocab-07 "Search"): using the content in an application that
   * selects content and links people to where it is, with excerpts only to
   * judge relevance. Overrides the other categories. Written `search`.
   */
  search: 'search',
} as const

export type UsageCategory = keyof typeof CONTENT_USAGE_VOCABULARY

/** A statement of preference: `true` allows a category of use (`y`), `false` disallows it (`n`); left out, unknown. */
export type UsagePreferences = { readonly [K in UsageCategory]?: boolean }

export const USAGE_CATEGORIES = Object.keys(CONTENT_USAGE_VOCABULARY) as UsageCategory[]

/**
 * The Dictionary form, categories in vocabulary order: `train-ai=n, search=y`.
 * The values are Tokens (RFC 9651 §3.3.4); an empty statement is `''`.
 */
export function usageValue(preferences: UsagePreferences): string {
  let out = ''
  for (const key of USAGE_CATEGORIES) {
    const value = preferences[key]
    if (value !== undefined) out += `${out ? ', ' : ''}${CONTENT_USAGE_VOCABULARY[key]}=${value ? 'y' : 'n'}`
  }
  return out
}

/**
 * Two statements about the same content, combined as vocab-07 "Combining
 * Preferences" says: per category, any `n` wins, then any `y`; else unknown.
 */
export function strictest(a: UsagePreferences, b: UsagePreferences): UsagePreferences {
  const out: { [K in UsageCategory]?: boolean } = {}
  for (const key of USAGE_CATEGORIES) {
    const x = a[key]
    const y = b[key]
    if (x !== undefined || y !== undefined) out[key] = x !== false && y !== false
  }
  return out
}

/**
 * The `Content-Usage` header a response carries: the config's statement
 * combined with the one the origin sent, if any. The rule: the result is
 * never less restrictive than either side, so a merge never weakens the
 * origin's restriction: per category, `n` from either side wins over `y`,
 * then `y` over unknown (`strictest`). The origin's statement is read as
 * every recipient reads it, by RFC 8941 §4.2.2: of a key stated twice
 * (`train-ai=y, train-ai=n`, or two fields), the last value counts. The
 * origin's other members (extensions, parameters, RFC 9651's Dates and
 * Display Strings) are kept as it wrote them. An origin value that is no valid Dictionary is ignored, as every
 * recipient must ignore it (RFC 9651 §4.2), and the config's alone is sent.
 */
export function mergeUsageHeader(origin: string | null, preferences: UsagePreferences): string {
  if (origin === null || origin.trim() === '') return usageValue(preferences)
  let stated: Dictionary
  try {
    stated = parseDictionary(origin, { rfc9651: true })
  } catch {
    return usageValue(preferences)
  }
  const theirs: { [K in UsageCategory]?: boolean } = {}
  for (const key of USAGE_CATEGORIES) {
    const member = stated.get(CONTENT_USAGE_VOCABULARY[key])
    const value = member !== undefined && !isInnerList(member) && member[0] instanceof Token ? member[0].value : undefined
    if (value === 'y' || value === 'n') theirs[key] = value === 'y'
    stated.delete(CONTENT_USAGE_VOCABULARY[key])
  }
  let out = usageValue(strictest(preferences, theirs))
  for (const [key, member] of stated) {
    const value = isInnerList(member) ? `=${serializeInnerList(member)}` : member[0] === true ? serializeItem(member).slice(2) : `=${serializeItem(member)}`
    out += `${out ? ', ' : ''}${key}${value}`
  }
  return out
}
