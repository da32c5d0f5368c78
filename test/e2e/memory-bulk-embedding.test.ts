import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { loadTeam } from '../../src/eval/team.js'
import { formatMemory } from '../../src/memory/format.js'
import { newMemoryId } from '../../src/memory/ids.js'
import { parseJson, runMk, type MkRun } from '../helpers/mk.js'
import { makeWorkspace, type TempWorkspace } from '../helpers/workspace.js'

const teamSet = fileURLToPath(new URL('../../bench/recall/team-dev.json', import.meta.url))

interface SearchOutput {
  results: { content: string; score: number; scores: { text?: number; vector?: number } }[]
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
    // A team's 125 memories (bench/recall/team-dev.json), arriving as a pull would bring them.
    const facts = (await loadTeam(teamSet)).memories.map((memory) => memory.content)
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

    const run = await mk(['memory', 'search', 'what database do we use', '--json'])
    expect(run.exitCode, run.stderr).toBe(0)
    expect(run.stderr).not.toMatch(/full text only/)
    const found = parseJson<SearchOutput>(run)
    expect(found).toMatchObject({ searchMode: 'hybrid', pendingEmbeddings: 0 })
    expect(found.results.every((result) => result.scores.vector !== undefined)).toBe(true)
    // The README's example: memories naming a database come first, not one that merely says
    // "database" ("The biggest customers are on a dedicated database cluster"). The legacy MySQL
    // memory is a fair answer too, so the Postgres one must be in the first two.
    const contents = found.results.map((result) => result.content)
    expect(contents[0]).toMatch(/Postgres|MySQL/)
    expect(contents.slice(0, 2)).toContain('We store everything in Postgres 15, one cluster per region.')
    expect(contents.indexOf('The biggest customers are on a dedicated database cluster.')).toBeGreaterThan(3)
    // Scores mean the same for every query: nonsense scores low, and a threshold drops it.
    const nonsense = parseJson<SearchOutput>(await mk(['memory', 'search', 'flurb zanquil morpadex', '--json']))
    expect(Math.max(...nonsense.results.map((result) => result.score))).toBeLessThan(0.3)
    expect(parseJson<SearchOutput>(await mk(['memory', 'search', 'flurb zanquil morpadex', '--threshold', '0.3', '--json'])).results).toEqual([])
    const status = parseJson<{ pendingEmbeddings: number }>(await mk(['index', 'status', '--json']))
    expect(status.pendingEmbeddings).toBe(0)
  }, 300_000)
})
