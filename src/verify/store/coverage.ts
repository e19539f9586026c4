import { loadCommandFor, STALE_AFTER_MS, verificationCoverage, type VerificationCoverage } from '../coverage.ts'
import { createIpRangeLoader, type IpRangeLoader } from './ip-range-loader.ts'
import { kvOf } from './kv.ts'

/**
 * Which operators' IP ranges an isolate has loaded from `env.ROBOTS_KV`,
 * fetched when, stale or not; `url` is the request's, so each warning's fix
 * names the command for this Worker (`--remote <origin>` when it is not on
 * this machine).
 */
export type CoverageReader = (env: unknown, url: string) => Promise<VerificationCoverage>

/**
 * Reads verification coverage through a loader: the edge passes the one it
 * verifies with, the admin Worker one of its own, so neither builds the
 * other's storage.
 */
export function createCoverageReader(load: IpRangeLoader = createIpRangeLoader()): CoverageReader {
  return async (env, url) => {
    const kv = kvOf(env)
    // Reading the version key first picks up lists stored since the last
    // request (`robots-edge ranges` just now, say): one small KV read, and
    // coverage is asked for by a person, not by every request.
    if (kv) {
      load.recheck()
      await load(kv)
    }
    return verificationCoverage(load.snapshot(), Date.now(), STALE_AFTER_MS, loadCommandFor(url))
  }
}
