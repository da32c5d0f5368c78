import { describe, expect, it } from 'vitest'
import { staticImportGraph } from '../../helpers/import-graph.js'

/*
 * Issue 28: `mk hook claude` and `mk hook cursor` run before every agent edit. What they load before
 * they ask the local server must stay light: the check itself (constraint engine, knowledge loader,
 * config loader) and every heavy package are loaded only when the hook checks in-process.
 */
const heavyPackage =
  /^(better-sqlite3|sqlite-vec|ink|react|@modelcontextprotocol\/sdk.*|@huggingface\/transformers|@energetic-ai\/.*|gpt-tokenizer.*|fastify.*)$/
const checkModules = /^src\/(constraints|knowledge\/load|config\/load|hook\/|memory|indexing|search|recall|directives)/

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
