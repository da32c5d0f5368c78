import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { folderForLayer } from '../../../src/memory/locations.js'
import { memoryRecord, nobody, storeFactories, write, type OpenedStore } from './stores.js'

describe.each(storeFactories)('the $name store: the search index', (factory) => {
  let opened: OpenedStore
  beforeEach(async () => {
    opened = await factory.open()
  })
  afterEach(() => opened.close())

  const consumer = { agentId: undefined, teamId: undefined }

  it('finds an added memory once fresh, and forgets a deleted one', async () => {
    const folder = folderForLayer(opened.workspace, nobody, 'project')
    const outcome = await opened.store.memories.add(folder, memoryRecord(folder, 'Releases are cut from the trunk every Tuesday'), {
      ...write,
      identity: nobody,
    })
    if (outcome.deduplicated) throw new Error('expected a new memory')
    const { index } = opened.store
    const fresh = await index.refresh({ identity: nobody, warn: write.warn })
    expect(fresh.knowledgeProblems).toEqual([])
    const documents = await index.open(write.warn)
    const search = () => documents.search({ text: 'when are releases cut', mode: 'fulltext', limit: 5, filters: { kind: 'memory', consumer } })
    expect((await search()).map((hit) => hit.id)).toEqual([outcome.stored.record.id])
    expect(documents.getMany([outcome.stored.record.id]).map((doc) => doc.content)).toEqual(['Releases are cut from the trunk every Tuesday'])
    expect(documents.stats().documents).toBeGreaterThanOrEqual(1)
    expect(await index.embedPending({ warn: write.warn })).toEqual({ searchMode: 'fulltext', pendingEmbeddings: 0 })

    await opened.store.memories.delete(outcome.stored, write)
    await index.refresh({ identity: nobody, warn: write.warn })
    expect(await search()).toEqual([])
  })

  it('answers a knowledge status lookup for an id it does not know with undefined', async () => {
    const statusOf = await opened.store.index.knowledgeStatus(nobody, write.warn)
    expect(statusOf('adr-0001')).toBeUndefined()
  })
})
