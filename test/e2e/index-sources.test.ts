import { afterEach, describe, expect, it } from 'vitest'
import { parseJson, runMk, type MkRun } from '../helpers/mk.js'
import { makeWorkspace, type TempWorkspace } from '../helpers/workspace.js'

// Issue 11.1: after `mk init` the knowledge source and the project memory folder share the name
// `project`; refreshing one must never drop the other's documents from the index.
describe('knowledge and project memories under one source name', () => {
  let ws: TempWorkspace | undefined
  afterEach(async () => {
    await ws?.cleanup()
    ws = undefined
  })

  it('keeps every ADR and policy in the index while project memories are added and searched', async () => {
    const workspace = (ws = await makeWorkspace())
    const mk = (args: string[]): Promise<MkRun> =>
      runMk(args, { cwd: workspace.root, env: { MK_HOME: workspace.mkHome, MK_AGENT_ID: undefined, MK_SESSION_ID: undefined } })
    expect((await mk(['init'])).exitCode).toBe(0)
    await workspace.write(
      '.mkrc',
      `${'knowledge:\n  sources:\n    - name: project\n      layer: project\n      path: knowledge\n'}search:\n  embedding:\n    provider: none\n`,
    )

    const query = async (): Promise<string[]> => {
      const run = await mk(['knowledge', 'query', 'PostgreSQL', '--json'])
      expect(run.exitCode, run.stderr).toBe(0)
      return parseJson<{ items: { id: string }[] }>(run).items.map((item) => item.id)
    }
    expect(await query()).toContain('adr-0001-use-postgresql')

    const added = await mk(['memory', 'add', 'Orders are stored in PostgreSQL', '--layer', 'project', '--ref', 'adr-0001-use-postgresql', '--json'])
    expect(added.exitCode, added.stderr).toBe(0)
    const searched = await mk(['memory', 'search', 'PostgreSQL', '--json'])
    expect(searched.exitCode, searched.stderr).toBe(0)
    const results = parseJson<{ results: { content: string; stale?: boolean }[] }>(searched).results
    expect(results.map((result) => [result.content, result.stale ?? false])).toEqual([['Orders are stored in PostgreSQL', false]])

    expect(await query()).toContain('adr-0001-use-postgresql')
  })
})
