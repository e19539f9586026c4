import { listRewrites, type FixRewrite } from './fix-rewrites.ts'
import { agentToken, parseRobotsTxt } from './parse.ts'
import { readerSafeModel } from './reader-safe.ts'
import { serializeRobotsTxt } from './serialize.ts'
import type { RobotsTxtModel } from './types.ts'

/** What `robots-edge lint --fix` writes, and what it could not keep. */
export interface FixedRobotsTxt {
  /** The file in the reader-safe order (reader-safe.ts), with the same RFC 9309 meaning. */
  readonly text: string
  /** Whether `text` differs from the input. */
  readonly changed: boolean
  /** Lines of comments inside groups or after a record, which have no place once rules move. */
  readonly droppedComments: readonly number[]
  /** Lines no crawler applies (a rule before any group, a line that is not a record), left out. */
  readonly droppedLines: readonly number[]
  /** Every other line the fix rewrote, moved or merged, with what it means for each kind of reader. */
  readonly rewrites: readonly FixRewrite[]
}

export type { FixRewrite }

const COMMENT = /^[ \t\v\f]*#(.*)$/
const BLANK = /^[ \t\v\f]*$/

/**
 * A user-agent value as `--fix` writes it: as written, so that readers that
 * compare the whole value (urllib.robotparser) read it unchanged; but a value
 * with a `/` (`Googlebot/2.1`), which such readers never match (they cut the
 * crawler's name at `/`), becomes the product token RFC 9309 readers read.
 */
function agentValue(value: string): string {
  const token = agentToken(value)
  return value.includes('/') && token !== '' ? token : value
}

/** The text of a comment line, without its `#` and the space after it. */
const commentText = (line: string): string => line.replace(COMMENT, '$1').replace(/^ /, '')

/**
 * A comment that ends up first in the written file is read back as the
 * file's header; it is written as one now, so that fixing a fixed file
 * changes nothing.
 */
function atTop(model: RobotsTxtModel): RobotsTxtModel {
  const first = model.groups[0]
  if (model.header !== undefined || model.other.length > 0 || first?.comment === undefined) return model
  const { comment, ...rest } = first
  return { ...model, header: comment, groups: [rest, ...model.groups.slice(1)] }
}

/**
 * Rewrites a robots.txt body in the reader-safe order. Comments are kept
 * where they still make sense: the block at the top of the file (the
 * header), each block right above a group's first user-agent line (with that
 * group, wherever it moves), and the block after the last record (at the
 * end). Keys are written as RFC 9309 spells them, so Google's accepted typos
 * and missing colons are corrected on the way; each such rewrite is listed
 * in `rewrites`, since readers that skipped the line as written apply it now.
 *
 * @example
 * fixRobotsTxt('User-agent: *\nAllow: /\nDisallow: /admin/\n').text
 * // 'User-agent: *\nDisallow: /admin/\nAllow: /\n'
 */
export function fixRobotsTxt(text: string): FixedRobotsTxt {
  const parsed = parseRobotsTxt(text)
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/)
  const isComment = (i: number): boolean => COMMENT.test(lines[i] ?? '')
  const isRecord = (i: number): boolean => i >= 0 && i < lines.length && !isComment(i) && !BLANK.test(lines[i]!)
  const kept = new Set<number>()
  /** The block of comment lines from `from` on (in the direction of `step`), not yet kept elsewhere. */
  const block = (from: number, step: 1 | -1): string | undefined => {
    const found: number[] = []
    for (let i = from; isComment(i) && !kept.has(i); i += step) found.push(i)
    if (found.length === 0) return undefined
    for (const i of found) kept.add(i)
    return found
      .sort((a, b) => a - b)
      .map((i) => commentText(lines[i]!))
      .join('\n')
  }
  // The comment at the top stays at the top, even when it stands right above
  // the first group and that group moves: a file's opening comment usually
  // speaks for the whole file. What stands before it and is not written back
  // (blank lines, lines no crawler reads) does not change that.
  const firstRecord = Math.min(...[...parsed.groups, ...parsed.other].map((r) => r.line ?? Infinity), ...parsed.sitemapLines) - 1
  let top = 0
  while (top < firstRecord && top < lines.length && !isComment(top)) top++
  const header = top < firstRecord ? block(top, 1) : undefined
  const groups = parsed.groups.map((g, i) => {
    const comment = g.line === undefined ? undefined : block(g.line - 2, -1)
    const withValues = { ...g, userAgents: (parsed.agentValues[i] ?? g.userAgents).map(agentValue) }
    return comment === undefined ? withValues : { ...withValues, comment }
  })
  let last = lines.length - 1
  while (last >= 0 && !isRecord(last)) last--
  let first = last + 1
  while (first < lines.length && (!isComment(first) || kept.has(first))) first++
  const footer = block(first, 1)
  const model = atTop(readerSafeModel({ ...parsed, groups, ...(header !== undefined ? { header } : {}) }))
  let fixed = serializeRobotsTxt(model)
  // The footer goes through the serializer's comment writer: a model of a header alone.
  if (footer !== undefined) fixed += (fixed === '' ? '' : '\n') + serializeRobotsTxt({ header: footer, groups: [], sitemaps: [], other: [] })
  const droppedComments = lines.flatMap((line, i) => (!kept.has(i) && (isComment(i) || (isRecord(i) && line.includes('#'))) ? [i + 1] : []))
  const droppedLines = parsed.diagnostics.filter((d) => d.code === 'rule-outside-group' || d.code === 'malformed-line').map((d) => d.line)
  const changed = fixed !== text
  const rewrites = changed ? listRewrites(parsed, model, new Set(droppedLines)) : []
  return { text: fixed, changed, droppedComments, droppedLines, rewrites }
}
