import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseJson, runMk } from '../helpers/mk.js'
import { makeWorkspace, type TempWorkspace } from '../helpers/workspace.js'

const fixtures = fileURLToPath(new URL('../fixtures/eval/', import.meta.url))

describe('mk eval', () => {
  let workspace: TempWorkspace
  beforeAll(async () => {
    workspace = await makeWorkspace({ '.mkrc': 'search:\n  embedding:\n    provider: none\n' })
  })
  afterAll(() => workspace.cleanup())

  const mk = (args: string[]) => runMk(args, { cwd: fixtures, env: { MK_HOME: workspace.mkHome } })

  it('reports BEIR scores as JSON', async () => {
    const run = await mk(['eval', '--dataset', 'beir:beir-tiny', '--mode', 'fulltext', '--cwd', workspace.root, '--json'])
    expect(run.exitCode).toBe(0)
    const report = parseJson(run)
    expect(report).toMatchObject({
      dataset: { spec: 'beir:beir-tiny', kind: 'beir', documents: 4, queries: 2, indexes: 1 },
      results: [{ mode: 'fulltext', metrics: { ndcgAt10: 1, recallAt100: 1 } }],
    })
    expect(run.stderr).toBe('')
  })

  it('prints LoCoMo recall per category for people', async () => {
    const run = await mk(['eval', '--dataset', 'locomo:locomo-tiny.json', '--mode', 'fulltext', '--cwd', workspace.root])
    expect(run.exitCode).toBe(0)
    expect(run.stdout).toMatch(/MODE\s+R@5\s+R@10\s+R@25\s+ABSTAIN\s+FALSE ABST\s+P50\s+P95/)
    expect(run.stdout).toMatch(/fulltext\s+91\.7\s+91\.7\s+91\.7/)
    expect(run.stdout).toMatch(/2 temporal\s+1\s+50\.0/)
    expect(run.stdout).toContain('4 single-hop')
  })

  // Issue 29: the abstention rate beside P@1 and MRR.
  it('prints and returns how often a team set abstains at the default threshold', async () => {
    const text = await mk(['eval', '--dataset', 'team:team-tiny.json', '--mode', 'fulltext', '--cwd', workspace.root])
    expect(text.exitCode).toBe(0)
    expect(text.stdout).toMatch(/MODE\s+P@1\s+R@3\s+R@10\s+MRR@10\s+ABSTAIN\s+FALSE ABST/)
    expect(text.stdout).toMatch(/fulltext\s+1\.000\s+1\.000\s+1\.000\s+1\.000\s+100%\s+0%/)
    expect(text.stdout).toContain('fulltext at threshold 0.7: abstained on 100% of 3 unanswerable questions and on 0% of 3 answerable ones')
    expect(text.stdout).toMatch(/5 none\s+2\s+-\s+-\s+-\s+-\s+100%/)

    const json = await mk(['eval', '--dataset', 'team:team-tiny.json', '--mode', 'fulltext', '--cwd', workspace.root, '--json'])
    expect(parseJson(json)).toMatchObject({
      results: [{ mode: 'fulltext', abstention: { threshold: 0.7, answerable: 3, unanswerable: 3, abstentionRate: 1, falseAbstentionRate: 0 } }],
    })
  })

  it('refuses bad input with one line and exit 2', async () => {
    const spec = await mk(['eval', '--dataset', 'msmarco:x', '--cwd', workspace.root])
    expect(spec.exitCode).toBe(2)
    expect(spec.stderr).toContain('invalid dataset "msmarco:x": expected beir:DIR, locomo:FILE or team:FILE')
    expect(spec.stderr).not.toMatch(/\n\s+at /)

    const missing = await mk(['eval', '--dataset', 'beir:nowhere', '--mode', 'fulltext', '--cwd', workspace.root, '--json'])
    expect(missing.exitCode).toBe(2)
    expect(parseJson(missing)).toMatchObject({ success: false, errorCode: 'NOT_FOUND' })

    const vector = await mk(['eval', '--dataset', 'beir:beir-tiny', '--mode', 'vector', '--cwd', workspace.root, '--json'])
    expect(vector.exitCode).toBe(2)
    expect(parseJson(vector)).toMatchObject({
      errorCode: 'INVALID_INPUT',
      message: 'mode vector needs an embedding model, and search.embedding.provider is none',
    })

    await workspace.write('other/.mkrc', 'search:\n  embedding:\n    provider: transformers\n    model: ./models/missing\n')
    const model = await mk(['eval', '--dataset', 'beir:beir-tiny', '--cwd', join(workspace.root, 'other')])
    expect(model.exitCode).toBe(2)
    expect(model.stderr).toContain(`embedding model folder ${join(workspace.root, 'other', 'models', 'missing')} does not exist`)
    expect(model.stderr).toContain('hint:')

    const weight = await mk(['eval', '--dataset', 'beir:beir-tiny', '--text-weight', '2', '--cwd', workspace.root])
    expect(weight.exitCode).toBe(2)
    expect(weight.stderr).toContain('textWeight')
  })
})
