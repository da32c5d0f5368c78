import { afterEach, describe, expect, it } from 'vitest'
import { parseJson, runMk, type MkRun } from '../helpers/mk.js'
import { makeWorkspace, type TempWorkspace } from '../helpers/workspace.js'

interface SearchOutput {
  results: { memoryId: string; layer: string; content: string; shadows: { memoryId: string; layer: string }[] }[]
  totalCount: number
}

// Issue 11.13: totalCount counts before the limit; one fact in several layers is one result.
describe('memory search counts and layers', () => {
  let ws: TempWorkspace | undefined
  afterEach(async () => {
    await ws?.cleanup()
    ws = undefined
  })

  it('counts every match before the limit and returns a fact once, from its most specific layer', async () => {
    const workspace = (ws = await makeWorkspace({ 'knowledge/.keep': '', '.mkrc': 'search:\n  embedding:\n    provider: none\n' }))
    const mk = (args: string[]): Promise<MkRun> =>
      runMk(args, { cwd: workspace.root, env: { MK_HOME: workspace.mkHome, MK_AGENT_ID: undefined, MK_SESSION_ID: undefined } })
    const add = async (content: string, layer: string): Promise<string> => {
      const run = await mk(['memory', 'add', content, '--layer', layer, '--json'])
      expect(run.exitCode, run.stderr).toBe(0)
      return parseJson<{ memoryId: string }>(run).memoryId
    }
    for (const service of ['billing', 'orders', 'search', 'auth', 'reports']) await add(`The ${service} service deploys on Kubernetes`, 'project')
    const projectCopy = await add('Deploys are frozen on Fridays', 'project')
    const userCopy = await add('Deploys are frozen on Fridays.', 'user')

    const limited = parseJson<SearchOutput>(await mk(['memory', 'search', 'Kubernetes', '--limit', '2', '--json']))
    expect(limited.results).toHaveLength(2)
    expect(limited.totalCount).toBe(5)

    const frozen = parseJson<SearchOutput>(await mk(['memory', 'search', 'frozen Fridays', '--json']))
    expect(frozen.totalCount).toBe(1)
    expect(frozen.results.map((result) => [result.memoryId, result.layer, result.shadows])).toEqual([
      [userCopy, 'user', [{ memoryId: projectCopy, layer: 'project' }]],
    ])
  })
})
