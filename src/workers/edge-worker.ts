import { createEdgeWorker } from 'robots-edge'
import config from '../../robots.config.ts'

// This repository's edge Worker, built from the package exactly as a
// consumer's would be: robots.txt, the guard, recording and the cron in
// front of a site's origin; /_robots/ goes to the admin Worker
// (src/workers/admin-worker.js) through the ROBOTS_ADMIN service binding, so the
// report's code is not in the bundle every request runs. Built once per
// isolate: a bad config throws here, at start-up, so the deploy fails and no
// live request ever sees it. `npm run build` and `npm run deploy` check a
// config object before bundling instead, and leave the validator out
// (dev/checked-config.ts); a config function is still checked here.
export default createEdgeWorker(config)
