import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadWorkspace } from '../../../src/config/load.js'
import { runtimeEnvFrom } from '../../../src/config/workspace.js'
import { Resources } from '../../../src/tools/context.js'
import { dispatch } from '../../../src/tools/dispatcher.js'
import { evalRun } from '../../../src/tools/eval/run.js'
import { plainStyle } from '../../../src/style.js'
import { makeWorkspace, type TempWorkspace } from '../../helpers/workspace.js'

const fixtures = fileURLToPath(new URL('../../fixtures/eval/', import.meta.url))

describe('eval_run tool', () => {
  let workspace: TempWorkspace
  beforeAll(async () => {
    workspace = await makeWorkspace({ '.mkrc': 'search:\n  embedding:\n    provider: none\n  textWeight: 0.55\n' })
  })
  afterAll(() => workspace.cleanup())

  it('has examples that match its schemas', () => {
    for (const example of evalRun.examples) {
      expect(evalRun.input.safeParse(example.input).success).toBe(true)
      expect(evalRun.output.safeParse(example.output).success).toBe(true)
    }
  })

  it('runs through the dispatcher, read-only, with the configured text weight', async () => {
    const resources = new Resources()
    const outcome = await dispatch(
      evalRun,
      { dataset: `beir:${fixtures}beir-tiny`, mode: 'fulltext' },
      {
        workspace: await loadWorkspace({ cwd: workspace.root, env: { MK_HOME: workspace.mkHome } }),
        env: {},
        cwd: workspace.root,
        runtime: runtimeEnvFrom({ MK_READ_ONLY: '1' }),
        style: plainStyle,
        resources,
      },
    )
    await resources.closeAll()
    if (!outcome.ok) throw new Error(outcome.error.message)
    expect(outcome.output).toMatchObject({
      dataset: { kind: 'beir', documents: 4, queries: 2, indexes: 1 },
      textWeight: 0.55,
      build: { embeddedDocuments: 0, cachedDocuments: 0 },
      results: [{ mode: 'fulltext', metrics: { ndcgAt10: 1, recallAt100: 1 } }],
    })
    expect(outcome.display).toMatch(/fulltext\s+1\.000\s+1\.000/)
  })

  it('weighs a memory set (team, locomo) with search.memoryTextWeight when no weight is asked', async () => {
    const memoryWorkspace = await makeWorkspace({ '.mkrc': 'search:\n  embedding:\n    provider: none\n  textWeight: 0.55\n  memoryTextWeight: 0.65\n' })
    const resources = new Resources()
    const ctx = {
      workspace: await loadWorkspace({ cwd: memoryWorkspace.root, env: { MK_HOME: memoryWorkspace.mkHome } }),
      env: {},
      cwd: memoryWorkspace.root,
      runtime: runtimeEnvFrom({ MK_READ_ONLY: '1' }),
      style: plainStyle,
      resources,
    }
    try {
      const team = await dispatch(evalRun, { dataset: `team:${fixtures}team-tiny.json`, mode: 'fulltext' }, ctx)
      const locomo = await dispatch(evalRun, { dataset: `locomo:${fixtures}locomo-tiny.json`, mode: 'fulltext' }, ctx)
      const asked = await dispatch(evalRun, { dataset: `team:${fixtures}team-tiny.json`, mode: 'fulltext', textWeight: 0.9 }, ctx)
      expect([team, locomo, asked].map((outcome) => (outcome.ok ? (outcome.output as { textWeight: number }).textWeight : outcome.error.message))).toEqual([
        0.65, 0.65, 0.9,
      ])
    } finally {
      await resources.closeAll()
      await memoryWorkspace.cleanup()
    }
  })

  it('rejects a limit of 0 and an unknown mode', () => {
    expect(evalRun.input.safeParse({ dataset: 'beir', limitQueries: 0 }).success).toBe(false)
    expect(evalRun.input.safeParse({ dataset: 'beir', mode: 'semantic' }).success).toBe(false)
  })
})
