import config from '../../robots.config.ts'
import { createWorker } from '../../src/package/app.ts'
import { cfOf, verifyClaim } from '../../src/verify/verify.ts'
import { createIpRangeLoader } from '../../src/verify/store/ip-range-loader.ts'
import { withGuardMode } from './mode.ts'

// The guard in `log` mode, verifying claims as it did before Web Bot Auth
// (published IP ranges, then Cloudflare): the baseline that shows what the
// signature check costs requests that carry no signature.
const loadIpRanges = createIpRangeLoader()

export default createWorker(withGuardMode(config, 'log'), {
  verify: async (c, identity) => {
    const kv = (c.env as Env | undefined)?.ROBOTS_KV
    return verifyClaim(identity.id, c.req.header('cf-connecting-ip') ?? null, cfOf(c.req.raw), kv ? await loadIpRanges(kv) : new Map())
  },
})
