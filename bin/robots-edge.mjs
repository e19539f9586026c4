#!/usr/bin/env node
// The CLI is TypeScript: register tsx's ESM loader, then run it.
import { register } from 'tsx/esm/api'

register()
await import('../scripts/robots.ts')
