// The filter on workerd's teardown line (test/support/workerd-noise.ts) drops
// exactly that line: any other output of workerd's, errors included, still shows.
import { describe, expect, it } from 'vitest'
import { isTeardownNoise } from './support/workerd-noise.ts'

describe('isTeardownNoise', () => {
  it("drops workerd's teardown line, as a string or as bytes", () => {
    const line = 'exception = workerd/api/web-socket.c++:821: disconnected: WebSocket peer disconnected\n'
    expect(isTeardownNoise(line)).toBe(true)
    expect(isTeardownNoise(new TextEncoder().encode(line))).toBe(true)
  })

  it('keeps every other line, and the same words inside a longer write', () => {
    for (const kept of [
      'exception = workerd/api/web-socket.c++:821: disconnected: WebSocket peer disconnected\nError: no such table: agents\n',
      'Uncaught Error: WebSocket peer disconnected',
      'exception = workerd/io/worker.c++:100: failed: something real\n',
      'service core:user:robots-edge: Uncaught TypeError: x is not a function\n',
      '',
    ]) {
      expect(isTeardownNoise(kept), kept).toBe(false)
    }
    expect(isTeardownNoise(42)).toBe(false)
  })
})
