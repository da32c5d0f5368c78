import { readFile } from 'node:fs/promises'
import { afterEach, describe, expect, it } from 'vitest'
import { loadWorkspace } from '../../../src/config/load.js'
import { planNewItem, writeNewItem } from '../../../src/knowledge/create.js'
import { loadKnowledge } from '../../../src/knowledge/load.js'
import { parseKnowledgeFile } from '../../../src/knowledge/parse.js'
import { makeWorkspace, type TempWorkspace } from '../../helpers/workspace.js'
import { adrToolsConfig, adrToolsRepo } from '../../fixtures/adr-repos.js'

let workspace: TempWorkspace | undefined
afterEach(async () => workspace?.cleanup())

async function setup(files: Record<string, string>) {
  workspace = await makeWorkspace(files)
  const ws = await loadWorkspace({ cwd: workspace.root, env: {} })
  return { ws, base: await loadKnowledge(ws) }
}

describe('planNewItem', () => {
  it('numbers a new ADR after the highest existing one, in the same folder and naming style', async () => {
    const { ws, base } = await setup({ '.mkrc': adrToolsConfig, ...adrToolsRepo })
    const plan = planNewItem(base, ws, { type: 'adr', title: 'Use gRPC between services!', source: undefined, today: '2026-11-21' })
    expect(plan.path).toBe('doc/adr/0004-use-grpc-between-services.md')
    expect(plan.id).toBe('0004-use-grpc-between-services')
  })

  it('starts mk-style numbering in knowledge/adr and writes a template that parses cleanly as proposed', async () => {
    const { ws, base } = await setup({})
    const plan = planNewItem(base, ws, { type: 'adr', title: 'First decision', source: undefined, today: '2026-11-21' })
    expect(plan.path).toBe('knowledge/adr/adr-0001-first-decision.md')
    await writeNewItem(plan, base)
    const parsed = await parseKnowledgeFile({
      path: plan.path,
      absolutePath: plan.absolutePath,
      source: 'project',
      layer: 'project',
      text: await readFile(plan.absolutePath, 'utf8'),
    })
    expect(parsed.problems).toEqual([])
    expect(parsed.item).toMatchObject({ id: 'adr-0001-first-decision', status: 'proposed', type: 'adr', title: 'First decision', date: '2026-11-21' })
  })

  it('never overwrites an existing file', async () => {
    const { ws, base } = await setup({ 'knowledge/policies/no-secrets.md': 'hand written\n' })
    const plan = planNewItem(base, ws, { type: 'policy', title: 'No secrets', source: undefined, today: '2026-11-21' })
    await expect(writeNewItem(plan, base)).rejects.toMatchObject({ code: 'CONFLICT' })
    expect(await readFile(plan.absolutePath, 'utf8')).toBe('hand written\n')
  })
})
