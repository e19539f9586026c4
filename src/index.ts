import { Hono } from 'hono'
import config from '../robots.config.ts'
import { renderRobotsTxt } from './config/index.ts'
import { robotsTxt } from './middleware/robots-txt.ts'

const app = new Hono<{ Bindings: Env }>()
app.use(robotsTxt({ text: renderRobotsTxt(config) }))
app.get('/', (c) => c.text('robots-edge is running: see /robots.txt\n'))

export default app
