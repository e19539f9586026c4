// The layout's rules, read from the import graph (src/README.md explains
// them): src/ is cut along the deployment line, core/ at the bottom, edge/
// and admin/ side by side, and only package/, cli/ and workers/ join them;
// the tooling folders (test/, bench/, scripts/, dev/) never import each
// other, and no import in src/ goes round in a circle.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const SOURCE = /\.(ts|mts|js|mjs)$/

/** Every source file under `dir`, repository-relative, fixtures left out (they are other projects). */
function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = `${dir}/${name}`
    if (name === 'fixtures' || name === 'node_modules') return []
    if (statSync(join(ROOT, path)).isDirectory()) return sourceFiles(path)
    return SOURCE.test(name) && !name.endsWith('.d.ts') ? [path] : []
  })
}

interface Edge {
  readonly from: string
  readonly to: string
}

/** The relative imports of a file (static, dynamic and `export ... from`), resolved to repository paths. */
function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(join(ROOT, file), 'utf8'), true, true)
  return importedFiles
    .map((i) => i.fileName)
    .filter((spec) => spec.startsWith('.'))
    .map((spec) =>
      relative(ROOT, resolve(ROOT, dirname(file), spec))
        .split('\\')
        .join('/'),
    )
}

const graphOf = (dirs: readonly string[]): Edge[] => dirs.flatMap(sourceFiles).flatMap((from) => importsOf(from).map((to) => ({ from, to })))

const SRC = graphOf(['src'])
const TOOLING = graphOf(['test', 'bench', 'scripts', 'dev'])

/** `src/<folder>/...` → folder; `src/core/<part>/...` → `core/<part>` when `deep`. */
function folderOf(path: string, deep = false): string {
  const [top, second, third] = path.split('/')
  if (top !== 'src') return top!
  return deep && second === 'core' && third !== undefined && !SOURCE.test(third) ? `core/${third}` : second!
}

/**
 * What each folder of src/ may import besides itself. core/ runs anywhere
 * and imports nothing above it; verify/ and ledger/ stand on core/ alone;
 * edge/ and admin/ stand on those three and never on each other; package/,
 * cli/ and workers/ join them.
 */
const MAY_IMPORT: Readonly<Record<string, readonly string[]>> = {
  core: [],
  verify: ['core'],
  ledger: ['core'],
  edge: ['core', 'verify', 'ledger'],
  admin: ['core', 'verify', 'ledger'],
  package: ['core', 'verify', 'ledger', 'edge', 'admin'],
  cli: ['core', 'verify', 'ledger', 'edge', 'admin', 'package'],
  // The template's entries import the package by name, and the site's config.
  workers: ['package'],
}

/** Inside core/: the engine stands alone; judging a request is the top of the core. */
const CORE_MAY_IMPORT: Readonly<Record<string, readonly string[]>> = {
  'core/robots': [],
  'core/http': [],
  'core/agents': ['core/robots'],
  'core/config': ['core/robots', 'core/agents', 'core/http'],
  'core/judge': ['core/robots', 'core/agents', 'core/config', 'core/http'],
}

/** What each tooling folder may import besides itself: src/, and dev/ (the helpers they share). */
const TOOLING_MAY_IMPORT: Readonly<Record<string, readonly string[]>> = {
  test: ['src', 'dev'],
  bench: ['src', 'dev'],
  scripts: ['src', 'dev'],
  dev: ['src'],
}

const show = (edges: readonly Edge[]) => edges.map((e) => `${e.from} -> ${e.to}`)

/** The strongly connected components of more than one file (Tarjan): each is an import cycle. */
function cycles(edges: readonly Edge[]): string[][] {
  const next = new Map<string, string[]>()
  for (const { from, to } of edges) next.set(from, [...(next.get(from) ?? []), to])
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const found: string[][] = []
  const visit = (node: string) => {
    index.set(node, index.size)
    low.set(node, index.get(node)!)
    stack.push(node)
    onStack.add(node)
    for (const to of next.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to)
        low.set(node, Math.min(low.get(node)!, low.get(to)!))
      } else if (onStack.has(to)) {
        low.set(node, Math.min(low.get(node)!, index.get(to)!))
      }
    }
    if (low.get(node) !== index.get(node)) return
    const component: string[] = []
    let member: string
    do {
      member = stack.pop()!
      onStack.delete(member)
      component.push(member)
    } while (member !== node)
    if (component.length > 1 || (next.get(node) ?? []).includes(node)) found.push(component.sort())
  }
  for (const node of next.keys()) if (!index.has(node)) visit(node)
  return found
}

describe('the import graph', () => {
  it('reads the graph (a guard against a parser that finds nothing)', () => {
    expect(SRC.length).toBeGreaterThan(300)
    expect(SRC).toContainEqual({ from: 'src/package/index.ts', to: 'src/package/config.ts' })
  })

  it('src/: each folder imports only the folders below it', () => {
    const bad = SRC.filter(({ from, to }) => {
      const [a, b] = [folderOf(from), folderOf(to)]
      if (a === b) return false
      if (a === 'workers' && to === 'robots.config.ts') return false
      return !(MAY_IMPORT[a] ?? []).includes(b)
    })
    expect(show(bad)).toEqual([])
  })

  it('src/: edge and admin never import each other', () => {
    const bad = SRC.filter(({ from, to }) => [folderOf(from), folderOf(to)].sort().join() === 'admin,edge')
    expect(show(bad)).toEqual([])
  })

  it('src/core: the engine stands alone, and nothing in core imports the judge', () => {
    const bad = SRC.filter(({ from, to }) => {
      const [a, b] = [folderOf(from, true), folderOf(to, true)]
      if (a === b || !(a in CORE_MAY_IMPORT) || !b.startsWith('core/')) return false
      return !CORE_MAY_IMPORT[a]!.includes(b)
    })
    expect(show(bad)).toEqual([])
  })

  it('src/core: imports no runtime (hono, cloudflare:*, node:*)', () => {
    const bad = sourceFiles('src/core').flatMap((file) =>
      ts
        .preProcessFile(readFileSync(join(ROOT, file), 'utf8'), true, true)
        .importedFiles.map((i) => i.fileName)
        .filter((spec) => /^(hono|cloudflare:|node:)/.test(spec))
        .map((spec) => `${file} -> ${spec}`),
    )
    expect(bad).toEqual([])
  })

  it('src/: no import cycle, type-only imports included', () => {
    expect(cycles(SRC)).toEqual([])
  })

  it('finds a cycle when there is one (the check checks)', () => {
    const ring = [
      { from: 'a', to: 'b' },
      { from: 'b', to: 'c' },
      { from: 'c', to: 'a' },
      { from: 'c', to: 'd' },
    ]
    expect(cycles(ring)).toEqual([['a', 'b', 'c']])
    expect(cycles([{ from: 'a', to: 'a' }])).toEqual([['a']])
  })

  it('test/, bench/, scripts/ and dev/ never import each other (dev/ holds what they share)', () => {
    const bad = TOOLING.filter(({ from, to }) => {
      const [a, b] = [from.split('/')[0]!, to.split('/')[0]!]
      // The repository's own files (robots.config.ts) are anyone's.
      if (a === b || !SOURCE.test(to) || !to.includes('/')) return false
      // A test of a development script imports the script it tests, and nothing else from scripts/.
      if (from.startsWith('test/scripts/') && b === 'scripts') return false
      return !(TOOLING_MAY_IMPORT[a] ?? []).includes(b)
    })
    expect(show(bad)).toEqual([])
  })
})
