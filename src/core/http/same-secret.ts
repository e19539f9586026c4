// Shared by the admin token's check and the origin's marker header: both
// compare a secret a request offers with the one configured.

async function digest(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)))
}

/**
 * Compares two secrets in constant time: both are hashed first, so the
 * comparison always runs over 32 bytes whatever their lengths, and every
 * byte is visited, so the time says nothing about where they differ.
 */
export async function sameSecret(a: string, b: string): Promise<boolean> {
  const [x, y] = await Promise.all([digest(a), digest(b)])
  let diff = 0
  for (let i = 0; i < x.length; i++) diff |= x[i]! ^ y[i]!
  return diff === 0
}
