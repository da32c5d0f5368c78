import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { folderForLayer } from '../../../src/memory/locations.js'
import { author, memoryRecord, nobody, storeFactories, write, type OpenedStore } from './stores.js'

describe.each(storeFactories)('the $name store: the ledgers', (factory) => {
  let opened: OpenedStore
  beforeEach(async () => {
    opened = await factory.open()
  })
  afterEach(() => opened.close())

  const user = () => folderForLayer(opened.workspace, nobody, 'user')

  it('counts activations and their outcomes per memory', async () => {
    const folder = user()
    const outcome = await opened.store.memories.add(folder, memoryRecord(folder, 'Use pnpm, not npm, in the web app'), { ...write, identity: nobody })
    const id = outcome.deduplicated ? outcome.id : outcome.stored.record.id
    await opened.store.activations.append(folder, [
      { id, at: '2026-11-01T10:00:00.000Z', event: 'activate', outcome: 'positive' },
      { id, at: '2026-11-02T10:00:00.000Z', event: 'activate', outcome: 'negative', reason: 'outdated' },
      { id, at: '2026-11-03T10:00:00.000Z', event: 'rehydrate' },
    ])
    const counters = (await opened.store.activations.counters(folder)).get(id)
    expect(counters).toEqual({
      activations: 2,
      feedbackPositive: 1,
      feedbackNegative: 1,
      lastActivated: '2026-11-02T10:00:00.000Z',
      lastUseful: '2026-11-01T10:00:00.000Z',
      lastRehydrated: '2026-11-03T10:00:00.000Z',
    })
    expect((await opened.store.activations.counters(folderForLayer(opened.workspace, nobody, 'project'))).size).toBe(0)
  })

  it('keeps an empty tier table for a folder nothing moved', async () => {
    expect((await opened.store.tiers.read(user())).size).toBe(0)
  })

  it('appends recall receipts with the query hashed and reads those since a time', async () => {
    const { receipts } = opened.store
    const first = await receipts.receiptFor('where is the deploy script', 'alice', [{ id: 'mem_01J9Z8Q4T5V6W7X8Y9Z0A1B2C3', score: 0.9 }])
    expect(first.query_sha256).toMatch(/^[0-9a-f]{64}$/)
    expect(JSON.stringify(first)).not.toContain('deploy script')
    expect((await receipts.receiptFor('where is the deploy script', 'bob', [])).query_sha256).toBe(first.query_sha256)
    await receipts.append({ ...first, at: '2026-11-01T00:00:00.000Z' })
    await receipts.append({ ...first, at: '2026-11-05T00:00:00.000Z', agent_id: 'bob' })
    expect((await receipts.since(undefined)).map((receipt) => receipt.agent_id)).toEqual(['alice', 'bob'])
    expect((await receipts.since('2026-11-03T00:00:00.000Z')).map((receipt) => receipt.agent_id)).toEqual(['bob'])
  })

  it('records rule outcomes as a commit and counts them per rule', async () => {
    const event = { at: '2026-11-01T00:00:00.000Z', tool: 'bash', target: 'tool' as const, input_sha256: 'a'.repeat(64), context_sha256: 'b'.repeat(64) }
    const recorded = await opened.store.outcomes.record(
      [
        { ...event, rule_id: 'rule-no-force-push', outcome: 'positive' },
        { ...event, rule_id: 'rule-tests-first', outcome: 'negative' },
      ],
      author,
    )
    expect(recorded.commit).toMatch(/^[0-9a-f]{40}$/)
    await opened.store.outcomes.record([{ ...event, rule_id: 'rule-no-force-push', outcome: 'positive' }], author)
    await opened.store.outcomes.record([{ ...event, rule_id: 'rule-no-force-push', outcome: 'neutral' }], author)
    const stats = await opened.store.outcomes.stats()
    expect(Object.fromEntries(stats)).toEqual({ 'rule-no-force-push': { positive: 2, negative: 0 }, 'rule-tests-first': { positive: 0, negative: 1 } })
  })

  it('keeps graph entities as memories and relations appended and replaced', async () => {
    const folder = user()
    const { graph } = opened.store
    const reader = { identity: nobody, teamId: undefined, warn: write.warn }
    await graph.addEntity(folder, { name: 'Ada', entityType: 'person', observations: ['leads platform'] }, 'cli', write)
    await graph.addEntity(folder, { name: 'Platform', entityType: 'team', observations: [] }, 'cli', write)
    const entities = await graph.entities(folder, reader)
    expect(entities.map((stored) => stored.entity.name).sort()).toEqual(['Ada', 'Platform'])
    const ada = entities.find((stored) => stored.entity.name === 'Ada')
    if (ada === undefined) throw new Error('Ada is missing')
    const [saved] = await graph.saveEntities(
      folder,
      [{ record: ada.record, entity: { ...ada.entity, observations: ['leads platform', 'on call in December'] } }],
      'add observations',
      write,
    )
    expect(saved?.content).toContain('on call in December')
    expect((await graph.entities(folder, reader)).find((stored) => stored.entity.name === 'Ada')?.entity.observations).toEqual([
      'leads platform',
      'on call in December',
    ])

    await graph.appendRelations(folder, [
      { from: 'Ada', to: 'Platform', relationType: 'leads' },
      { from: 'Platform', to: 'Ada', relationType: 'is led by' },
    ])
    expect(await graph.relations(folder)).toHaveLength(2)
    await graph.replaceRelations(folder, (relation) => relation.relationType === 'leads')
    expect(await graph.relations(folder)).toEqual([{ from: 'Ada', to: 'Platform', relationType: 'leads' }])
  })
})
