import { describe, expect, it } from 'vitest'
import { staticImportGraph } from '../../helpers/import-graph.js'

/*
 * Issue 28: `mk hook claude` and `mk hook cursor` run before every agent edit. bin/run.js asks the
 * local server through the fast path before mk is loaded: it must carry no package at all. The
 * commands, which run when no server answers, load the check itself (constraint engine, knowledge
 * loader, config loader) and every heavy package only when they check in-process.
 */
const heavyPackage =
  /^(better-sqlite3|sqlite-vec|ink|react|@modelcontextprotocol\/sdk.*|@huggingface\/transformers|@energetic-ai\/.*|gpt-tokenizer.*|fastify.*)$/
const checkModules = /^src\/(constraints|knowledge\/load|config\/load|hook\/|memory|indexing|search|recall|directives)/

describe('the hook fast path', () => {
  it("loads only Node built-ins and a few of mk's own small modules: no schema library, no oclif", () => {
    const graph = staticImportGraph('src/hosts/cli/hook-fast-path.ts')
    expect(graph.packages.filter((name) => !name.startsWith('node:'))).toEqual([])
    expect(graph.files.filter((file) => checkModules.test(file))).toEqual([])
    expect(graph.files.length).toBeLessThanOrEqual(20)
  })
})

describe.each(['commands/hook/claude.ts', 'commands/hook/cursor.ts'])('the static imports of %s', (command) => {
  const graph = staticImportGraph(command)

  it('hold no heavy package', () => {
    expect(graph.packages.filter((name) => heavyPackage.test(name))).toEqual([])
  })

  it('hold neither the check nor the knowledge, config or memory loaders', () => {
    expect(graph.files.filter((file) => checkModules.test(file))).toEqual([])
    // About 25 small modules today; a jump means something heavy came in.
    expect(graph.files.length).toBeLessThanOrEqual(40)
  })
})
