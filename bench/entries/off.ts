import config from '../../robots.config.ts'
import { createWorker } from '../../src/package/app.ts'
import { withGuardMode } from './mode.ts'

export default createWorker(withGuardMode(config, 'off'))
