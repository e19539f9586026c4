// Writes public/_robots/static/line-diff.js, the dashboard's line diff, from
// src/core/line-diff.ts: one source for the CLI and the browser. Run before
// dev, test, build, deploy and pack (the file is not committed); writes only
// when the output changes, so runs side by side never see a half-written file.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { transformSync } from 'esbuild'

const root = new URL('..', import.meta.url)
const source = fileURLToPath(new URL('src/core/line-diff.ts', root))
const target = fileURLToPath(new URL('public/_robots/static/line-diff.js', root))

/** Writes the dashboard's copy when it is missing or stale; returns its path. */
export function buildLineDiff() {
  const { code } = transformSync(readFileSync(source, 'utf8'), { loader: 'ts', format: 'esm', target: 'es2022', legalComments: 'inline' })
  const text = `// Generated from src/core/line-diff.ts by scripts/build-line-diff.mjs: edit that file, not this one.\n${code}`
  if (existsSync(target) && readFileSync(target, 'utf8') === text) return target
  writeFileSync(`${target}.tmp`, text)
  renameSync(`${target}.tmp`, target)
  return target
}

if (process.argv[1] === fileURLToPath(import.meta.url)) buildLineDiff()
