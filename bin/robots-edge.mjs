#!/usr/bin/env node
// The robots-edge CLI. Installed from npm it runs the built JavaScript
// (lib/cli.mjs): a consumer needs no TypeScript loader. In a checkout of the
// repository, where scripts/ exists, it runs the TypeScript source through
// tsx (a development dependency), so it never runs a stale build.
import { existsSync } from 'node:fs'

const source = new URL('../src/cli/robots.ts', import.meta.url)
if (existsSync(source)) {
  const { register } = await import('tsx/esm/api')
  register()
  await import(source.href)
} else {
  await import('../lib/cli.mjs')
}
