/**
 * How an origin server may read a request path other than as written, for
 * the guard (guard/readings.ts). The guard refuses a request when any of
 * these readings is disallowed, because the origin serves what it reads,
 * not what the guard read: Python's http.server, nginx, Apache and Express's
 * static files all decode the path, then merge repeated slashes and resolve
 * dot segments before they open a file, so `//private/x`, `/private%2Fx` and
 * `/x/..%2Fprivate/x` reach `/private/x`.
 *
 * robots-edge deviation: RFC 9309 §2.2.2 compares the path as encoded (with
 * unreserved octets decoded), and the served file and `check` keep Google's
 * reading of it. Only the guard is stricter: it judges these readings too.
 *
 * Each reading applies a subset of four steps, always in this order,
 * decoding before structure as those servers do:
 * - `%2F` read as `/` (RFC 3986 §2.2 reserves it, but servers that decode
 *   the whole path before mapping it to files do not keep the difference);
 * - `\` and `%5C` read as `/` (IIS, and Node static servers on Windows,
 *   whose path functions take `\` for a separator; a request URL the
 *   Workers runtime parsed already has `/` for a literal `\`);
 * - repeated slashes merged (nginx `merge_slashes`, Apache `MergeSlashes`,
 *   Python's `posixpath.normpath`);
 * - dot segments removed (RFC 3986 §5.2.4), after unreserved escapes such
 *   as `%2E` are decoded, so `.%2e` and `%2e%2e` count as `..`.
 * Every subset is tried, not only all four together: an origin that removes
 * dot segments but keeps `//` (the WHATWG URL parser) reads `/a/.//b` as
 * `/a//b`, which a rule for `/a//` disallows and the full reading `/a/b` may not.
 *
 * Worst case: at most 15 readings (the non-empty subsets of four steps;
 * only steps that change the path are tried, and duplicates are dropped),
 * each built in time linear in the path. Beyond MAX_PATH characters only
 * the reading with every step is built. Each reading costs the guard one
 * more match (linear in path length times pattern length, as every match).
 */

/** Longest path (without the query) for which every subset is built. */
export const MAX_PATH = 4096

const ENCODED_SLASH = 1
const BACKSLASH = 2
const MERGE_SLASHES = 4
const DOT_SEGMENTS = 8
const ALL = ENCODED_SLASH | BACKSLASH | MERGE_SLASHES | DOT_SEGMENTS

/**
 * Paths any of the steps could change: most requests have none of these, and
 * get no extra reading. Tested after unreserved escapes are decoded, so an
 * encoded dot (`%2E`) shows as `/.`, and `%20` triggers nothing.
 */
const TRIGGER = /\/\/|\/\.|%2f|%5c|\\/i
/** A `.` or `..` segment (RFC 3986 §3.3). */
const DOT_SEGMENT = /\/\.\.?(?:\/|$)/

/** Whether a path (already decoded of unreserved escapes) could read differently to a normalizing origin. */
export function mayNormalize(path: string): boolean {
  return TRIGGER.test(path)
}

/** RFC 3986 §5.2.4 on a path starting with `/`; linear in its length. */
export function removeDotSegments(path: string): string {
  if (!DOT_SEGMENT.test(path)) return path
  const input = path.split('/')
  const out: string[] = []
  const last = input.length - 1
  for (let i = 1; i <= last; i++) {
    const segment = input[i]!
    if (segment === '.' || segment === '..') {
      if (segment === '..') out.pop()
      // `/a/.` and `/a/b/..` end in a directory: `/a/`.
      if (i === last) out.push('')
    } else {
      out.push(segment)
    }
  }
  return `/${out.join('/')}`
}

function apply(path: string, steps: number): string {
  let s = path
  if (steps & ENCODED_SLASH) s = s.replace(/%2f/gi, '/')
  if (steps & BACKSLASH) s = s.replace(/%5c|\\/gi, '/')
  if (steps & MERGE_SLASHES) s = s.replace(/\/{2,}/g, '/')
  if (steps & DOT_SEGMENTS) s = removeDotSegments(s)
  return s
}

/**
 * The readings of `path` (a path and query, unreserved escapes already
 * decoded) that differ from it, each with its query kept as written: the
 * origin's routing reads the query apart from the path.
 *
 * @example
 * normalizedReadings('/x/..%2Fprivate/a') // includes '/private/a'
 */
export function normalizedReadings(path: string): string[] {
  const q = path.indexOf('?')
  const p = q < 0 ? path : path.slice(0, q)
  const query = q < 0 ? '' : path.slice(q)
  const seen = new Set<string>([p])
  const readings: string[] = []
  const add = (reading: string) => {
    if (!seen.has(reading)) {
      seen.add(reading)
      readings.push(reading + query)
    }
  }
  const steps = stepsFor(p)
  if (p.length > MAX_PATH) {
    add(apply(p, steps))
  } else {
    // Every non-empty subset of the steps that change something, all of
    // them first: the reading most origins make, and the likeliest to refuse.
    for (let subset = steps; subset > 0; subset = (subset - 1) & steps) add(apply(p, subset))
  }
  return readings
}

/**
 * The steps that change `path`. Judged on it with both decodings applied:
 * decoding only adds slashes, so a `//` or a dot segment that some subset
 * would see is there too.
 */
function stepsFor(path: string): number {
  let steps = 0
  if (/%2f/i.test(path)) steps |= ENCODED_SLASH
  if (/%5c|\\/i.test(path)) steps |= BACKSLASH
  const decoded = apply(path, steps)
  if (decoded.includes('//')) steps |= MERGE_SLASHES
  if (DOT_SEGMENT.test(decoded)) steps |= DOT_SEGMENTS
  return steps
}

/** The path with all four steps applied (query kept): how the most normalizing origin reads it. */
export function normalizedPath(path: string): string {
  const q = path.indexOf('?')
  return q < 0 ? apply(path, ALL) : apply(path.slice(0, q), ALL) + path.slice(q)
}
