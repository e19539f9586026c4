import config from '../robots.config.ts'
import { createWorker } from './app.ts'

// The composition root. Built once per isolate: a bad config throws here, at
// start-up, so the deploy fails and no live request ever sees it.
export default createWorker(config)
