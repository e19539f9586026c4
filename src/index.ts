import { createWorker } from 'robots-edge'
import config from '../robots.config.ts'

// This repository's Worker, built from the package exactly as a consumer's
// would be: the whole of robots-edge in front of a site's origin. Built once
// per isolate: a bad config throws here, at start-up, so the deploy fails
// and no live request ever sees it.
export default createWorker(config)
