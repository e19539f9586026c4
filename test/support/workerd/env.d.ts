import type { D1Migration } from '@cloudflare/vitest-pool-workers'

declare global {
  namespace Cloudflare {
    interface Env {
      TEST_MIGRATIONS: D1Migration[]
    }
  }
}

declare module 'vitest' {
  // Provided by test/support/echo-origin.ts (the workers project's global setup).
  export interface ProvidedContext {
    echoOrigin: string
  }
}
