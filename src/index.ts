import config from '../robots.config.ts'
import { createApp } from './app.ts'

// The composition root. Built once per isolate: a bad config throws here, at
// start-up, so the deploy fails and no live request ever sees it.
const app = createApp(config)

export default app
