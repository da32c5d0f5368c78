import { describe, expect, it } from 'vitest'
import { rankTools } from '../../../src/tools/catalog/rank-tools.js'
import { registeredTools } from '../../../src/tools/catalog/registered.js'

const tools = [
  { name: 'memory_search', title: 'Search memories', description: 'Find memories by meaning.' },
  { name: 'memory_delete', title: 'Delete a memory', description: 'Removes one memory; it can be restored.' },
  { name: 'sync_now', title: 'Sync knowledge sources', description: 'Bring every knowledge source up to date.' },
]

describe('rankTools', () => {
  it('ranks a word of the name above the same word in a description, and a rare word above a common one', () => {
    expect(rankTools(tools, 'delete memories').map((match) => match.tool.name)).toEqual(['memory_delete', 'memory_search'])
    expect(rankTools(tools, 'knowledge sync')[0]?.tool.name).toBe('sync_now')
  })

  it('finds a tool by its exact name first, and nothing for words no tool has', () => {
    expect(rankTools(tools, 'memory_search')[0]?.tool.name).toBe('memory_search')
    expect(rankTools(tools, 'kubernetes')).toEqual([])
    expect(rankTools(tools, '  ')).toEqual([])
  })

  it('finds the registered tools an agent asks for in its own words', async () => {
    const registered = await registeredTools()
    const best = (query: string) => rankTools(registered, query)[0]?.tool.name
    expect(best('sync knowledge sources')).toBe('sync_now')
    expect(best('delete a memory')).toBe('memory_delete')
    expect(best('rebuild the index')).toBe('index_rebuild')
  })
})
