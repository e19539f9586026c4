// What an editor offers inside robots.config.ts, asked of TypeScript's own
// language service (the one editors run), with the Worker's compiler
// options: making misspelled keys errors (test/types/fixtures) must not cost
// the autocompletion of `userAgent` tokens and of the keys themselves.
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { beforeAll, describe, expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const FILE = `${ROOT}test/types/fixtures/__completion__.ts`

let service: ts.LanguageService
let source = ''

/** Completion names at the `|` in `text`. */
function completionsAt(text: string): string[] {
  const at = text.indexOf('|')
  source = text.slice(0, at) + text.slice(at + 1)
  const result = service.getCompletionsAtPosition(FILE, at, { includeCompletionsForModuleExports: false })
  return (result?.entries ?? []).map((e) => e.name)
}

beforeAll(() => {
  const configFile = ts.readConfigFile(`${ROOT}tsconfig.json`, ts.sys.readFile)
  const { options } = ts.parseJsonConfigFileContent(configFile.config, ts.sys, ROOT)
  let version = 0
  const host: ts.LanguageServiceHost = {
    getCompilationSettings: () => options,
    getScriptFileNames: () => [FILE],
    getScriptVersion: (file) => (file === FILE ? String(++version) : '1'),
    getScriptSnapshot: (file) => {
      if (file === FILE) return ts.ScriptSnapshot.fromString(source)
      const text = ts.sys.readFile(file)
      return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text)
    },
    getCurrentDirectory: () => ROOT,
    getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
    fileExists: (file) => file === FILE || ts.sys.fileExists(file),
    readFile: (file) => (file === FILE ? source : ts.sys.readFile(file)),
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
  }
  service = ts.createLanguageService(host, ts.createDocumentRegistry())
}, 60_000)

describe('robots.config.ts in an editor', () => {
  it("offers the known crawlers' tokens for userAgent", () => {
    const names = completionsAt("import { defineConfig } from 'robots-edge'\nexport default defineConfig({ rules: [{ userAgent: '|' }] })\n")
    expect(names).toEqual(expect.arrayContaining(['*', 'gptbot', 'googlebot', 'ccbot', 'bingbot']))
  }, 60_000)

  it("offers them in a list of tokens, in a lone rule, and in a config function's result", () => {
    expect(completionsAt("import { defineConfig } from 'robots-edge'\ndefineConfig({ rules: [{ userAgent: ['GPTBot', '|'] }] })\n")).toContain('ccbot')
    expect(completionsAt("import { defineConfig } from 'robots-edge'\ndefineConfig({ rules: { userAgent: '|' } })\n")).toContain('gptbot')
    expect(completionsAt("import { defineConfig } from 'robots-edge'\ndefineConfig(({ env }) => ({ rules: [{ userAgent: '|' }] }))\n")).toContain('gptbot')
  }, 60_000)

  it('offers the keys of a rule and of the config', () => {
    expect(completionsAt("import { defineConfig } from 'robots-edge'\ndefineConfig({ rules: [{ userAgent: '*', | }] })\n")).toEqual(
      expect.arrayContaining(['allow', 'disallow', 'crawlDelay', 'contentSignal', 'guard']),
    )
    expect(completionsAt("import { defineConfig } from 'robots-edge'\ndefineConfig({ rules: [], | })\n")).toEqual(expect.arrayContaining(['sitemap', 'guard', 'host', 'indexable', 'previewHosts']))
  }, 60_000)

  it('reports a misspelled key as an error that names the right one', () => {
    completionsAt("import { defineConfig } from 'robots-edge'\ndefineConfig({ rules: [{ userAgent: '*', disalow: '/' }] })|\n")
    const messages = service.getSemanticDiagnostics(FILE).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))
    expect(messages).toEqual([expect.stringContaining("'disalow' does not exist in type 'RuleConfig'. Did you mean to write 'disallow'?")])
  }, 60_000)
})
