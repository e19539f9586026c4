/**
 * The RFC 9309 core: parse, match, serialize, lint. Strings in, plain objects
 * out; no import from hono, cloudflare:* or the Worker environment, so it
 * runs in plain Node too.
 *
 * Semantics are RFC 9309 as Google's open-source reference matcher reads it.
 * Each behaviour Google adds beyond the RFC is marked `Google extension` where
 * it lives; each robots-edge choice is marked `robots-edge deviation`.
 */
export { parseRobotsTxt, agentToken, MAX_FILE_BYTES, MAX_LINE_BYTES } from './parse.ts'
export { compileRobotsTxt, isAllowed, type RobotsMatcher } from './compile.ts'
export { serializeRobotsTxt } from './serialize.ts'
export { lintRobotsTxt } from './lint.ts'
export { readerSafeModel } from './reader-safe.ts'
export { fixRobotsTxt, type FixedRobotsTxt, type FixRewrite } from './fix.ts'
export { compileReader, substringGroup, type Reader, type ReaderName, type ReaderVerdict } from './readers.ts'
export { matchesPattern, pathOf } from './match.ts'
export { normalizeEncoding } from './encoding.ts'
export { describeCodePoint, findUnsafeCharacter, percentEncode, showValue, type UnsafeCharacter, type UnsafeKind } from './characters.ts'
export type * from './types.ts'
