/**
 * A request's or response's body as text, or null past `maxBytes`: the
 * declared length is checked first and the stream as it arrives, so a huge
 * body, or one that lies about its length, is never held. A refused stream
 * is cancelled. Shared by everything that reads a body it did not write:
 * operators' IP-range lists, key directories, the impact route's candidate.
 */
export async function readBoundedText(message: Request | Response, maxBytes: number): Promise<string | null> {
  if (Number(message.headers.get('content-length')) > maxBytes) {
    await message.body?.cancel().catch(() => undefined)
    return null
  }
  if (message.body === null) return ''
  const reader = message.body.getReader()
  const decoder = new TextDecoder()
  let size = 0
  let text = ''
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return text + decoder.decode()
    if ((size += value.byteLength) > maxBytes) {
      await reader.cancel().catch(() => undefined)
      return null
    }
    text += decoder.decode(value, { stream: true })
  }
}
