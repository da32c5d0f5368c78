import { describe, expect, it } from 'vitest'
import type { KnowledgeItem } from '../../../src/knowledge/model.js'
import { pageNames, relatedItems } from '../../../src/site/relations.js'

function item(id: string, path: string, body: string, supersedes: string[] = []): KnowledgeItem {
  const fields: Pick<KnowledgeItem, 'id' | 'path' | 'body' | 'supersedes' | 'supersededBy'> = { id, path, body, supersedes, supersededBy: [] }
  return fields as KnowledgeItem
}

describe('relatedItems', () => {
  it('relates items whose text names another by id or file name, both ways, leaving supersede links to their own relation', () => {
    const items = [
      item('0001-queue', 'doc/adr/0001-queue.md', 'We publish events.'),
      item('0002-money', 'doc/adr/0002-money.md', 'See [queue](0001-queue.md).'),
      item('0003-kafka', 'doc/adr/0003-kafka.md', 'Replaces 0001-queue; amounts as in 0002-money.', ['0001-queue']),
      item('0004-money-v2', 'doc/adr/0004-money-v2.md', 'Unrelated to 0002-moneyish things.'),
    ]
    expect(Object.fromEntries(relatedItems(items))).toEqual({
      '0001-queue': ['0002-money'],
      '0002-money': ['0001-queue', '0003-kafka'],
      '0003-kafka': ['0002-money'],
      '0004-money-v2': [],
    })
  })
})

describe('pageNames', () => {
  it('gives every item a safe, unique file name', () => {
    const names = pageNames([item('ADR 7: Use <Kafka>', 'a.md', ''), item('adr-7-use-kafka', 'b.md', ''), item('../../etc', 'c.md', ''), item('…', 'd.md', '')])
    expect([...names.values()]).toEqual(['adr-7-use-kafka.html', 'adr-7-use-kafka-2.html', 'etc.html', 'item.html'])
  })
})
