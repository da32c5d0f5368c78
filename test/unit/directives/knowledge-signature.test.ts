import { utimes } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { loadWorkspace } from '../../../src/config/load.js'
import { knowledgeSignature } from '../../../src/directives/knowledge-documents.js'
import { makeWorkspace, type TempWorkspace } from '../../helpers/workspace.js'

let temp: TempWorkspace | undefined
afterEach(async () => {
  await temp?.cleanup()
  temp = undefined
})

describe('knowledgeSignature', () => {
  it('changes with a knowledge file, not with a memory, and a folder named like the memory folder is knowledge', async () => {
    temp = await makeWorkspace({
      'knowledge/adr/adr-0001-postgres.md': '---\nid: adr-0001\ntype: adr\n---\n# Use PostgreSQL\n',
      'knowledge/memory/mem_01M8EX2DNZ76MX91DNJHHYSRKE.md': '---\nid: mem_01M8EX2DNZ76MX91DNJHHYSRKE\nlayer: project\n---\nReleases are cut on Tuesdays\n',
    })
    const workspace = await loadWorkspace({ cwd: temp.root, env: { MK_HOME: temp.mkHome } })
    const first = await knowledgeSignature(workspace)
    await temp.write(
      'knowledge/memory/mem_01M8EX2DNZ76MX91DNJHHYSRKF.md',
      '---\nid: mem_01M8EX2DNZ76MX91DNJHHYSRKF\nlayer: project\n---\nDeploys need two approvals\n',
    )
    expect(await knowledgeSignature(workspace)).toBe(first)
    await temp.write('knowledge/memory-notes/note.md', '---\nid: note\ntype: pattern\n---\n# A note\n')
    const withNotes = await knowledgeSignature(workspace)
    expect(withNotes).not.toBe(first)
    await temp.write('knowledge/adr/adr-0001-postgres.md', '---\nid: adr-0001\ntype: adr\n---\n# Use PostgreSQL 16\n')
    expect(await knowledgeSignature(workspace)).not.toBe(withNotes)
  })
})

describe('knowledgeSignature, portable', () => {
  const files = { 'knowledge/adr/adr-0001-postgres.md': '---\nid: adr-0001\ntype: adr\n---\n# Use PostgreSQL\n' }
  const others: TempWorkspace[] = []
  afterEach(async () => Promise.all(others.splice(0).map((other) => other.cleanup())))

  it('is the same for two copies of the knowledge in other folders, written at other times, and follows the content', async () => {
    temp = await makeWorkspace(files)
    const copy = await makeWorkspace(files)
    others.push(copy)
    await utimes(join(copy.root, 'knowledge/adr/adr-0001-postgres.md'), new Date('2026-01-01'), new Date('2026-01-01'))
    const here = await loadWorkspace({ cwd: temp.root, env: { MK_HOME: temp.mkHome } })
    const there = await loadWorkspace({ cwd: copy.root, env: { MK_HOME: copy.mkHome } })
    // Two replicas of the PostgreSQL store keep one signature per scope: were theirs to differ, each would reload the knowledge on every refresh.
    expect(await knowledgeSignature(there, { portable: true })).toBe(await knowledgeSignature(here, { portable: true }))
    expect(await knowledgeSignature(there)).not.toBe(await knowledgeSignature(here))
    await copy.write('knowledge/adr/adr-0001-postgres.md', '---\nid: adr-0001\ntype: adr\n---\n# Use PostgreSQL 17\n')
    expect(await knowledgeSignature(there, { portable: true })).not.toBe(await knowledgeSignature(here, { portable: true }))
  })
})
