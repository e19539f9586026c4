import { verificationCoverage, type VerificationCoverage } from '../coverage.ts'
import { createIpRangeLoader, type IpRangeLoader } from './ip-range-loader.ts'
import { kvOf } from './kv.ts'

/** Which operators' IP ranges an isolate has loaded from `env.ROBOTS_KV`, fetched when, stale or not. */
export type CoverageReader = (env: unknown) => Promise<VerificationCoverage>

/**
 * Reads verification coverage through a loader: the edge passes the one it
 * verifies with, the admin Worker one of its own, so neither builds the
 * other's storage.
 */
export function createCoverageReader(load: IpRangeLoader = createIpRangeLoader()): CoverageReader {
  return async (env) => {
    const kv = kvOf(env)
    // Reading first picks up a refresh that landed since the last request.
    if (kv) await load(kv)
    return verificationCoverage(load.snapshot(), Date.now())
  }
}
