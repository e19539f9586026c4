import { Hono } from 'hono'
import config from '../robots.config.ts'
import { createPolicies } from './config/index.ts'
import { passThrough } from './middleware/origin.ts'
import { robotsTxt } from './middleware/robots-txt.ts'

// Built once per isolate. A bad config throws here, at start-up: the deploy
// fails, and no live request ever sees it.
const policies = createPolicies(config)

const app = new Hono<{ Bindings: Env }>()
app.use(robotsTxt({ policies }))
app.all('*', passThrough())

export default app
