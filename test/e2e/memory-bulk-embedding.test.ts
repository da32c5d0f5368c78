import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { formatMemory } from '../../src/memory/format.js'
import { newMemoryId } from '../../src/memory/ids.js'
import { parseJson, runMk, type MkRun } from '../helpers/mk.js'
import { makeWorkspace, type TempWorkspace } from '../helpers/workspace.js'

interface SearchOutput {
  results: { content: string; scores: { text?: number; vector?: number } }[]
  searchMode: string
  pendingEmbeddings: number
}

// Issue 13.1: after a pull brings many memories at once, a search used to embed none of them
// (more than 64 waiting) and search full text only while reporting "hybrid".
describe('memories that arrive in bulk', () => {
  let ws: TempWorkspace | undefined
  afterEach(async () => {
    await ws?.cleanup()
    ws = undefined
  })

  it('are all embedded before the first search, which reports the mode that really ran', async () => {
    const workspace = (ws = await makeWorkspace({ 'knowledge/.keep': '' }))
    const mk = (args: string[]): Promise<MkRun> => runMk(args, { cwd: workspace.root, env: { MK_HOME: workspace.mkHome } })
    const folder = join(workspace.root, 'knowledge', 'memory')
    await mkdir(folder, { recursive: true })
    const facts = Array.from({ length: 90 }, (_, n) => `Service number ${n} keeps its settings in a file called service-${n}.toml`)
    facts.push('We store everything in Postgres 15')
    const now = new Date().toISOString()
    for (const content of facts) {
      const id = newMemoryId()
      const text = formatMemory({
        id,
        layer: 'project',
        tags: [],
        created: now,
        updated: now,
        refs: [],
        supersedes: [],
        lane: 'shared',
        metadata: {},
        content,
        source: 'cli',
        expires: undefined,
        owner: undefined,
      })
      await writeFile(join(folder, `${id}.md`), text)
    }

    const run = await mk(['memory', 'search', 'which relational database holds our data', '--json'])
    expect(run.exitCode, run.stderr).toBe(0)
    expect(run.stderr).not.toMatch(/full text only/)
    const found = parseJson<SearchOutput>(run)
    expect(found).toMatchObject({ searchMode: 'hybrid', pendingEmbeddings: 0 })
    expect(found.results.every((result) => result.scores.vector !== undefined)).toBe(true)
    const status = parseJson<{ pendingEmbeddings: number }>(await mk(['index', 'status', '--json']))
    expect(status.pendingEmbeddings).toBe(0)
  }, 300_000)
})
