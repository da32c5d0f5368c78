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
    expect((await documents.getMany([outcome.stored.record.id])).map((doc) => doc.content)).toEqual(['Releases are cut from the trunk every Tuesday'])
    expect((await documents.stats()).documents).toBeGreaterThanOrEqual(1)
    expect(await index.embedPending({ warn: write.warn })).toEqual({ searchMode: 'fulltext', pendingEmbeddings: 0 })

    await opened.store.memories.delete(outcome.stored, write)
    await index.refresh({ identity: nobody, warn: write.warn })
    expect(await search()).toEqual([])
  })

  it('answers a knowledge status lookup for an id it does not know with undefined', async () => {
    const statusOf = await opened.store.index.knowledgeStatus(nobody, write.warn)
    expect(statusOf('adr-0001')).toBeUndefined()
  })

  it('reports its health, refills itself and keeps fresh through a knowledge delta', async () => {
    const { index } = opened.store
    expect(await index.health(write.warn)).toEqual({ state: 'missing' })
    const folder = folderForLayer(opened.workspace, nobody, 'project')
    await opened.store.memories.add(folder, memoryRecord(folder, 'Feature flags live in LaunchDarkly'), { ...write, identity: nobody })
    const refill = await index.update({ identity: nobody, warn: write.warn })
    expect(refill).toMatchObject({ read: 1, embedded: 0, knowledgeProblems: [] })
    expect(await index.health(write.warn)).toEqual({ state: 'current' })
    expect(index.where()).not.toBe('')

    const mark = await index.knowledgeMark()
    expect(mark).toBeDefined()
    expect(await index.applyKnowledge({ upsert: [], remove: [], mark: mark ?? '' }, write.warn)).toEqual({ upserted: 0, removed: 0, keptFresh: true })

    const rebuilt = await index.rebuild({ identity: nobody, warn: write.warn })
    expect(rebuilt.read).toBe(1)
    const hits = await (await index.open(write.warn)).search({ text: 'feature flags', mode: 'fulltext', limit: 5, filters: { kind: 'memory', consumer } })
    expect(hits).toHaveLength(1)
  })

  it('finds nothing to report in the shared layers of a fresh store', async () => {
    const folder = folderForLayer(opened.workspace, nobody, 'project')
    await opened.store.memories.add(folder, memoryRecord(folder, 'Lint sees this memory'), { ...write, identity: nobody })
    expect(await opened.store.memories.lint()).toEqual({ problems: [], read: 1 })
  })
})
