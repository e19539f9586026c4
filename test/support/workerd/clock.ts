import { vi } from 'vitest'

/**
 * A clock the Worker shares with the test (same isolate): `advance` moves
 * Date.now forward, `restore` puts the real one back (call it in afterEach).
 */
export function mockedClock(): { advance(ms: number): void; restore(): void } {
  let offset = 0
  const realNow = Date.now.bind(Date)
  return {
    advance(ms) {
      offset += ms
      vi.spyOn(Date, 'now').mockImplementation(() => realNow() + offset)
    },
    restore() {
      vi.restoreAllMocks()
      offset = 0
    },
  }
}
