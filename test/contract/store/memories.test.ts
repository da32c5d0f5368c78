import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { MkError } from '../../../src/errors.js'
import { folderForLayer } from '../../../src/memory/locations.js'
import type { StoredMemory } from '../../../src/memory/store.js'
import { memoryRecord, nobody, storeFactories, write, type OpenedStore } from './stores.js'

const alice = { agentId: 'alice', sessionId: undefined }
const bob = { agentId: 'bob', sessionId: undefined }

describe.each(storeFactories)('the $name store: memories and their history', (factory) => {
  let opened: OpenedStore
  beforeEach(async () => {
    opened = await factory.open()
  })
  afterEach(() => opened.close())

  const user = () => folderForLayer(opened.workspace, nobody, 'user')
  const project = () => folderForLayer(opened.workspace, nobody, 'project')
  const add = (folder = user(), content = 'The deploy script lives in scripts/deploy.sh') =>
    opened.store.memories.add(folder, memoryRecord(folder, content), { ...write, identity: nobody })
  const added = async (...args: Parameters<typeof add>): Promise<StoredMemory & { commit: string | undefined }> => {
    const outcome = await add(...args)
    if (outcome.deduplicated) throw new Error('expected a new memory')
    return { ...outcome.stored, commit: outcome.commit }
  }

  it('reads back what it added, by folder and by id, with the commit of a private write', async () => {
    const stored = await added()
    expect(stored.commit).toMatch(/^[0-9a-f]{40}$/)
    const { memories } = opened.store
    expect(await memories.ids(user())).toEqual([stored.record.id])
    const read = await memories.read(user(), stored.record.id)
    expect(read !== undefined && 'record' in read ? read.record.content : read).toBe('The deploy script lives in scripts/deploy.sh')
    expect((await memories.find(nobody, stored.record.id)).record.id).toBe(stored.record.id)
    expect(await memories.read(user(), 'mem_01J9Z8Q4T5V6W7X8Y9Z0A1B2C3')).toBeUndefined()
    expect(await memories.placeOf(stored)).toContain(stored.record.id)
  })

  it('stores the same content once per folder, and again in another folder', async () => {
    const first = await added()
    const again = await add()
    expect(again).toEqual({ deduplicated: true, id: first.record.id })
    const elsewhere = await add(project())
    expect(elsewhere.deduplicated).toBe(false)
    expect(await opened.store.memories.ids(user())).toEqual([first.record.id])
  })

  it('rewrites a memory and moves it to another tier, each as a commit', async () => {
    const stored = await added()
    const commit = await opened.store.memories.rewrite(user(), [{ ...stored.record, content: 'The deploy script is scripts/ship.sh' }], 'rewrite one', write)
    expect(commit).toMatch(/^[0-9a-f]{40}$/)
    expect((await opened.store.memories.find(nobody, stored.record.id)).record.content).toBe('The deploy script is scripts/ship.sh')
    const retiered = await opened.store.memories.retier(user(), [{ id: stored.record.id, tier: 'cold' }], 'decay one', write)
    expect(retiered).toMatch(/^[0-9a-f]{40}$/)
    expect(retiered).not.toBe(commit)
    expect((await opened.store.tiers.read(user())).get(stored.record.id)).toBe('cold')
    expect((await opened.store.memories.find(nobody, stored.record.id)).record.tier).toBe('cold')
  })

  it('deletes a memory with its text kept in the history, finds the deletion and restores it', async () => {
    const stored = await added()
    const { memories } = opened.store
    const deleted = await memories.delete(stored, write)
    expect(deleted).toMatch(/^[0-9a-f]{40}$/)
    await expect(memories.find(nobody, stored.record.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
    const deletion = await memories.findDeletion(stored.record.id)
    expect(deletion?.text).toContain('The deploy script lives in scripts/deploy.sh')
    expect(await memories.findDeletion('mem_01J9Z8Q4T5V6W7X8Y9Z0A1B2C3')).toBeUndefined()
    const restored = await memories.restore(nobody, stored.record.id, write)
    expect(restored.commit).toMatch(/^[0-9a-f]{40}$/)
    expect(restored.folder.key).toBe(user().key)
    expect((await memories.find(nobody, stored.record.id)).record.content).toBe(stored.record.content)
    await expect(memories.restore(nobody, stored.record.id, write)).rejects.toMatchObject({ code: 'CONFLICT' })
  })

  it("answers the refs of a folder's memories, and their new refs once a memory is rewritten", async () => {
    const folder = user()
    const outcome = await opened.store.memories.add(folder, memoryRecord(folder, 'Orders publish through the outbox', { refs: ['adr-0007'] }), {
      ...write,
      identity: nobody,
    })
    if (outcome.deduplicated) throw new Error('expected a new memory')
    const plain = await added(folder, 'The CI runners have two cores')
    // Says "refs" in its text, names none.
    const wordy = await added(folder, 'refs: the release refs are protected branches')
    const { memories } = opened.store
    const ids = [outcome.stored.record.id, plain.record.id, wordy.record.id, 'mem_01J9Z8Q4T5V6W7X8Y9Z0A1B2C3']
    expect(Object.fromEntries(await memories.refs(folder, ids))).toEqual({ [outcome.stored.record.id]: ['adr-0007'] })
    await memories.rewrite(folder, [{ ...outcome.stored.record, refs: ['adr-0009', 'src/outbox.ts'] }], 'point at the new decision', write)
    expect(Object.fromEntries(await memories.refs(folder, ids))).toEqual({ [outcome.stored.record.id]: ['adr-0009', 'src/outbox.ts'] })
  })

  it('answers a bad id as invalid input and an unknown one as not found', async () => {
    await expect(opened.store.memories.find(nobody, '../etc/passwd')).rejects.toBeInstanceOf(MkError)
    await expect(opened.store.memories.find(nobody, '../etc/passwd')).rejects.toMatchObject({ code: 'INVALID_INPUT' })
    await expect(opened.store.memories.restore(nobody, 'mem_01J9Z8Q4T5V6W7X8Y9Z0A1B2C3', write)).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })

  it('keeps a private memory of another agent out of reach', async () => {
    const folder = project()
    const outcome = await opened.store.memories.add(
      folder,
      memoryRecord(folder, 'Bob keeps the staging password rotation notes', { lane: 'private', ownerAgentId: 'bob' }),
      {
        ...write,
        identity: nobody,
      },
    )
    if (outcome.deduplicated) throw new Error('expected a new memory')
    const id = outcome.stored.record.id
    await expect(opened.store.memories.findVisible(alice, { agentId: 'alice', teamId: undefined }, id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
    expect((await opened.store.memories.findVisible(bob, { agentId: 'bob', teamId: undefined }, id)).record.id).toBe(id)
    const index = await opened.store.index.open(write.warn)
    await opened.store.index.refresh({ identity: alice, knowledge: false, warn: write.warn })
    const search = (agentId: string) =>
      index.search({ text: 'staging password rotation', mode: 'fulltext', limit: 10, filters: { kind: 'memory', consumer: { agentId, teamId: undefined } } })
    expect((await search('alice')).map((hit) => hit.id)).toEqual([])
    expect((await search('bob')).map((hit) => hit.id)).toEqual([id])
  })
})
