import { afterEach, describe, expect, it } from 'vitest'
import { loadWorkspace } from '../../../src/config/load.js'
import { showKnowledgeItem } from '../../../src/knowledge/show.js'
import type { KnowledgeProblem } from '../../../src/knowledge/model.js'
import { makeWorkspace, type TempWorkspace } from '../../helpers/workspace.js'

const adr = (id: string, title: string): string => `---
id: ${id}
type: adr
title: ${title}
status: accepted
date: 2026-11-25
---
# ${title}

Body of ${id}.
`

let workspace: TempWorkspace | undefined
afterEach(async () => {
  await workspace?.cleanup()
  workspace = undefined
})

async function open(): Promise<Awaited<ReturnType<typeof loadWorkspace>>> {
  workspace = await makeWorkspace({
    'knowledge/adr/adr-0001-use-postgres.md': adr('adr-0001-use-postgres', 'Use Postgres'),
    'knowledge/adr/adr-0002-use-kafka.md': adr('adr-0002-use-kafka', 'Use Kafka'),
    'knowledge/adr/broken.md': '---\nid: [not closed\n---\n',
  })
  return loadWorkspace({ cwd: workspace.root, env: { MK_HOME: workspace.mkHome } })
}

describe('showKnowledgeItem', () => {
  it('finds an item by an unambiguous start of its id, without history unless asked', async () => {
    const loaded = await open()
    const shown = await showKnowledgeItem(loaded, { id: 'adr-0001', history: false }, () => undefined)
    expect(shown.item.id).toBe('adr-0001-use-postgres')
    expect(shown.shadows).toEqual([])
    expect(shown.history).toBeUndefined()
  })

  it('hands over the load problems before it fails on an ambiguous or unknown id', async () => {
    const loaded = await open()
    const reported: KnowledgeProblem[][] = []
    await expect(showKnowledgeItem(loaded, { id: 'adr-000', history: false }, (problems) => reported.push(problems))).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    })
    await expect(showKnowledgeItem(loaded, { id: 'adr-0003-use-postgres', history: false }, (problems) => reported.push(problems))).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: expect.stringContaining('did you mean adr-0001-use-postgres'),
    })
    expect(reported).toHaveLength(2)
    expect(reported[0]?.some((problem) => problem.file.endsWith('broken.md'))).toBe(true)
  })
})
