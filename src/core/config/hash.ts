/**
 * A 64-bit content hash (two independent 32-bit FNV-1a style lanes), as 16
 * hex digits: synchronous, so the served text's version and ETag are known
 * the moment it is rendered. Not a security boundary: it names versions.
 */
export function contentHash(text: string): string {
  let a = 0x811c9dc5
  let b = 0x01000193 ^ text.length
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    a = Math.imul(a ^ c, 0x01000193)
    b = Math.imul(b ^ c, 0x5bd1e995) ^ (b >>> 15)
  }
  return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0')
}
