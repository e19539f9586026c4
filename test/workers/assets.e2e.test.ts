// The chart library is committed under public/ (Workers Static Assets needs
// the file on disk for `npm run dev`, the tests and `wrangler deploy`, with
// no build step in between). This keeps that copy identical to the pinned
// npm package's dist, so upgrading is `npm i -D --save-exact uplot@X` and a copy.
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'

const require = createRequire(import.meta.url)
const pinned = (JSON.parse(await readFile('package.json', 'utf8')) as { devDependencies: Record<string, string> }).devDependencies.uplot

describe('public/_robots/static', () => {
  it.each([
    ['uPlot.iife.min.js', 'dist/uPlot.iife.min.js'],
    ['uPlot.min.css', 'dist/uPlot.min.css'],
    ['uPlot.LICENSE.txt', 'LICENSE'],
  ])("%s is the pinned uplot package's %s", async (copy, original) => {
    const packageDir = require.resolve('uplot/package.json').replace(/package\.json$/, '')
    const [ours, theirs] = await Promise.all([readFile(`public/_robots/static/${copy}`, 'utf8'), readFile(`${packageDir}${original}`, 'utf8')])
    expect(ours === theirs, `public/_robots/static/${copy} differs from node_modules/uplot/${original}: copy it again (cp node_modules/uplot/${original} public/_robots/static/${copy})`).toBe(true)
  })

  it('names the version it is, and that version is the pinned one', async () => {
    expect(pinned).toMatch(/^\d+\.\d+\.\d+$/)
    const head = (await readFile('public/_robots/static/uPlot.iife.min.js', 'utf8')).slice(0, 80)
    expect(head).toContain(`(v${pinned})`)
  })
})
